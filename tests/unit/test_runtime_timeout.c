/* tests/unit/test_runtime_timeout.c — VCUDA_KERNEL_TIMEOUT: a kernel that never ends (a
 * spin on a flag nobody sets, and an empty loop behind a barrier) is stopped once the
 * limit has passed; the launch fails with cudaErrorLaunchTimeout, sticky like every fault
 * of a running grid, and the process itself carries on. */
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_runtime_common.h"

static char stub_spin, stub_barrier_loop;
static test_wrapper w;

static const char ptx[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    "// every thread waits for a flag that stays 0\n"
    ".visible .entry k_spin(.param .u64 flag)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [flag];\n"
    "$L_wait:\n"
    "  ld.volatile.global.u32 %r1, [%rd1];\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 bra $L_wait;\n"
    "  ret;\n"
    "}\n"
    "\n"
    "// a barrier, then a loop with no way out, in every block\n"
    ".visible .entry k_barrier_loop()\n"
    "{\n"
    "  bar.sync 0;\n"
    "$L_forever:\n"
    "  bra.uni $L_forever;\n"
    "}\n";

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One scenario per process: the timeout is sticky, so the first one ends the device. */
static void run_scenario(const void *stub, dim3 grid, dim3 block, bool with_flag) {
    void **h = test_register(test_ptx_fatbin(ptx, 90), &w);
    test_register_kernel(h, &stub_spin, "k_spin");
    test_register_kernel(h, &stub_barrier_loop, "k_barrier_loop");

    int *flag = NULL;
    CHECK_ERR(cudaMalloc((void **)&flag, sizeof *flag), cudaSuccess);
    CHECK_ERR(cudaMemset(flag, 0, sizeof *flag), cudaSuccess);

    double t0 = now();
    void *args[] = {&flag};
    CHECK_ERR(cudaLaunchKernel(stub, grid, block, with_flag ? args : NULL, 0, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    double took = now() - t0;
    /* stopped after the limit, and not long after it */
    CHECK(took >= 0.5);
    CHECK(took < 10.0);
    /* sticky, as every fault of a running grid */
    CHECK_ERR(cudaGetLastError(), cudaErrorLaunchTimeout);
    CHECK_ERR(cudaMemset(flag, 0, sizeof *flag), cudaErrorLaunchTimeout);
    CHECK_ERR(cudaLaunchKernel(&stub_spin, d3(1, 1, 1), d3(32, 1, 1), args, 0, 0),
              cudaErrorLaunchTimeout);
}

int main(void) {
    /* read when the device is created, at the first call */
    setenv("VCUDA_KERNEL_TIMEOUT", "0.5", 1);
    /* the second scenario in a child, forked before any thread exists */
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        run_scenario(&stub_barrier_loop, d3(2, 1, 1), d3(128, 1, 1), false);
        _exit(failures ? 1 : 0);
    }
    run_scenario(&stub_spin, d3(4, 1, 1), d3(64, 1, 1), true);
    int status = 0;
    CHECK(child > 0 && waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return test_finish("test_runtime_timeout");
}
