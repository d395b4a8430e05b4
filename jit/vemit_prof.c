/* jit/vemit_prof.c — the vector tier's instrumented variant: what a profiled kernel's
 * whole-block code (jit/vemit.c) adds so that the blocks the profiler does not time run it
 * with the interpreter's counts.
 *
 * Those blocks ask for memory accesses only (exec_native_block_observable), so the code
 * adds, per instruction, the count of its issue into the observer's tally, exactly as the
 * observed run loop counts it (exec_tally_count: the lanes on the warp's path, those its
 * guard lets run, a branch's split), and before a memory instruction, when the block asks
 * for its kind, a call of the observer with the instruction's operands spilled into the
 * warp's registers (exec_observe_insn reads them there, as it does for the interpreter).
 * Where the code hands the block to the run loop before an instruction it already counted
 * (a split it cannot follow, an affine value that wraps), it takes that count back: the run
 * loop (the per-warp instrumented code) counts the instruction again when it issues it.
 *
 * An instrumented kernel's unit holds both kinds of code (jit/emit.c): this one and the
 * per-warp instrumented code, which runs the timed blocks and the blocks handed back. Its
 * text differs from the plain unit's, so it has its own cache entry, and a plain run
 * never pays for any of it.
 *
 * The generated code sees: `act` (the warp's lanes on the path), `m` (those the guard
 * lets run), `w` (the warp), `rt` (the runtime), `V` (the block's view); and, from
 * jit_vprof_entry on, VT (the tally) and VOB (the kinds of instruction that call the
 * observer).
 */
#include "internal.h"
#include "../exec/observe.h"

#include <stddef.h>

void jit_vprof_prelude(jit_buf *o) {
    jit_emit_tally_type(o);
    jit_buf_printf(o,
        "/* the vector tier, instrumented: the observer's tally and memory events */\n"
        "struct brt_obs { struct brt base; void (*observe)(void *, const char *, u32);\n"
        "  void (*observe_affine)(void *, const char *, u32, u64, i64, i64, u32, u32); };\n"
        "_Static_assert(sizeof(struct brt_obs) == %zuu, \"exec_native_block_rt\");\n"
        "#define VT_OFF %zuu\n#define VOB_OFF %zuu\n"
        "/* a partial issue's lanes, counted (d = 1) or taken back (d = -1) */\n"
        "static inline void vtally_part(struct tl *t, u32 act, u32 m, int br, u64 d) {\n"
        "  u64 na = (u64)__builtin_popcount(act), no = (u64)__builtin_popcount(m);\n"
        "  t->partial += d; t->active += d * na; t->pred_on += d * no;\n"
        "  if (br && m) { if (m == act) { t->all_taken += d; t->all_taken_lanes += d * na; }\n"
        "                 else { t->diverged += d; t->diverged_lanes += d * no; } }\n}\n"
        "#define VTALLY(x, br) do { struct tl *t_ = VT + (x); t_->issued++;\\\n"
        "    if (UNLIKELY(m != FULL)) vtally_part(t_, act, m, (br), 1); } while (0)\n"
        "#define VUNTALLY(x, br) do { struct tl *t_ = VT + (x); t_->issued--;\\\n"
        "    if (UNLIKELY(m != FULL)) vtally_part(t_, act, m, (br), (u64)-1); } while (0)\n\n",
        sizeof(exec_native_block_rt), offsetof(exec_wstate, tally),
        offsetof(exec_wstate, obs_calls));
}

void jit_vprof_entry(jit_buf *o, const exec_func *f) {
    if (!f->instrumented) return;
    /* every warp of the block has the same tally (the worker's, of this kernel) and the
     * same calls (none asks for an event per instruction); none: the run loop's */
    jit_buf_printf(o, "  struct tl *const VT = *(struct tl *const *)(V.warps + VT_OFF);\n"
                      "  const u32 VOB = *(const u32 *)(V.warps + VOB_OFF); (void)VOB;\n"
                      "  if (!VT) return 1;\n");
}

/* The kinds of instruction whose event the code can tell: those read from the operands
 * alone (a branch, a barrier or a warp-synchronous operation needs the interpreter's state
 * of the warp, and blocks that ask for them do not run this code). */
static bool observable_kind(uint8_t k) {
    switch ((enum exec_obs_kind)k) {
    case EXEC_OBS_K_LOAD: case EXEC_OBS_K_STORE: case EXEC_OBS_K_ATOMIC:
    case EXEC_OBS_K_LOAD_KPARAM: case EXEC_OBS_K_CP_ASYNC: case EXEC_OBS_K_TEX:
        return true;
    default:
        return false;
    }
}

bool jit_vprof_insn(jit_buf *o, const exec_func *f, uint32_t i) {
    if (!f->instrumented) return false;
    const exec_insn *in = &f->code[i];
    if (in->obs == EXEC_OBS_K_HIDDEN) return false;
    jit_buf_printf(o, "    VTALLY(%uu, %d);\n", in->src_index, in->obs == EXEC_OBS_K_BRANCH);
    if (!observable_kind(in->obs)) return false;
    jit_buf_printf(o, "    if (UNLIKELY((VOB >> %u) & 1u)) {\n", (unsigned)in->obs);
    return true;
}

void jit_vprof_observe(jit_buf *o, uint32_t i) {
    jit_buf_printf(o, "    ACT = act; CLOCK = clk;\n"
                      "    ((const struct brt_obs *)rt)->observe(w, INSN(%u), m);\n    }\n", i);
}

/* A load or store (of any space but a generic one's windows or a parameter) whose address
 * register is uniform, affine or row-affine in the vector code: its call tells the
 * register as lane 0's value and its steps (exec_observe_affine: along the lanes, or
 * along a row and from row to row) instead of spilling its 32 lanes, and spills none of
 * the instruction's other operands (the observer reads the address only). The profiler
 * then counts it from its base and steps, its repeats without a walk over the lanes
 * (prof/session.c, on_mem_affine). */
bool jit_vprof_affine_ok(const exec_insn *in) {
    return (in->obs == EXEC_OBS_K_LOAD || in->obs == EXEC_OBS_K_STORE) && in->na >= 1 &&
           in->space != PTX_SPACE_GENERIC && in->space != PTX_SPACE_PARAM;
}

void jit_vprof_observe_affine_open(jit_buf *o, uint32_t i) {
    jit_buf_printf(o, "    ACT = act; CLOCK = clk;\n"
                      "    ((const struct brt_obs *)rt)->observe_affine(w, INSN(%u), m, ", i);
}

void jit_vprof_observe_affine_close(jit_buf *o, bool w32) {
    jit_buf_printf(o, ", %uu);\n    }\n", (unsigned)w32);
}

void jit_vprof_bail(jit_buf *o, const exec_func *f, uint32_t i) {
    if (!f->instrumented) return;
    const exec_insn *in = &f->code[i];
    if (in->obs == EXEC_OBS_K_HIDDEN) return;
    jit_buf_printf(o, "    VUNTALLY(%uu, %d);\n", in->src_index, in->obs == EXEC_OBS_K_BRANCH);
}

void jit_vprof_end_issue(jit_buf *o, const exec_func *f, uint32_t t) {
    if (!f->instrumented) return;
    const exec_insn *in = &f->code[t];
    /* (the end is unguarded: its issue runs every lane on the path, m == act here) */
    if (in->obs != EXEC_OBS_K_HIDDEN)
        jit_buf_printf(o, "VTALLY(%uu, 0); ", in->src_index);
}
