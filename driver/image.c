/* driver/image.c — the images the driver is handed: telling PTX text from a fatbin, a
 * fatbin wrapper, a cubin (ELF: machine code only) and the linked images cuLinkComplete
 * makes, and the layout of those linked images.
 *
 * A linked image is vcuda's own: the magic "VCUDALNK", a u64 count, count u64 sizes, then
 * each input's fatbin container (8-byte aligned). cuModuleLoadData links its parts
 * into one program when it loads it, as the runtime links -rdc objects.
 */
#include "drv.h"

#include <stdlib.h>
#include <string.h>

static const char drv_linked_magic[8] = {'V', 'C', 'U', 'D', 'A', 'L', 'N', 'K'};

drv_image_kind drv_image_classify(const void *data) {
    const uint8_t *p = data;
    uint32_t m = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    if (m == 0x466243b1u) return DRV_IMAGE_WRAPPER;
    if (m == 0xBA55ED50u) return DRV_IMAGE_FATBIN;
    if (memcmp(p, "\x7f" "ELF", 4) == 0) return DRV_IMAGE_ELF;
    if (memcmp(p, drv_linked_magic, sizeof drv_linked_magic) == 0) return DRV_IMAGE_LINKED;
    return DRV_IMAGE_PTX;
}

static size_t drv_align8(size_t v) { return (v + 7) & ~(size_t)7; }

uint8_t *drv_image_linked(uint8_t *const *parts, const size_t *sizes, size_t n, size_t *size) {
    size_t total = 16 + 8 * n;
    for (size_t i = 0; i < n; i++) total += drv_align8(sizes[i]);
    uint8_t *b = calloc(1, total);
    if (!b) return NULL;
    memcpy(b, drv_linked_magic, 8);
    uint64_t count = n;
    memcpy(b + 8, &count, 8);
    size_t off = 16 + 8 * n;
    for (size_t i = 0; i < n; i++) {
        uint64_t s = sizes[i];
        memcpy(b + 16 + 8 * i, &s, 8);
        memcpy(b + off, parts[i], sizes[i]);
        off += drv_align8(sizes[i]);
    }
    *size = total;
    return b;
}

long drv_image_linked_parts(const uint8_t *image, const uint8_t ***parts, size_t **sizes) {
    uint64_t n;
    memcpy(&n, image + 8, 8);
    if (n == 0 || n > 4096) return -1;
    const uint8_t **p = calloc(n, sizeof *p);
    size_t *s = calloc(n, sizeof *s);
    if (!p || !s) {
        free(p);
        free(s);
        return -1;
    }
    size_t off = 16 + 8 * n;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v;
        memcpy(&v, image + 16 + 8 * i, 8);
        if (v < 16 || v > (1ull << 31)) { /* not a container's size: not our image */
            free(p);
            free(s);
            return -1;
        }
        p[i] = image + off;
        s[i] = (size_t)v;
        off += drv_align8((size_t)v);
    }
    *parts = p;
    *sizes = s;
    return (long)n;
}
