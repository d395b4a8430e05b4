// Pointer-based device data structures and function pointers: an array of structs whose
// members point to other device buffers (deep copy from the host), a linked list laid out
// in device memory and walked by each thread, pointer arithmetic across a 2D array of
// row pointers, a __device__ table of function pointers selected per thread (indirect
// calls with divergence), and a function pointer copied to the host with
// cudaMemcpyFromSymbol and passed back as a kernel argument.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

struct Particle { float *pos; int *ids; int count; float mass; };
struct ListNode { int value; ListNode *next; };

typedef int (*BinOp)(int, int);
__device__ int opAdd(int a, int b) { return a + b; }
__device__ int opSub(int a, int b) { return a - b; }
__device__ int opMul(int a, int b) { return a * b; }
__device__ int opMax(int a, int b) { return a > b ? a : b; }
__device__ BinOp opTable[4] = {opAdd, opSub, opMul, opMax};
__device__ BinOp opMulPtr = opMul;

__global__ void momentum(const Particle *ps, int np, float *out)
{
    int p = blockIdx.x, t = threadIdx.x;
    if (p >= np) return;
    const Particle &P = ps[p];
    float s = 0;
    for (int i = t; i < P.count; i += blockDim.x) s += P.pos[i] * P.ids[i];
    atomicAdd(&out[p], s * P.mass);
}

__global__ void walk(ListNode *const *heads, int *out)
{
    int t = threadIdx.x, s = 0, len = 0;
    for (const ListNode *n = heads[t]; n; n = n->next) { s += n->value; len++; }
    out[t] = s * 100 + len;
}

__global__ void rows(int **rowPtr, int nrows, int ncols, int *out)
{
    int r = threadIdx.x;
    if (r >= nrows) return;
    int *row = rowPtr[r], acc = 0;
    for (int *p = row + ncols - 1; p >= row; p -= 2) acc += *p;
    out[r] = acc + (int)(rowPtr[nrows - 1 - r] - rowPtr[0]);
}

__global__ void applyOps(const int *a, const int *b, int *out, int n, BinOp extra)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = opTable[i & 3](a[i], b[i]) + extra(i, 2);
}

int main()
{
    int bad = 0;
    // deep copy of an array of structs with device pointers
    const int np = 5;
    Particle hp[np];
    float expect[np];
    for (int p = 0; p < np; p++) {
        int c = 50 + 37 * p;
        float *pos = (float *)malloc(c * 4); int *ids = (int *)malloc(c * 4);
        double e = 0;
        for (int i = 0; i < c; i++) { pos[i] = (float)(i % 9) * 0.5f; ids[i] = i % 4; e += pos[i] * ids[i]; }
        CHECK(cudaMalloc(&hp[p].pos, c * 4)); CHECK(cudaMalloc(&hp[p].ids, c * 4));
        CHECK(cudaMemcpy(hp[p].pos, pos, c * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(hp[p].ids, ids, c * 4, cudaMemcpyHostToDevice));
        hp[p].count = c; hp[p].mass = 1.0f + p;
        expect[p] = (float)(e * (1.0 + p));
        free(pos); free(ids);
    }
    Particle *dps; float *dout, hout[np];
    CHECK(cudaMalloc(&dps, sizeof hp)); CHECK(cudaMalloc(&dout, sizeof hout));
    CHECK(cudaMemcpy(dps, hp, sizeof hp, cudaMemcpyHostToDevice)); CHECK(cudaMemset(dout, 0, sizeof hout));
    momentum<<<np, 64>>>(dps, np, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    printf("momentum:");
    for (int p = 0; p < np; p++) { printf(" %g", hout[p]); if (hout[p] != expect[p]) bad++; }
    printf("\n");

    // linked lists in device memory: node k of list t at nodes[t*8+k]
    const int lists = 32;
    ListNode *dnodes;
    CHECK(cudaMalloc(&dnodes, lists * 8 * sizeof(ListNode)));
    ListNode hn[lists * 8];
    ListNode *hheads[lists];
    for (int t = 0; t < lists; t++) {
        int len = t % 8 + 1;
        for (int k = 0; k < len; k++) {
            hn[t * 8 + k].value = t + k * 10;
            hn[t * 8 + k].next = k + 1 < len ? dnodes + t * 8 + k + 1 : nullptr;
        }
        hheads[t] = t % 5 == 4 ? nullptr : dnodes + t * 8;
    }
    CHECK(cudaMemcpy(dnodes, hn, sizeof hn, cudaMemcpyHostToDevice));
    ListNode **dheads; int *dw, hw[lists];
    CHECK(cudaMalloc(&dheads, sizeof hheads)); CHECK(cudaMalloc(&dw, sizeof hw));
    CHECK(cudaMemcpy(dheads, hheads, sizeof hheads, cudaMemcpyHostToDevice));
    walk<<<1, lists>>>(dheads, dw);
    CHECK(cudaMemcpy(hw, dw, sizeof hw, cudaMemcpyDeviceToHost));
    for (int t = 0; t < lists; t++) {
        int len = t % 5 == 4 ? 0 : t % 8 + 1, s = 0;
        for (int k = 0; k < len; k++) s += t + k * 10;
        if (hw[t] != s * 100 + len) bad++;
    }
    printf("lists: %d %d %d %d\n", hw[0], hw[4], hw[7], hw[31]);

    // rows through row pointers
    const int nr = 12, nc = 9;
    int *dmat, hmat[nr * nc], *hrows[nr], **drows, *dr, hr[nr];
    for (int i = 0; i < nr * nc; i++) hmat[i] = i;
    CHECK(cudaMalloc(&dmat, sizeof hmat)); CHECK(cudaMemcpy(dmat, hmat, sizeof hmat, cudaMemcpyHostToDevice));
    for (int r = 0; r < nr; r++) hrows[r] = dmat + r * nc;
    CHECK(cudaMalloc(&drows, sizeof hrows)); CHECK(cudaMalloc(&dr, sizeof hr));
    CHECK(cudaMemcpy(drows, hrows, sizeof hrows, cudaMemcpyHostToDevice));
    rows<<<1, 32>>>(drows, nr, nc, dr);
    CHECK(cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost));
    for (int r = 0; r < nr; r++) {
        int acc = 0;
        for (int c = nc - 1; c >= 0; c -= 2) acc += hmat[r * nc + c];
        if (hr[r] != acc + (nr - 1 - r) * nc) bad++;
    }
    printf("rows: %d %d %d\n", hr[0], hr[5], hr[11]);

    // function pointers
    const int n = 200;
    int ha[n], hb[n], hres[n], *da, *db, *dres;
    for (int i = 0; i < n; i++) { ha[i] = i * 3 - 100; hb[i] = 50 - i; }
    CHECK(cudaMalloc(&da, sizeof ha)); CHECK(cudaMalloc(&db, sizeof hb)); CHECK(cudaMalloc(&dres, sizeof hres));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    BinOp hostCopy;
    CHECK(cudaMemcpyFromSymbol(&hostCopy, opMulPtr, sizeof hostCopy));
    applyOps<<<(n + 63) / 64, 64>>>(da, db, dres, n, hostCopy);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hres, dres, sizeof hres, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int a = ha[i], b = hb[i], r;
        switch (i & 3) { case 0: r = a + b; break; case 1: r = a - b; break; case 2: r = a * b; break; default: r = a > b ? a : b; }
        if (hres[i] != r + i * 2) bad++;
    }
    printf("function pointers: %d %d %d %d %d\n", hres[0], hres[1], hres[2], hres[3], hres[199]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
