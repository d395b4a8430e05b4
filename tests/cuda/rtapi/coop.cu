// coop.cu — cooperative launches and grid-wide synchronisation: a single-pass multi-block
// reduction with grid.sync(), a grid that synchronises in a loop, the grid group's
// numbering, the cooperative attribute of cudaLaunchKernelEx, and the launch that is too
// large to be co-resident (cudaErrorCooperativeLaunchTooLarge). Every result is compared
// with the host's own computation; what is printed is the same on every run.
#include <cooperative_groups.h>
#include "../streams/streams_test.h"

namespace cg = cooperative_groups;

#define THREADS 256

// Block sums into partial[], then block 0 adds the partial sums once every block has
// written its own: one pass, one launch.
__global__ void reduce_single_pass(const int *in, int n, int *partial, long long *out) {
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[THREADS];
    int sum = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        sum += in[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        long long total = 0;
        for (unsigned i = 0; i < grid.num_blocks(); i++) total += partial[i];
        *out = total;
    }
}

// steps rounds of a three-point stencil over a ring, ping-ponging between a and b, with a
// grid-wide barrier between rounds (every block reads what its neighbours wrote).
__global__ void stencil_loop(int *a, int *b, int n, int steps) {
    cg::grid_group grid = cg::this_grid();
    for (int s = 0; s < steps; s++) {
        const int *src = (s & 1) ? b : a;
        int *dst = (s & 1) ? a : b;
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
             i += grid.size()) {
            int l = src[(i + n - 1) % n], c = src[i], r = src[(i + 1) % n];
            dst[i] = (l + 2 * c + r + s) % 1000003;
        }
        grid.sync();
    }
}

// What the grid group says about each thread.
__global__ void numbering(unsigned long long *rank, unsigned *info) {
    cg::grid_group grid = cg::this_grid();
    unsigned long long t = grid.thread_rank();
    rank[t] = t;
    if (t == 0) {
        info[0] = grid.is_valid();
        info[1] = grid.num_blocks();
        info[2] = (unsigned)grid.num_threads();
        info[3] = grid.dim_blocks().x * 1000 + grid.dim_blocks().y;
    }
    if (threadIdx.x == 0) info[4 + grid.block_rank()] = blockIdx.y * gridDim.x + blockIdx.x;
}

// is_valid() outside a cooperative launch.
__global__ void validity(unsigned *v) { *v = cg::this_grid().is_valid(); }

int main() {
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    OK(cudaGetDevice(&dev));
    OK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    printf("cooperative launch supported: %d\n", coop);
    OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_single_pass, THREADS, 0));
    printf("info %d blocks of %d threads per SM, %d SMs\n", per_sm, THREADS, sms);
    EXPECT(per_sm >= 2);
    int blocks = 2 * sms;  // co-resident on any device that holds two such blocks per SM

    // single-pass reduction
    const int n = 1 << 20;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (int)((i * 2654435761u) % 2001) - 1000;
        want += h[i];
    }
    int *d_in, *d_partial;
    long long *d_out, got = 0;
    OK(cudaMalloc(&d_in, n * sizeof(int)));
    OK(cudaMalloc(&d_partial, per_sm * sms * sizeof(int)));
    OK(cudaMalloc(&d_out, sizeof(long long)));
    OK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n;
    void *args[] = {&d_in, &nn, &d_partial, &d_out};
    SHOW("cudaLaunchCooperativeKernel reduce",
         cudaLaunchCooperativeKernel((void *)reduce_single_pass, blocks, THREADS, args, 0, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    printf("reduction of %d ints: %lld (host %lld) %s\n", n, got, want,
           got == want ? "match" : "MISMATCH");

    // the same through cudaLaunchKernelEx with the cooperative attribute
    OK(cudaMemset(d_out, 0, sizeof(long long)));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(THREADS);
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    SHOW("cudaLaunchKernelEx cooperative",
         cudaLaunchKernelEx(&cfg, reduce_single_pass, (const int *)d_in, nn, d_partial, d_out));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    printf("reduction through cudaLaunchKernelEx: %s\n", got == want ? "match" : "MISMATCH");

    // a grid synchronising in a loop
    const int m = 50000, steps = 24;
    int *ha = (int *)malloc(m * sizeof(int)), *hb = (int *)malloc(m * sizeof(int));
    for (int i = 0; i < m; i++) ha[i] = (i * 7919) % 1009;
    int *da, *db;
    OK(cudaMalloc(&da, m * sizeof(int)));
    OK(cudaMalloc(&db, m * sizeof(int)));
    OK(cudaMemcpy(da, ha, m * sizeof(int), cudaMemcpyHostToDevice));
    int mm = m, ss = steps;
    void *args2[] = {&da, &db, &mm, &ss};
    SHOW("cudaLaunchCooperativeKernel stencil",
         cudaLaunchCooperativeKernel((void *)stencil_loop, blocks, THREADS, args2, 0, 0));
    OK(cudaDeviceSynchronize());
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < m; i++)
            hb[i] = (ha[(i + m - 1) % m] + 2 * ha[i] + ha[(i + 1) % m] + s) % 1000003;
        int *t = ha; ha = hb; hb = t;
    }
    int *res = (int *)malloc(m * sizeof(int));
    OK(cudaMemcpy(res, (steps & 1) ? db : da, m * sizeof(int), cudaMemcpyDeviceToHost));
    long long checksum = 0;
    int bad = 0;
    for (int i = 0; i < m; i++) {
        checksum += res[i];
        bad += res[i] != ha[i];
    }
    printf("stencil: %d rounds with grid.sync(), checksum %lld, %d differences from the host\n",
           steps, checksum, bad);

    // the grid group's numbering, on a 2D grid
    dim3 g2(3, 2), b2(64);
    unsigned long long *d_rank;
    unsigned *d_info, info[10];
    OK(cudaMalloc(&d_rank, 6 * 64 * sizeof(unsigned long long)));
    OK(cudaMalloc(&d_info, sizeof info));
    void *args3[] = {&d_rank, &d_info};
    SHOW("cudaLaunchCooperativeKernel numbering",
         cudaLaunchCooperativeKernel((void *)numbering, g2, b2, args3, 0, 0));
    OK(cudaDeviceSynchronize());
    unsigned long long ranks[6 * 64];
    OK(cudaMemcpy(ranks, d_rank, sizeof ranks, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(info, d_info, sizeof info, cudaMemcpyDeviceToHost));
    int in_order = 1;
    for (int i = 0; i < 6 * 64; i++) in_order &= ranks[i] == (unsigned long long)i;
    printf("grid group: is_valid %u, num_blocks %u, num_threads %u, dim_blocks %u, ranks %s,"
           " block ranks %u %u %u %u %u %u\n",
           info[0], info[1], info[2], info[3], in_order ? "in order" : "WRONG", info[4],
           info[5], info[6], info[7], info[8], info[9]);

    // outside a cooperative launch the grid group is not valid
    OK(cudaMemset(d_info, 0xff, sizeof(unsigned)));
    validity<<<1, 1>>>(d_info);
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(info, d_info, sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("is_valid in a <<<>>> launch: %u\n", info[0]);

    // too large to be co-resident
    int fit = per_sm * sms;
    SHOW("cooperative grid of every block that fits",
         cudaLaunchCooperativeKernel((void *)reduce_single_pass, fit, THREADS, args, 0, 0));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    printf("reduction on the largest grid: %s\n", got == want ? "match" : "MISMATCH");
    SHOW("cooperative grid of one block more",
         cudaLaunchCooperativeKernel((void *)reduce_single_pass, fit + 1, THREADS, args, 0, 0));
    SHOW("cudaGetLastError", cudaGetLastError());
    SHOW("cudaGetLastError again", cudaGetLastError());
    cfg.gridDim = dim3(fit + 1);
    SHOW("cudaLaunchKernelEx cooperative, one block more",
         cudaLaunchKernelEx(&cfg, reduce_single_pass, (const int *)d_in, nn, d_partial, d_out));
    SHOW("cudaGetLastError", cudaGetLastError());
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    return 0;
}
