// patterns.cu — one warp-level memory instruction per kernel launch, for reading what
// Nsight Compute counts for it (requests, sectors, shared wavefronts, bank conflicts, ...).
// Each launch is one block of 32 threads; lane i accesses base + off[i] when bit i of mask
// is set. The pattern (space, op, access size, mask, offsets) of launch number N is line N
// of the listing this program writes to argv[1]; run_h100.sh joins it with ncu's CSV into
// h100_ncu.csv, which tests/unit/test_prof_ground_truth.c checks the counting model against.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

struct Pattern { unsigned off[32]; unsigned mask; };
__constant__ Pattern c_pat;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <typename T> __device__ T make_val(unsigned v);
template <> __device__ uint8_t make_val<uint8_t>(unsigned v) { return (uint8_t)v; }
template <> __device__ uint16_t make_val<uint16_t>(unsigned v) { return (uint16_t)v; }
template <> __device__ uint32_t make_val<uint32_t>(unsigned v) { return v; }
template <> __device__ uint2 make_val<uint2>(unsigned v) { return make_uint2(v, v + 1); }
template <> __device__ uint4 make_val<uint4>(unsigned v) { return make_uint4(v, v + 1, v + 2, v + 3); }

// ---- global ----
template <typename T> __global__ void g_ld(const char *base, T *out) {
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u) out[lane] = *(const T *)(base + c_pat.off[lane]);
}
template <typename T> __global__ void g_st(char *base) {
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u) *(T *)(base + c_pat.off[lane]) = make_val<T>(lane);
}
__global__ void g_atom(char *base, unsigned *out) {
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u) out[lane] = atomicAdd((unsigned *)(base + c_pat.off[lane]), 1u);
}
__global__ void g_atom64(char *base, unsigned long long *out) {
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u)
        out[lane] = atomicAdd((unsigned long long *)(base + c_pat.off[lane]), 1ull);
}
__global__ void g_red(char *base) {
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u) atomicAdd((unsigned *)(base + c_pat.off[lane]), 1u);
}

// ---- shared ----
// The store behind a flag that is false at run time keeps the loads from being folded
// away as reads of never-written memory.
template <typename T> __global__ void s_ld(T *out, int never) {
    __shared__ __align__(128) char sm[8192];
    unsigned lane = threadIdx.x;
    if (never) { for (int i = lane; i < 8192; i += 32) sm[i] = (char)i; }
    __syncthreads();
    if ((c_pat.mask >> lane) & 1u) out[lane] = *(const T *)(sm + c_pat.off[lane]);
}
template <typename T> __global__ void s_st(T *out, int read_at) {
    __shared__ __align__(128) char sm[8192];
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u) *(T *)(sm + c_pat.off[lane]) = make_val<T>(lane);
    __syncthreads();
    if (read_at >= 0) out[lane] = *(const T *)(sm + read_at);
}

__global__ void s_atom(unsigned *out, int never) {
    __shared__ __align__(128) char sm[8192];
    unsigned lane = threadIdx.x;
    if (never) { for (int i = lane; i < 8192; i += 32) sm[i] = (char)i; }
    __syncthreads();
    if ((c_pat.mask >> lane) & 1u) out[lane] = atomicAdd((unsigned *)(sm + c_pat.off[lane]), 1u);
}

// ---- local ---- (a per-thread array indexed at run time lives in local memory)
template <typename T> __global__ void l_ld(T *out, int n) {
    T arr[64];
    unsigned lane = threadIdx.x;
    for (int i = 0; i < n; i++) arr[i] = make_val<T>(i + lane);
    if ((c_pat.mask >> lane) & 1u) out[lane] = arr[c_pat.off[lane] / sizeof(T)];
}
template <typename T> __global__ void l_st(T *out, int read_at) {
    T arr[64];
    unsigned lane = threadIdx.x;
    if ((c_pat.mask >> lane) & 1u) arr[c_pat.off[lane] / sizeof(T)] = make_val<T>(lane);
    out[lane] = arr[read_at];
}

// ---- branches ----
__global__ void br_loop(int *data, int k) {
    int x = threadIdx.x;
    int acc = data[x];
    if (x < k) {
#pragma unroll 1
        for (int i = 0; i < k; i++) acc = acc * 3 + data[(i * 7) & 31];
    }
    data[32 + x] = acc;
}

// ---- pattern generation ----
struct Launch { std::string kernel; int size; Pattern p; };
static std::vector<Launch> g_launches;

static void add(const char *kernel, int size, unsigned mask, unsigned (*f)(unsigned, unsigned)) {
    Launch L; L.kernel = kernel; L.size = size; L.p.mask = mask;
    for (unsigned i = 0; i < 32; i++) L.p.off[i] = f(i, (unsigned)size);
    g_launches.push_back(L);
}
static unsigned rnd_state;
static unsigned rnd(void) { rnd_state = rnd_state * 1103515245u + 12345u; return rnd_state >> 8; }

#define PAT(name, expr) static unsigned name(unsigned i, unsigned s) { (void)i; (void)s; return (expr); }
PAT(p_contig, i * s)
PAT(p_stride2, 2 * i * s)
PAT(p_stride3, 3 * i * s)
PAT(p_stride4, 4 * i * s)
PAT(p_shift1, s + i * s)
PAT(p_shift4, 4 + i * s)
PAT(p_bcast, 0)
PAT(p_bcast_mid, 64)
PAT(p_stride32B, i * 32)
PAT(p_stride128, i * 128)
PAT(p_rev, (31 - i) * s)
PAT(p_pairs, (i / 2) * s)
PAT(p_quads, (i / 4) * s)
PAT(p_mod16, (i % 16) * s)
PAT(p_mod8, (i % 8) * s)
PAT(p_page, i * 4096)
PAT(p_two_lines, (i % 2) * 128)
PAT(p_pad33, i * 132)  /* 4-byte words padded to rows of 33 */
PAT(p_xor1, (i ^ 1) * s)
PAT(p_half_swap, ((i + 16) % 32) * s)
static unsigned rnd_offs[32];
PAT(p_random, rnd_offs[i])

static void add_random(const char *kernel, int size, unsigned mask, unsigned span, unsigned seed) {
    rnd_state = seed;
    for (int i = 0; i < 32; i++) rnd_offs[i] = (rnd() % (span / size)) * size;
    add(kernel, size, mask, p_random);
}

static void add_global_like(const char *kernel, int s) {
    add(kernel, s, ~0u, p_contig);
    add(kernel, s, ~0u, p_stride2);
    add(kernel, s, ~0u, p_stride3);
    add(kernel, s, ~0u, p_shift1);
    if (s < 4) add(kernel, s, ~0u, p_shift4);
    add(kernel, s, ~0u, p_bcast);
    if (s < 32) add(kernel, s, ~0u, p_stride32B);
    add(kernel, s, ~0u, p_stride128);
    add(kernel, s, 0x0000ffffu, p_contig);
    add(kernel, s, 0xffff0000u, p_contig);
    add(kernel, s, 0x00000001u, p_contig);
    add(kernel, s, 0xaaaaaaaau, p_contig);
    add(kernel, s, ~0u, p_rev);
    add(kernel, s, ~0u, p_pairs);
    add(kernel, s, ~0u, p_mod16);
    add(kernel, s, ~0u, p_page);
    add_random(kernel, s, ~0u, 2048, 7u + s);
    add_random(kernel, s, 0x5a5a0ff0u, 512, 11u + s);
}

static void add_shared_like(const char *kernel, int s) {
    add(kernel, s, ~0u, p_contig);
    add(kernel, s, ~0u, p_stride2);
    add(kernel, s, ~0u, p_stride3);
    add(kernel, s, ~0u, p_stride4);
    add(kernel, s, ~0u, p_bcast);
    add(kernel, s, ~0u, p_bcast_mid);
    add(kernel, s, ~0u, p_stride32B);
    add(kernel, s, ~0u, p_stride128);
    add(kernel, s, ~0u, p_two_lines);
    add(kernel, s, ~0u, p_rev);
    add(kernel, s, ~0u, p_pairs);
    add(kernel, s, ~0u, p_quads);
    add(kernel, s, ~0u, p_mod16);
    add(kernel, s, ~0u, p_mod8);
    add(kernel, s, ~0u, p_xor1);
    add(kernel, s, ~0u, p_half_swap);
    if (s == 4) add(kernel, s, ~0u, p_pad33);
    add(kernel, s, 0x0000ffffu, p_contig);
    add(kernel, s, 0xffff0000u, p_contig);
    add(kernel, s, 0x000000ffu, p_contig);
    add(kernel, s, 0x00000001u, p_contig);
    add(kernel, s, 0xaaaaaaaau, p_contig);
    add(kernel, s, 0x0000ffffu, p_stride2);
    add(kernel, s, 0x000000ffu, p_stride4);
    add_random(kernel, s, ~0u, 4096, 3u + s);
    add_random(kernel, s, ~0u, 1024, 5u + s);
    add_random(kernel, s, 0x00ff00ffu, 2048, 9u + s);
}

template <typename T> static void launch_sized(const Launch &L, char *gbuf, void *out) {
    const std::string &k = L.kernel;
    if (k == "global_ld") g_ld<T><<<1, 32>>>(gbuf, (T *)out);
    else if (k == "global_st") g_st<T><<<1, 32>>>(gbuf);
    else if (k == "shared_ld") s_ld<T><<<1, 32>>>((T *)out, 0);
    else if (k == "shared_st") s_st<T><<<1, 32>>>((T *)out, -1);
    else if (k == "local_ld") l_ld<T><<<1, 32>>>((T *)out, 64);
    else if (k == "local_st") l_st<T><<<1, 32>>>((T *)out, 0);
    else { fprintf(stderr, "unknown kernel %s\n", k.c_str()); exit(1); }
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s listing.txt\n", argv[0]); return 2; }
    const int sizes[] = {1, 2, 4, 8, 16};
    for (int s : sizes) add_global_like("global_ld", s);
    for (int s : sizes) add_global_like("global_st", s);
    for (int s : sizes) add_shared_like("shared_ld", s);
    for (int s : sizes) add_shared_like("shared_st", s);
    const int lsizes[] = {1, 2, 4, 8, 16};
    for (int s : lsizes) {
        for (const char *k : {"local_ld", "local_st"}) {
            add(k, s, ~0u, p_bcast);
            add(k, s, ~0u, p_contig);
            add(k, s, ~0u, p_pairs);
            add(k, s, 0x0000ffffu, p_bcast);
            add(k, s, ~0u, p_mod8);
        }
    }
    for (const char *k : {"shared_atom"}) {
        add(k, 4, ~0u, p_contig);
        add(k, 4, ~0u, p_bcast);
        add(k, 4, ~0u, p_stride2);
        add(k, 4, ~0u, p_stride4);
        add(k, 4, ~0u, p_stride128);
        add(k, 4, ~0u, p_pairs);
        add(k, 4, ~0u, p_two_lines);
        add(k, 4, 0x0000ffffu, p_contig);
        add_random(k, 4, ~0u, 1024, 23u);
        add_random(k, 4, ~0u, 256, 29u);
    }
    add("global_atom64", 8, ~0u, p_contig);
    add("global_atom64", 8, ~0u, p_bcast);
    add("global_atom64", 8, ~0u, p_pairs);
    add("global_atom64", 8, ~0u, p_stride32B);
    add_random("global_atom64", 8, ~0u, 1024, 31u);
    for (const char *k : {"global_atom", "global_red"}) {
        add(k, 4, ~0u, p_contig);
        add(k, 4, ~0u, p_bcast);
        add(k, 4, ~0u, p_stride2);
        add(k, 4, ~0u, p_stride32B);
        add(k, 4, ~0u, p_stride128);
        add(k, 4, ~0u, p_pairs);
        add(k, 4, 0x0000ffffu, p_contig);
        add_random(k, 4, ~0u, 1024, 21u);
    }

    char *gbuf; void *out; int *bdata;
    CK(cudaMalloc(&gbuf, 1 << 20));
    CK(cudaMemset(gbuf, 0, 1 << 20));
    CK(cudaMalloc(&out, 32 * 16 * 2));
    CK(cudaMalloc(&bdata, 64 * sizeof(int)));
    CK(cudaMemset(bdata, 0, 64 * sizeof(int)));

    FILE *f = fopen(argv[1], "w");
    if (!f) { perror(argv[1]); return 1; }
    int id = 0;
    for (const Launch &L : g_launches) {
        CK(cudaMemcpyToSymbol(c_pat, &L.p, sizeof(Pattern)));
        if (L.kernel == "global_atom") g_atom<<<1, 32>>>(gbuf, (unsigned *)out);
        else if (L.kernel == "global_atom64") g_atom64<<<1, 32>>>(gbuf, (unsigned long long *)out);
        else if (L.kernel == "shared_atom") s_atom<<<1, 32>>>((unsigned *)out, 0);
        else if (L.kernel == "global_red") g_red<<<1, 32>>>(gbuf);
        else switch (L.size) {
            case 1: launch_sized<uint8_t>(L, gbuf, out); break;
            case 2: launch_sized<uint16_t>(L, gbuf, out); break;
            case 4: launch_sized<uint32_t>(L, gbuf, out); break;
            case 8: launch_sized<uint2>(L, gbuf, out); break;
            case 16: launch_sized<uint4>(L, gbuf, out); break;
        }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        fprintf(f, "%d %s %d %08x", id++, L.kernel.c_str(), L.size, L.p.mask);
        for (int i = 0; i < 32; i++) fprintf(f, " %u", L.p.off[i]);
        fprintf(f, "\n");
    }
    for (int k : {32, 16, 1, 0}) {
        br_loop<<<1, 32>>>(bdata, k);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        fprintf(f, "%d branch_loop %d 0\n", id++, k);
    }
    fclose(f);
    printf("%d launches\n", id);
    return 0;
}
