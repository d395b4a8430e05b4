/* test_exec_video — the SIMD video instructions (tests/ptx/exec/video.cu): every op in
 * byte and halfword form, signed and unsigned elements, .sat and .add, checked against
 * a reference written from the PTX ISA's pseudo-code, plus hand-worked values. */
#include "exec_harness.h"

enum { NOPS = 24 };
typedef struct vspec { const char *op; int lanes, dsign, asign, bsign, sat, add; } vspec;
/* the order of video.cu's outputs */
static const vspec specs[NOPS] = {
    {"absdiff", 4, 0, 0, 0, 0, 0}, {"absdiff", 4, 0, 0, 0, 0, 1}, {"absdiff", 2, 1, 1, 1, 0, 1},
    {"absdiff", 2, 0, 0, 0, 0, 0}, {"add", 4, 0, 0, 0, 1, 0}, {"add", 4, 1, 1, 1, 1, 0},
    {"add", 2, 0, 0, 0, 0, 0}, {"add", 2, 1, 1, 1, 1, 0}, {"sub", 4, 0, 0, 0, 1, 0},
    {"sub", 4, 1, 1, 1, 1, 0}, {"sub", 2, 1, 0, 0, 1, 0}, {"sub", 2, 0, 1, 1, 0, 0},
    {"avrg", 4, 0, 0, 0, 0, 0}, {"avrg", 4, 1, 1, 1, 0, 0}, {"avrg", 2, 1, 1, 1, 0, 0},
    {"avrg", 2, 0, 0, 0, 0, 0}, {"min", 4, 0, 0, 0, 0, 0}, {"min", 4, 1, 1, 1, 0, 0},
    {"max", 2, 1, 1, 1, 0, 0}, {"max", 2, 0, 0, 0, 0, 1}, {"min", 2, 1, 1, 1, 0, 1},
    {"add", 4, 1, 1, 1, 0, 1}, {"sub", 4, 0, 1, 0, 0, 0}, {"max", 4, 1, 0, 1, 1, 0},
};

static long long field(unsigned v, int k, int bits, int sign) {
    long long e = (v >> (k * bits)) & ((1u << bits) - 1);
    return sign && e >= (1ll << (bits - 1)) ? e - (1ll << bits) : e;
}

static unsigned reference(const vspec *s, unsigned a, unsigned b, unsigned c) {
    int bits = 32 / s->lanes;
    unsigned merged = 0, acc = c;
    for (int k = 0; k < s->lanes; k++) {
        long long x = field(a, k, bits, s->asign), y = field(b, k, bits, s->bsign), t;
        if (!strcmp(s->op, "add")) t = x + y;
        else if (!strcmp(s->op, "sub")) t = x - y;
        else if (!strcmp(s->op, "absdiff")) t = x > y ? x - y : y - x;
        else if (!strcmp(s->op, "min")) t = x < y ? x : y;
        else if (!strcmp(s->op, "max")) t = x > y ? x : y;
        else t = (x + y >= 0) ? (x + y + 1) >> 1 : (x + y) >> 1;   /* avrg */
        if (s->sat) {
            long long lo = s->dsign ? -(1ll << (bits - 1)) : 0;
            long long hi = s->dsign ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
            t = t < lo ? lo : t > hi ? hi : t;
        }
        acc += (unsigned)t;
        merged |= ((unsigned)t & ((1u << bits) - 1)) << (k * bits);
    }
    return s->add ? acc : merged;
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/video.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    enum { T = 32 };
    unsigned *a = harness_alloc(&h, T * 4), *b = harness_alloc(&h, T * 4), *c = harness_alloc(&h, T * 4);
    unsigned *out = harness_alloc(&h, T * NOPS * 4);
    static const unsigned fixed[][3] = {
        {0x01020304u, 0x04030201u, 0x11111111u}, {0xff10ff00u, 0x01f00101u, 0},
        {0x7f80017fu, 0x0180ff01u, 7}, {0x80000000u, 0x7fffffffu, 0xffffffffu},
        {0, 0, 0}, {0xffffffffu, 0xffffffffu, 1}, {0xfd00fd00u, 0x00010001u, 0x12345678u},
    };
    unsigned s = 12345;
    for (int i = 0; i < T; i++) {
        if (i < 7) { a[i] = fixed[i][0]; b[i] = fixed[i][1]; c[i] = fixed[i][2]; continue; }
        s = s * 1664525u + 1013904223u; a[i] = s;
        s = s * 1664525u + 1013904223u; b[i] = s;
        s = s * 1664525u + 1013904223u; c[i] = s;
    }
    void *args[] = {&a, &b, &c, &out};
    harness_run r = harness_launch(&h, "video", dim(1, 1, 1), dim(T, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int i = 0; i < T; i++)
        for (int k = 0; k < NOPS; k++) CHECK_EQ_U64(out[i * NOPS + k], reference(&specs[k], a[i], b[i], c[i]));
    /* worked by hand */
    CHECK_EQ_U64(out[0 * NOPS + 0], 0x03010103u);           /* |1-4| |2-3| |3-2| |4-1| */
    CHECK_EQ_U64(out[0 * NOPS + 1], 0x11111111u + 8);       /* sum of those, plus c */
    CHECK_EQ_U64(out[1 * NOPS + 4], 0xffffff01u);           /* unsigned bytes saturate at ff */
    CHECK_EQ_U64(out[2 * NOPS + 5], 0x7f80007fu);           /* signed bytes at 7f and 80 */
    CHECK_EQ_U64(out[6 * NOPS + 13], 0xfe01fe01u);          /* avrg(-3, 0) = -2, avrg(0, 1) = 1 */
    harness_free(&h);
    return harness_report("test_exec_video");
}
