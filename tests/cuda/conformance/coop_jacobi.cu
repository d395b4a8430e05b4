// A persistent cooperative kernel: Jacobi iterations on a 1D Poisson problem, the whole
// grid stepping together with grid.sync() between sweeps and a grid-wide residual reduced
// through global memory; the grid is sized from the occupancy calculator as the
// Programming Guide recommends, launched with cudaLaunchCooperativeKernel.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void jacobi(double *u, double *v, const double *f, int n, int iters, double *res, int *ticks)
{
    cg::grid_group g = cg::this_grid();
    cg::thread_block b = cg::this_thread_block();
    __shared__ double part[256];
    for (int it = 0; it < iters; it++) {
        for (long long i = g.thread_rank(); i < n; i += g.size()) {
            double l = i > 0 ? u[i - 1] : 0.0, r = i < n - 1 ? u[i + 1] : 0.0;
            v[i] = 0.5 * (l + r + f[i]);
        }
        g.sync();
        double *t = u; u = v; v = t;
        if (it % 100 == 99) {
            double acc = 0;
            for (long long i = g.thread_rank(); i < n; i += g.size()) {
                double l = i > 0 ? u[i - 1] : 0.0, r = i < n - 1 ? u[i + 1] : 0.0;
                double d = 2 * u[i] - l - r - f[i];
                acc += d * d;
            }
            part[b.thread_rank()] = acc;
            b.sync();
            for (int k = b.size() / 2; k > 0; k >>= 1) {
                if (b.thread_rank() < k) part[b.thread_rank()] += part[b.thread_rank() + k];
                b.sync();
            }
            if (b.thread_rank() == 0) res[(it / 100) * gridDim.x + blockIdx.x] = part[0];
            if (g.thread_rank() == 0) atomicAdd(ticks, 1);
            g.sync();
        }
    }
}

int main()
{
    int dev = 0, coop = 0, sms = 0, perSm = 0;
    CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    printf("cooperative launch supported: %d\n", coop);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, jacobi, 256, 0));
    int blocks = 8;   // a small grid: fewer blocks than the device holds at once
    printf("blocks per SM for 256 threads: %s\n", perSm >= 1 ? "at least 1" : "none");
    const int n = 4096, iters = 500;
    double *u, *v, *f, *res;
    int *ticks;
    CK(cudaMalloc(&u, n * sizeof(double)));
    CK(cudaMalloc(&v, n * sizeof(double)));
    CK(cudaMalloc(&f, n * sizeof(double)));
    CK(cudaMalloc(&res, 5 * blocks * sizeof(double)));
    CK(cudaMalloc(&ticks, sizeof(int)));
    double *hf = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) hf[i] = (i > n / 4 && i < 3 * n / 4) ? 1e-3 : 0.0;
    CK(cudaMemcpy(f, hf, n * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemset(u, 0, n * sizeof(double)));
    CK(cudaMemset(v, 0, n * sizeof(double)));
    CK(cudaMemset(ticks, 0, sizeof(int)));
    int nn = n, it = iters;
    void *args[] = {&u, &v, &f, &nn, &it, &res, &ticks};
    CK(cudaLaunchCooperativeKernel((void *)jacobi, blocks, 256, args, 0, 0));
    CK(cudaDeviceSynchronize());
    double hres[5 * 8];
    int ht;
    CK(cudaMemcpy(hres, res, sizeof hres, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&ht, ticks, sizeof ht, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 5; k++) {
        double s = 0;
        for (int b = 0; b < blocks; b++) s += hres[k * blocks + b];
        printf("residual^2 after %3d sweeps: %.9e\n", (k + 1) * 100, s);
    }
    double *hu = (double *)malloc(n * sizeof(double));
    CK(cudaMemcpy(hu, iters % 2 ? v : u, n * sizeof(double), cudaMemcpyDeviceToHost));
    // the same sweeps on the host
    double *a = (double *)calloc(n, sizeof(double)), *c = (double *)calloc(n, sizeof(double));
    for (int k = 0; k < iters; k++) {
        for (int i = 0; i < n; i++) c[i] = 0.5 * ((i > 0 ? a[i - 1] : 0.0) + (i < n - 1 ? a[i + 1] : 0.0) + hf[i]);
        double *t = a; a = c; c = t;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hu[i] != a[i];
    printf("u[n/2]=%.12e u[n/8]=%.12e ticks=%d mismatches=%d\n", hu[n / 2], hu[n / 8], ht, bad);
    void *tooMany[] = {&u, &v, &f, &nn, &it, &res, &ticks};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)jacobi, sms * perSm + 1, 256, tooMany, 0, 0);
    printf("one block more than fits: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    printf("%s\n", bad == 0 && ht == 5 ? "PASS" : "FAIL");
    return bad != 0;
}
