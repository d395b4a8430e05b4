/* tests/unit/test_alu_harness.h — shared by the test_alu_*.c programs: a hand-made warp to
 * run one ALU handler on (looked up through exec_alu_lookup, the decoder's own path from
 * decoded fields to handler), check macros, and float bit helpers. */
#ifndef VCUDA_TEST_ALU_HARNESS_H
#define VCUDA_TEST_ALU_HARNESS_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/alu_internal.h"

static int alu_failures;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            alu_failures++;                                                             \
        }                                                                               \
    } while (0)

#define CHECK_EQ(got, want)                                                             \
    do {                                                                                \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                           \
        if (g_ != w_) {                                                                 \
            fprintf(stderr, "%s:%d: %s = 0x%" PRIx64 ", expected %s = 0x%" PRIx64 "\n", \
                    __FILE__, __LINE__, #got, g_, #want, w_);                           \
            alu_failures++;                                                             \
        }                                                                               \
    } while (0)

static inline int alu_report(const char *name) {
    if (alu_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, alu_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

static inline uint32_t fb(float f) { return (uint32_t)alu_f32_bits(f); }
static inline uint64_t db(double f) { return alu_f64_bits(f); }
static inline float bf(uint32_t b) { return alu_f32(b); }
static inline double bd(uint64_t b) { return alu_f64(b); }

/* ---- a warp with a few slots and predicates ---- */
#define TW_SLOTS 16
#define TW_PREDS 8

typedef struct test_warp {
    exec_warp w;
    uint64_t R[TW_SLOTS * EXEC_WARP_SIZE];
    uint32_t P[TW_PREDS];
} test_warp;

static inline void tw_init(test_warp *t) {
    memset(t, 0, sizeof *t);
    t->w.R = t->R;
    t->w.P = t->P;
    t->w.active = t->w.alive = EXEC_FULL_MASK;
    t->w.nlanes = EXEC_WARP_SIZE;
}
static inline void tw_fill(test_warp *t, uint32_t slot, uint64_t v) {
    for (int l = 0; l < EXEC_WARP_SIZE; l++) t->R[slot * EXEC_WARP_SIZE + l] = v;
}
static inline uint64_t tw_get(const test_warp *t, uint32_t slot, uint32_t lane) {
    return t->R[slot * EXEC_WARP_SIZE + lane];
}
static inline void tw_set(test_warp *t, uint32_t slot, uint32_t lane, uint64_t v) {
    t->R[slot * EXEC_WARP_SIZE + lane] = v;
}

/* An instruction with destination slot 0 and sources in slots 1, 2, 3, 4. */
static inline exec_insn ti(unsigned op, ptx_type t, ptx_type t2, uint32_t flags, uint32_t aux) {
    exec_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.type2 = (uint8_t)t2;
    in.flags = flags;
    in.aux = aux;
    in.guard = -1;
    in.vec = 1;
    in.d[0] = 0;
    in.d[1] = 5;
    for (unsigned i = 0; i < 4; i++) in.a[i] = 1 + i;
    return in;
}

/* Look up the handler; a missing one is a failure reported at the caller's line. */
#define TI_FN(in) ti_fn_at(&(in), __FILE__, __LINE__)
static inline exec_fn ti_fn_at(exec_insn *in, const char *file, int line) {
    in->fn = exec_alu_lookup(in);
    if (!in->fn) {
        fprintf(stderr, "%s:%d: no handler for op %s type %s/%s flags 0x%x aux 0x%x\n", file,
                line, ptx_opcode_names[in->op], ptx_type_names[in->type],
                in->type2 ? ptx_type_names[in->type2] : "-", in->flags, in->aux);
        alu_failures++;
    }
    return in->fn;
}

/* Run in on every lane with sources a, b, c (all lanes alike), check that all lanes
 * agree, that a partial mask leaves the other lanes alone, and return lane 0's d. */
#define RUN(in, a, b, c) run_at(&(in), (a), (b), (c), __FILE__, __LINE__)
static inline uint64_t run_at(exec_insn *in, uint64_t a, uint64_t b, uint64_t c,
                              const char *file, int line) {
    if (!ti_fn_at(in, file, line)) return 0xbad0bad0bad0bad0ull;
    static test_warp t;
    tw_init(&t);
    tw_fill(&t, 1, a);
    tw_fill(&t, 2, b);
    tw_fill(&t, 3, c);
    in->fn(&t.w, in, EXEC_FULL_MASK);
    const uint64_t r = tw_get(&t, 0, 0);
    for (uint32_t l = 1; l < EXEC_WARP_SIZE; l++)
        if (tw_get(&t, 0, l) != r) {
            fprintf(stderr, "%s:%d: lane %u differs from lane 0\n", file, line, l);
            alu_failures++;
            break;
        }
    /* the partial-mask path: same value on lanes 3 and 17, nothing elsewhere */
    tw_init(&t);
    tw_fill(&t, 1, a);
    tw_fill(&t, 2, b);
    tw_fill(&t, 3, c);
    tw_fill(&t, 0, 0x5555555555555555ull);
    in->fn(&t.w, in, (1u << 3) | (1u << 17));
    for (uint32_t l = 0; l < EXEC_WARP_SIZE; l++) {
        uint64_t want = (l == 3 || l == 17) ? r : 0x5555555555555555ull;
        if (tw_get(&t, 0, l) != want) {
            fprintf(stderr, "%s:%d: partial mask: lane %u = 0x%" PRIx64 "\n", file, line, l,
                    tw_get(&t, 0, l));
            alu_failures++;
            break;
        }
    }
    return r;
}

/* Run a predicate-writing instruction (d[0] predicate 0, d[1] predicate 1; source
 * predicate index 2 holds cpred on every lane); returns p | q << 1 for lane 0. */
#define RUNP(in, a, b, cpred) runp_at(&(in), (a), (b), (cpred), __FILE__, __LINE__)
static inline unsigned runp_at(exec_insn *in, uint64_t a, uint64_t b, bool cpred,
                               const char *file, int line) {
    in->d[0] = 0;
    in->d[1] = 1;
    in->a[2] = 2;
    if (!ti_fn_at(in, file, line)) return 0xbad;
    static test_warp t;
    tw_init(&t);
    tw_fill(&t, 1, a);
    tw_fill(&t, 2, b);
    t.P[0] = 0x0f0f0f0f;
    t.P[1] = 0xf0f0f0f0;
    t.P[2] = cpred ? EXEC_FULL_MASK : 0;
    in->fn(&t.w, in, EXEC_FULL_MASK);
    unsigned p = t.P[0] & 1u, q = t.P[1] & 1u;
    if (t.P[0] != (p ? EXEC_FULL_MASK : 0) ||
        ((in->flags & EXEC_F_D2_PRED) && t.P[1] != (q ? EXEC_FULL_MASK : 0))) {
        fprintf(stderr, "%s:%d: predicate lanes differ\n", file, line);
        alu_failures++;
    }
    return p | q << 1;
}

#endif
