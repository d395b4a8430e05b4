/* devLibMain — relocatable device code whose callees live in a static library of device
 * functions (devLibFns.cu, archived alone): a kernel calls them directly and through a
 * table of function pointers initialised in this translation unit with the library's
 * addresses, and reads and writes the library's __device__ variable. The library's
 * object has no host symbol anyone uses, so only a device link that looks into the
 * archive gives the program its code.
 */
#include <cstdio>

extern __device__ int devLibBias;
extern __device__ int devLibTriple(int x);
extern __device__ int devLibSquare(int x);

typedef int (*devOp)(int);
__device__ devOp devOps[2] = {devLibTriple, devLibSquare};

__global__ void apply(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    devOp op = devOps[i & 1];
    out[i] = op(i) + devLibTriple(i / 2);
}

__global__ void rebias(int b) { devLibBias = b; }

int main()
{
    const int n = 12;
    int *d, h[n];
    cudaMalloc(&d, n * sizeof(int));
    for (int round = 0; round < 2; round++) {
        apply<<<3, 4>>>(d, n);
        cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("round %d: %s\n", round, cudaGetErrorString(e));
        for (int i = 0; i < n; i++) printf("%d%c", h[i], i + 1 < n ? ' ' : '\n');
        rebias<<<1, 1>>>(-2);
    }
    int bias = 0;
    cudaMemcpyFromSymbol(&bias, devLibBias, sizeof bias);
    devOp ops[2];
    cudaError_t e = cudaMemcpyFromSymbol(ops, devOps, sizeof ops);
    printf("bias %d, table %s, entries %s\n", bias, cudaGetErrorString(e),
           ops[0] && ops[1] && ops[0] != ops[1] ? "distinct" : "bad");
    cudaFree(d);
    return 0;
}
