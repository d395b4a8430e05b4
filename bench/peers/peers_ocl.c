/* bench/peers/peers_ocl.c — the peer benchmark's OpenCL runner (for PoCL): the seed kernels
 * of kernels.cl, at the sizes and with the inputs and checks of the vcuda runner
 * (peers_cuda.cu), each timed with the host clock around clEnqueueNDRangeKernel and
 * clFinish after warm-up runs. A wrong result is reported as WRONG with its value, never
 * hidden: PoCL runs work-items as loops, which the warp-synchronous reductions do not
 * survive.
 *
 * Usage: peers_ocl kernels.cl reduce_n sum_n mm_n [warmup]. The first line is
 * "#device <name>\t<compute units>" (the thread count PoCL was told to use shows there);
 * then one line per kernel (peers_common.h).
 * Build: cc -O2 -o peers_ocl peers_ocl.c -lOpenCL
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "peers_common.h"

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;

/* Stop on a failed OpenCL call, naming it. */
#define CL_CHECK(call)                                                                \
    do {                                                                              \
        cl_int cl_err_ = (call);                                                      \
        if (cl_err_ != CL_SUCCESS) {                                                  \
            fprintf(stderr, "peers_ocl: %s failed: OpenCL error %d (line %d)\n", #call, \
                    (int)cl_err_, __LINE__);                                          \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static cl_mem buffer(size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CL_CHECK(err);
    if (init)
        CL_CHECK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL));
    return m;
}

static cl_kernel kernel(const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "peers_ocl: no kernel %s in the program (error %d)\n", name, (int)err);
        exit(1);
    }
    return k;
}

/* One prepared launch: what to reset before it (a buffer and the bytes to write into
 * it), and the NDRange. */
typedef struct {
    cl_kernel k;
    cl_uint dims;
    size_t global[2], local[2];
    cl_mem reset;
    const void *reset_data;
    size_t reset_bytes;
    cl_kernel second; /* reduceTwoPhase's second phase, or NULL */
    size_t second_global, second_local;
} launch;

static void prepare(const launch *l)
{
    if (l->reset)
        CL_CHECK(clEnqueueWriteBuffer(queue, l->reset, CL_TRUE, 0, l->reset_bytes,
                                      l->reset_data, 0, NULL, NULL));
    CL_CHECK(clFinish(queue));
}

static void run(const launch *l)
{
    CL_CHECK(clEnqueueNDRangeKernel(queue, l->k, l->dims, NULL, l->global, l->local, 0, NULL,
                                    NULL));
    if (l->second)
        CL_CHECK(clEnqueueNDRangeKernel(queue, l->second, 1, NULL, &l->second_global,
                                        &l->second_local, 0, NULL, NULL));
    CL_CHECK(clFinish(queue));
}

/* Warm-up runs, then one timed run; its milliseconds. */
static peers_time timed(int warmup, const launch *l)
{
    for (int i = 0; i < warmup; i++) {
        prepare(l);
        run(l);
    }
    prepare(l);
    peers_time t0 = peers_clock();
    run(l);
    return peers_since(t0);
}

static void run_reduce_integer(const peers_sizes *s, const int *h_in, long long exact)
{
    static const struct {
        const char *name, *cl_name;
        unsigned fold;
    } variants[] = {
        {"reduceNeighbored", "reduceNeighbored", 1},
        {"reduceNeighboredLess", "reduceNeighboredLess", 1},
        {"reduceInterleaved", "reduceInterleaved", 1},
        {"reduceUnrolling2", "reduceUnrolling2", 2},
        {"reduceUnrolling4", "reduceUnrolling4", 4},
        {"reduceUnrolling8", "reduceUnrolling8", 8},
        {"reduceUnrolling8Loop", "reduceUnrolling8Loop", 8},
        {"reduceUnrolling16", "reduceUnrolling16", 16},
        {"reduceUnrollWarps8", "reduceUnrollWarps8", 8},
        {"reduceCompleteUnrollWarps8", "reduceCompleteUnrollWarps8", 8},
        {"reduceCompleteUnrollWarps8Sync", "reduceCompleteUnrollWarps8Sync", 8},
        {"reduceCompleteUnroll<512>", "reduceCompleteUnroll512", 8},
    };
    unsigned n = s->reduce_n, maxGrid = n / PEERS_REDUCE_BLOCK;
    size_t bytes = (size_t)n * sizeof(int);
    cl_mem d_in = buffer(bytes, NULL), d_out = buffer(maxGrid * sizeof(int), NULL);
    int *h_out = malloc(maxGrid * sizeof(int));
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        unsigned grid = maxGrid / variants[i].fold;
        launch l = {0};
        l.k = kernel(variants[i].cl_name);
        CL_CHECK(clSetKernelArg(l.k, 0, sizeof(cl_mem), &d_in));
        CL_CHECK(clSetKernelArg(l.k, 1, sizeof(cl_mem), &d_out));
        CL_CHECK(clSetKernelArg(l.k, 2, sizeof(cl_uint), &n));
        l.dims = 1;
        l.global[0] = (size_t)grid * PEERS_REDUCE_BLOCK;
        l.local[0] = PEERS_REDUCE_BLOCK;
        l.reset = d_in; /* every kernel reduces in place */
        l.reset_data = h_in;
        l.reset_bytes = bytes;
        peers_time ms = timed(s->warmup, &l);
        CL_CHECK(clEnqueueReadBuffer(queue, d_out, CL_TRUE, 0, grid * sizeof(int), h_out, 0,
                                     NULL, NULL));
        unsigned sum = 0;
        for (unsigned b = 0; b < grid; b++)
            sum += (unsigned)h_out[b];
        peers_report_sum(variants[i].name, ms, (int)sum, exact);
        clReleaseKernel(l.k);
    }
    free(h_out);
    clReleaseMemObject(d_in);
    clReleaseMemObject(d_out);
}

static void run_two_phase(const peers_sizes *s, const int *h_in, long long exact)
{
    static const struct {
        const char *name, *cl_name;
        int atomic;
    } variants[] = {
        {"reduceGridStride", "reduceGridStride", 0},
        {"reduceGridStrideWarp", "reduceGridStrideWarp", 0},
        {"reduceGridStrideT<512>", "reduceGridStrideT512", 0},
        {"reduceOnePhaseAtomic", "reduceOnePhaseAtomic", 1},
    };
    cl_ulong N = s->reduce_n, partials = PEERS_TWOPHASE_BLOCKS;
    size_t shmem = PEERS_REDUCE_BLOCK * sizeof(int); /* sharedBytes(512) */
    cl_mem d_in = buffer(N * sizeof(int), h_in);
    cl_mem d_partial = buffer(PEERS_TWOPHASE_BLOCKS * sizeof(int), NULL);
    cl_mem d_res = buffer(sizeof(int), NULL);
    static const int zero = 0, garbage = -1;
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        launch l = {0};
        l.k = kernel(variants[i].cl_name);
        cl_mem first_out = variants[i].atomic ? d_res : d_partial;
        CL_CHECK(clSetKernelArg(l.k, 0, sizeof(cl_mem), &first_out));
        CL_CHECK(clSetKernelArg(l.k, 1, sizeof(cl_mem), &d_in));
        CL_CHECK(clSetKernelArg(l.k, 2, sizeof(cl_ulong), &N));
        CL_CHECK(clSetKernelArg(l.k, 3, shmem, NULL));
        l.dims = 1;
        l.global[0] = (size_t)PEERS_TWOPHASE_BLOCKS * PEERS_REDUCE_BLOCK;
        l.local[0] = PEERS_REDUCE_BLOCK;
        l.reset = d_res;
        l.reset_data = variants[i].atomic ? &zero : &garbage;
        l.reset_bytes = sizeof(int);
        if (!variants[i].atomic) {
            l.second = kernel(variants[i].cl_name);
            CL_CHECK(clSetKernelArg(l.second, 0, sizeof(cl_mem), &d_res));
            CL_CHECK(clSetKernelArg(l.second, 1, sizeof(cl_mem), &d_partial));
            CL_CHECK(clSetKernelArg(l.second, 2, sizeof(cl_ulong), &partials));
            CL_CHECK(clSetKernelArg(l.second, 3, shmem, NULL));
            l.second_global = l.second_local = PEERS_REDUCE_BLOCK;
        }
        peers_time ms = timed(s->warmup, &l);
        int result = 0;
        CL_CHECK(clEnqueueReadBuffer(queue, d_res, CL_TRUE, 0, sizeof(int), &result, 0, NULL,
                                     NULL));
        peers_report_sum(variants[i].name, ms, result, exact);
        clReleaseKernel(l.k);
        if (l.second)
            clReleaseKernel(l.second);
    }
    peers_report("reduceGridStrideShfl", (peers_time){0.0, 0.0, 0.0}, "n/a", "no shuffles in OpenCL 1.2");
    clReleaseMemObject(d_in);
    clReleaseMemObject(d_partial);
    clReleaseMemObject(d_res);
}

static void run_sum_matrix(const peers_sizes *s)
{
    int n = s->sum_n;
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    float *A = malloc(bytes), *B = malloc(bytes), *ref = malloc(bytes), *C = malloc(bytes);
    peers_sum_input(A, B, ref, count);
    memset(C, 0xFF, bytes);
    cl_mem d_A = buffer(bytes, A), d_B = buffer(bytes, B), d_C = buffer(bytes, NULL);
    launch l = {0};
    l.k = kernel("sumMatrixOnGPU2D");
    CL_CHECK(clSetKernelArg(l.k, 0, sizeof(cl_mem), &d_A));
    CL_CHECK(clSetKernelArg(l.k, 1, sizeof(cl_mem), &d_B));
    CL_CHECK(clSetKernelArg(l.k, 2, sizeof(cl_mem), &d_C));
    CL_CHECK(clSetKernelArg(l.k, 3, sizeof(cl_int), &n));
    CL_CHECK(clSetKernelArg(l.k, 4, sizeof(cl_int), &n));
    l.dims = 2;
    l.global[0] = l.global[1] = (size_t)n;
    l.local[0] = l.local[1] = PEERS_SUM_BLOCK;
    l.reset = d_C;
    l.reset_data = C; /* all ones, as the example's memset 0xFF */
    l.reset_bytes = bytes;
    peers_time ms = timed(s->warmup, &l);
    CL_CHECK(clEnqueueReadBuffer(queue, d_C, CL_TRUE, 0, bytes, C, 0, NULL, NULL));
    peers_report_matrix("sumMatrixOnGPU2D", ms, peers_mismatches(C, ref, count), count);
    clReleaseKernel(l.k);
    clReleaseMemObject(d_A);
    clReleaseMemObject(d_B);
    clReleaseMemObject(d_C);
    free(A);
    free(B);
    free(ref);
    free(C);
}

static void run_mat_mult(const peers_sizes *s)
{
    int n = s->mm_n;
    size_t count = (size_t)n * n, bytes = count * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *ref = malloc(bytes), *c = malloc(bytes);
    float *ones = malloc(bytes);
    peers_mm_input(a, b, ref, n);
    memset(ones, 0xFF, bytes);
    cl_mem d_a = buffer(bytes, a), d_b = buffer(bytes, b), d_c = buffer(bytes, NULL);
    static const char *const names[] = {"matMultNaive", "matMultTiled"};
    for (int i = 0; i < 2; i++) {
        launch l = {0};
        l.k = kernel(names[i]);
        CL_CHECK(clSetKernelArg(l.k, 0, sizeof(cl_mem), &d_a));
        CL_CHECK(clSetKernelArg(l.k, 1, sizeof(cl_mem), &d_b));
        CL_CHECK(clSetKernelArg(l.k, 2, sizeof(cl_int), &n));
        CL_CHECK(clSetKernelArg(l.k, 3, sizeof(cl_mem), &d_c));
        l.dims = 2;
        l.global[0] = l.global[1] = (size_t)n;
        l.local[0] = l.local[1] = PEERS_MM_BLOCK;
        l.reset = d_c;
        l.reset_data = ones;
        l.reset_bytes = bytes;
        peers_time ms = timed(s->warmup, &l);
        CL_CHECK(clEnqueueReadBuffer(queue, d_c, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
        peers_report_matrix(names[i], ms, peers_mismatches(c, ref, count), count);
        clReleaseKernel(l.k);
    }
    clReleaseMemObject(d_a);
    clReleaseMemObject(d_b);
    clReleaseMemObject(d_c);
    free(a);
    free(b);
    free(ref);
    free(c);
    free(ones);
}

/* The program's source, read whole. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (fread(text, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "peers_ocl: cannot read %s\n", path);
        exit(1);
    }
    text[len] = '\0';
    fclose(f);
    return text;
}

/* The first CPU device of any platform (PoCL's is its "cpu"/pthread device). */
static cl_device_id cpu_device(void)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    if (clGetPlatformIDs(16, platforms, &count) != CL_SUCCESS || count == 0) {
        fprintf(stderr, "peers_ocl: no OpenCL platform (is PoCL installed?)\n");
        exit(3);
    }
    for (cl_uint p = 0; p < count && p < 16; p++) {
        cl_device_id dev;
        cl_uint n = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 1, &dev, &n) == CL_SUCCESS && n)
            return dev;
    }
    fprintf(stderr, "peers_ocl: no OpenCL CPU device\n");
    exit(3);
}

int main(int argc, char **argv)
{
    peers_sizes s;
    if (argc < 2 || peers_parse(argc - 1, argv + 1, &s) != 0)
        return 2;
    cl_device_id dev = cpu_device();
    char name[256] = "";
    cl_uint units = 0;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    printf("#device %s\t%u\n", name, units);

    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CL_CHECK(err);
    queue = clCreateCommandQueue(ctx, dev, 0, &err);
    CL_CHECK(err);
    char *src = read_file(argv[1]);
    const char *srcs[] = {src};
    program = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
    CL_CHECK(err);
    if (clBuildProgram(program, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "peers_ocl: %s does not build:\n%s\n", argv[1], log);
        return 1;
    }
    free(src);

    int *h_in = malloc((size_t)s.reduce_n * sizeof(int));
    long long exact = peers_reduce_input(h_in, s.reduce_n);
    run_reduce_integer(&s, h_in, exact);
    run_two_phase(&s, h_in, exact);
    run_sum_matrix(&s);
    run_mat_mult(&s);
    free(h_in);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return 0;
}
