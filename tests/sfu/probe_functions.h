/* tests/sfu/probe_functions.h — the special functions of the exhaustive H200 capture
 * (probe_tables.cu), by the number the capture gives each, as vcuda's model computes them.
 * One table for the two readers of that capture: the unit test (tests/unit/test_sfu.c, which
 * compares hashes) and the checking tool (bench/sfu_check.c, which compares the raw tables).
 * The includer provides exec/alu_sfu.h. */
#ifndef VCUDA_TESTS_SFU_PROBE_FUNCTIONS_H
#define VCUDA_TESTS_SFU_PROBE_FUNCTIONS_H

#include <stdint.h>

/* fn: 0 rcp, 1 rsqrt, 2 ex2, 3 lg2, 4 sin, 5 cos, 6 sqrt (all .approx.ftz), 7 tanh.approx */
static inline uint32_t sfu_probe_model(int fn, uint32_t x) {
    switch (fn) {
    case 0: return alu_sfu_ptx_rcp(x, true);
    case 1: return alu_sfu_ptx_rsqrt(x, true);
    case 2: return alu_sfu_ptx_ex2(x, true);
    case 3: return alu_sfu_ptx_lg2(x, true);
    case 4: return alu_sfu_ptx_sin(x, false);
    case 5: return alu_sfu_ptx_sin(x, true);
    case 6: return alu_sfu_ptx_sqrt(x, true);
    default: return alu_sfu_tanh(x);
    }
}

#endif
