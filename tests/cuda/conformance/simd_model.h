/* tests/cuda/conformance/simd_model.h — a C model of CUDA's 82 SIMD intrinsics (__vabs2
 * ... __vsubus4) from their documented semantics (the signed rounded average rounds
 * halves away from zero, as the H100 does), and the edge-value and pseudo-random inputs
 * they are tried on. Shared by the conformance program simd_model.cu (run on the H100 for
 * its expected output; kept beside it so that the folder builds on its own) and the
 * executor's unit test tests/unit/test_exec_simd.c. C and C++ alike. */
#ifndef VCUDA_TESTS_SIMD_MODEL_H
#define VCUDA_TESTS_SIMD_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* Element i of v, bits wide, sign-extended when sgn. */
static int64_t elem(uint32_t v, unsigned i, unsigned bits, bool sgn) {
    uint32_t e = (v >> (i * bits)) & ((1u << bits) - 1);
    return sgn && (e >> (bits - 1)) ? (int64_t)e - ((int64_t)1 << bits) : (int64_t)e;
}

enum simd_op {
    S_ABS, S_ABSDIFF, S_ABSSS, S_ADD, S_ADDSAT, S_AVG, S_CMPEQ, S_CMPGE, S_CMPGT, S_CMPLE,
    S_CMPLT, S_CMPNE, S_HADD, S_MAX, S_MIN, S_NEG, S_NEGSS, S_SAD, S_SETEQ, S_SETGE, S_SETGT,
    S_SETLE, S_SETLT, S_SETNE, S_SUB, S_SUBSAT
};

/* One intrinsic on a and b: n elements (2 or 4), signed or unsigned. */
static uint32_t simd_model(enum simd_op op, unsigned n, bool sgn, uint32_t a, uint32_t b) {
    const unsigned bits = 32 / n;
    const int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    const int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    const uint32_t emask = (uint32_t)(((uint64_t)1 << bits) - 1);
    uint32_t d = 0;
    for (unsigned i = 0; i < n; i++) {
        int64_t x = elem(a, i, bits, sgn), y = elem(b, i, bits, sgn), r = 0, s = x + y;
        switch (op) {
        case S_ABS: r = x < 0 ? -x : x; break;
        case S_ABSSS: r = x < 0 ? -x : x; r = r > hi ? hi : r; break;
        case S_ABSDIFF: r = x > y ? x - y : y - x; break;
        case S_ADD: r = s; break;
        case S_ADDSAT: r = s < lo ? lo : s > hi ? hi : s; break;
        case S_SUB: r = x - y; break;
        case S_SUBSAT: r = x - y < lo ? lo : x - y > hi ? hi : x - y; break;
        case S_AVG: r = s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2); break; /* halves away from 0 */
        case S_HADD: r = s >> 1; break;
        case S_MAX: r = x > y ? x : y; break;
        case S_MIN: r = x < y ? x : y; break;
        case S_NEG: r = -x; break;
        case S_NEGSS: r = -x > hi ? hi : -x; break;
        case S_CMPEQ: r = x == y ? -1 : 0; break;
        case S_CMPNE: r = x != y ? -1 : 0; break;
        case S_CMPGE: r = x >= y ? -1 : 0; break;
        case S_CMPGT: r = x > y ? -1 : 0; break;
        case S_CMPLE: r = x <= y ? -1 : 0; break;
        case S_CMPLT: r = x < y ? -1 : 0; break;
        case S_SETEQ: r = x == y; break;
        case S_SETNE: r = x != y; break;
        case S_SETGE: r = x >= y; break;
        case S_SETGT: r = x > y; break;
        case S_SETLE: r = x <= y; break;
        case S_SETLT: r = x < y; break;
        case S_SAD: d += (uint32_t)(x > y ? x - y : y - x); continue; /* a sum, not packed */
        }
        d |= ((uint32_t)r & emask) << (i * bits);
    }
    return d;
}

/* The intrinsics in the order of simd.cu's SIMD_LIST: operation, elements, signedness. */
static const struct { const char *name; enum simd_op op; unsigned n; bool sgn; } list[] = {
    {"vabs2", S_ABS, 2, true}, {"vabs4", S_ABS, 4, true},
    {"vabsdiffs2", S_ABSDIFF, 2, true}, {"vabsdiffs4", S_ABSDIFF, 4, true},
    {"vabsdiffu2", S_ABSDIFF, 2, false}, {"vabsdiffu4", S_ABSDIFF, 4, false},
    {"vabsss2", S_ABSSS, 2, true}, {"vabsss4", S_ABSSS, 4, true},
    {"vadd2", S_ADD, 2, false}, {"vadd4", S_ADD, 4, false},
    {"vaddss2", S_ADDSAT, 2, true}, {"vaddss4", S_ADDSAT, 4, true},
    {"vaddus2", S_ADDSAT, 2, false}, {"vaddus4", S_ADDSAT, 4, false},
    {"vavgs2", S_AVG, 2, true}, {"vavgs4", S_AVG, 4, true},
    {"vavgu2", S_AVG, 2, false}, {"vavgu4", S_AVG, 4, false},
    {"vcmpeq2", S_CMPEQ, 2, false}, {"vcmpeq4", S_CMPEQ, 4, false},
    {"vcmpges2", S_CMPGE, 2, true}, {"vcmpges4", S_CMPGE, 4, true},
    {"vcmpgeu2", S_CMPGE, 2, false}, {"vcmpgeu4", S_CMPGE, 4, false},
    {"vcmpgts2", S_CMPGT, 2, true}, {"vcmpgts4", S_CMPGT, 4, true},
    {"vcmpgtu2", S_CMPGT, 2, false}, {"vcmpgtu4", S_CMPGT, 4, false},
    {"vcmples2", S_CMPLE, 2, true}, {"vcmples4", S_CMPLE, 4, true},
    {"vcmpleu2", S_CMPLE, 2, false}, {"vcmpleu4", S_CMPLE, 4, false},
    {"vcmplts2", S_CMPLT, 2, true}, {"vcmplts4", S_CMPLT, 4, true},
    {"vcmpltu2", S_CMPLT, 2, false}, {"vcmpltu4", S_CMPLT, 4, false},
    {"vcmpne2", S_CMPNE, 2, false}, {"vcmpne4", S_CMPNE, 4, false},
    {"vhaddu2", S_HADD, 2, false}, {"vhaddu4", S_HADD, 4, false},
    {"vmaxs2", S_MAX, 2, true}, {"vmaxs4", S_MAX, 4, true},
    {"vmaxu2", S_MAX, 2, false}, {"vmaxu4", S_MAX, 4, false},
    {"vmins2", S_MIN, 2, true}, {"vmins4", S_MIN, 4, true},
    {"vminu2", S_MIN, 2, false}, {"vminu4", S_MIN, 4, false},
    {"vneg2", S_NEG, 2, true}, {"vneg4", S_NEG, 4, true},
    {"vnegss2", S_NEGSS, 2, true}, {"vnegss4", S_NEGSS, 4, true},
    {"vsads2", S_SAD, 2, true}, {"vsads4", S_SAD, 4, true},
    {"vsadu2", S_SAD, 2, false}, {"vsadu4", S_SAD, 4, false},
    {"vseteq2", S_SETEQ, 2, false}, {"vseteq4", S_SETEQ, 4, false},
    {"vsetges2", S_SETGE, 2, true}, {"vsetges4", S_SETGE, 4, true},
    {"vsetgeu2", S_SETGE, 2, false}, {"vsetgeu4", S_SETGE, 4, false},
    {"vsetgts2", S_SETGT, 2, true}, {"vsetgts4", S_SETGT, 4, true},
    {"vsetgtu2", S_SETGT, 2, false}, {"vsetgtu4", S_SETGT, 4, false},
    {"vsetles2", S_SETLE, 2, true}, {"vsetles4", S_SETLE, 4, true},
    {"vsetleu2", S_SETLE, 2, false}, {"vsetleu4", S_SETLE, 4, false},
    {"vsetlts2", S_SETLT, 2, true}, {"vsetlts4", S_SETLT, 4, true},
    {"vsetltu2", S_SETLT, 2, false}, {"vsetltu4", S_SETLT, 4, false},
    {"vsetne2", S_SETNE, 2, false}, {"vsetne4", S_SETNE, 4, false},
    {"vsub2", S_SUB, 2, false}, {"vsub4", S_SUB, 4, false},
    {"vsubss2", S_SUBSAT, 2, true}, {"vsubss4", S_SUBSAT, 4, true},
    {"vsubus2", S_SUBSAT, 2, false}, {"vsubus4", S_SUBSAT, 4, false},
};
#define NLIST (sizeof list / sizeof list[0])

enum { N = 1200 };

/* Inputs: every pair of halfword edge values, then bytes with edge values, then noise. */
static void make_inputs(uint32_t *a, uint32_t *b) {
    static const uint16_t h[] = { 0x0000, 0x0001, 0x7fff, 0x8000, 0xffff, 0x8001, 0x00ff,
                                  0x0080, 0x7f80, 0xff7f, 0x0100, 0xfffe };
    static const uint8_t e[] = { 0x00, 0x01, 0x7f, 0x80, 0xff, 0x81, 0xfe, 0x40 };
    const unsigned nh = sizeof h / sizeof h[0], ne = sizeof e / sizeof e[0];
    unsigned i = 0;
    for (unsigned x = 0; x < nh; x++)
        for (unsigned y = 0; y < nh; y++, i++) {
            a[i] = (uint32_t)h[x] | (uint32_t)h[(x + y) % nh] << 16;
            b[i] = (uint32_t)h[y] | (uint32_t)h[(x * 5 + y) % nh] << 16;
        }
    for (unsigned x = 0; x < ne * ne; x++, i++) {
        unsigned p = x % ne, q = x / ne;
        a[i] = (uint32_t)e[p] | (uint32_t)e[q] << 8 | (uint32_t)e[(p + q) % ne] << 16 |
               (uint32_t)e[(p * 3) % ne] << 24;
        b[i] = (uint32_t)e[q] | (uint32_t)e[p] << 8 | (uint32_t)e[(p + 1) % ne] << 16 |
               (uint32_t)e[(q * 5 + 2) % ne] << 24;
    }
    uint32_t s = 0x2545f491u;
    for (; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = s;
        s = s * 1664525u + 1013904223u;
        b[i] = i % 7 == 0 ? a[i] ^ (s & 0x00ff00ffu) : s;
    }
}

#endif
