// Warp shuffles: __shfl_sync (broadcast, arbitrary source lanes, out-of-range lanes),
// __shfl_up_sync / __shfl_down_sync / __shfl_xor_sync with widths 2..32, shuffles of
// 64-bit and floating-point values, a butterfly reduction, an inclusive scan with
// __shfl_up_sync, and shuffles under a partial member mask in a divergent branch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define FULL 0xffffffffu
#define NRES 24

__global__ void shuffles(const int *in, int *out)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int v = in[threadIdx.x];
    int *o = out + threadIdx.x * NRES;
    o[0] = __shfl_sync(FULL, v, 5);                    // broadcast
    o[1] = __shfl_sync(FULL, v, 31 - lane);            // reverse
    o[2] = __shfl_sync(FULL, v, lane + 40);            // source lane taken modulo width
    o[3] = __shfl_sync(FULL, v, 3, 8);                 // broadcast within groups of 8
    o[4] = __shfl_sync(FULL, v, lane + 1, 16);
    o[5] = __shfl_up_sync(FULL, v, 1);
    o[6] = __shfl_up_sync(FULL, v, 3, 8);
    o[7] = __shfl_down_sync(FULL, v, 1);
    o[8] = __shfl_down_sync(FULL, v, 5, 16);
    o[9] = __shfl_down_sync(FULL, v, 2, 4);
    o[10] = __shfl_xor_sync(FULL, v, 1);
    o[11] = __shfl_xor_sync(FULL, v, 16);
    o[12] = __shfl_xor_sync(FULL, v, 5, 4);            // xor beyond the width stays in the group
    o[13] = __shfl_xor_sync(FULL, v, 3, 2);
    // butterfly sum and max
    int s = v, m = v;
    for (int off = 16; off > 0; off >>= 1) { s += __shfl_xor_sync(FULL, s, off); m = max(m, __shfl_xor_sync(FULL, m, off)); }
    o[14] = s; o[15] = m;
    // inclusive scan
    int x = v;
    for (int off = 1; off < 32; off <<= 1) { int y = __shfl_up_sync(FULL, x, off); if (lane >= off) x += y; }
    o[16] = x;
    // 64-bit and double values
    long long big = ((long long)v << 32) | (unsigned)(lane * 7);
    long long got = __shfl_sync(FULL, big, (lane * 3) & 31);
    o[17] = (int)(got >> 32) ^ (int)got;
    double d = v * 0.5 + lane;
    o[18] = (int)(__shfl_down_sync(FULL, d, 4) * 4.0);
    float f = (float)v / 4.0f;
    o[19] = (int)(__shfl_xor_sync(FULL, f, 7) * 8.0f);
    // divergent: only even lanes take part, with a matching member mask
    o[20] = -1;
    if ((lane & 1) == 0) o[20] = __shfl_sync(0x55555555u, v, (lane + 2) & 31);
    // lanes 0..15 only: down-shift within the half warp
    o[21] = -2;
    if (lane < 16) o[21] = __shfl_down_sync(0x0000ffffu, v, 2, 16);
    o[22] = warp;
    // segmented sum of width 8
    int seg = v;
    for (int off = 4; off > 0; off >>= 1) seg += __shfl_down_sync(FULL, seg, off, 8);
    o[23] = __shfl_sync(FULL, seg, 0, 8);
}

static int shfl_ref(const int *v, int lane, int src, int width)
{
    int base = lane & ~(width - 1);
    return v[base + (src & (width - 1))];
}

int main()
{
    const int T = 64;
    int h[T];
    for (int i = 0; i < T; i++) h[i] = (i * 37) % 101 - 50;
    int *din, *dout;
    CHECK(cudaMalloc(&din, sizeof h)); CHECK(cudaMalloc(&dout, T * NRES * sizeof(int)));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    shuffles<<<1, T>>>(din, dout);
    CHECK(cudaGetLastError());
    int *r = (int *)malloc(T * NRES * sizeof(int));
    CHECK(cudaMemcpy(r, dout, T * NRES * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < T; t++) {
        const int *v = h + (t & ~31);
        int lane = t & 31;
        int want[NRES];
        want[0] = v[5]; want[1] = v[31 - lane]; want[2] = v[(lane + 40) & 31];
        want[3] = shfl_ref(v, lane, 3, 8); want[4] = shfl_ref(v, lane, lane + 1, 16);
        want[5] = lane >= 1 ? v[lane - 1] : v[lane];
        want[6] = (lane & 7) >= 3 ? v[lane - 3] : v[lane];
        want[7] = lane + 1 < 32 ? v[lane + 1] : v[lane];
        want[8] = (lane & 15) + 5 < 16 ? v[lane + 5] : v[lane];
        want[9] = (lane & 3) + 2 < 4 ? v[lane + 2] : v[lane];
        want[10] = v[lane ^ 1]; want[11] = v[lane ^ 16];
        // PTX shfl.bfly: source j = lane ^ mask is valid when j <= the last lane of the
        // caller's group, so a mask wider than the group can reach a lower group.
        want[12] = (lane ^ 5) <= (lane | 3) ? v[lane ^ 5] : v[lane];
        want[13] = (lane ^ 3) <= (lane | 1) ? v[lane ^ 3] : v[lane];
        int s = 0, m = -1000, x = 0;
        for (int k = 0; k < 32; k++) { s += v[k]; if (v[k] > m) m = v[k]; if (k <= lane) x += v[k]; }
        want[14] = s; want[15] = m; want[16] = x;
        int src = (lane * 3) & 31;
        want[17] = v[src] ^ (src * 7);
        want[18] = (int)(((lane + 4 < 32) ? (v[lane + 4] * 0.5 + lane + 4) : (v[lane] * 0.5 + lane)) * 4.0);
        want[19] = (int)((float)v[lane ^ 7] / 4.0f * 8.0f);
        want[20] = (lane & 1) == 0 ? v[(lane + 2) & 31] : -1;
        want[21] = lane < 16 ? (lane + 2 < 16 ? v[lane + 2] : v[lane]) : -2;
        want[22] = t >> 5;
        int seg = 0;
        for (int k = 0; k < 8; k++) seg += v[(lane & ~7) + k];
        want[23] = seg;
        for (int k = 0; k < NRES; k++)
            if (r[t * NRES + k] != want[k]) {
                if (bad < 10) printf("lane %d result %d: gpu %d host %d\n", t, k, r[t * NRES + k], want[k]);
                bad++;
            }
    }
    for (int t = 0; t < T; t += 7) {
        printf("t=%2d:", t);
        for (int k = 0; k < NRES; k++) printf(" %d", r[t * NRES + k]);
        printf("\n");
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
