// Device memory is mapped in 2 MiB pages, and small allocations are packed one after the
// other into shared pages, each rounded up to 512 bytes. A kernel that runs a little past
// the end of an allocation (a grid larger than its array, no bounds test) touches mapped
// memory and runs on; only an access outside every mapping faults. compute-sanitizer (and
// `vcuda check`) still report such accesses.
#include <cstdio>

__global__ void add_unchecked(const float *a, const float *b, float *c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x; /* no i < n test */
    c[i] = a[i] + b[i];
}

__global__ void add2d_unchecked(const float *a, const float *b, float *c, int nx) {
    int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
    int i = iy * nx + ix; /* no ix < nx, iy < ny test */
    c[i] = a[i] + b[i];
}

__global__ void fill_bytes(unsigned char *p, int from, int to, unsigned char v) {
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < to) p[i] = v;
}

__global__ void read_at(const int *p, long long word, int *out) { out[0] = p[word]; }

static void report(const char *what, cudaError_t e) { printf("%-48s %s\n", what, cudaGetErrorName(e)); }

int main() {
    /* 1,000 floats each, a grid of 1,024 threads */
    const int n = 1000;
    float h[1024], *a, *b, *c;
    for (int i = 0; i < n; ++i) h[i] = 0.5f * i;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice);
    add_unchecked<<<4, 256>>>(a, b, c);
    report("vector add, 1024 threads over 1000 floats", cudaDeviceSynchronize());
    cudaMemcpy(h, c, n * sizeof(float), cudaMemcpyDeviceToHost);
    double s = 0;
    for (int i = 0; i < n; ++i) s += h[i];
    printf("  sum %.1f (expected %.1f)\n", s, 0.5 * n * (n - 1));

    /* a 1000 x 1000 matrix in 32 x 32 blocks: the last row of blocks runs 24 rows past */
    const int nx = 1000, ny = 1000;
    size_t bytes = (size_t)nx * ny * sizeof(float);
    float *ma, *mb, *mc, *hm = (float *)malloc(bytes);
    for (int i = 0; i < nx * ny; ++i) hm[i] = (float)(i % 97);
    cudaMalloc(&ma, bytes);
    cudaMalloc(&mb, bytes);
    cudaMalloc(&mc, bytes);
    cudaMemcpy(ma, hm, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(mb, hm, bytes, cudaMemcpyHostToDevice);
    add2d_unchecked<<<dim3(32, 32), dim3(32, 32)>>>(ma, mb, mc, nx);
    report("matrix add, 1024 x 1024 threads over 1000 x 1000", cudaDeviceSynchronize());
    cudaMemcpy(hm, mc, bytes, cudaMemcpyDeviceToHost);
    long long ms = 0, me = 0;
    for (int i = 0; i < nx * ny; ++i) {
        ms += (long long)hm[i];
        me += 2 * (i % 97);
    }
    printf("  sum %lld (expected %lld)\n", ms, me);

    /* two blocks of 1,000 bytes made one after the other: the second starts 1,024 bytes
     * after the first, so bytes 1,024.. of the first are the second's */
    unsigned char *x, *y, hy[128];
    cudaMalloc(&x, 1000);
    cudaMalloc(&y, 1000);
    printf("  y - x = %lld bytes\n", (long long)(y - x));
    cudaMemset(y, 0, 1000);
    fill_bytes<<<1, 128>>>(x, 1000, 1100, 0x5a);
    report("bytes 1000..1099 of a 1000-byte block written", cudaDeviceSynchronize());
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    int changed = 0;
    for (int i = 0; i < 128; ++i) changed += hy[i] == 0x5a;
    printf("  bytes of the next block changed: %d\n", changed);

    /* 64 KiB past a 256-byte block: still inside its 2 MiB page */
    int *small, *out, v = -1;
    cudaMalloc(&small, 256);
    cudaMalloc(&out, sizeof(int));
    read_at<<<1, 1>>>(small, 1 << 14, out);
    report("a read 64 KiB past a 256-byte block", cudaDeviceSynchronize());

    /* 3,000,000 bytes take two 2 MiB pages: its fourth MiB is mapped, the fifth is not */
    int *big;
    cudaMalloc(&big, 3000000);
    read_at<<<1, 1>>>(big, 3000000 / 4, out);
    report("a read just past a 3,000,000-byte block", cudaDeviceSynchronize());
    read_at<<<1, 1>>>(big, (4 << 20) / 4 - 1, out);
    report("a read of the last word of its 4 MiB", cudaDeviceSynchronize());
    cudaMemcpy(&v, out, sizeof v, cudaMemcpyDeviceToHost);
    printf("  read %d\n", v);

    /* exactly 2 MiB: the word after it is unmapped (the context is lost from here) */
    int *two;
    cudaMalloc(&two, 2 << 20);
    read_at<<<1, 1>>>(two, (2 << 20) / 4, out);
    report("a read just past a 2 MiB block", cudaDeviceSynchronize());
    return 0;
}
