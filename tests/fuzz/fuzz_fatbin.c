/* tests/fuzz/fuzz_fatbin.c — fuzz target: the fatbin container nvcc embeds in a program.
 *
 * Walks the containers and their entries, decompresses each entry (zstd, LZ4 or raw) and
 * picks the PTX for an sm_90 device, as a program's start-up does; a malformed image must
 * give cudaErrorInvalidKernelImage (or NoKernelImageForDevice) with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ENTRIES = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512];
    /* The reader expects 8-byte aligned images, as the linker places them. */
    uint8_t *img = aligned_alloc(8, (size + 7) & ~(size_t)7);
    if (!img) return 0;
    memcpy(img, data, size);

    if (size >= 16) {
        err[0] = 0;
        size_t whole = rt_fatbin_image_size(img, err, sizeof err);
        if (!whole && !err[0]) abort();
    }
    rt_fatbin_entry entries[MAX_ENTRIES];
    err[0] = 0;
    int n = rt_fatbin_entries(img, size, entries, MAX_ENTRIES, err, sizeof err);
    if (n < 0 && !err[0]) abort();
    for (int i = 0; i < n && i < MAX_ENTRIES; i++) {
        size_t len = 0;
        err[0] = 0;
        char *text = rt_fatbin_entry_text(&entries[i], &len, err, sizeof err);
        if (text) free(text);
        else if (!err[0]) abort();
    }
    uint32_t arch = 0;
    cudaError_t code = cudaSuccess;
    err[0] = 0;
    char *ptx = rt_fatbin_select_ptx(img, size, 90, &arch, &code, err, sizeof err);
    if (ptx) {
        free(ptx);
    } else if (!err[0] || (code != cudaErrorInvalidKernelImage &&
                           code != cudaErrorNoKernelImageForDevice)) {
        abort();
    }
    free(img);
    return 0;
}
