/* exec/alu_float_round.c — the directed-rounding slow paths (.rz .rm .rp) of the f32/f64
 * IEEE operations add sub mul fma div sqrt rcp.
 *
 * The host FPU computes every one of these correctly rounded in any IEEE mode, so the
 * slow path switches the thread's rounding mode around the lane loop. Operands travel
 * through volatile variables: the compiler (which assumes round-to-nearest without
 * -frounding-math) can neither fold the operation at compile time nor move it across
 * the fesetround calls, because volatile accesses and the calls keep their order.
 */
#include <fenv.h>
#include <math.h>
#include "alu_internal.h"

static int alu_fe_mode(unsigned rnd) {
    switch (rnd) {
    case EXEC_RND_RZ: return FE_TOWARDZERO;
    case EXEC_RND_RM: return FE_DOWNWARD;
    case EXEC_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* One lane's operation in the current rounding mode. */
static __attribute__((noinline)) float alu_f32_op_now(alu_fop op, float a, float b, float c) {
    volatile float va = a, vb = b, vc = c;
    volatile float r;
    switch (op) {
    case ALU_FOP_ADD: r = va + vb; break;
    case ALU_FOP_SUB: r = va - vb; break;
    case ALU_FOP_MUL: r = va * vb; break;
    case ALU_FOP_FMA: r = fmaf(va, vb, vc); break;
    case ALU_FOP_DIV: r = va / vb; break;
    case ALU_FOP_SQRT: r = sqrtf(va); break;
    default: r = 1.0f / va; break;
    }
    return r;
}
static __attribute__((noinline)) double alu_f64_op_now(alu_fop op, double a, double b,
                                                       double c) {
    volatile double va = a, vb = b, vc = c;
    volatile double r;
    switch (op) {
    case ALU_FOP_ADD: r = va + vb; break;
    case ALU_FOP_SUB: r = va - vb; break;
    case ALU_FOP_MUL: r = va * vb; break;
    case ALU_FOP_FMA: r = fma(va, vb, vc); break;
    case ALU_FOP_DIV: r = va / vb; break;
    case ALU_FOP_SQRT: r = sqrt(va); break;
    default: r = 1.0 / va; break;
    }
    return r;
}

static unsigned alu_fop_nsrc(alu_fop op) {
    return op == ALU_FOP_FMA ? 3 : (op == ALU_FOP_SQRT || op == ALU_FOP_RCP) ? 1 : 2;
}

void alu_f32_directed(exec_warp *w, const exec_insn *in, uint32_t mask, alu_fop op) {
    const bool ftz = in->flags & EXEC_F_FTZ, sat = in->flags & EXEC_F_SAT;
    const unsigned n = alu_fop_nsrc(op);
    uint64_t *D = ALU_D(0);
    const uint64_t *A = ALU_A(0), *B = n > 1 ? ALU_A(1) : A, *C = n > 2 ? ALU_A(2) : A;
    const int saved = fegetround();
    fesetround(alu_fe_mode(ALU_AUX_RND(in->aux)));
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        float a = alu_f32(A[l]), b = alu_f32(B[l]), c = alu_f32(C[l]);
        if (ftz) { a = alu_ftz32(a); b = alu_ftz32(b); c = alu_ftz32(c); }
        float r = alu_f32_op_now(op, a, b, c);
        if (sat) r = alu_sat32(r);
        if (ftz) r = alu_ftz32(r);
        D[l] = alu_f32_out(r);
    }
    fesetround(saved);
}

void alu_f64_directed(exec_warp *w, const exec_insn *in, uint32_t mask, alu_fop op) {
    const unsigned n = alu_fop_nsrc(op);
    uint64_t *D = ALU_D(0);
    const uint64_t *A = ALU_A(0), *B = n > 1 ? ALU_A(1) : A, *C = n > 2 ? ALU_A(2) : A;
    const int saved = fegetround();
    fesetround(alu_fe_mode(ALU_AUX_RND(in->aux)));
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        const double a = alu_f64(A[l]), b = alu_f64(B[l]), c = alu_f64(C[l]);
        D[l] = alu_f64_prop(n, a, b, c, alu_f64_op_now(op, a, b, c));
    }
    fesetround(saved);
}
