/* lane_patterns.cu — the lane patterns of tree reductions, each checked against the host:
 * `tid % d == 0` for divisors that are powers of two and one that is not (the lanes it
 * picks, as a bit mask per warp), accesses whose address steps by a multiple of their
 * size from lane to lane (a[2 * s * tid], 4 and 8 bytes) under full and partial masks,
 * and stores by one lane, some lanes and all lanes of a warp. Prints one line per case:
 * its name, a checksum of the device's values, and whether they equal the host's. */
#include <cstdio>
#include <cstdlib>

#define N 4096
#define BLOCK 256
#define GRID 4

/* each warp's lanes where tid % d == 0, as a mask (warp w of block b at out[b * 8 + w]) */
__global__ void remMask(unsigned *out, unsigned d)
{
    unsigned tid = threadIdx.x;
    unsigned bit = 0;
    if ((tid % d) == 0)
        bit = 1u << (tid & 31);
    atomicOr(&out[blockIdx.x * (BLOCK / 32) + tid / 32], bit);
}

/* the neighbour-pair tree on ints in place, one partial sum per block */
__global__ void neighbored(int *data, int *sums)
{
    unsigned tid = threadIdx.x;
    int *d = data + blockIdx.x * blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            d[tid] += d[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        sums[blockIdx.x] = d[0];
}

/* strided 8-byte loads a[2 * s * tid] and a[2 * s * tid + s], for the threads in range */
__global__ void strided8(const long long *a, long long *out, int s)
{
    unsigned tid = threadIdx.x;
    int idx = 2 * s * tid;
    long long v = -1;
    if (idx < 4 * (int)blockDim.x)
        v = a[idx] + a[idx + s];
    out[blockIdx.x * blockDim.x + tid] = v;
}

/* strided 4-byte loads under a mask that leaves holes in every chunk of lanes */
__global__ void strided4(const int *a, long long *out, int s)
{
    unsigned tid = threadIdx.x;
    int idx = 3 * s * tid;
    long long v = tid;
    if (tid % 3 != 1 && idx < 4 * (int)blockDim.x)
        v = (long long)a[idx] * 3 + a[idx + 1];
    out[blockIdx.x * blockDim.x + tid] = v;
}

/* contiguous stores by the lanes below k of each warp (none, one, some, all) */
__global__ void prefixStore(int *out, long long *out8, int k)
{
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    if ((int)(tid & 31) < k) {
        out[i] = (int)(i * 7 + k);
        out8[i] = (long long)i * 1000003 + k;
    }
}

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
    return (h ^ v) * 0x100000001b3ull;
}

static int failures;
static void report(const char *name, unsigned long long dev, unsigned long long host)
{
    printf("%-16s %016llx %s\n", name, dev, dev == host ? "ok" : "MISMATCH");
    if (dev != host)
        failures++;
}

int main()
{
    unsigned *mask;
    int *data, *sums, *ia, *out4;
    long long *la, *out8;
    cudaMallocManaged(&mask, GRID * (BLOCK / 32) * sizeof(unsigned));
    cudaMallocManaged(&data, GRID * BLOCK * sizeof(int));
    cudaMallocManaged(&sums, GRID * sizeof(int));
    cudaMallocManaged(&ia, N * sizeof(int));
    cudaMallocManaged(&out4, GRID * BLOCK * sizeof(int));
    cudaMallocManaged(&la, N * sizeof(long long));
    cudaMallocManaged(&out8, GRID * BLOCK * sizeof(long long));
    for (int i = 0; i < N; i++) {
        ia[i] = i * 7 - 100;
        la[i] = (long long)i * 1000003 + 7;
    }

    const unsigned divisors[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 3};
    for (unsigned d : divisors) {
        cudaMemset(mask, 0, GRID * (BLOCK / 32) * sizeof(unsigned));
        remMask<<<GRID, BLOCK>>>(mask, d);
        cudaDeviceSynchronize();
        unsigned long long hd = 14695981039346656037ull, hh = hd;
        for (int b = 0; b < GRID; b++)
            for (int w = 0; w < BLOCK / 32; w++) {
                unsigned m = 0;
                for (int l = 0; l < 32; l++)
                    if (((unsigned)(w * 32 + l) % d) == 0)
                        m |= 1u << l;
                hd = mix(hd, mask[b * (BLOCK / 32) + w]);
                hh = mix(hh, m);
            }
        char name[32];
        snprintf(name, sizeof name, "rem_mask_%u", d);
        report(name, hd, hh);
    }

    for (int i = 0; i < GRID * BLOCK; i++)
        data[i] = (i * 37) % 1001 - 500;
    long long want[GRID] = {0};
    for (int i = 0; i < GRID * BLOCK; i++)
        want[i / BLOCK] += data[i];
    neighbored<<<GRID, BLOCK>>>(data, sums);
    cudaDeviceSynchronize();
    {
        unsigned long long hd = 14695981039346656037ull, hh = hd;
        for (int b = 0; b < GRID; b++) {
            hd = mix(hd, (unsigned)sums[b]);
            hh = mix(hh, (unsigned)want[b]);
        }
        report("neighbored", hd, hh);
    }

    for (int s = 1; s <= 8; s *= 2) {
        strided8<<<GRID, BLOCK>>>(la, out8, s);
        cudaDeviceSynchronize();
        unsigned long long hd = 14695981039346656037ull, hh = hd;
        for (int b = 0; b < GRID; b++)
            for (int t = 0; t < BLOCK; t++) {
                int idx = 2 * s * t;
                long long v = idx < 4 * BLOCK ? la[idx] + la[idx + s] : -1;
                hd = mix(hd, (unsigned long long)out8[b * BLOCK + t]);
                hh = mix(hh, (unsigned long long)v);
            }
        char name[32];
        snprintf(name, sizeof name, "strided8_%d", s);
        report(name, hd, hh);
        strided4<<<GRID, BLOCK>>>(ia, out8, s);
        cudaDeviceSynchronize();
        hd = hh = 14695981039346656037ull;
        for (int b = 0; b < GRID; b++)
            for (int t = 0; t < BLOCK; t++) {
                int idx = 3 * s * t;
                long long v = t;
                if (t % 3 != 1 && idx < 4 * BLOCK)
                    v = (long long)ia[idx] * 3 + ia[idx + 1];
                hd = mix(hd, (unsigned long long)out8[b * BLOCK + t]);
                hh = mix(hh, (unsigned long long)v);
            }
        snprintf(name, sizeof name, "strided4_%d", s);
        report(name, hd, hh);
    }

    const int ks[] = {0, 1, 2, 5, 8, 9, 17, 31, 32};
    for (int k : ks) {
        for (int i = 0; i < GRID * BLOCK; i++) {
            out4[i] = -1;
            out8[i] = -1;
        }
        prefixStore<<<GRID, BLOCK>>>(out4, out8, k);
        cudaDeviceSynchronize();
        unsigned long long hd = 14695981039346656037ull, hh = hd;
        for (int i = 0; i < GRID * BLOCK; i++) {
            bool on = (i % 32) < k;
            hd = mix(hd, (unsigned)out4[i]);
            hd = mix(hd, (unsigned long long)out8[i]);
            hh = mix(hh, on ? (unsigned)(i * 7 + k) : 0xffffffffu);
            hh = mix(hh, on ? (unsigned long long)((long long)i * 1000003 + k) : ~0ull);
        }
        char name[32];
        snprintf(name, sizeof name, "prefix_store_%d", k);
        report(name, hd, hh);
    }
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
