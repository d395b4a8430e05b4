// Matrix multiplication: the naive kernel and the shared-memory tiled kernel of the CUDA
// programming guide (16x16 tiles, matrices whose sizes are not multiples of the tile),
// a double-precision version, and C = alpha*A*B + beta*C. Inputs are small integers so
// every product is exact and the host check is bit-exact.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define TILE 16

template <typename T>
__global__ void matmulNaive(const T *A, const T *B, T *C, int M, int N, int K)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < M && c < N) {
        T acc = 0;
        for (int k = 0; k < K; k++) acc += A[r * K + k] * B[k * N + c];
        C[r * N + c] = acc;
    }
}

template <typename T>
__global__ void matmulTiled(const T *A, const T *B, T *C, int M, int N, int K, T alpha, T beta)
{
    __shared__ T As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;
    T acc = 0;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        As[ty][tx] = (r < M && ka < K) ? A[r * K + ka] : T(0);
        Bs[ty][tx] = (kb < K && c < N) ? B[kb * N + c] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (r < M && c < N) C[r * N + c] = alpha * acc + beta * C[r * N + c];
}

template <typename T>
static int run(const char *name, int M, int N, int K)
{
    T *A = (T *)malloc(M * K * sizeof(T)), *B = (T *)malloc(K * N * sizeof(T)), *C = (T *)malloc(M * N * sizeof(T));
    T *ref = (T *)malloc(M * N * sizeof(T)), *C0 = (T *)malloc(M * N * sizeof(T));
    for (int i = 0; i < M * K; i++) A[i] = (T)((i * 7) % 11 - 5);
    for (int i = 0; i < K * N; i++) B[i] = (T)((i * 5) % 13 - 6);
    for (int i = 0; i < M * N; i++) C0[i] = (T)(i % 3);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            T acc = 0;
            for (int k = 0; k < K; k++) acc += A[r * K + k] * B[k * N + c];
            ref[r * N + c] = acc;
        }
    T *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, M * K * sizeof(T))); CHECK(cudaMalloc(&dB, K * N * sizeof(T))); CHECK(cudaMalloc(&dC, M * N * sizeof(T)));
    CHECK(cudaMemcpy(dA, A, M * K * sizeof(T), cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, B, K * N * sizeof(T), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    int bad = 0;
    matmulNaive<<<grid, block>>>(dA, dB, dC, M, N, K);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(C, dC, M * N * sizeof(T), cudaMemcpyDeviceToHost));
    double s1 = 0;
    for (int i = 0; i < M * N; i++) { if (C[i] != ref[i]) bad++; s1 += C[i]; }
    CHECK(cudaMemcpy(dC, C0, M * N * sizeof(T), cudaMemcpyHostToDevice));
    matmulTiled<<<grid, block>>>(dA, dB, dC, M, N, K, (T)2, (T)-3);
    CHECK(cudaMemcpy(C, dC, M * N * sizeof(T), cudaMemcpyDeviceToHost));
    double s2 = 0;
    for (int i = 0; i < M * N; i++) { if (C[i] != 2 * ref[i] - 3 * C0[i]) bad++; s2 += C[i]; }
    printf("%s %dx%dx%d: naive sum %.1f, tiled alpha=2 beta=-3 sum %.1f, C[0]=%g C[last]=%g %s\n", name, M, N, K, s1, s2,
           (double)C[0], (double)C[M * N - 1], bad ? "WRONG" : "ok");
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
    free(A); free(B); free(C); free(ref); free(C0);
    return bad;
}

int main()
{
    int bad = 0;
    bad += run<float>("float", 128, 128, 128);
    bad += run<float>("float", 100, 70, 33);
    bad += run<double>("double", 65, 129, 40);
    bad += run<int>("int", 31, 47, 200);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
