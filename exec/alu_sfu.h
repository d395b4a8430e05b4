/* exec/alu_sfu.h — the special function unit (MUFU) of an H100/H200, bit for bit.
 *
 * Each function takes and returns f32 bit patterns and behaves as the unit's instruction
 * does (denormal operands are zero, denormal results flush to zero). The PTX .approx
 * instructions are these plus the scaling the compiler wraps around them (alu_float.c).
 * How the unit computes, and how that was measured: alu_sfu.c. */
#ifndef VCUDA_ALU_SFU_H
#define VCUDA_ALU_SFU_H
#include <stdbool.h>
#include <stdint.h>

/* One interval of a quadratic interpolation: A + C1 x + C2 sq(x), fixed point. */
typedef struct { int64_t a; int32_t c1, c2; } alu_sfu_coef;

uint32_t alu_sfu_rcp(uint32_t x);            /* MUFU.RCP */
uint32_t alu_sfu_rsq(uint32_t x);            /* MUFU.RSQ */
uint32_t alu_sfu_sqrt(uint32_t x);           /* MUFU.SQRT */
uint32_t alu_sfu_ex2(uint32_t x);            /* MUFU.EX2 */
uint32_t alu_sfu_lg2(uint32_t x);            /* MUFU.LG2 */
uint32_t alu_sfu_sincos(uint32_t t, bool cos); /* MUFU.SIN/COS of t turns (t = x / 2pi) */
uint32_t alu_sfu_tanh(uint32_t x);           /* MUFU.TANH */

/* The PTX instructions (f32 bits in and out), as sm_90 code computes them. */
uint32_t alu_sfu_ptx_rcp(uint32_t x, bool ftz);
uint32_t alu_sfu_ptx_rsqrt(uint32_t x, bool ftz);
uint32_t alu_sfu_ptx_sqrt(uint32_t x, bool ftz);
uint32_t alu_sfu_ptx_ex2(uint32_t x, bool ftz);
uint32_t alu_sfu_ptx_lg2(uint32_t x, bool ftz);
uint32_t alu_sfu_ptx_sin(uint32_t x, bool cos);
uint32_t alu_sfu_ptx_div(uint32_t a, uint32_t b, bool full, bool ftz);

extern const alu_sfu_coef alu_sfu_rcp_tab[128], alu_sfu_rsq_tab[128], alu_sfu_sqrt_tab[128],
    alu_sfu_ex2_tab[64], alu_sfu_lg2_tab[64], alu_sfu_sin_tab[64], alu_sfu_tanh_tab[55];
extern const uint8_t alu_sfu_tanh_ms[12];
#endif
