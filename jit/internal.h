/* jit/internal.h — shared by the compiled tier's files: a growing text buffer, the C
 * generator (jit/emit.c) and the compiler driver with its on-disk cache (jit/build.c).
 */
#ifndef VCUDA_JIT_INTERNAL_H
#define VCUDA_JIT_INTERNAL_H

#include <sys/types.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../exec/native.h"
#include "jit.h"

/* Text being built; aborts when host memory runs out (as the executor does). */
typedef struct jit_buf {
    char *s;
    size_t len, cap;
} jit_buf;

void jit_buf_printf(jit_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jit_buf_free(jit_buf *b);

/* What the generator made of a compile unit's (or, summed, a program's) instructions. */
typedef struct jit_emit_stats {
    uint32_t funcs;          /* functions with code */
    uint32_t insns;          /* instructions, end sentinels included */
    uint32_t inline_insns;   /* specialised in the generated code */
    uint32_t handler_insns;  /* run by calling the interpreter's handler */
    uint32_t vector_funcs;   /* kernels in the vector tier (jit/vemit.c) */
    uint32_t kernels;        /* kernels with code */
    char vector_why[256];    /* why the (first) kernel left out of it was */
} jit_emit_stats;

/* Instructions of function f's code (end sentinel included; 0: no code). */
uint32_t jit_func_insns(const exec_func *f);
/* Matching an instruction to a row of a table of inline operations (jit/emit.c). */
bool jit_form_handler(const exec_insn *in, uint16_t op, uint8_t type, uint8_t var, uint8_t na,
                      bool setp);
bool jit_form_plain(const exec_insn *in, bool setp);

/* The C source of one compile unit: function f (which has code) alone, its per-warp code
 * to be built at optimisation level opt (0-2) as `vj_f<i>` (an exec_native_fn), or, when
 * f is a kernel the vector tier takes (jit_vector_wanted, jit/vemit.c), its whole-block
 * code `vb_f<i>` (an exec_native_block_fn; st->vector_funcs is then 1). */
void jit_emit_unit(const exec_func *f, int opt, jit_buf *out, jit_emit_stats *st);

/* The vector tier (jit/vemit.c): the definitions its functions use (once per file, after
 * jit/emit.c's), and kernel f as `vb_f<index>` (an exec_native_block_fn), or false with
 * the reason it cannot take f in why. */
void jit_vemit_prelude(jit_buf *o);
/* Its loads of rows narrower than a warp (jit/vemit_mem.c), part of the prelude. */
void jit_vemit_mem_prelude(jit_buf *o);
/* Its stores of some lanes (jit/vemit_lanes.c): the `else` after a contiguous store's
 * whole-warp case, writing the lanes of m of src (a vn when narrow, else a vu; size 4 or 8
 * bytes a lane) at base + a0; and a copy of register r<reg>'s lanes as la_[32] (u32 when
 * narrow, else u64), for stores lane by lane. */
void jit_vemit_store_some(jit_buf *o, const char *src, bool narrow, unsigned size);
void jit_vemit_lane_array(jit_buf *o, unsigned reg, bool narrow);
/* The lanes of m, the first f_, each store of size bytes of (T)(val) (an expression of
 * lane l0_) at base + ef_ + (l0_ - f_) * st_, in lane order. */
void jit_vemit_store_strided(jit_buf *o, const char *T, unsigned size, const char *val);
/* The prelude's part for those (after jit_vemit_prelude's types): SL2W, the loads of
 * 4-byte lanes two words apart. */
void jit_vemit_lanes_prelude(jit_buf *o);
/* The strided store of a register of 32-bit lanes reg by the whole warp: the text up to
 * `else {`, whose block the caller closes after the other masks' text. */
void jit_vemit_store_strided_full(jit_buf *o, unsigned reg);
/* The text of the range instruction i's access may touch (lo, hi), the base its addresses
 * are relative to, and whether it may (ok: a store needs a writable allocation): the
 * block's shared memory, or the allocation the worker last found for the instruction. */
void jit_vemit_mem_range(jit_buf *o, uint32_t i, bool shared, bool load);
/* Its accesses of warps that hold several rows of a 2-D block (jit/vemit_rows.c): the
 * prelude's part, and the fast path of one access whose address is row-affine (lane l of
 * row y = l / W, x = l % W: h + x * c + y * g + imm; c 0 or the size for a load, the size
 * for a store), as text `if (...) { ... } else` before the access's other paths. */
void jit_vemit_rows_prelude(jit_buf *o);
/* Is the row path on (VCUDA_JIT_ROWS, see jit/vemit_rows.c)? */
bool jit_vemit_rows_enabled(void);
typedef struct jit_vrow_access {
    uint32_t insn;        /* the instruction (its range cache: RNG) */
    bool shared, load, narrow, w32;
    unsigned size;        /* 4 or 8 bytes */
    long long c, imm;
    const char *h, *g;    /* the address register's first lane and row step (C names) */
    const char *dst;      /* load: the register (a vn when narrow, else a vu) */
    const char *src;      /* store: the value (a vn register when narrow, else a vu) */
} jit_vrow_access;
void jit_vemit_rows_access(jit_buf *o, const jit_vrow_access *a);
/* Is f a kernel for the vector tier: not turned off (VCUDA_JIT_VECTOR=0), and small
 * enough that the C compiler's time stays bounded (its code costs the compiler several
 * times the per-warp code's time: larger kernels get only that)? */
#define JIT_VECTOR_MAX_INSNS 2000u
bool jit_vector_wanted(const exec_func *f);
/* jit/emit.c's one-lane C expression of an instruction it specialises (over u64 a, b, c;
 * for setp the condition), or NULL (selp, or not specialised). */
const char *jit_spec_scalar_expr(const exec_insn *in);
bool jit_vemit_func(const exec_func *f, jit_buf *o, char *why, size_t n);

/* Mark in `in` (one flag per function of p) every function a launch of function root
 * may run: root, what it calls and what it takes the address of (a function pointer, a
 * kernel it launches from the device), through them all; where one calls through a
 * pointer, every device function (jit/reach.c). */
void jit_reachable(const exec_program *p, uint32_t root, bool *in);
/* Append to why, a compiler's message about the generated C src of function f ("...
 * path.c:LINE:COL: error: ..."), the PTX instruction that line is part of: " (near
 * instruction <i>: <opcode>, line <n> of the PTX)"; nothing when it names no line. */
void jit_name_insn(const exec_func *f, const jit_buf *src, char *why, size_t n);
/* The vector tier's instrumented variant (jit/vemit_prof.c), for a function whose
 * exec_func.instrumented is set (every hook writes nothing otherwise): its definitions
 * (after jit_vemit_prelude's); at the whole-block function's start, the tally and the
 * observer's calls (VT, VOB; a block without a tally goes to the run loop); at instruction
 * i, after its guard, the count of its issue, and for a memory instruction the opening of
 * the branch that calls the observer (true: the caller spills the instruction's operands
 * into the warp's registers, then jit_vprof_observe calls and closes it); where the code
 * hands the block over before instruction i, the count taken back; where a branch takes
 * the whole warp to the thread's end t, the end's issue. */
void jit_vprof_prelude(jit_buf *o);
/* `struct tl`, the generated code's view of exec_insn_tally (jit/emit.c), once per unit. */
void jit_emit_tally_type(jit_buf *o);
void jit_vprof_entry(jit_buf *o, const exec_func *f);
bool jit_vprof_insn(jit_buf *o, const exec_func *f, uint32_t i);
void jit_vprof_observe(jit_buf *o, uint32_t i);
/* ... or, for a load or store whose address register the code holds as a scalar base and
 * steps (jit_vprof_affine_ok), without spilling: open, then what the caller prints (the
 * base, the step, the row's step and log2 of the lanes of a row: an u64, two i64 and an
 * u32, commas between), then close (w32: the register is 32 bits). */
bool jit_vprof_affine_ok(const exec_insn *in);
void jit_vprof_observe_affine_open(jit_buf *o, uint32_t i);
void jit_vprof_observe_affine_close(jit_buf *o, bool w32);
void jit_vprof_bail(jit_buf *o, const exec_func *f, uint32_t i);
void jit_vprof_end_issue(jit_buf *o, const exec_func *f, uint32_t t);

/* The compiler command, its identity (first line of `cc --version`) and every flag a
 * compile gives it but the optimisation level and the files: the command line and the
 * cache key both come from flags (jit/cc.c). Found once per process, and recorded beside
 * the cache for the next ones. */
enum { JIT_CC_MAX_FLAGS = 12 };
typedef struct jit_cc {
    char path[512];
    char ident[256];
    const char *flags[JIT_CC_MAX_FLAGS];
    int nflags;
    bool ok;
} jit_cc;
const jit_cc *jit_cc_get(void);

/* A shared object built from source (or found in the cache). */
typedef struct jit_build {
    void *handle;            /* dlopen handle */
    bool from_cache;
    double compile_seconds;  /* 0 when found in the cache */
    double cpu_seconds;      /* the compiler's CPU time (its processes'), 0 likewise */
    char key[33];            /* cache key (hex) */
} jit_build;

/* Compile src at optimisation level opt ("-O0" to "-O2") or find it in the cache (only
 * look there: cache_only), and load it. cancel (when given) lets another thread stop the
 * compiler. On failure returns false and writes why into err. */
/* End a compiler started by jit_build_load and everything it started (pid <= 0: none). */
void jit_kill_compiler(pid_t pid);

bool jit_build_load(const char *src, size_t len, const char *opt, bool cache_only,
                    jit_build *out, jit_cancel *cancel, char *err, size_t errlen);

/* The cache directory: $VCUDA_CACHE_DIR, else $XDG_CACHE_HOME/vcuda, else ~/.cache/vcuda. */
bool jit_cache_dir(char *buf, size_t n);
/* mkdir -p path. */
bool jit_mkdirs(const char *path);
/* FNV-1a over n bytes of p, from h. */
uint64_t jit_fnv1a(uint64_t h, const void *p, size_t n);

#endif
