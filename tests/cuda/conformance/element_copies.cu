// Grid-stride copies of arrays of 1-, 2-, 4-, 8-, 12- and 16-byte elements, aligned and
// not (structs of bytes and of ints), in global memory and through shared memory, with
// sign and zero extension of narrow loads, and with partial warps (a count that is no
// multiple of 32): every lane's access of a warp steps by one constant, the shape a warp
// of x[i] or a[i].field has. Each result is checked against the host's copy; the lines
// printed follow from the program alone (what any GPU that runs it prints).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

struct RGBA8u { unsigned char r, g, b, a; };            // 4 bytes, byte-aligned
struct RGB32u { unsigned int r, g, b; };                // 12 bytes, 4-aligned
struct __align__(8) LA32 { unsigned int l, a; };        // one 8-byte vector access
struct __align__(16) RGBA32 { unsigned int r, g, b, a; };
struct __align__(16) RGB32a { unsigned int r, g, b; };  // 16 bytes with padding

template <class T> __global__ void copy(T *dst, const T *src, int n) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x, nt = blockDim.x * gridDim.x;
  for (int i = tid; i < n; i += nt) dst[i] = src[i];
}

// Narrow loads widened: signed bytes and shorts sign-extended, unsigned ones not.
__global__ void widen(int *out, const signed char *sb, const unsigned char *ub, const short *ss,
                      const unsigned short *us, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) out[i] = sb[i] * 1000003 + ub[i] * 1009 + ss[i] * 7 + us[i];
}

// Through shared memory: bytes stored at a stride of 3, read back at stride 1 and 3.
__global__ void shared_bytes(unsigned char *out, const unsigned char *in) {
  __shared__ unsigned char s[3 * 256];
  int t = threadIdx.x;
  s[3 * t] = in[blockIdx.x * 256 + t];
  s[3 * t + 1] = (unsigned char)(in[blockIdx.x * 256 + t] ^ 0x5a);
  s[3 * t + 2] = (unsigned char)t;
  __syncthreads();
  out[blockIdx.x * 768 + t] = s[t];
  out[blockIdx.x * 768 + 256 + t] = s[3 * (255 - t) + 1];
  out[blockIdx.x * 768 + 512 + t] = (unsigned char)(s[3 * t + 2] + s[3 * t]);
}

static unsigned long long fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  unsigned long long h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

template <class T> static int test(const char *name, int n) {
  size_t bytes = (size_t)n * sizeof(T);
  unsigned char *h = (unsigned char *)malloc(bytes), *r = (unsigned char *)malloc(bytes);
  for (size_t i = 0; i < bytes; i++) h[i] = (unsigned char)(i * 7 + (i >> 8) + 1);
  T *s, *d;
  cudaMalloc(&s, bytes);
  cudaMalloc(&d, bytes);
  cudaMemcpy(s, h, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d, 0, bytes);
  copy<T><<<13, 96>>>(d, s, n);
  cudaMemcpy(r, d, bytes, cudaMemcpyDeviceToHost);
  int ok = memcmp(h, r, bytes) == 0;
  printf("%-8s %2zu bytes x %6d: %s, hash %016llx\n", name, sizeof(T), n, ok ? "ok" : "WRONG",
         fnv(r, bytes));
  cudaFree(s);
  cudaFree(d);
  free(h);
  free(r);
  return !ok;
}

int main() {
  int bad = 0;
  bad += test<unsigned char>("u8", 100003);
  bad += test<unsigned short>("u16", 50001);
  bad += test<RGBA8u>("rgba8u", 25013);
  bad += test<unsigned int>("u32", 25013);
  bad += test<LA32>("la32", 12511);
  bad += test<RGB32u>("rgb32u", 8333);
  bad += test<RGB32a>("rgb32a", 6007);
  bad += test<RGBA32>("rgba32", 6007);

  const int n = 4000;
  signed char hsb[n];
  unsigned char hub[n];
  short hss[n];
  unsigned short hus[n];
  for (int i = 0; i < n; i++) {
    hsb[i] = (signed char)(i * 37);
    hub[i] = (unsigned char)(i * 91);
    hss[i] = (short)(i * 4099);
    hus[i] = (unsigned short)(i * 40009);
  }
  signed char *dsb;
  unsigned char *dub;
  short *dss;
  unsigned short *dus;
  int *dout, hout[n];
  cudaMalloc(&dsb, n);
  cudaMalloc(&dub, n);
  cudaMalloc(&dss, 2 * n);
  cudaMalloc(&dus, 2 * n);
  cudaMalloc(&dout, 4 * n);
  cudaMemcpy(dsb, hsb, n, cudaMemcpyHostToDevice);
  cudaMemcpy(dub, hub, n, cudaMemcpyHostToDevice);
  cudaMemcpy(dss, hss, 2 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(dus, hus, 2 * n, cudaMemcpyHostToDevice);
  widen<<<(n + 127) / 128, 128>>>(dout, dsb, dub, dss, dus, n);
  cudaMemcpy(hout, dout, 4 * n, cudaMemcpyDeviceToHost);
  int wok = 1;
  long long wsum = 0;
  for (int i = 0; i < n; i++) {
    wok &= hout[i] == hsb[i] * 1000003 + hub[i] * 1009 + hss[i] * 7 + hus[i];
    wsum += hout[i];
  }
  printf("widen    s8 u8 s16 u16 x %d: %s, sum %lld\n", n, wok ? "ok" : "WRONG", wsum);
  bad += !wok;

  const int blocks = 5;
  unsigned char hin[blocks * 256], hres[blocks * 768];
  for (int i = 0; i < blocks * 256; i++) hin[i] = (unsigned char)(i * 13 + 5);
  unsigned char *din, *dres;
  cudaMalloc(&din, sizeof hin);
  cudaMalloc(&dres, sizeof hres);
  cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
  shared_bytes<<<blocks, 256>>>(dres, din);
  cudaMemcpy(hres, dres, sizeof hres, cudaMemcpyDeviceToHost);
  int sok = 1;
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < 256; t++) {
      unsigned char s[768];
      for (int u = 0; u < 256; u++) {
        s[3 * u] = hin[b * 256 + u];
        s[3 * u + 1] = (unsigned char)(hin[b * 256 + u] ^ 0x5a);
        s[3 * u + 2] = (unsigned char)u;
      }
      sok &= hres[b * 768 + t] == s[t];
      sok &= hres[b * 768 + 256 + t] == s[3 * (255 - t) + 1];
      sok &= hres[b * 768 + 512 + t] == (unsigned char)(s[3 * t + 2] + s[3 * t]);
    }
  printf("shared   bytes at strides 1 and 3: %s, hash %016llx\n", sok ? "ok" : "WRONG",
         fnv(hres, sizeof hres));
  bad += !sok;

  cudaError_t e = cudaDeviceSynchronize();
  printf("%s; %s\n", cudaGetErrorString(e), bad ? "FAILED" : "all copies ok");
  return bad ? 1 : 0;
}
