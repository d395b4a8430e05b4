/* tests/unit/test_runtime_bounds.c — resources are bounded as on a GPU, never by the host:
 *  - cudaMalloc of more than the host has succeeds while untouched (address space is
 *    reserved, pages come as they are touched), and the process's resident memory stays
 *    small; once the preset's device memory is taken, cudaMalloc fails with
 *    cudaErrorMemoryAllocation (not sticky), and freeing gives it back;
 *  - a grid of 2^31-1 x 65535 x 65535 blocks costs no memory up front: it runs until
 *    VCUDA_KERNEL_TIMEOUT stops it (cudaErrorLaunchTimeout) and resident memory stays small;
 *  - the device heap holds cudaLimitMallocHeapSize bytes: a kernel's malloc beyond it gets
 *    NULL, and smaller ones still succeed.
 * (cudaLimitStackSize: tests/cuda/rtapi/stack_limit.cu, recorded on an H100.) */
#include <inttypes.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_runtime_common.h"

static char stub_empty, stub_heap;
static test_wrapper w;

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
    "// a block that ends at once\n"
    ".visible .entry k_empty()\n{\n  ret;\n}\n"
    "// out[0] = malloc(big) != NULL, out[1] = malloc(small) != NULL\n"
    ".visible .entry k_heap(.param .u64 out, .param .u64 big)\n{\n"
    "  .reg .b64 %rd<6>;\n  .reg .pred %p<3>;\n  .reg .b32 %r<3>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [big];\n"
    "  {\n  .param .b64 param0;\n  st.param.b64 [param0+0], %rd2;\n"
    "  .param .b64 retval0;\n  call.uni (retval0), malloc, (param0);\n"
    "  ld.param.b64 %rd3, [retval0+0];\n  }\n"
    "  {\n  .param .b64 param0;\n  st.param.b64 [param0+0], 4096;\n"
    "  .param .b64 retval0;\n  call.uni (retval0), malloc, (param0);\n"
    "  ld.param.b64 %rd4, [retval0+0];\n  }\n"
    "  setp.ne.u64 %p1, %rd3, 0;\n  selp.u32 %r1, 1, 0, %p1;\n"
    "  setp.ne.u64 %p2, %rd4, 0;\n  selp.u32 %r2, 1, 0, %p2;\n"
    "  st.global.u32 [%rd1], %r1;\n  st.global.u32 [%rd1+4], %r2;\n"
    "  ret;\n}\n";

/* The process's resident memory, in bytes. */
static uint64_t rss_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    uint64_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %" SCNu64 " kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb * 1024;
}

static uint64_t host_bytes(void) {
    return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

static void setup(void) {
    void **h = test_register(test_ptx_fatbin(ptx, 90), &w);
    test_register_kernel(h, &stub_empty, "k_empty");
    test_register_kernel(h, &stub_heap, "k_heap");
}

static void test_device_memory(void) {
    size_t free0 = 0, total = 0;
    CHECK_ERR(cudaMemGetInfo(&free0, &total), cudaSuccess);
    /* more than this host has (the h100 preset has 80 GB), while the device has room */
    uint64_t want = host_bytes() + (1ull << 30);
    if (want > free0 / 2) want = free0 / 2;
    uint64_t rss0 = rss_bytes();
    void *big = NULL;
    CHECK_ERR(cudaMalloc(&big, want), cudaSuccess);
    CHECK(big != NULL);
    /* a few pages of it touched */
    CHECK_ERR(cudaMemset(big, 1, 1 << 20), cudaSuccess);
    CHECK_ERR(cudaMemset((char *)big + want - 4096, 2, 4096), cudaSuccess);
    unsigned char last = 0;
    CHECK_ERR(cudaMemcpy(&last, (char *)big + want - 1, 1, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK(last == 2);
    uint64_t grown = rss_bytes() - rss0;
    if (grown > (64u << 20)) {
        fprintf(stderr, "resident memory grew by %" PRIu64 " bytes for %" PRIu64 " allocated\n",
                grown, want);
        failures++;
    }
    size_t free1 = 0;
    CHECK_ERR(cudaMemGetInfo(&free1, &total), cudaSuccess);
    CHECK(free0 - free1 >= want);

    /* more than is left: refused, not sticky */
    void *p = NULL;
    CHECK_ERR(cudaMalloc(&p, free1 + (1ull << 30)), cudaErrorMemoryAllocation);
    CHECK_ERR(cudaGetLastError(), cudaErrorMemoryAllocation);
    CHECK_ERR(cudaGetLastError(), cudaSuccess);
    /* take the rest in pieces until the device says no */
    void *pieces[64];
    int n = 0;
    cudaError_t e = cudaSuccess;
    while (n < 64 && (e = cudaMalloc(&pieces[n], 4ull << 30)) == cudaSuccess) n++;
    CHECK_ERR(e, cudaErrorMemoryAllocation);
    CHECK(n >= 1 && (uint64_t)n * (4ull << 30) <= free1);
    cudaGetLastError();
    CHECK_ERR(cudaMallocManaged(&p, 8ull << 30, cudaMemAttachGlobal), cudaErrorMemoryAllocation);
    cudaGetLastError();
    /* the process still works, and freeing gives the memory back */
    for (int i = 0; i < n; i++) CHECK_ERR(cudaFree(pieces[i]), cudaSuccess);
    CHECK_ERR(cudaFree(big), cudaSuccess);
    size_t free2 = 0;
    CHECK_ERR(cudaMemGetInfo(&free2, &total), cudaSuccess);
    CHECK(free2 == free0);
    CHECK_ERR(cudaMalloc(&big, want), cudaSuccess);
    CHECK_ERR(cudaFree(big), cudaSuccess);
}

static void test_device_heap(void) {
    size_t heap = 0;
    CHECK_ERR(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess);
    unsigned *out = NULL;
    CHECK_ERR(cudaMallocManaged((void **)&out, 2 * sizeof *out, cudaMemAttachGlobal), cudaSuccess);
    uint64_t big = heap + 1;
    void *args[] = {&out, &big};
    CHECK_ERR(cudaLaunchKernel(&stub_heap, d3(1, 1, 1), d3(1, 1, 1), args, 0, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK(out[0] == 0); /* more than the heap: NULL */
    CHECK(out[1] == 1); /* a small one still fits */
    big = heap / 2;
    CHECK_ERR(cudaLaunchKernel(&stub_heap, d3(1, 1, 1), d3(1, 1, 1), args, 0, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK(out[0] == 1);
    CHECK_ERR(cudaFree(out), cudaSuccess);
}

/* In a child of its own: the timeout is sticky and ends the device. */
static void test_huge_grid(void) {
    uint64_t rss0 = rss_bytes();
    CHECK_ERR(cudaLaunchKernel(&stub_empty, d3(2147483647u, 65535, 65535), d3(1, 1, 1), NULL, 0,
                               0),
              cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    uint64_t grown = rss_bytes() - rss0;
    if (grown > (64u << 20)) {
        fprintf(stderr, "resident memory grew by %" PRIu64 " bytes for the grid\n", grown);
        failures++;
    }
}

int main(void) {
    /* read when the device is created, at the first call; every test here ends in time */
    setenv("VCUDA_KERNEL_TIMEOUT", "0.5", 1);
    setenv("VCUDA_DEVICE", "h100", 1);
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        setup();
        test_huge_grid();
        _exit(failures ? 1 : 0);
    }
    int status = 0;
    CHECK(child > 0 && waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    setup();
    test_device_memory();
    test_device_heap();
    return test_finish("test_runtime_bounds");
}
