// The rules a tensor copy (cp.async.bulk.tensor, tile mode) must keep, one probe per
// process since a broken rule stops the kernel with a sticky error: 2D loads and stores
// through maps from cuTensorMapEncodeTiled with and without a swizzle, boxes that start
// at coordinates whose byte offset is or is not a multiple of 16, inner box extents below
// the swizzle span, and shared-memory destinations at offsets from a 1024-byte boundary.
// Run without arguments the program runs itself once per case (argument: the case) and
// prints each case's line: the shared tile's bytes as hashed after a load (the tile is
// filled with 0xab first, so where the box lands shows), or the destination's after a
// store, or the error the copy stopped with. expected/tma_rules.out is what the H200 gave.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__global__ void probe(const __grid_constant__ CUtensorMap m, int x, int y, uint32_t off, uint32_t bytes,
                      int store, uint32_t *dump) {
    __shared__ alignas(1024) uint8_t tile[16384];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    for (int i = t; i < 16384; i += blockDim.x) tile[i] = store ? (uint8_t)(i * 7 + 1) : 0xab;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem(&bar)));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (t == 0) {
        if (store) {
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                         :: "l"(&m), "r"(x), "r"(y), "r"(smem(tile + off)) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        } else {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem(&bar)), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(smem(tile + off)), "l"(&m), "r"(x), "r"(y), "r"(smem(&bar)) : "memory");
        }
    }
    if (!store)
        asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n @!p bra W;\n}"
                     :: "r"(smem(&bar)) : "memory");
    __syncthreads();
    if (!store)
        for (int i = t; i < 4096; i += blockDim.x) dump[i] = ((const uint32_t *)tile)[i];
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

struct Case { const char *what; int u8, sw, bx, by, x, y, off, store; };
// sw: 0 none, 1 32B, 2 64B, 3 128B; bx in elements (f32, or u8 when u8)
static const Case cases[] = {
    {"load 128B, x 0", 0, 3, 32, 8, 0, 0, 0, 0},
    {"load 128B, x 3 (12 bytes)", 0, 3, 32, 8, 3, 0, 0, 0},
    {"load 128B, x 1 (4 bytes)", 0, 3, 32, 8, 1, 0, 0, 0},
    {"load 128B, x 2 (8 bytes)", 0, 3, 32, 8, 2, 0, 0, 0},
    {"load 128B, x 4 (16 bytes)", 0, 3, 32, 8, 4, 0, 0, 0},
    {"load 128B, x 8 (32 bytes)", 0, 3, 32, 8, 8, 0, 0, 0},
    {"load 128B, x -1", 0, 3, 32, 8, -1, 0, 0, 0},
    {"load 128B, x -4", 0, 3, 32, 8, -4, 0, 0, 0},
    {"load 128B, x 70 (280 bytes)", 0, 3, 32, 8, 70, 66, 0, 0},
    {"load no swizzle, x 3", 0, 0, 32, 8, 3, 0, 0, 0},
    {"load no swizzle, x 1", 0, 0, 32, 8, 1, 5, 0, 0},
    {"load 64B, x 2 (8 bytes)", 0, 2, 16, 8, 2, 0, 0, 0},
    {"load 64B, x 4", 0, 2, 16, 8, 4, 0, 0, 0},
    {"load 64B, x 50 (200 bytes)", 0, 2, 16, 16, 50, 20, 0, 0},
    {"load 32B, x 3", 0, 1, 8, 8, 3, 0, 0, 0},
    {"load 32B, x 4", 0, 1, 8, 8, 4, 0, 0, 0},
    {"load 32B, x 90 (360 bytes)", 0, 1, 8, 32, 90, 50, 0, 0},
    {"load 128B, 64-byte rows, x 0", 0, 3, 16, 8, 0, 0, 0, 0},
    {"load 128B, 64-byte rows, x 3", 0, 3, 16, 8, 3, 0, 0, 0},
    {"load 128B, 32-byte rows, x 4", 0, 3, 8, 8, 4, 0, 0, 0},
    {"load no swizzle, shared +16", 0, 0, 32, 8, 0, 0, 16, 0},
    {"load no swizzle, shared +64", 0, 0, 32, 8, 0, 0, 64, 0},
    {"load no swizzle, shared +128", 0, 0, 32, 8, 0, 0, 128, 0},
    {"load no swizzle, shared +8", 0, 0, 32, 8, 0, 0, 8, 0},
    {"load 128B, shared +128", 0, 3, 32, 8, 0, 0, 128, 0},
    {"load 128B, shared +256", 0, 3, 32, 8, 0, 0, 256, 0},
    {"load 128B, shared +512", 0, 3, 32, 8, 0, 0, 512, 0},
    {"load 64B, shared +128", 0, 2, 16, 8, 0, 0, 128, 0},
    {"load 64B, shared +256", 0, 2, 16, 8, 0, 0, 256, 0},
    {"load 64B, shared +512", 0, 2, 16, 8, 0, 0, 512, 0},
    {"load 32B, shared +128", 0, 1, 8, 8, 0, 0, 128, 0},
    {"load 32B, shared +256", 0, 1, 8, 8, 0, 0, 256, 0},
    {"load 32B, shared +32", 0, 1, 8, 8, 0, 0, 32, 0},
    {"load u8 128B, x 1", 1, 3, 128, 8, 1, 0, 0, 0},
    {"load u8 128B, x 16", 1, 3, 128, 8, 16, 0, 0, 0},
    {"load u8 no swizzle, x 1", 1, 0, 128, 8, 1, 0, 0, 0},
    {"load u8 128B, x 8", 1, 3, 128, 8, 8, 0, 0, 0},
    {"store 128B, x 3", 0, 3, 32, 8, 3, 0, 0, 1},
    {"store no swizzle, x 3", 0, 0, 32, 8, 3, 0, 0, 1},
    {"store 128B, x 4", 0, 3, 32, 8, 4, 0, 0, 1},
    {"store 64B, x 2", 0, 2, 16, 8, 2, 0, 0, 1},
    {"store 128B, shared +128", 0, 3, 32, 8, 0, 0, 128, 1},
};
static const int NCASES = (int)(sizeof cases / sizeof cases[0]);

static uint32_t fnv(const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

static int run_case(int i) {
    const Case &c = cases[i];
    encode_fn encode = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &q) !=
            cudaSuccess || !encode) { printf("no cuTensorMapEncodeTiled\n"); return 1; }
    const int es = c.u8 ? 1 : 4, W = c.u8 ? 400 : 100, H = 70, P = 448; // row pitch in bytes
    std::vector<uint8_t> src(P * H);
    for (int i = 0; i < P * H; i++) src[i] = (uint8_t)(i * 13 + i / P);
    uint8_t *dsrc; uint32_t *ddump;
    if (cudaMalloc(&dsrc, src.size()) || cudaMalloc(&ddump, 16384)) { printf("cudaMalloc failed\n"); return 1; }
    cudaMemcpy(dsrc, src.data(), src.size(), cudaMemcpyHostToDevice);
    cudaMemset(ddump, 0, 16384);
    alignas(64) CUtensorMap tm;
    cuuint64_t dims[2] = {(cuuint64_t)W, H}, strides[1] = {P};
    cuuint32_t box[2] = {(cuuint32_t)c.bx, (cuuint32_t)c.by}, estr[2] = {1, 1};
    const CUtensorMapSwizzle sws[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                      CU_TENSOR_MAP_SWIZZLE_128B};
    CUresult e = encode(&tm, c.u8 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dsrc, dims,
                        strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, sws[c.sw], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (e != CUDA_SUCCESS) { printf("encode error %d\n", (int)e); return 0; }
    probe<<<1, 128>>>(tm, c.x, c.y, (uint32_t)c.off, (uint32_t)(c.bx * c.by * es), c.store, ddump);
    cudaError_t r = cudaGetLastError();
    if (r == cudaSuccess) r = cudaDeviceSynchronize();
    if (r != cudaSuccess) { printf("%s\n", cudaGetErrorString(r)); return 0; }
    if (c.store) {
        cudaMemcpy(src.data(), dsrc, src.size(), cudaMemcpyDeviceToHost);
        printf("ok, global %08x\n", fnv(src.data(), src.size()));
    } else {
        std::vector<uint32_t> d(4096);
        cudaMemcpy(d.data(), ddump, 16384, cudaMemcpyDeviceToHost);
        int first = -1, last = -1;
        for (int i = 0; i < 4096; i++) if (d[i] != 0xabababab) { if (first < 0) first = i; last = i; }
        printf("ok, shared %08x, words %d..%d\n", fnv(d.data(), 16384), first, last);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1) return run_case(atoi(argv[1]));
    for (int i = 0; i < NCASES; i++) {
        printf("%2d %-32s ", i, cases[i].what);
        fflush(stdout);
        pid_t p = fork();
        if (p == 0) {
            alarm(8); // a copy that never completes leaves the kernel waiting
            char arg[16];
            snprintf(arg, sizeof arg, "%d", i);
            execl("/proc/self/exe", argv[0], arg, (char *)nullptr);
            _exit(127);
        }
        int st = 0;
        waitpid(p, &st, 0);
        if (!WIFEXITED(st)) printf("stopped by signal %d\n", WTERMSIG(st));
        else if (WEXITSTATUS(st)) printf("exit %d\n", WEXITSTATUS(st));
    }
    return 0;
}
