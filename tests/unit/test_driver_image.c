/* tests/unit/test_driver_image.c — the driver layer's pieces that need no device: the
 * fatbin it writes around PTX text (read back by the runtime's fatbin reader), the PTX
 * target it finds, telling images apart, the linked images cuLinkComplete makes, the
 * CUresult a runtime error becomes, and the error names and strings from cuda.h's table. */
#include "driver/drv.h"
#include "driver/fatbin_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static const char ptx_a[] = ".version 8.0\n.target sm_80\n.address_size 64\n// a\n";
static const char ptx_b[] = ".version 7.0\n.target  sm_70, debug\n.address_size 64\n// bb\n";

static void test_fatbin_round_trip(void) {
    size_t size = 0;
    uint8_t *img = drv_fatbin_from_ptx(ptx_a, strlen(ptx_a), 80, &size);
    CHECK(img && size % 8 == 0);
    char err[256] = "";
    CHECK(rt_fatbin_image_size(img, err, sizeof err) == size);
    rt_fatbin_entry e[4];
    CHECK(rt_fatbin_entries(img, size, e, 4, err, sizeof err) == 1);
    CHECK(e[0].kind == RT_FATBIN_PTX && e[0].arch == 80 && e[0].compression == RT_FATBIN_RAW);
    uint32_t arch = 0;
    cudaError_t code;
    char *text = rt_fatbin_select_ptx(img, size, 90, &arch, &code, err, sizeof err);
    CHECK(text && code == cudaSuccess && arch == 80 && strcmp(text, ptx_a) == 0);
    free(text);
    CHECK(drv_image_classify(img) == DRV_IMAGE_FATBIN);
    free(img);
}

static void test_targets_and_kinds(void) {
    CHECK(drv_fatbin_ptx_target(ptx_a, strlen(ptx_a)) == 80);
    CHECK(drv_fatbin_ptx_target(ptx_b, strlen(ptx_b)) == 70);
    CHECK(drv_fatbin_ptx_target(".version 1.4\n.target sm_10, map_f64_to_f32\n", 40) == 10);
    CHECK(drv_fatbin_ptx_target(".version 8.0\n", 13) == 0);
    CHECK(drv_image_classify(ptx_a) == DRV_IMAGE_PTX);
    CHECK(drv_image_classify("\x7f" "ELF\2\1\1") == DRV_IMAGE_ELF);
    uint32_t wrapper[4] = {0x466243b1u, 1, 0, 0};
    CHECK(drv_image_classify(wrapper) == DRV_IMAGE_WRAPPER);
}

static void test_linked_image(void) {
    size_t sa, sb;
    uint8_t *parts[2] = {drv_fatbin_from_ptx(ptx_a, strlen(ptx_a), 80, &sa),
                         drv_fatbin_from_ptx(ptx_b, strlen(ptx_b), 70, &sb)};
    size_t sizes[2] = {sa, sb}, total = 0;
    uint8_t *img = drv_image_linked(parts, sizes, 2, &total);
    CHECK(img && drv_image_classify(img) == DRV_IMAGE_LINKED);
    const uint8_t **got;
    size_t *got_sizes;
    CHECK(drv_image_linked_parts(img, &got, &got_sizes) == 2);
    CHECK(got_sizes[0] == sa && got_sizes[1] == sb);
    CHECK(memcmp(got[0], parts[0], sa) == 0 && memcmp(got[1], parts[1], sb) == 0);
    CHECK((size_t)(got[1] - img) + sb <= total);
    free(got);
    free(got_sizes);
    /* a part whose size cannot be a container's is refused, not followed */
    uint64_t bogus = 1ull << 40;
    memcpy(img + 16, &bogus, 8);
    CHECK(drv_image_linked_parts(img, &got, &got_sizes) == -1);
    free(img);
    free(parts[0]);
    free(parts[1]);
}

static void test_errors(void) {
    CHECK(drv_from_rt(cudaSuccess) == CUDA_SUCCESS);
    CHECK(drv_from_rt(cudaErrorInvalidValue) == CUDA_ERROR_INVALID_VALUE);
    CHECK(drv_from_rt(cudaErrorMemoryAllocation) == CUDA_ERROR_OUT_OF_MEMORY);
    CHECK(drv_from_rt(cudaErrorInvalidResourceHandle) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(drv_from_rt(cudaErrorInvalidDeviceFunction) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(drv_from_rt(cudaErrorInvalidSymbol) == CUDA_ERROR_NOT_FOUND);
    CHECK(drv_from_rt(cudaErrorInvalidDevicePointer) == CUDA_ERROR_INVALID_VALUE);
    CHECK(drv_from_rt(cudaErrorIllegalAddress) == CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK(drv_from_rt(cudaErrorInvalidPtx) == CUDA_ERROR_INVALID_PTX);
    CHECK(drv_from_rt(cudaErrorNoKernelImageForDevice) == CUDA_ERROR_NO_BINARY_FOR_GPU);
    const char *s = NULL;
    CHECK(cuGetErrorName(CUDA_ERROR_INVALID_CONTEXT, &s) == CUDA_SUCCESS &&
          strcmp(s, "CUDA_ERROR_INVALID_CONTEXT") == 0);
    CHECK(cuGetErrorString(CUDA_ERROR_INVALID_CONTEXT, &s) == CUDA_SUCCESS &&
          strcmp(s, "invalid device context") == 0);
    CHECK(cuGetErrorString(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, &s) == CUDA_SUCCESS &&
          strcmp(s, "context already current") == 0);
    CHECK(cuGetErrorName((CUresult)12345, &s) == CUDA_ERROR_INVALID_VALUE && s == NULL);
    CHECK(cuGetErrorString(CUDA_SUCCESS, NULL) == CUDA_ERROR_INVALID_VALUE);
    /* every code cuda.h names has a name and a message */
    for (int code = 0; code < 1000; code++) {
        const char *name = NULL, *msg = NULL;
        if (cuGetErrorName((CUresult)code, &name) != CUDA_SUCCESS) continue;
        CHECK(strncmp(name, "CUDA_", 5) == 0);
        CHECK((cuGetErrorString((CUresult)code, &msg) == CUDA_SUCCESS && msg &&
               strcmp(msg, "unknown error") != 0) ||
              code == CUDA_ERROR_UNKNOWN);
    }
}

int main(void) {
    test_fatbin_round_trip();
    test_targets_and_kinds();
    test_linked_image();
    test_errors();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_driver_image: all checks passed\n");
    return 0;
}
