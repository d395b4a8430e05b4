/* tests/driver/attributes.c — every CU_DEVICE_ATTRIBUTE_* the driver knows (1 to 159, the
 * codes it refuses included), as cuDeviceGetAttribute answers them.
 * expected/attributes.out was printed by an H200, whose memory clock, bus width, L2 size,
 * persisting-L2 limit and PCI ids differ from an H100's (expected/attributes.mask). */
#include <cuda.h>
#include <stdio.h>

int main(void) {
    if (cuInit(0) != CUDA_SUCCESS) return 1;
    for (int a = 1; a < 160; a++) {
        int v = 0;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0);
        printf("attr %d: %d (%d)\n", a, v, (int)r);
    }
    return 0;
}
