// Kernel parameters: small and large structs passed by value, nested structs with arrays,
// a kernel with many parameters of mixed sizes (char, short, int, long long, float, double,
// pointers, structs), and a struct close to the 4 KB classic parameter limit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

struct Params {          // typical simulation parameters
    int n;
    float dt;
    double scale;
    char tag;
    short offsets[3];
};

struct Inner { float a, b; int k[4]; };
struct Outer { Inner in[2]; long long big; unsigned char flags; };

struct Table { int values[1000]; int count; };   // 4004 bytes

__global__ void useParams(Params p, float *out)
{
    int i = threadIdx.x;
    if (i < p.n) out[i] = (float)(p.scale * i) + p.dt * p.offsets[i % 3] + p.tag;
}

__global__ void useOuter(Outer o, long long *out)
{
    int i = threadIdx.x;
    const Inner &in = o.in[i & 1];
    out[i] = o.big + in.k[i & 3] * (long long)i + (long long)(in.a * 4.0f) - (long long)in.b + o.flags;
}

__global__ void useTable(Table t, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < t.count) out[i] = t.values[t.count - 1 - i] * 2;
}

__global__ void manyParams(char c, short s, int i, long long ll, float f, double d,
                           unsigned char uc, unsigned short us, unsigned u, unsigned long long ull,
                           const int *p1, double *p2, Params p, char c2, double d2, float f2,
                           int i2, short s2, long long ll2, char c3, int *out, double *dout)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = c; out[1] = s; out[2] = i; out[3] = (int)(ll >> 32); out[4] = (int)ll;
        out[5] = uc; out[6] = us; out[7] = (int)u; out[8] = (int)(ull >> 40);
        out[9] = p1[3]; out[10] = p.n; out[11] = p.tag; out[12] = p.offsets[2];
        out[13] = c2; out[14] = i2; out[15] = s2; out[16] = (int)(ll2 % 1000000007); out[17] = c3;
        dout[0] = f; dout[1] = d; dout[2] = d2; dout[3] = f2; dout[4] = p.scale; dout[5] = p.dt;
        p2[0] = d * d2;
    }
}

int main()
{
    int bad = 0;
    printf("sizeof Params=%zu Outer=%zu Table=%zu\n", sizeof(Params), sizeof(Outer), sizeof(Table));

    Params p; memset(&p, 0, sizeof p);
    p.n = 100; p.dt = 0.5f; p.scale = 1.25; p.tag = 7; p.offsets[0] = -2; p.offsets[1] = 10; p.offsets[2] = 300;
    float *dout, hout[128];
    CHECK(cudaMalloc(&dout, sizeof hout));
    CHECK(cudaMemset(dout, 0, sizeof hout));
    useParams<<<1, 128>>>(p, dout);
    CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 128; i++) {
        float want = i < p.n ? (float)(p.scale * i) + p.dt * p.offsets[i % 3] + p.tag : 0.0f;
        if (hout[i] != want) bad++;
    }
    printf("Params: out[0]=%g out[1]=%g out[2]=%g out[99]=%g out[100]=%g\n", hout[0], hout[1], hout[2], hout[99], hout[100]);

    Outer o; memset(&o, 0, sizeof o);
    for (int j = 0; j < 2; j++) {
        o.in[j].a = 1.5f + j; o.in[j].b = -3.0f * j;
        for (int k = 0; k < 4; k++) o.in[j].k[k] = (j + 1) * 100 + k;
    }
    o.big = 1LL << 40; o.flags = 0xA5;
    long long *dll, hll[64];
    CHECK(cudaMalloc(&dll, sizeof hll));
    useOuter<<<1, 64>>>(o, dll);
    CHECK(cudaMemcpy(hll, dll, sizeof hll, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) {
        const Inner &in = o.in[i & 1];
        long long want = o.big + in.k[i & 3] * (long long)i + (long long)(in.a * 4.0f) - (long long)in.b + o.flags;
        if (hll[i] != want) bad++;
    }
    printf("Outer: out[0]=%lld out[1]=%lld out[63]=%lld\n", hll[0], hll[1], hll[63]);

    Table *t = (Table *)malloc(sizeof(Table));
    t->count = 1000;
    for (int i = 0; i < 1000; i++) t->values[i] = i * i - 500;
    int *dti, *hti = (int *)malloc(1000 * sizeof(int));
    CHECK(cudaMalloc(&dti, 1000 * sizeof(int)));
    useTable<<<4, 256>>>(*t, dti);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hti, dti, 1000 * sizeof(int), cudaMemcpyDeviceToHost));
    long long ts = 0;
    for (int i = 0; i < 1000; i++) { if (hti[i] != t->values[999 - i] * 2) bad++; ts += hti[i]; }
    printf("Table (4004-byte parameter): out[0]=%d out[999]=%d sum=%lld\n", hti[0], hti[999], ts);

    int hp1[4] = {11, 22, 33, 44};
    int *dp1, *dio, hio[18];
    double *dp2, *ddo, hdo[6], hp2;
    CHECK(cudaMalloc(&dp1, sizeof hp1)); CHECK(cudaMalloc(&dp2, sizeof(double)));
    CHECK(cudaMalloc(&dio, sizeof hio)); CHECK(cudaMalloc(&ddo, sizeof hdo));
    CHECK(cudaMemcpy(dp1, hp1, sizeof hp1, cudaMemcpyHostToDevice));
    manyParams<<<2, 32>>>((char)-5, (short)-1234, 123456789, 0x123456789abcdefLL, 3.25f, -2.5e100,
                          (unsigned char)250, (unsigned short)65000, 4000000000u, 0xfedcba9876543210ULL,
                          dp1, dp2, p, (char)'z', 1.0 / 3.0, -0.1f, -42, (short)32767, 987654321987654321LL, (char)1,
                          dio, ddo);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hio, dio, sizeof hio, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hdo, ddo, sizeof hdo, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hp2, dp2, sizeof hp2, cudaMemcpyDeviceToHost));
    int want[18] = {-5, -1234, 123456789, (int)(0x123456789abcdefLL >> 32), (int)0x123456789abcdefLL,
                    250, 65000, (int)4000000000u, (int)(0xfedcba9876543210ULL >> 40), 44, 100, 7, 300,
                    'z', -42, 32767, (int)(987654321987654321LL % 1000000007), 1};
    printf("manyParams ints:");
    for (int i = 0; i < 18; i++) { printf(" %d", hio[i]); if (hio[i] != want[i]) bad++; }
    printf("\nmanyParams doubles:");
    double dwant[6] = {3.25, -2.5e100, 1.0 / 3.0, (double)-0.1f, 1.25, 0.5};
    for (int i = 0; i < 6; i++) { printf(" %.17g", hdo[i]); if (hdo[i] != dwant[i]) bad++; }
    printf("\nmanyParams p2=%.17g\n", hp2);
    if (hp2 != -2.5e100 * (1.0 / 3.0)) bad++;

    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
