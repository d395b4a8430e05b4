/* deviceQuery — list every CUDA device with its basic capabilities.
 *
 * The classic enumeration loop: for each device, its compute
 * capability, name, global/shared/constant memory, registers per block, warp size and
 * the largest block. Sizes are printed as plain byte counts.
 *
 * Usage: deviceQuery
 */
#include "common.h"

int main(void)
{
    int deviceCount = 0;
    CHECK(cudaGetDeviceCount(&deviceCount));
    printf("Found %d devices\n", deviceCount);

    for (int device = 0; device < deviceCount; device++) {
        cudaDeviceProp prop;
        CHECK(cudaGetDeviceProperties(&prop, device));
        printf("Device %d\n", device);
        printf("Compute capability     : %d.%d\n", prop.major, prop.minor);
        printf("Name                   : %s\n", prop.name);
        printf("Total Global Memory    : %llu\n", (unsigned long long)prop.totalGlobalMem);
        printf("Shared memory per block: %llu\n", (unsigned long long)prop.sharedMemPerBlock);
        printf("Registers per block    : %d\n", prop.regsPerBlock);
        printf("Warp size              : %d\n", prop.warpSize);
        printf("Max threads per block  : %d\n", prop.maxThreadsPerBlock);
        printf("Total constant memory  : %llu\n", (unsigned long long)prop.totalConstMem);
        printf("Multiprocessors        : %d\n", prop.multiProcessorCount);
    }
    return deviceCount > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
