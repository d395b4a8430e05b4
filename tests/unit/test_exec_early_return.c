/* tests/unit/test_exec_early_return.c — a thread that returns early while the rest of its
 * warp goes on to __syncthreads (the leaf level of gpuRecursiveReduce in
 * examples/dp/nestedReduce.cu). On sm_70 and later each thread is scheduled on its own:
 * the returning thread ends and the barrier completes without it. The early path does
 * work before it joins the kernel's exit, so it is not a branch straight to the end. */
#include "exec_harness.h"

int main(void) {
    harness h;
    memset(&h, 0, sizeof h);
    if (!harness_load_file(&h, "../unit/data/dp/early_return.ptx")) { /* tests/unit/data/dp */
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    for (int n = 1; n <= 2; n++) {
        int *out = harness_alloc(&h, 96 * sizeof(int));
        int nthreads = 2 + 30 * (n - 1); /* 2 threads, then 32 */
        void *args[] = {&out, &n};
        harness_run r = harness_launch(&h, "_Z5earlyPii", dim(1, 1, 1), dim(nthreads, 1, 1), 0,
                                       args);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        if (r.kind != EXEC_OK) fprintf(stderr, "%s\n", r.fault.msg);
        /* thread 0 wrote out[0] only when it returned early (n == 2) */
        CHECK_EQ_U64(out[0], n == 2 ? 7u : 0u);
        for (int t = n == 2 ? 1 : 0; t < nthreads; t++) {
            CHECK_EQ_U64(out[32 + t], 1);
            int next = (t + 1) % nthreads;
            /* after the barrier every other thread's first store is visible */
            CHECK_EQ_U64(out[64 + t], (n == 2 && next == 0) ? 1u : 2u);
        }
        free(r.out.data);
        harness_dealloc(&h, out);
    }
    harness_free(&h);
    return harness_report("test_exec_early_return");
}
