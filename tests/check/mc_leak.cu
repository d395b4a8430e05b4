/* mc_leak — device memory never freed: one block per iteration of a loop that frees only
 * the last one. With --leak-check full memcheck lists each leaked block when the context
 * ends: at exit, or at cudaDeviceReset with "reset" (what is still allocated then leaks).
 *
 * Usage: mc_leak [reset]
 */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

int main(int argc, char **argv)
{
    float *buf = NULL;
    for (int i = 0; i < 3; i++)
        cudaMalloc(&buf, (i + 1) * 1000 * sizeof(float));   /* BUG: the earlier ones leak */
    cudaFree(buf);
    int *pinned;
    cudaMallocHost(&pinned, 64);                  /* pinned host memory is not device memory */
    if (argc > 1 && strcmp(argv[1], "reset") == 0) cudaDeviceReset();
    printf("done\n");
    return 0;
}
