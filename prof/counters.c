/* prof/counters.c — merging counters, the per-generation rules, and the classes that
 * instructions and memory accesses are counted under. */
#include <string.h>
#include "counters.h"

/* prof_counters_add treats the struct as a flat array of counters. */
_Static_assert(sizeof(prof_counters) % sizeof(uint64_t) == 0,
               "prof_counters must hold uint64_t counters only");

void prof_counters_clear(prof_counters *c) { memset(c, 0, sizeof *c); }

void prof_counters_add(prof_counters *dst, const prof_counters *src)
{
    uint64_t d[sizeof(prof_counters) / sizeof(uint64_t)];
    uint64_t s[sizeof(prof_counters) / sizeof(uint64_t)];
    memcpy(d, dst, sizeof d);
    memcpy(s, src, sizeof s);
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        d[i] += s[i];
    memcpy(dst, d, sizeof d);
}

prof_rules prof_rules_for(const gpu_preset *p)
{
    prof_rules r = { .generation = PROF_GEN_SECTORED, .l1_global_loads = false,
                     .shared_bank_bytes = 4, .shared_pair_merge = p->major >= 7,
                     .shared_wavefront_bytes = 128 };
    if (p->major <= 2) {
        r.generation = PROF_GEN_FERMI;
        r.l1_global_loads = p->l1_caches_global_loads != 0;
    } else if (p->major == 3) {
        r.generation = PROF_GEN_KEPLER;
        r.l1_global_loads = p->l1_caches_global_loads != 0;
        /* Kepler's shared memory returns 256 bytes a cycle (32 banks of 8 bytes); in
         * four-byte bank mode only half of that path carries data. */
        r.shared_wavefront_bytes = 256;
    }
    return r;
}

bool prof_rules_set_bank_bytes(prof_rules *r, unsigned bytes)
{
    if (bytes != 4 && bytes != 8)
        return false;
    if (r->generation != PROF_GEN_KEPLER)
        return bytes == 4;
    r->shared_bank_bytes = (uint8_t)bytes;
    return true;
}

void prof_recorder_init(prof_recorder *r, const prof_rules *rules)
{
    r->rules = *rules;
    prof_counters_clear(&r->c);
}

prof_mem_kind prof_mem_kind_of(prof_space space, prof_access access)
{
    switch (space) {
    case PROF_SPACE_GLOBAL:
        switch (access) {
        case PROF_ACCESS_LOAD: return PROF_MEM_GLOBAL_LD;
        case PROF_ACCESS_STORE: return PROF_MEM_GLOBAL_ST;
        case PROF_ACCESS_ATOMIC: return PROF_MEM_GLOBAL_ATOM;
        case PROF_ACCESS_REDUCTION: return PROF_MEM_GLOBAL_RED;
        }
        break;
    case PROF_SPACE_LOCAL:
        if (access == PROF_ACCESS_LOAD) return PROF_MEM_LOCAL_LD;
        if (access == PROF_ACCESS_STORE) return PROF_MEM_LOCAL_ST;
        break;
    case PROF_SPACE_SHARED:
        switch (access) {
        case PROF_ACCESS_LOAD: return PROF_MEM_SHARED_LD;
        case PROF_ACCESS_STORE: return PROF_MEM_SHARED_ST;
        case PROF_ACCESS_ATOMIC:
        case PROF_ACCESS_REDUCTION: return PROF_MEM_SHARED_ATOM;
        }
        break;
    }
    return PROF_MEM_KIND_COUNT;
}

const char *prof_mem_kind_name(prof_mem_kind k)
{
    static const char *const names[PROF_MEM_KIND_COUNT] = {
        [PROF_MEM_GLOBAL_LD] = "global_ld", [PROF_MEM_GLOBAL_ST] = "global_st",
        [PROF_MEM_GLOBAL_ATOM] = "global_atom", [PROF_MEM_GLOBAL_RED] = "global_red",
        [PROF_MEM_LOCAL_LD] = "local_ld", [PROF_MEM_LOCAL_ST] = "local_st",
        [PROF_MEM_SHARED_LD] = "shared_ld", [PROF_MEM_SHARED_ST] = "shared_st",
        [PROF_MEM_SHARED_ATOM] = "shared_atom", [PROF_MEM_TEXTURE] = "texture",
        [PROF_MEM_SURFACE_LD] = "surface_ld", [PROF_MEM_SURFACE_ST] = "surface_st",
    };
    return (unsigned)k < PROF_MEM_KIND_COUNT ? names[k] : "?";
}

const char *prof_insn_class_name(prof_insn_class c)
{
    static const char *const names[PROF_CLASS_COUNT] = {
        [PROF_CLASS_FP32] = "fp32", [PROF_CLASS_FP64] = "fp64", [PROF_CLASS_FP16] = "fp16",
        [PROF_CLASS_INTEGER] = "integer", [PROF_CLASS_CONVERSION] = "conversion",
        [PROF_CLASS_CONTROL] = "control", [PROF_CLASS_LDST] = "ld_st",
        [PROF_CLASS_INTER_THREAD] = "inter_thread_communication", [PROF_CLASS_MISC] = "misc",
    };
    return (unsigned)c < PROF_CLASS_COUNT ? names[c] : "?";
}

/* The class an arithmetic instruction falls in follows its operand type. */
static prof_insn_class class_of_type(unsigned type)
{
    switch ((ptx_type)type) {
    case PTX_T_f32: case PTX_T_tf32:
        return PROF_CLASS_FP32;
    case PTX_T_f64:
        return PROF_CLASS_FP64;
    case PTX_T_f16: case PTX_T_f16x2: case PTX_T_bf16: case PTX_T_bf16x2:
    case PTX_T_e4m3: case PTX_T_e5m2: case PTX_T_e4m3x2: case PTX_T_e5m2x2:
        return PROF_CLASS_FP16;
    default:
        return PROF_CLASS_INTEGER;
    }
}

prof_insn_class prof_insn_class_of(unsigned op, unsigned type)
{
    switch ((ptx_opcode)op) {
    case PTX_OP_bra: case PTX_OP_brx: case PTX_OP_call: case PTX_OP_ret:
    case PTX_OP_exit: case PTX_OP_trap:
        return PROF_CLASS_CONTROL;
    case PTX_OP_ld: case PTX_OP_ldu: case PTX_OP_st: case PTX_OP_atom: case PTX_OP_red:
    case PTX_OP_cp: case PTX_OP_prefetch: case PTX_OP_prefetchu: case PTX_OP_discard:
    case PTX_OP_applypriority:
        return PROF_CLASS_LDST;
    case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux:
    case PTX_OP_activemask: case PTX_OP_elect:
        return PROF_CLASS_INTER_THREAD;
    case PTX_OP_cvt:
        return PROF_CLASS_CONVERSION;
    case PTX_OP_mov: case PTX_OP_bar: case PTX_OP_barrier: case PTX_OP_fence:
    case PTX_OP_membar: case PTX_OP_nanosleep: case PTX_OP_pmevent: case PTX_OP_brkpt:
    case PTX_OP_griddepcontrol: case PTX_OP_alloca: case PTX_OP_stacksave:
    case PTX_OP_stackrestore: case PTX_OP_createpolicy: case PTX_OP_setmaxnreg:
        return PROF_CLASS_MISC;
    default:
        return class_of_type(type);
    }
}
