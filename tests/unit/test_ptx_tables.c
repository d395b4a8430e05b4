/* tests/unit/test_ptx_tables.c — the tables generated from opcodes.def, types.def and
 * modifiers.def: complete, consistent, and every spelling the parser looks up unique. */
#include "ptx/ir.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

int main(void) {
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        CHECK(ptx_opcode_names[i] && ptx_opcode_names[i][0]);
        for (int j = 0; j < i; j++) CHECK(strcmp(ptx_opcode_names[i], ptx_opcode_names[j]) != 0);
    }
    CHECK(strcmp(ptx_opcode_names[PTX_OP_bra], "bra") == 0);
    CHECK(ptx_opcode_flags[PTX_OP_bra] & PTX_OPF_BRANCH);
    CHECK(ptx_opcode_flags[PTX_OP_st] & PTX_OPF_MEM);
    CHECK(ptx_opcode_flags[PTX_OP_st] & PTX_OPF_NODST);
    CHECK(!(ptx_opcode_flags[PTX_OP_ld] & PTX_OPF_NODST));
    CHECK(ptx_opcode_flags[PTX_OP_shfl] & PTX_OPF_WARP);

    CHECK(strcmp(ptx_type_names[PTX_T_NONE], "") == 0);
    for (int i = 1; i < PTX_T_COUNT; i++) {
        CHECK(ptx_type_names[i] && ptx_type_names[i][0]);
        CHECK(strchr("busfpx", ptx_type_kinds[i]) != NULL);
        CHECK(ptx_type_kinds[i] == 'p' ? ptx_type_sizes[i] == 0 : ptx_type_sizes[i] > 0);
    }
    CHECK(ptx_type_sizes[PTX_T_u8] == 1 && ptx_type_sizes[PTX_T_f16] == 2 && ptx_type_sizes[PTX_T_f32] == 4);
    CHECK(ptx_type_sizes[PTX_T_f64] == 8 && ptx_type_sizes[PTX_T_b128] == 16 && ptx_type_sizes[PTX_T_f16x2] == 4);
    CHECK(ptx_type_kinds[PTX_T_s32] == 's' && ptx_type_kinds[PTX_T_u64] == 'u' && ptx_type_kinds[PTX_T_b16] == 'b');
    CHECK(ptx_type_kinds[PTX_T_f32] == 'f' && ptx_type_kinds[PTX_T_pred] == 'p' && ptx_type_kinds[PTX_T_bf16x2] == 'x');

    /* A dot word is looked up as a type or a modifier: every spelling must be unique. */
    for (int i = 1; i < PTX_MOD_COUNT; i++) {
        CHECK(ptx_mod_names[i] && ptx_mod_names[i][0]);
        for (int j = 1; j < i; j++)
            if (strcmp(ptx_mod_names[i], ptx_mod_names[j]) == 0) {
                fprintf(stderr, "modifier spelled twice: %s\n", ptx_mod_names[i]);
                failures++;
            }
        for (int t = 1; t < PTX_T_COUNT; t++)
            if (strcmp(ptx_mod_names[i], ptx_type_names[t]) == 0) {
                fprintf(stderr, "modifier spelled like a type: %s\n", ptx_mod_names[i]);
                failures++;
            }
    }
    CHECK(strcmp(ptx_mod_names[PTX_MOD_shared_cta], "shared::cta") == 0);
    CHECK(strcmp(ptx_mod_names[PTX_MOD_cache_hint], "L2::cache_hint") == 0);

    /* special register names print back */
    char buf[32];
    CHECK(strcmp(ptx_sreg_name(PTX_SREG_TID_Y, buf, sizeof buf), "%tid.y") == 0);
    CHECK(strcmp(ptx_sreg_name(PTX_SREG_ENVREG0 + 31, buf, sizeof buf), "%envreg31") == 0);
    CHECK(strcmp(ptx_sreg_name(PTX_SREG_CLUSTER_CTAID_Z, buf, sizeof buf), "%cluster_ctaid.z") == 0);
    for (int s = 0; s < PTX_SREG_COUNT; s++) CHECK(ptx_sreg_name((ptx_sreg)s, buf, sizeof buf)[0] == '%');

    if (failures) {
        fprintf(stderr, "test_ptx_tables: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_ptx_tables: all passed\n");
    return 0;
}
