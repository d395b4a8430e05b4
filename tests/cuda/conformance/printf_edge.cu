// Corners of device printf, one launch per line: %p (null and not), '%' with a width, more
// flag combinations, an unknown conversion (printed as written, consuming no argument),
// %lf/%le, and a null %s. (The H100's device printf misreads its arguments after a
// precision given as an argument, '%.*f', and after the 'hh' and 'z' length modifiers:
// garbage that changed from run to run, so those are not tested.)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void line(int k)
{
    switch (k) {
    case 4: printf("E [%p] [%p]\n", (void *)0, (void *)0x1234abcd); break;
    case 5: printf("F [%5%] [%d]\n", 7); break;
    case 6: printf("G [%-3c] [%+.2e] [%#.0f] [%#g] [%08.3f] [% 05d] [%+5d] [%-+6d]\n", 'q', 12345.678, 3.0, 1.5, -2.5, 7, 3, 4); break;
    case 7: printf("H %d %k %d\n", 1, 2); break;
    case 8: printf("I [%lf] [%5.1lf] [%le]\n", 1.5, 2.25, 3.5); break;
    case 9: printf("J [%c%c] [%3d%%] [%.0e] [%G]\n", 'o', 'k', 99, 1e-7, 1e-20); break;
    case 10: printf("K [%s]\n", (const char *)0); break;
    }
}

int main()
{
    for (int k = 4; k <= 10; k++) {
        line<<<1, 1>>>(k);
        cudaError_t e = cudaDeviceSynchronize();
        printf("host: line %d -> %s\n", k, cudaGetErrorName(e));
        fflush(stdout);
        if (e != cudaSuccess) return 1;
    }
    return 0;
}
