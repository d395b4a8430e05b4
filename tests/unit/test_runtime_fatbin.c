/* tests/unit/test_runtime_fatbin.c — the fatbin reader on fatbins nvcc 13 made
 * (tests/unit/data/fatbin, see make.sh there): zstd, LZ4 and plain PTX, several
 * architectures, SASS only; then corrupted and truncated variants, which must give an
 * error and never a crash (run it under -DVCUDA_SANITIZE=ON to see that). */
#include "runtime/rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static uint8_t *load(const char *name, size_t *len) {
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/fatbin/%s", VCUDA_TEST_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) exit(1);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Select for device_sm; returns the text (caller frees) and the chosen architecture. */
static char *select_ptx(const uint8_t *img, size_t len, int device_sm, uint32_t *arch,
                        cudaError_t *code, char *err) {
    *arch = 0;
    return rt_fatbin_select_ptx(img, len, device_sm, arch, code, err, 512);
}

static void check_ptx_text(const char *text, unsigned target) {
    char want[32];
    snprintf(want, sizeof want, ".target sm_%u", target);
    CHECK(text && strstr(text, ".version 9.0"));
    CHECK(text && strstr(text, want));
    CHECK(text && strstr(text, ".visible .entry _Z3addPKfPfid("));
    CHECK(text && strstr(text, ".const .align 4 .b8 cscale[16];"));
}

static void test_sm90_zstd(void) {
    size_t len;
    uint8_t *img = load("sm90_zstd.fatbin", &len);
    char err[512] = "";
    CHECK(rt_fatbin_image_size(img, err, sizeof err) + 16 >= len);
    rt_fatbin_entry ents[8];
    int n = rt_fatbin_entries(img, len, ents, 8, err, sizeof err);
    CHECK(n == 2);
    CHECK(ents[0].kind == RT_FATBIN_ELF && ents[0].arch == 90 && ents[0].compression == RT_FATBIN_RAW);
    CHECK(ents[1].kind == RT_FATBIN_PTX && ents[1].arch == 90 && ents[1].compression == RT_FATBIN_ZSTD);
    CHECK(ents[1].uncompressed_size > ents[1].payload_size);

    uint32_t arch;
    cudaError_t code;
    char *text = select_ptx(img, len, 90, &arch, &code, err);
    CHECK(code == cudaSuccess && arch == 90);
    check_ptx_text(text, 90);
    /* The stored text ends with its NUL. */
    CHECK(text && strlen(text) + 1 == ents[1].uncompressed_size);
    free(text);
    /* An older device still gets the only PTX there is. */
    text = select_ptx(img, len, 35, &arch, &code, err);
    CHECK(code == cudaSuccess && arch == 90);
    free(text);
    free(img);
}

static void test_multi_arch(void) {
    size_t len;
    uint8_t *img = load("multi.fatbin", &len);
    char err[512] = "";
    rt_fatbin_entry ents[8];
    CHECK(rt_fatbin_entries(img, len, ents, 8, err, sizeof err) == 4);
    static const struct { int device; unsigned want; } cases[] = {
        {90, 90}, {100, 90}, {89, 80}, {86, 80}, {80, 80}, {75, 75}, {70, 75}, {35, 75}, {20, 75},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t arch;
        cudaError_t code;
        char *text = select_ptx(img, len, cases[i].device, &arch, &code, err);
        CHECK(code == cudaSuccess);
        CHECK(arch == cases[i].want);
        check_ptx_text(text, cases[i].want);
        free(text);
    }
    free(img);
}

/* Plain, zstd and LZ4 storage of the same PTX decode to the same text. */
static void test_compressions_agree(void) {
    size_t l1, l2, l3;
    uint8_t *z = load("sm90_zstd.fatbin", &l1), *r = load("sm90_raw.fatbin", &l2),
            *l = load("sm90_lz4.fatbin", &l3);
    char err[512];
    uint32_t a1, a2, a3;
    cudaError_t c1, c2, c3;
    char *tz = select_ptx(z, l1, 90, &a1, &c1, err);
    char *tr = select_ptx(r, l2, 90, &a2, &c2, err);
    char *tl = select_ptx(l, l3, 90, &a3, &c3, err);
    CHECK(c1 == cudaSuccess && c2 == cudaSuccess && c3 == cudaSuccess);
    CHECK(tz && tr && tl && strcmp(tz, tr) == 0 && strcmp(tz, tl) == 0);
    rt_fatbin_entry ents[8];
    CHECK(rt_fatbin_entries(l, l3, ents, 8, err, sizeof err) == 2 &&
          ents[1].compression == RT_FATBIN_LZ4);
    CHECK(rt_fatbin_entries(r, l2, ents, 8, err, sizeof err) == 2 &&
          ents[1].compression == RT_FATBIN_RAW);
    free(tz);
    free(tr);
    free(tl);
    free(z);
    free(r);
    free(l);
}

static void test_sass_only(void) {
    size_t len;
    uint8_t *img = load("sass_only.fatbin", &len);
    char err[512] = "";
    uint32_t arch;
    cudaError_t code;
    char *text = select_ptx(img, len, 90, &arch, &code, err);
    CHECK(text == NULL);
    CHECK(code == cudaErrorNoKernelImageForDevice);
    CHECK(strstr(err, "vcuda cc") && strstr(err, "arch=compute_90,code=compute_90"));
    free(img);
}

/* Two containers one after the other: the entries of both are seen. */
static void test_concatenated(void) {
    size_t l1, l2;
    uint8_t *a = load("sm90_zstd.fatbin", &l1), *b = load("multi.fatbin", &l2);
    char err[512] = "";
    size_t s1 = rt_fatbin_image_size(a, err, sizeof err);
    size_t s1a = (s1 + 7) & ~(size_t)7;
    uint8_t *cat = calloc(1, s1a + l2);
    memcpy(cat, a, s1);
    memcpy(cat + s1a, b, l2);
    rt_fatbin_entry ents[8];
    CHECK(rt_fatbin_entries(cat, s1a + l2, ents, 8, err, sizeof err) == 6);
    uint32_t arch;
    cudaError_t code;
    char *text = select_ptx(cat, s1a + l2, 86, &arch, &code, err);
    CHECK(code == cudaSuccess && arch == 80);
    free(text);
    free(cat);
    free(a);
    free(b);
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void expect_bad(uint8_t *img, size_t len, cudaError_t want, const char *what) {
    char err[512] = "";
    uint32_t arch;
    cudaError_t code = cudaSuccess;
    char *text = select_ptx(img, len, 90, &arch, &code, err);
    if (text || code != want || !err[0])
        fprintf(stderr, "corruption '%s' not reported (code %d, err '%s')\n", what, (int)code, err);
    CHECK(text == NULL && code == want && err[0]);
    free(text);
}

static void test_corrupted(void) {
    size_t len;
    uint8_t *orig = load("sm90_zstd.fatbin", &len);
    uint8_t *img = malloc(len);
    char err[512];
    rt_fatbin_entry ents[4];
    CHECK(rt_fatbin_entries(orig, len, ents, 4, err, sizeof err) == 2);
    size_t ptx_hdr = (size_t)(ents[1].payload - orig) - 80; /* PTX entry header: 80 bytes */
    size_t ptx_payload = (size_t)(ents[1].payload - orig);

    memcpy(img, orig, len);
    put32(img, 0x12345678);
    expect_bad(img, len, cudaErrorInvalidKernelImage, "container magic");
    CHECK(rt_fatbin_image_size(img, err, sizeof err) == 0 && strstr(err, "magic"));

    memcpy(img, orig, len);
    put64(img + 8, len); /* container payload past the end */
    expect_bad(img, len, cudaErrorInvalidKernelImage, "container size");

    memcpy(img, orig, len);
    put32(img + 16 + 4, 0x7fffffff); /* first entry's header size */
    expect_bad(img, len, cudaErrorInvalidKernelImage, "entry header size");

    memcpy(img, orig, len);
    put64(img + 16 + 8, 1ull << 40); /* first entry's payload size */
    expect_bad(img, len, cudaErrorInvalidKernelImage, "entry payload size");

    memcpy(img, orig, len);
    put32(img + ptx_hdr + 4, 8); /* PTX entry header shorter than the minimum */
    expect_bad(img, len, cudaErrorInvalidKernelImage, "short entry header");

    memcpy(img, orig, len);
    for (size_t i = ptx_payload + 20; i < ptx_payload + 60; i++) img[i] ^= 0x5a;
    expect_bad(img, len, cudaErrorInvalidKernelImage, "zstd payload");

    memcpy(img, orig, len);
    put64(img + ptx_hdr + 56, 1ull << 40); /* uncompressed size */
    expect_bad(img, len, cudaErrorInvalidKernelImage, "uncompressed size");

    memcpy(img, orig, len);
    put64(img + ptx_hdr + 56, ents[1].uncompressed_size + 1); /* off by one */
    expect_bad(img, len, cudaErrorInvalidKernelImage, "uncompressed size mismatch");

    memcpy(img, orig, len);
    img[ptx_hdr] = 3; /* neither PTX nor ELF: no PTX left */
    expect_bad(img, len, cudaErrorNoKernelImageForDevice, "entry kind");

    /* Every truncation is an error or, where the cut falls on padding, still a valid image;
     * never a read past the end (ASan checks that). */
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *t = malloc(cut ? cut : 1);
        memcpy(t, orig, cut);
        uint32_t arch;
        cudaError_t code;
        char *text = select_ptx(t, cut, 90, &arch, &code, err);
        if (cut < ptx_payload + ents[1].payload_size) CHECK(text == NULL && code != cudaSuccess);
        free(text);
        free(t);
    }

    /* Random damage to the headers and payload: must never crash. */
    uint32_t seed = 12345;
    for (int iter = 0; iter < 2000; iter++) {
        memcpy(img, orig, len);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = (seed >> 8) % (ptx_payload + 64);
            seed = seed * 1103515245u + 12345u;
            img[pos] ^= (uint8_t)(1u << ((seed >> 16) & 7));
        }
        uint32_t arch;
        cudaError_t code;
        char *text = select_ptx(img, len, 90, &arch, &code, err);
        CHECK((text != NULL) == (code == cudaSuccess));
        free(text);
    }

    /* LZ4: damaged blocks are caught where the format allows (LZ4 has no checksum). */
    size_t llen;
    uint8_t *lz = load("sm90_lz4.fatbin", &llen);
    CHECK(rt_fatbin_entries(lz, llen, ents, 4, err, sizeof err) == 2);
    size_t lp = (size_t)(ents[1].payload - lz);
    for (int iter = 0; iter < 2000; iter++) {
        uint8_t *t = malloc(llen);
        memcpy(t, lz, llen);
        seed = seed * 1103515245u + 12345u;
        size_t pos = lp + (seed >> 8) % ents[1].payload_size;
        seed = seed * 1103515245u + 12345u;
        t[pos] ^= (uint8_t)(1u << ((seed >> 16) & 7));
        uint32_t arch;
        cudaError_t code;
        char *text = select_ptx(t, llen, 90, &arch, &code, err);
        CHECK((text != NULL) == (code == cudaSuccess));
        free(text);
        free(t);
    }
    memcpy(img, orig, len);
    free(lz);
    free(img);
    free(orig);
}

int main(void) {
    test_sm90_zstd();
    test_multi_arch();
    test_compressions_agree();
    test_sass_only();
    test_concatenated();
    test_corrupted();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_runtime_fatbin: all checks passed\n");
    return 0;
}
