/* thrust_test.h — what the Thrust/CUB/libcu++ conformance programs share: deterministic
 * inputs (a 64-bit LCG, so host and device see the same data on every run), a byte hash of
 * results (FNV-1a over the host copy, so a float's sign of zero and NaN payload count), and
 * one compact line per check: name, element count, hash, the first and last elements, and
 * whether the device agreed with the host's std:: algorithm. */
#ifndef THRUST_TEST_H
#define THRUST_TEST_H

#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                             \
    do {                                                                                  \
        cudaError_t e_ = (x);                                                             \
        if (e_ != cudaSuccess) {                                                          \
            printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));       \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static int tt_failures = 0;

struct tt_rng {
    uint64_t s;
    explicit tt_rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return s ^ (s >> 29);
    }
};

static inline uint64_t tt_hash_bytes(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

template <class T> static inline uint64_t tt_hash(const std::vector<T> &v) {
    return tt_hash_bytes(v.data(), v.size() * sizeof(T));
}

/* One element, printed so that equal bytes print equally (floats as their bit patterns). */
static inline void tt_elem(char *buf, size_t n, long long v) { snprintf(buf, n, "%lld", v); }
static inline void tt_elem(char *buf, size_t n, unsigned long long v) { snprintf(buf, n, "%llu", v); }
static inline void tt_elem(char *buf, size_t n, int v) { snprintf(buf, n, "%d", v); }
static inline void tt_elem(char *buf, size_t n, unsigned v) { snprintf(buf, n, "%u", v); }
static inline void tt_elem(char *buf, size_t n, long v) { snprintf(buf, n, "%ld", v); }
static inline void tt_elem(char *buf, size_t n, unsigned long v) { snprintf(buf, n, "%lu", v); }
static inline void tt_elem(char *buf, size_t n, short v) { snprintf(buf, n, "%d", v); }
static inline void tt_elem(char *buf, size_t n, unsigned short v) { snprintf(buf, n, "%u", v); }
static inline void tt_elem(char *buf, size_t n, signed char v) { snprintf(buf, n, "%d", v); }
static inline void tt_elem(char *buf, size_t n, unsigned char v) { snprintf(buf, n, "%u", v); }
static inline void tt_elem(char *buf, size_t n, char v) { snprintf(buf, n, "%d", v); }
static inline void tt_elem(char *buf, size_t n, float v) {
    uint32_t u; memcpy(&u, &v, 4); snprintf(buf, n, "%g/%08x", (double)v, u);
}
static inline void tt_elem(char *buf, size_t n, double v) {
    uint64_t u; memcpy(&u, &v, 8); snprintf(buf, n, "%g/%016llx", v, (unsigned long long)u);
}

/* name n=<count> h=<hash> [first three .. last two] <ok|MISMATCH> */
template <class T>
static void tt_report(const char *name, const std::vector<T> &got, const std::vector<T> *want) {
    char b[64];
    printf("%s n=%zu h=%016llx [", name, got.size(), (unsigned long long)tt_hash(got));
    size_t n = got.size();
    for (size_t i = 0; i < n && i < 3; i++) { tt_elem(b, sizeof b, got[i]); printf(i ? " %s" : "%s", b); }
    if (n > 5) printf(" ..");
    for (size_t i = (n > 5 ? n - 2 : 3); i < n; i++) { tt_elem(b, sizeof b, got[i]); printf(" %s", b); }
    printf("]");
    if (want) {
        bool same = want->size() == got.size() &&
                    (got.empty() || memcmp(want->data(), got.data(), got.size() * sizeof(T)) == 0);
        printf(" %s", same ? "ok" : "MISMATCH");
        if (!same) tt_failures++;
    }
    printf("\n");
}

template <class T> static void tt_report(const char *name, const std::vector<T> &got, const std::vector<T> &want) {
    tt_report(name, got, &want);
}

/* A scalar result against the host's. */
template <class T> static void tt_scalar(const char *name, T got, T want) {
    char b[64], c[64];
    tt_elem(b, sizeof b, got);
    tt_elem(c, sizeof c, want);
    bool same = memcmp(&got, &want, sizeof(T)) == 0;
    printf("%s = %s %s\n", name, b, same ? "ok" : "MISMATCH");
    if (!same) { tt_failures++; printf("  host: %s\n", c); }
}

static int tt_finish(void) {
    CK(cudaDeviceSynchronize());
    printf("failures %d\n", tt_failures);
    return tt_failures ? 1 : 0;
}

#endif
