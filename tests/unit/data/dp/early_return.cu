/* An early return of one thread before a __syncthreads the others reach (the leaf of the
 * seed's gpuRecursiveReduce); PTX for tests/unit/test_exec_early_return.c:
 *   nvcc -arch=sm_80 -ptx early_return.cu -o early_return.ptx
 */
__global__ void early(int *out, int n)
{
    if (threadIdx.x == 0 && n == 2) {
        out[0] = out[1] + 7;
        return;
    }
    out[threadIdx.x + 32] = 1;
    __syncthreads();
    out[threadIdx.x + 64] = out[(threadIdx.x + 1) % blockDim.x + 32] + 1;
}
