// Sparse matrix-vector products in CSR, the two kernels of Bell and Garland: one thread a
// row (scalar) and one warp a row (vector, shuffle reduction), in double; a 2D Laplacian
// and an irregular random matrix, checked against the host, and a power iteration that
// uses the vector kernel.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void spmvScalar(int rows, const int *rp, const int *ci, const double *v, const double *x, double *y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double s = 0;
        for (int k = rp[r]; k < rp[r + 1]; k++) s += v[k] * x[ci[k]];
        y[r] = s;
    }
}

__global__ void spmvVector(int rows, const int *rp, const int *ci, const double *v, const double *x, double *y)
{
    int lane = threadIdx.x & 31;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (r >= rows) return;   // whole warps leave together
    double s = 0;
    for (int k = rp[r] + lane; k < rp[r + 1]; k += 32) s += v[k] * __ldg(&x[ci[k]]);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) y[r] = s;
}

__global__ void dotNorm(const double *a, int n, double *out)
{
    __shared__ double sh[256];
    double s = 0;
    for (int i = threadIdx.x; i < n; i += 256) s += a[i] * a[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = sqrt(sh[0]);
}

__global__ void scaleBy(double *a, int n, const double *norm)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] /= *norm;
}

struct Csr { int rows; std::vector<int> rp, ci; std::vector<double> v; };

static Csr laplacian(int m)
{
    Csr A; A.rows = m * m; A.rp.push_back(0);
    for (int y = 0; y < m; y++)
        for (int x = 0; x < m; x++) {
            int r = y * m + x;
            if (y > 0) { A.ci.push_back(r - m); A.v.push_back(-1); }
            if (x > 0) { A.ci.push_back(r - 1); A.v.push_back(-1); }
            A.ci.push_back(r); A.v.push_back(4);
            if (x < m - 1) { A.ci.push_back(r + 1); A.v.push_back(-1); }
            if (y < m - 1) { A.ci.push_back(r + m); A.v.push_back(-1); }
            A.rp.push_back((int)A.ci.size());
        }
    return A;
}

static Csr irregular(int rows)
{
    Csr A; A.rows = rows; A.rp.push_back(0);
    unsigned s = 99;
    for (int r = 0; r < rows; r++) {
        int len = r % 50 == 0 ? 300 : (r % 7);
        int c = 0;
        for (int k = 0; k < len; k++) {
            s = s * 1664525u + 1013904223u;
            c = (c + 1 + (s >> 24) % 5) % rows;
            A.ci.push_back(c);
            A.v.push_back((double)((s >> 8) % 2001) / 1000.0 - 1.0);
        }
        A.rp.push_back((int)A.ci.size());
    }
    return A;
}

static void run(const char *name, const Csr &A)
{
    int n = A.rows, nnz = (int)A.ci.size();
    int *rp, *ci; double *v, *x, *y1, *y2;
    CK(cudaMalloc(&rp, (n + 1) * 4)); CK(cudaMalloc(&ci, nnz * 4));
    CK(cudaMalloc(&v, nnz * 8)); CK(cudaMalloc(&x, n * 8));
    CK(cudaMalloc(&y1, n * 8)); CK(cudaMalloc(&y2, n * 8));
    std::vector<double> hx(n), r1(n), r2(n), ref(n);
    for (int i = 0; i < n; i++) hx[i] = 1.0 + (i % 13) * 0.125;
    CK(cudaMemcpy(rp, A.rp.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ci, A.ci.data(), nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(v, A.v.data(), nnz * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(x, hx.data(), n * 8, cudaMemcpyHostToDevice));
    spmvScalar<<<(n + 127) / 128, 128>>>(n, rp, ci, v, x, y1);
    spmvVector<<<(n * 32 + 127) / 128, 128>>>(n, rp, ci, v, x, y2);
    CK(cudaGetLastError());
    CK(cudaMemcpy(r1.data(), y1, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r2.data(), y2, n * 8, cudaMemcpyDeviceToHost));
    double e1 = 0, e2 = 0, s1 = 0, s2 = 0;
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int k = A.rp[r]; k < A.rp[r + 1]; k++) s += A.v[k] * hx[A.ci[k]];
        e1 = fmax(e1, fabs(s - r1[r]));
        e2 = fmax(e2, fabs(s - r2[r]));
        s1 += r1[r]; s2 += r2[r];
    }
    printf("%s: %d rows, %d nonzeros; scalar sum %.15g (max err %.3g), vector sum %.15g (max err %.3g)\n",
           name, n, nnz, s1, e1, s2, e2);
    printf("  y[0]=%.17g y[n/2]=%.17g y[n-1]=%.17g (vector: %.17g %.17g %.17g)\n", r1[0], r1[n / 2], r1[n - 1],
           r2[0], r2[n / 2], r2[n - 1]);
    // power iteration with the vector kernel
    double *norm, hn = 0;
    CK(cudaMalloc(&norm, 8));
    for (int it = 0; it < 30; it++) {
        spmvVector<<<(n * 32 + 127) / 128, 128>>>(n, rp, ci, v, x, y1);
        dotNorm<<<1, 256>>>(y1, n, norm);
        scaleBy<<<(n + 127) / 128, 128>>>(y1, n, norm);
        std::swap(x, y1);
    }
    CK(cudaMemcpy(&hn, norm, 8, cudaMemcpyDeviceToHost));
    printf("  power iteration: |Ax| after 30 steps %.15g\n", hn);
    cudaFree(rp); cudaFree(ci); cudaFree(v); cudaFree(x); cudaFree(y1); cudaFree(y2); cudaFree(norm);
}

int main()
{
    run("laplacian 64x64", laplacian(64));
    run("irregular", irregular(3000));
    return 0;
}
