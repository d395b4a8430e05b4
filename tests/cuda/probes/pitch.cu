/* pitch.cu — the pitch cudaMallocPitch chooses for various widths. */
#include "probe.h"

int main() {
    const size_t widths[] = {0, 1, 4, 31, 32, 100, 128, 255, 256, 257, 511, 512, 513, 1000, 1024,
                             1025, 2047, 2048, 4096, 5000, 65536, 100000, 1u << 20};
    const size_t heights[] = {1, 7};
    for (size_t h : heights)
        for (size_t w : widths) {
            void *p = nullptr; size_t pitch = 12345;
            cudaError_t e = cudaMallocPitch(&p, &pitch, w, h);
            printf("width %zu height %zu: %s pitch %zu ptr %s\n", w, h, en(e), pitch,
                   p ? "non-null" : "null");
            if (p) cudaFree(p);
        }
    void *p = nullptr; size_t pitch = 0;
    SHOW("height 0", cudaMallocPitch(&p, &pitch, 100, 0));
    printf("pitch %zu ptr %s\n", pitch, p ? "non-null" : "null");
    SHOW("NULL pitch", cudaMallocPitch(&p, nullptr, 100, 1));
    SHOW("NULL ptr", cudaMallocPitch(nullptr, &pitch, 100, 1));
    SHOW("huge", cudaMallocPitch(&p, &pitch, 1ull << 40, 1ull << 20));
    SHOW_LAST("  last");
    return 0;
}
