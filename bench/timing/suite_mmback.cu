// bench/timing/suite_mmback.cu — managed memory the host touches again between launches,
// timed with CUDA events (Nsight Compute's replay would hide the page faults), as
// suite_mm.cu's cases are. Per size, on fresh cudaMallocManaged arrays x and y the host
// wrote and a first saxpy moved to the device: the saxpy again after the host read all of
// y, read a quarter of it, wrote all of x, read both, read one float of every 64 KB of y,
// and read one float of every 4 KB of y; and once resident between them. Then a host
// read and a launch three times over (the pages going back and forth each time).
// Prints "L <n> <class> <case>" before each launch and "T <n> <ns>" (event time) after it,
// "H <what> <elements> <ns>" for the host's loops; mmb_device_* (the saxpy on cudaMalloc
// memory) give the events' own overhead.
// usage: suite_mmback [reps=2] [log2 of the largest size=24]
#include "suite_events.h"

static volatile float g_sink;
// the host reads every step-th float of p[0, n) (step 1: all of them)
static void host_read(const char *what, const float *p, int n, int step)
{
    double t = now_ns();
    float s = 0;
    for (int i = 0; i < n; i += step) s += p[i];
    g_sink = g_sink + s;
    printf("H %s %d %.0f\n", what, n, now_ns() - t);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 2, maxlog = argc > 2 ? atoi(argv[2]) : 24;
    float *da, *db;
    events_setup(maxlog, &da, &db);
    char nm[96];
    for (int lg = 18; lg <= maxlog; lg += 2) {
        int n = 1 << lg, grid = n / 256;
        size_t bytes = (size_t)n * sizeof(float);
        for (int r = 0; r < reps; r++) {
            float *x, *y;
            CK(cudaMallocManaged(&x, bytes));
            CK(cudaMallocManaged(&y, bytes));
            for (int i = 0; i < n; i++) { x[i] = i * 0.5f; y[i] = 1.0f; }
            k_saxpy<<<grid, 256>>>(x, y, 2.0f, n);  // to the device
            CK(cudaDeviceSynchronize());
#define AGAIN(name) do { snprintf(nm, sizeof nm, "mmb_" name "_n%d", n); \
    TIMED("managed_back", nm, (k_saxpy<<<grid, 256>>>(x, y, 2.0f, n))); } while (0)
            AGAIN("resident");
            host_read("read_y", y, n, 1);
            AGAIN("hostread_y");
            host_read("read_yq", y, n / 4, 1);
            AGAIN("hostread_yquarter");
            double t = now_ns();
            for (int i = 0; i < n; i++) x[i] = i * 0.25f;
            printf("H write_x %d %.0f\n", n, now_ns() - t);
            AGAIN("hostwrite_x");
            host_read("read_xy", x, n, 1);
            host_read("read_xy", y, n, 1);
            AGAIN("hostread_xy");
            host_read("read_y64k", y, n, 16384);
            AGAIN("hosttouch64k_y");
            host_read("read_y4k", y, n, 1024);
            AGAIN("hosttouch4k_y");
            AGAIN("resident2");
            for (int k = 0; k < 3; k++) {
                host_read("pingpong", y, n, 1);
                snprintf(nm, sizeof nm, "mmb_pingpong%d_n%d", k, n);
                TIMED("managed_back", nm, (k_saxpy<<<grid, 256>>>(x, y, 2.0f, n)));
            }
            CK(cudaFree(x));
            CK(cudaFree(y));
            snprintf(nm, sizeof nm, "mmb_device_n%d", n);
            TIMED("managed_back_ref", nm, (k_saxpy<<<grid, 256>>>(da, db, 2.0f, n)));
        }
    }
    printf("done %d launches\n", g_launch);
    return 0;
}
