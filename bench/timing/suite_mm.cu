// bench/timing/suite_mm.cu — the timing suite's managed-memory cases, timed with CUDA events
// (Nsight Compute replays a kernel over memory it has already migrated, so it hides page
// faults: these launches are timed as a program sees them). Per size, on fresh
// cudaMallocManaged arrays: a saxpy after the host wrote them (pages migrate to the GPU on
// fault), again (resident), again after the host read the result, again after the host
// wrote them and cudaMemPrefetchAsync moved them, and a fill of an array nobody touched yet
// (pages made on the GPU); and the saxpy on cudaMalloc memory, the events' own overhead.
// Prints "L <n> <class> <case>" before each launch and "T <n> <ns>" (event time) after it;
// "H <what> <elements> <ns>" for the host's loops and "P <elements> <ns>" for the prefetch.
// usage: suite_mm [reps=2] [log2 of the largest size=22]
#include "suite_events.h"
__global__ void k_fill(float *y, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 2, maxlog = argc > 2 ? atoi(argv[2]) : 22;
    float *da, *db;
    events_setup(maxlog, &da, &db);
    struct cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    char nm[96];
    volatile float sink = 0;
    for (int lg = 16; lg <= maxlog; lg += 2) {
        int n = 1 << lg, grid = n / 256;
        size_t bytes = (size_t)n * sizeof(float);
        for (int r = 0; r < reps; r++) {
            float *x, *y, *z;
            CK(cudaMallocManaged(&x, bytes));
            CK(cudaMallocManaged(&y, bytes));
            double t = now_ns();
            for (int i = 0; i < n; i++) { x[i] = i * 0.5f; y[i] = 1.0f; }
            printf("H hostwrite_first %d %.0f\n", n, now_ns() - t);
            snprintf(nm, sizeof nm, "mm_hostinit_n%d", n);
            TIMED("managed_ev", nm, (k_saxpy<<<grid, 256>>>(x, y, 2.0f, n)));
            snprintf(nm, sizeof nm, "mm_resident_n%d", n);
            TIMED("managed_ev", nm, (k_saxpy<<<grid, 256>>>(x, y, 2.0f, n)));
            t = now_ns();
            float s = 0;
            for (int i = 0; i < n; i++) s += y[i];
            sink = sink + s;
            printf("H hostread %d %.0f\n", n, now_ns() - t);
            snprintf(nm, sizeof nm, "mm_afterhostread_n%d", n);
            TIMED("managed_ev", nm, (k_saxpy<<<grid, 256>>>(x, y, 2.0f, n)));
            t = now_ns();
            for (int i = 0; i < n; i++) { x[i] = i * 0.25f; y[i] = 2.0f; }
            printf("H hostwrite_again %d %.0f\n", n, now_ns() - t);
            CK(cudaEventRecord(e0));
            CK(cudaMemPrefetchAsync(x, bytes, dev, 0, 0));
            CK(cudaMemPrefetchAsync(y, bytes, dev, 0, 0));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float pms;
            CK(cudaEventElapsedTime(&pms, e0, e1));
            printf("P %d %.0f\n", n, pms * 1e6);
            snprintf(nm, sizeof nm, "mm_prefetched_n%d", n);
            TIMED("managed_ev", nm, (k_saxpy<<<grid, 256>>>(x, y, 2.0f, n)));
            CK(cudaFree(x));
            CK(cudaFree(y));
            CK(cudaMallocManaged(&z, bytes));
            snprintf(nm, sizeof nm, "mm_gpufirst_n%d", n);
            TIMED("managed_ev", nm, (k_fill<<<grid, 256>>>(z, 3.0f, n)));
            CK(cudaFree(z));
            snprintf(nm, sizeof nm, "mm_device_n%d", n);
            TIMED("managed_ev", nm, (k_saxpy<<<grid, 256>>>(da, db, 2.0f, n)));
        }
    }
    printf("done %d launches\n", g_launch);
    return 0;
}
