/* ptx/tables.c — name, size, kind and flag tables for opcodes, types and modifiers,
 * generated from the X-macro lists (opcodes.def, types.def, modifiers.def), so each fact
 * is written once. */
#include "ir.h"

const char *const ptx_opcode_names[PTX_OP_COUNT] = {
#define OP(e, s, f) [PTX_OP_##e] = s,
#include "opcodes.def"
#undef OP
};

const uint32_t ptx_opcode_flags[PTX_OP_COUNT] = {
#define OP(e, s, f) [PTX_OP_##e] = (f),
#include "opcodes.def"
#undef OP
};

const char *const ptx_type_names[PTX_T_COUNT] = {
    [PTX_T_NONE] = "",
#define TY(e, s, n, k) [PTX_T_##e] = s,
#include "types.def"
#undef TY
};

const uint8_t ptx_type_sizes[PTX_T_COUNT] = {
    [PTX_T_NONE] = 0,
#define TY(e, s, n, k) [PTX_T_##e] = (n),
#include "types.def"
#undef TY
};

const char ptx_type_kinds[PTX_T_COUNT] = {
    [PTX_T_NONE] = 0,
#define TY(e, s, n, k) [PTX_T_##e] = (k),
#include "types.def"
#undef TY
};

const char *const ptx_mod_names[PTX_MOD_COUNT] = {
    [PTX_MOD_NONE] = "",
#define MOD(e, s) [PTX_MOD_##e] = s,
#include "modifiers.def"
#undef MOD
};
