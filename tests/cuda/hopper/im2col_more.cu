// im2col tensor loads beyond tests/cuda/hopper/im2col.cu: the order of the corner arrays
// (an asymmetric box), traversal strides (where a strided walk goes back to), a strided
// image dimension, 3D and 5D maps, a first pixel past the box's upper corner, a channel
// coordinate inside the pixel, a 32-byte swizzle, the NaN fill, and what
// cuTensorMapEncodeIm2col refuses. Each case runs in a process of its own (a refused copy
// is a sticky error). Element i of a tensor (row-major, C innermost) holds i + 1.
// expected/im2col_more.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <unistd.h>
#include <sys/wait.h>

#define SMAX 1024
template <int R>
__global__ void load(const __grid_constant__ CUtensorMap m, int4 c, int c4, uint4 off, unsigned bytes, float *out) {
    __shared__ alignas(128) float s[SMAX];
    __shared__ alignas(8) uint64_t bar;
    int t = threadIdx.x;
    for (int i = t; i < SMAX; i += blockDim.x) s[i] = -1.0f;
    uint32_t sb = (uint32_t)__cvta_generic_to_shared(&bar), sd = (uint32_t)__cvta_generic_to_shared(s);
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sb));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sb), "r"(bytes) : "memory");
        if (R == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                         ::"r"(sd), "l"(&m), "r"(c.x), "r"(c.y), "r"(c.z), "r"(sb), "h"((unsigned short)off.x) : "memory");
        if (R == 4)
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                         ::"r"(sd), "l"(&m), "r"(c.x), "r"(c.y), "r"(c.z), "r"(c.w), "r"(sb), "h"((unsigned short)off.x), "h"((unsigned short)off.y) : "memory");
        if (R == 5)
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};"
                         ::"r"(sd), "l"(&m), "r"(c.x), "r"(c.y), "r"(c.z), "r"(c.w), "r"(c4), "r"(sb), "h"((unsigned short)off.x), "h"((unsigned short)off.y), "h"((unsigned short)off.z) : "memory");
    }
    asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" ::"r"(sb) : "memory");
    for (int i = t; i < SMAX; i += blockDim.x) out[i] = s[i];
}

typedef CUresult (*enc_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                          const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
                          const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                          CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static enc_t enc;
static float *dimg, *dout;

struct spec {
    const char *what;
    int rank;
    cuuint64_t dims[5];
    int lower[3], upper[3];
    unsigned cpp, ppc;
    cuuint32_t es[5];
    CUtensorMapSwizzle sw;
    CUtensorMapFloatOOBfill fill;
    int coord[5];
    unsigned off[3];
    int raw; /* print shared memory as it lies (the swizzle) */
};

static const spec cases[] = {
    {"asymmetric corners (-2,-1) (0,1)", 4, {8, 6, 6, 2}, {-2, -1}, {0, 1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, -2, -1, 0}, {0, 0}, 0},
    {"asymmetric corners, first pixel at w 5 h 6", 4, {8, 6, 6, 2}, {-2, -1}, {0, 1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 5, 6, 0}, {1, 0}, 0},
    {"strides 2 2 in W H, start at the lower corner", 4, {8, 7, 7, 2}, {-1, -1}, {-1, -1}, 8, 24, {1, 2, 2, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, -1, -1, 0}, {1, 1}, 0},
    {"strides 2 2 in W H, start one past the lower corner", 4, {8, 7, 7, 2}, {-1, -1}, {-1, -1}, 8, 24, {1, 2, 2, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 0, 0, 0}, {0, 0}, 0},
    {"stride 3 in W only", 4, {8, 8, 3, 2}, {0, 0}, {0, 0}, 8, 24, {1, 3, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 1, 0, 0}, {0, 0}, 0},
    {"stride 2 in N", 4, {8, 3, 2, 5}, {0, 0}, {0, 0}, 8, 24, {1, 1, 1, 2},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 1, 1, 0}, {0, 0}, 0},
    {"3D: C 8 W 20 N 2, corners -3 -2, offset 2", 3, {8, 20, 2}, {-3}, {-2}, 8, 32, {1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 10, 0}, {2}, 0},
    {"5D: C 4 W 4 H 3 D 3 N 2", 5, {4, 4, 3, 3, 2}, {-1, 0, -1}, {0, -1, 0}, 4, 32, {1, 1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, -1, 0, -1, 0}, {1, 0, 1}, 0},
    {"first pixel past the upper corner", 4, {8, 6, 6, 2}, {-1, -1}, {-1, -1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 5, 0, 0}, {0, 0}, 0},
    {"first image past the tensor", 4, {8, 6, 6, 2}, {-1, -1}, {-1, -1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, 0, 0, 2}, {0, 0}, 0},
    {"channels 4 to 11 of 8", 4, {8, 6, 6, 2}, {-1, -1}, {-1, -1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {4, 0, 0, 0}, {0, 0}, 1},
    {"32-byte swizzle", 4, {8, 6, 6, 2}, {-1, -1}, {-1, -1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, {0, -1, 0, 0}, {0, 0}, 1},
    {"NaN fill", 4, {8, 6, 6, 2}, {-1, -1}, {-1, -1}, 8, 16, {1, 1, 1, 1},
     CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, {0, -1, -1, 0}, {0, 0}, 0},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])

static int run_case(int k) {
    const spec &p = cases[k];
    cuuint64_t st[4];
    cuuint64_t b = 4;
    for (int i = 0; i + 1 < p.rank; i++) { b *= p.dims[i]; st[i] = b; }
    CUtensorMap m;
    CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, p.rank, dimg, p.dims, st, p.lower, p.upper, p.cpp, p.ppc,
                     p.es, CU_TENSOR_MAP_INTERLEAVE_NONE, p.sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, p.fill);
    printf("case %d: %s: encode %d\n", k, p.what, (int)r);
    if (r) return 0;
    int4 c = make_int4(p.coord[0], p.coord[1], p.coord[2], p.coord[3]);
    uint4 o = make_uint4(p.off[0], p.off[1], p.off[2], 0);
    unsigned bytes = p.cpp * p.ppc * 4;
    if (p.rank == 3) load<3><<<1, 128>>>(m, c, 0, o, bytes, dout);
    if (p.rank == 4) load<4><<<1, 128>>>(m, c, 0, o, bytes, dout);
    if (p.rank == 5) load<5><<<1, 128>>>(m, c, p.coord[4], o, bytes, dout);
    cudaError_t e = cudaDeviceSynchronize();
    printf("  %s\n", cudaGetErrorString(e));
    if (e) return 0;
    static float h[SMAX];
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    if (p.raw) {
        for (unsigned i = 0; i < p.cpp * p.ppc; i++) printf("%s%g", i % 16 ? " " : "\n   ", h[i]);
        printf("\n");
    } else {
        printf("  channel 0 of each pixel:");
        for (unsigned px = 0; px < p.ppc; px++) printf("%s%g", px % 16 ? " " : "\n   ", h[px * p.cpp]);
        printf("\n  last channel of pixel 1: %g; past the column: %g\n", h[p.cpp + p.cpp - 1], h[p.cpp * p.ppc]);
    }
    return 0;
}

/* the arguments the driver refuses */
static void encode_checks() {
    cuuint64_t d4[4] = {8, 6, 6, 2}, s4[3] = {32, 32 * 6, 32 * 36};
    cuuint64_t d5[5] = {8, 4, 4, 4, 2}, s5[4] = {32, 128, 512, 2048};
    cuuint64_t d3[3] = {8, 6, 2}, s3[2] = {32, 192};
    cuuint64_t d2[2] = {8, 6}, s2[1] = {32};
    cuuint32_t es[5] = {1, 1, 1, 1, 1}, es0[5] = {1, 0, 1, 1, 1};
    int z[3] = {0, 0, 0}, m1[3] = {-1, -1, -1}, l128[3] = {-128, 0, 0}, l129[3] = {-129, 0, 0};
    int h127[3] = {127, 0, 0}, h128[3] = {128, 0, 0}, l16[3] = {-16, 0, 0}, l17[3] = {-17, 0, 0};
    int h15[3] = {15, 0, 0}, h16[3] = {16, 0, 0}, big[3] = {-32768, 0, 0}, big2[3] = {32767, 0, 0};
    int empty[3] = {-6, 0, 0}, fits[3] = {-5, 0, 0}, lo5[3] = {5, 0, 0};
    struct { const char *what; int rank; cuuint64_t *d, *s; int *lo, *hi; unsigned cpp, ppc; cuuint32_t *es; CUtensorMapSwizzle sw; } t[] = {
        {"rank 2", 2, d2, s2, z, z, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 3, corners -32768 and 32767", 3, d3, s3, big, big2, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 4, lower -128", 4, d4, s4, l128, z, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 4, lower -129", 4, d4, s4, l129, z, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 4, upper 127", 4, d4, s4, z, h127, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 4, upper 128", 4, d4, s4, z, h128, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 5, lower -16", 5, d5, s5, l16, z, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 5, lower -17", 5, d5, s5, l17, z, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 5, upper 15", 5, d5, s5, z, h15, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"rank 5, upper 16", 5, d5, s5, z, h16, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"W box of one pixel (upper -5)", 4, d4, s4, z, fits, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"empty W box (upper -6)", 4, d4, s4, z, empty, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"lower 5 above upper -1", 4, d4, s4, lo5, m1, 8, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"2 channels (8 bytes)", 4, d4, s4, z, z, 2, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"6 channels (24 bytes)", 4, d4, s4, z, z, 6, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"0 channels", 4, d4, s4, z, z, 0, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"256 channels", 4, d4, s4, z, z, 256, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"257 channels", 4, d4, s4, z, z, 257, 16, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"0 pixels", 4, d4, s4, z, z, 8, 0, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"1024 pixels", 4, d4, s4, z, z, 8, 1024, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"1025 pixels", 4, d4, s4, z, z, 8, 1025, es, CU_TENSOR_MAP_SWIZZLE_NONE},
        {"16 channels (64 bytes) with a 32-byte swizzle", 4, d4, s4, z, z, 16, 16, es, CU_TENSOR_MAP_SWIZZLE_32B},
        {"element stride 0 in W", 4, d4, s4, z, z, 8, 16, es0, CU_TENSOR_MAP_SWIZZLE_NONE},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        alignas(64) CUtensorMap m;
        CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, t[i].rank, dimg, t[i].d, t[i].s, t[i].lo, t[i].hi,
                         t[i].cpp, t[i].ppc, t[i].es, CU_TENSOR_MAP_INTERLEAVE_NONE, t[i].sw,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        printf("encode %s: %d\n", t[i].what, (int)r);
    }
}

int main(int argc, char **argv) {
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", (void **)&enc, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !enc) { printf("no cuTensorMapEncodeIm2col\n"); return 1; }
    static float img[4096];
    for (int i = 0; i < 4096; i++) img[i] = (float)(i + 1);
    cudaMalloc(&dimg, sizeof img);
    cudaMalloc(&dout, SMAX * 4);
    cudaMemcpy(dimg, img, sizeof img, cudaMemcpyHostToDevice);
    if (argc > 1) return run_case(atoi(argv[1]));
    encode_checks();
    fflush(stdout);
    for (int k = 0; k < NCASES; k++) {
        char arg[16];
        snprintf(arg, sizeof arg, "%d", k);
        pid_t pid = fork();
        if (pid == 0) {
            execl("/proc/self/exe", argv[0], arg, (char *)nullptr);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        fflush(stdout);
    }
    return 0;
}
