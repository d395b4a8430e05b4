/* mc_leak — device memory never freed: one block per iteration of a loop that frees only
 * the last one. With --leak-check full memcheck lists each leaked block at exit.
 */
#include <cstdio>
#include <cuda_runtime.h>

int main(void)
{
    float *buf = NULL;
    for (int i = 0; i < 3; i++)
        cudaMalloc(&buf, (i + 1) * 1000 * sizeof(float));   /* BUG: the earlier ones leak */
    cudaFree(buf);
    int *pinned;
    cudaMallocHost(&pinned, 64);                  /* pinned host memory is not device memory */
    printf("done\n");
    return 0;
}
