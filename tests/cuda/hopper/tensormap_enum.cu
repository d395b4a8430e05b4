// tensormap.replace of the enumerated fields (sm_90a): elemtype (codes 0 to 12), fill_mode,
// swizzle_mode, interleave_layout and rank (ptxas refuses swizzle_atomicity on sm_90a), each
// edited in a tiled map in global memory, then a tensor load through the edited map: what
// arrives in shared memory (prefilled with 0xab bytes) shows the element size, the
// out-of-bounds fill, the swizzle and the rank the code stands for. Each case runs in a
// process of its own (a refused value is a sticky error). expected/tensormap_enum.out was
// printed by an H200.
// nvcc-flags: -gencode arch=compute_90a,code=sm_90a
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <sys/wait.h>

enum { F_ELEMTYPE, F_FILL, F_SWIZZLE, F_INTERLEAVE, F_RANK };

// new_val of an enumerated field is an immediate (ptxas checks its range per field)
template <int V> __device__ void rep(CUtensorMap *g, int field) {
    if constexpr (V <= 12) if (field == F_ELEMTYPE) asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], %1;" ::"l"(g), "n"(V) : "memory");
    if constexpr (V <= 1) if (field == F_FILL) asm volatile("tensormap.replace.tile.fill_mode.global.b1024.b32 [%0], %1;" ::"l"(g), "n"(V) : "memory");
    if constexpr (V <= 3) if (field == F_SWIZZLE) asm volatile("tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], %1;" ::"l"(g), "n"(V) : "memory");
    if constexpr (V <= 2) if (field == F_INTERLEAVE) asm volatile("tensormap.replace.tile.interleave_layout.global.b1024.b32 [%0], %1;" ::"l"(g), "n"(V) : "memory");
    if constexpr (V <= 2) if (field == F_RANK) asm volatile("tensormap.replace.tile.rank.global.b1024.b32 [%0], %1;" ::"l"(g), "n"(V) : "memory");
}
__device__ void edit(CUtensorMap *g, int field, int val) {
    switch (val) {
    case 0: rep<0>(g, field); break; case 1: rep<1>(g, field); break; case 2: rep<2>(g, field); break;
    case 3: rep<3>(g, field); break; case 4: rep<4>(g, field); break; case 5: rep<5>(g, field); break;
    case 6: rep<6>(g, field); break; case 7: rep<7>(g, field); break; case 8: rep<8>(g, field); break;
    case 9: rep<9>(g, field); break; case 10: rep<10>(g, field); break; case 11: rep<11>(g, field); break;
    case 12: rep<12>(g, field); break;
    }
}

__global__ void edit_load(CUtensorMap *gmap, int field, int val, int dims, int x, int y, unsigned bytes, uint8_t *out, int *status) {
    __shared__ alignas(1024) uint8_t s[2048];
    __shared__ alignas(8) uint64_t bar;
    int t = threadIdx.x;
    for (int i = t; i < 2048; i += blockDim.x) s[i] = 0xab;
    uint32_t sb = (uint32_t)__cvta_generic_to_shared(&bar), sd = (uint32_t)__cvta_generic_to_shared(s);
    if (t == 0) {
        edit(gmap, field, val);
        asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sb));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    int done = 0;
    if (t == 0) {
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sb), "r"(bytes) : "memory");
        if (dims == 1)
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                         ::"r"(sd), "l"(gmap), "r"(x), "r"(sb) : "memory");
        else if (dims == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         ::"r"(sd), "l"(gmap), "r"(x), "r"(y), "r"(sb) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                         ::"r"(sd), "l"(gmap), "r"(x), "r"(y), "r"(0), "r"(sb) : "memory");
        // a bounded wait: a size other than the one expected never completes the phase
        for (int i = 0; i < 20000 && !done; i++) {
            uint32_t p;
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.shared::cta.b64 q, [%1], 0; selp.u32 %0, 1, 0, q; }"
                         : "=r"(p) : "r"(sb) : "memory");
            done = p;
        }
        if (!done) for (volatile int i = 0; i < 200000; i++) {}
        *status = done;
    }
    __syncthreads();
    for (int i = t; i < 2048; i += blockDim.x) out[i] = s[i];
}

typedef CUresult (*enc_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                          const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                          CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

struct Case { const char *what; int field, val; };
static Case cases[64];
static int ncases;

static int run_case(int i) {
    const Case &c = cases[i];
    enc_t enc = 0;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&enc, 12000, cudaEnableDefault, &q) != cudaSuccess || !enc) {
        printf("no cuTensorMapEncodeTiled\n");
        return 1;
    }
    // global memory: byte i holds i (low byte) in a 16 KiB buffer; as f32 rows of 64 floats, element i = i
    static uint8_t g[16384];
    uint8_t *dg, *dout;
    int *dst;
    CUtensorMap *gmap;
    cudaMalloc(&dg, sizeof g); cudaMalloc(&dout, 2048); cudaMalloc(&dst, 4); cudaMalloc(&gmap, sizeof(CUtensorMap));
    bool floats = c.field != F_ELEMTYPE;
    for (int k = 0; k < 16384 / 4; k++) {
        if (floats) { float f = (float)k; memcpy(&g[4 * k], &f, 4); }
        else for (int b = 0; b < 4; b++) g[4 * k + b] = (uint8_t)(k * 4 + b);
    }
    cudaMemcpy(dg, g, sizeof g, cudaMemcpyHostToDevice);
    alignas(64) CUtensorMap m;
    cuuint64_t dims[3] = {64, 16, 4}, strides[2] = {256, 4096};
    cuuint32_t box[3] = {8, 8, 1}, es[3] = {1, 1, 1};
    CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_NONE;
    CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
    int rank = 2, ldims = 2, x = 0, y = 0;
    unsigned bytes = 8 * 8 * 4;
    switch (c.field) {
    case F_ELEMTYPE: { // 16 elements of row 3 and 4 from element 8 on: half of each row past the edge
        dims[0] = 16; box[0] = 16; box[1] = 2; x = 8; y = 14;
        fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
        static const int size[16] = {1, 2, 4, 4, 8, 8, 2, 4, 4, 8, 2, 4, 4, 1, 1, 1};
        bytes = 16 * 2 * size[c.val];
        break;
    }
    case F_FILL: dims[0] = 12; box[1] = 2; x = 8; bytes = 8 * 2 * 4;
        if (c.val == 0) fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
        break;
    case F_SWIZZLE: case F_INTERLEAVE: break;
    case F_RANK: rank = 3; box[1] = 2; box[2] = 2; ldims = c.val + 1; bytes = ldims == 1 ? 32 : ldims == 2 ? 64 : 128; y = 1; break;
    }
    CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, rank, dg, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                     CU_TENSOR_MAP_L2_PROMOTION_NONE, fill);
    if (r != CUDA_SUCCESS) { printf("encode %d\n", (int)r); return 1; }
    cudaMemcpy(gmap, &m, sizeof m, cudaMemcpyHostToDevice);
    cudaMemset(dst, 0, 4);
    edit_load<<<1, 128>>>(gmap, c.field, c.val, ldims, x, y, bytes, dout, dst);
    cudaError_t e = cudaDeviceSynchronize();
    static uint8_t o[2048];
    int st = 0;
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    cudaMemcpy(&st, dst, 4, cudaMemcpyDeviceToHost);
    printf("%s, %s\n", cudaGetErrorString(e), e != cudaSuccess ? "-" : st ? "complete" : "incomplete");
    if (e != cudaSuccess) return 0;
    int last = 2047;
    while (last >= 0 && o[last] == 0xab) last--;
    if (floats) {
        for (int k = 0; k * 4 <= last; k++) {
            float f; memcpy(&f, &o[4 * k], 4);
            uint32_t u; memcpy(&u, &o[4 * k], 4);
            if (k % 16 == 0) printf("%s   ", k ? "\n" : "");
            if (u == 0xabababab) printf(" .");
            else if (f != f) printf(" nan%x", u);
            else printf(" %g", f);
        }
    } else {
        for (int k = 0; k <= last; k++) printf("%s%02x", k % 32 == 0 ? (k ? "\n    " : "    ") : " ", o[k]);
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    static char names[64][48];
    for (int v = 0; v < 13; v++) { snprintf(names[ncases], 48, "elemtype %d", v); cases[ncases] = {names[ncases], F_ELEMTYPE, v}; ncases++; }
    for (int v = 0; v < 2; v++) { snprintf(names[ncases], 48, "fill_mode %d", v); cases[ncases] = {names[ncases], F_FILL, v}; ncases++; }
    for (int v = 0; v < 4; v++) { snprintf(names[ncases], 48, "swizzle_mode %d", v); cases[ncases] = {names[ncases], F_SWIZZLE, v}; ncases++; }
    for (int v = 0; v < 3; v++) { snprintf(names[ncases], 48, "interleave_layout %d", v); cases[ncases] = {names[ncases], F_INTERLEAVE, v}; ncases++; }
    for (int v = 0; v < 3; v++) { snprintf(names[ncases], 48, "rank %d", v); cases[ncases] = {names[ncases], F_RANK, v}; ncases++; }
    if (argc > 1) return run_case(atoi(argv[1]));
    for (int i = 0; i < ncases; i++) {
        printf("%-22s ", cases[i].what);
        fflush(stdout);
        pid_t p = fork();
        if (p == 0) {
            alarm(20);
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
