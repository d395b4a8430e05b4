/* tests/unit/test_runtime_fault.c — a device fault as CUDA 13 reports it on an H100
 * (tests/cuda/probes/expected/fault_null.out, sticky.out): the launch succeeds, the fault
 * appears at the next synchronising call and then from every call that needs the device,
 * while device queries still answer; cudaGetLastError clears only the thread's copy;
 * after cudaDeviceReset the device stays unusable to the process. */
#include "test_runtime_common.h"

static char stub_ok, stub_null;
static test_wrapper w;

static const char ptx[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k_ok(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, 7;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry k_null(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.global.u32 %r1, [%rd1];\n"
    "  st.global.u32 [%rd1+4], %r1;\n"
    "  ret;\n"
    "}\n";

static cudaError_t launch(const void *stub, void *p) {
    void *args[] = {&p};
    return cudaLaunchKernel(stub, d3(1, 1, 1), d3(32, 1, 1), args, 0, 0);
}

static int host_fn_ran;
static void host_fn(void *data) { (void)data; host_fn_ran = 1; }

int main(void) {
    void **h = test_register(test_ptx_fatbin(ptx, 90), &w);
    test_register_kernel(h, &stub_ok, "k_ok");
    test_register_kernel(h, &stub_null, "k_null");

    int *d = NULL, v = 0;
    CHECK_ERR(cudaMalloc((void **)&d, 256), cudaSuccess);
    CHECK_ERR(launch(&stub_ok, d), cudaSuccess);
    CHECK_ERR(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(v == 7);

    /* The faulting launch itself succeeds; work queued after it does not run. */
    CHECK_ERR(launch(&stub_null, NULL), cudaSuccess);
    CHECK_ERR(cudaLaunchHostFunc(0, host_fn, NULL), cudaSuccess);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    CHECK(host_fn_ran == 0);
    CHECK_ERR(cudaPeekAtLastError(), cudaErrorIllegalAddress);
    CHECK_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);

    /* Calls that need the device return the fault... */
    void *p = NULL;
    size_t lim = 0;
    cudaStream_t s;
    CHECK_ERR(cudaMalloc(&p, 64), cudaErrorIllegalAddress);
    CHECK_ERR(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    CHECK_ERR(cudaFree(d), cudaErrorIllegalAddress);
    CHECK_ERR(cudaStreamCreate(&s), cudaErrorIllegalAddress);
    CHECK_ERR(cudaDeviceGetLimit(&lim, cudaLimitStackSize), cudaErrorIllegalAddress);
    CHECK_ERR(launch(&stub_ok, d), cudaErrorIllegalAddress);
    CHECK_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    /* ...but a launch of no kernel at all is refused first. */
    CHECK_ERR(cudaLaunchKernel(NULL, d3(1, 1, 1), d3(1, 1, 1), NULL, 0, 0),
              cudaErrorInvalidDeviceFunction);
    /* Device queries still answer. */
    struct cudaDeviceProp prop;
    struct cudaPointerAttributes attr;
    unsigned flags;
    CHECK_ERR(cudaGetDeviceCount(&v), cudaSuccess);
    CHECK_ERR(cudaGetDevice(&v), cudaSuccess);
    CHECK_ERR(cudaSetDevice(0), cudaSuccess);
    CHECK_ERR(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0), cudaSuccess);
    CHECK_ERR(cudaGetDeviceFlags(&flags), cudaSuccess);
    CHECK_ERR(cudaPointerGetAttributes(&attr, d), cudaSuccess);
    CHECK(attr.type == cudaMemoryTypeDevice);

    /* Reset clears the error, but the device stays unusable to this process. */
    CHECK_ERR(cudaDeviceReset(), cudaSuccess);
    CHECK_ERR(cudaPeekAtLastError(), cudaSuccess);
    CHECK_ERR(cudaMalloc(&p, 64), cudaErrorDevicesUnavailable);
    CHECK_ERR(cudaSetDevice(0), cudaErrorDevicesUnavailable);
    CHECK_ERR(cudaGetDeviceCount(&v), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorDevicesUnavailable);
    CHECK_ERR(cudaDeviceReset(), cudaSuccess);
    CHECK_ERR(cudaMalloc(&p, 64), cudaErrorDevicesUnavailable);
    CHECK_ERR(cudaGetLastError(), cudaErrorDevicesUnavailable);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    rt_context_shutdown();
    return test_finish("test_runtime_fault");
}
