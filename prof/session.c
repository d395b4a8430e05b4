/* prof/session.c — profiling one launch: the observer that turns the executor's events
 * into counters and into each block's timeline for the timing model.
 *
 * Counting: every issued instruction goes to prof_on_insn under its class, every branch
 * to prof_on_branch, every global/local/shared access to prof_on_mem (coalescing and bank
 * conflicts, prof/coalesce.c and prof/banks.c). Constant and parameter loads are not
 * L1TEX traffic and are not counted as memory requests. Where the hardware's SASS
 * differs from the PTX in ways the counters would show, the SASS is counted:
 *   - a division or remainder (and an IEEE square root or reciprocal) counts as the
 *     instruction sequence SASS computes it with (an integer remainder by a variable: 18);
 *   - a branch to the kernel's final ret is a predicated EXIT, not a branch;
 *   - an atom whose result is never read is a RED (ptxas drops the unused result).
 * Other differences remain (SASS merges some neighbouring shared loads into one wider
 * load, schedules its own address arithmetic): see tests/prof/known_differences.txt.
 *
 * Timing (prof/timing.c describes the model): each warp of the running block has a clock
 * and a scoreboard of when its registers' values are ready. An instruction issues at the
 * later of the warp's clock and its sources' ready times; its destinations are ready after
 * its latency (a load's latency is known only when its memory event resolves where the
 * data came from, which follows the instruction's own event). A barrier releases its warps
 * when the last one arrives. Registers are hashed into a small scoreboard (a collision
 * only adds a dependency). Block clocks run on from one block to the next on a worker, so
 * nothing needs clearing between blocks.
 *
 * An instruction's class, latency and registers are worked out once per instruction and
 * worker and kept in a small hash table, so the per-event cost is a lookup.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "hooks.h"
#include "lanes.h"
#include "touched.h"

#define SCOREBOARD 256u          /* registers per warp, hashed */
#define L1_SECTORS 8192u         /* the L1 of the timing model: 256 KiB, direct-mapped at
                                  * hashed places (no pathological strides) */
#define MAX_RECORDED_BLOCKS (1u << 22)
#define PROF_TIMED_BLOCKS 32u    /* blocks of a grid replayed on the timing clock, at most */
#define PROF_EVENTS_PER_WARP 2048u /* a replayed warp's instructions timed one by one; the
                                  * rest of a longer one is extrapolated at the pace of
                                  * their second half */
#define MEMO_SLOTS 1024u         /* remembered access patterns per worker */
#define MEMO_PERIOD 256u         /* moving all addresses by a multiple of this changes no count
                                  * (128-byte lines, 32 banks of up to 8 bytes) */
#define MEMO_RUNS 8u             /* runs of consecutive sectors a pattern keeps */
#define MEMO_NO_RUNS 0xffu       /* more than that: the lanes are walked */
#define ATOM_BUCKETS 65536u      /* global atomics: ops per address and transactions per
                                  * line, counted in hashed buckets (a collision only makes
                                  * an address look busier) */
#define FIRST_SLOTS 65536u       /* sectors' first-touching blocks, hashed and tagged (a
                                  * collision forgets a sector: its misses count as L2's) */
#define FIRST_BLOCK_BITS 20u     /* ... the block index kept beside the sector's tag */
#define FB_LOG 256u              /* first_block's writes a worker holds back (fb_flush): 4 KiB,
                                  * few enough to leave L1 the memo and the kernel's data */
#define FB_AHEAD 8u              /* ... whose slots fb_flush asks for this many runs ahead */
#define CAS_PROBES 64u           /* compare-and-swaps are counted by exact address (their
                                  * contention is modelled, and a collision would invent
                                  * some): slots looked at before an address goes uncounted */

/* ---- what an instruction means to the profiler (worked out once) ---- */

enum lat_kind { LAT_ALU, LAT_FP64, LAT_SFU, LAT_SHUFFLE, LAT_MEMORY, LAT_NONE, LAT_PRINTF,
                LAT_TEXTURE, LAT_CLOCK };

typedef struct insn_info {
    const ptx_insn *key;
    uint8_t cls;               /* prof_insn_class */
    uint8_t lat;               /* enum lat_kind */
    uint32_t latency;          /* cycles until its results are ready (a load: until its
                                * memory event says more) */
    uint8_t sass;              /* SASS instructions it becomes (a division: a sequence) */
    uint8_t issue;             /* issue slots it takes on the timing clock: sass, but none
                                * for a constant moved into a register, which ptxas folds
                                * into its users as an immediate operand */
    uint8_t nsrc, ndst;
    bool reduction;            /* red, or atom whose result is never read (ptxas: RED) */
    bool exit_branch;          /* bra to the kernel's end: a predicated EXIT in SASS */
    bool boundary;             /* ends a basic block (branch, barrier, call, return, fence) */
    bool bypass_l1;            /* volatile and strong loads: served by L2 every time */
    bool is_load, is_store;    /* a memory read (ld, atom), a memory write (st, red, atom) */
    bool if_converted;         /* bra over a short region that ptxas predicates instead */
    bool mem_op;               /* ld/st/atom/red: issued with no lane on, still counted */
    uint8_t mem_space;         /* its prof_space when mem_op */
    const ptx_insn *region_first, *region_end; /* if_converted: the predicated region */
    uint16_t src[8], dst[4];   /* scoreboard indices */
} insn_info;

/* How often an instruction was issued, and to how many lanes: counted per instruction
 * while the grid runs (the cheapest thing to do per event), turned into the counters by
 * class and SASS weight when the worker is done. */
typedef exec_insn_tally insn_count;

/* The last access pattern an instruction made and what it counted: warps of a kernel
 * mostly repeat their instruction's pattern at another base address, and moving every
 * address by the same multiple of MEMO_PERIOD changes no sector, line, segment or bank
 * count. A loop that walks an array meets each phase of the period again and again, so
 * patterns are remembered by instruction, phase and lanes on. */
typedef struct mem_memo {
    /* what an access looks at first (its key, its repeats, its runs of sectors) at the
     * front, the entry aligned to a line: a hit reads its first two lines, no more (a
     * streaming kernel's data evicts the table between accesses, so each line read is a
     * miss) */
    _Alignas(64) const ptx_insn *insn; /* NULL: empty */
    uint32_t hits;             /* repeats not yet added to the counters (memo_fold) */
    uint32_t mask, size;
    /* an access told by base and steps (on_mem_affine) with this entry's key and the
     * steps aff_steps gives (affine_key, affine_steps) is this pattern, rel being what
     * those steps give: no look at its lanes; aff_key 0: none is */
    uint64_t aff_key, aff_steps;
    uint16_t base_phase;       /* the first lane's address modulo MEMO_PERIOD */
    uint8_t kind;              /* the prof_mem_kind it counts in */
    uint8_t space, access;
    bool recent;               /* used after the other slot of its pair (memo_pair) */
    uint8_t nruns;             /* see run_len */
    /* global and local: the distinct sectors touched, as runs of run_len sectors from the
     * first lane's sector + run_off (the same for every base of this phase); nruns is
     * MEMO_NO_RUNS when they do not fit */
    uint8_t run_len[MEMO_RUNS];
    int32_t run_off[MEMO_RUNS];
    int32_t rel[32];           /* each lane's address less the first lane's (a pattern
                                * whose lanes lie further apart is not remembered) */
    uint32_t delta[10];        /* what the access added to each prof_mem_counts field, in
                                * order (one access adds little: 32 bits keep the entry
                                * small, and the table in cache) */
} mem_memo;

typedef struct warp_clock {
    uint64_t t;                /* next issue slot */
    uint64_t bb_end;           /* latest start in the current basic block, plus one */
    uint32_t barriers;         /* barriers passed */
    bool at_barrier;           /* the next instruction waits for the barrier's release */
    uint32_t miss_rounds;      /* sequential waits for data that missed L1 */
    uint64_t store_start[3];   /* latest store's start, by prof_space: a later load may
                                * not pass it (the compiler cannot prove they differ) */
    uint64_t store_ack;        /* when L2 has taken this warp's global stores */
    uint64_t last_miss_ready;  /* when the latest counted such wait ended */
    uint64_t events;           /* instructions timed one by one in this block */
    uint64_t issued;           /* instructions issued in this block (warp_end) */
    uint64_t half_t;           /* its clock when half of its timed instructions had issued */
    uint32_t half_rounds;      /* ... and its miss_rounds then */
    uint64_t sfu_free;         /* when the SFU takes this warp's next instruction */
    struct {
        uint64_t ready;        /* when the register's value is ready */
        uint64_t miss_issue;   /* for a value loaded past L1: when its load issued, else 0 */
    } reg[SCOREBOARD];         /* side by side: an instruction reads both of a register */
} warp_clock;

typedef _Atomic uint32_t atom_count;

typedef struct prof_worker {
    /* what every access reads or adds to, together in the worker's first lines, the
     * session's parts of it copied here: spread over the worker and the session, they
     * were several lines for each access, which a streaming kernel's data evicts between
     * accesses */
    _Alignas(64) prof_session *s;
    mem_memo *memo;            /* MEMO_SLOTS, by instruction address */
    prof_touched *touched, *written; /* the session's records (s->touched, s->written) */
    _Atomic uint64_t *first_block;   /* ... and its table (s->first_block) */
    bool timing;               /* s->timing */
    bool timing_block;         /* the running block is replayed on the timing clock */
    uint32_t fb_n;             /* first_block's writes held back (fb_log) */
    uint64_t block;            /* the running block's linear index */
    uint64_t compact;          /* accesses counted from their base and step alone */
    prof_touched_cursor touched_at; /* this worker's shortcut into the session's record */
    prof_touched_cursor written_at; /* ... into its record of stored sectors */
    uint64_t dram_bytes;
    uint64_t dram_read_bytes;  /* of dram_bytes, first touched by a read (an L2 miss) */
    uint64_t dram_write_bytes; /* distinct bytes stored to (sectors) */
    uint64_t l2_bytes;
    prof_recorder rec;
    /* what each instruction means, worked out on first sight: one array per function of
     * the module, indexed like its instructions; cur_* is the function last looked in */
    insn_info **infos;
    insn_count **counts;
    const ptx_insn *cur_first, *cur_end;
    uint32_t cur_n;            /* cur_end - cur_first */
    insn_info *cur_infos;
    insn_count *cur_counts;
    insn_info scratch;         /* for an instruction of no known function */
    struct worker_tables *tables; /* memo and l1 below: taken from the pool for this launch */
    /* the memo's repeats folded so far (memo_fold), by prof_mem_kind: added to the
     * counters at the end (memo_flush) */
    uint64_t memo_counts[PROF_MEM_KIND_COUNT][10];
    /* timing of the running block */
    warp_clock *warps;
    uint32_t warps_cap, nwarps;
    uint64_t *release;         /* per barrier generation: last arrival */
    uint32_t release_cap, release_used;
    uint64_t base;             /* the block's start on this worker's clock */
    prof_block_cost cur;
    uint64_t *l1;              /* sector + 1 per line, 0 = empty */
    const insn_info *last;     /* the instruction of the latest insn event */
    /* the load whose latency the next memory event decides */
    const insn_info *pending;
    warp_clock *pending_warp;
    uint64_t pending_issue;
    uint64_t atomic_tx;        /* global atomic transactions (all blocks) */
    uint64_t cas_tx;           /* ... of them, compare-and-swaps */
    uint64_t sys_read, sys_write; /* host-mapped bytes (replayed blocks) */
    uint64_t fetch_l1, fetch_l2;  /* warp-instructions fetched past the L0 instruction
                                   * cache: from L1's, from L2 (fold_counts) */
    uint64_t l1_lookups, l1_hits; /* sectors (replayed blocks) */
    /* first_block's writes not made yet, in order (fb_flush): a run of sectors (its first,
     * and its length less one: under 64) and its block + 1 (under 2^FIRST_BLOCK_BITS).
     * Made one after another they overlap their cache misses, where made one access at a
     * time each waited for its own (a quarter of a profiled reduction's time) */
    struct fb_run { uint64_t first; uint32_t more, tag; } fb_log[FB_LOG];
    struct prof_worker *next;
} prof_worker;

struct prof_session {
    exec_observer obs;
    prof_launch launch;
    prof_sm_model model;
    const ptx_module *module;
    bool timing;
    pthread_mutex_t lock;
    prof_counters total;       /* merged at end_worker */
    uint64_t l2_bytes, dram_bytes;
    prof_block_cost *blocks;   /* per linear block index (NULL: too many to keep) */
    uint64_t nblocks;
    prof_block_cost block_sum; /* all timed blocks, for grids too large to keep one by one */
    uint64_t replayed_sectors; /* L1 sectors the replays looked up (block_sum's are scaled
                                * up for extrapolated warps; l2_bytes comes from these) */
    uint64_t blocks_seen;      /* timed blocks */
    uint64_t sample_stride;    /* every this many blocks (in linear order) one is timed */
    prof_touched *touched;     /* the sectors the launch touched (timing only) */
    prof_touched *written;     /* ... of them, those it stored to (what DRAM takes back) */
    /* the block that touched a sector first (FIRST_SLOTS, hashed: sector << FIRST_BLOCK_BITS
     * | block + 1), to tell a miss on data a block of the same wave is still bringing in */
    _Atomic uint64_t *first_block;
    uint64_t wave_blocks;      /* blocks resident at once on the whole device */
    prof_table_pool *pool;     /* where workers take and leave their tables; NULL: none */
    /* global atomics: weighted ops per address, transactions per line (ATOM_BUCKETS
     * each, made on the first atomic) */
    _Atomic(atom_count *) atom_addr;
    _Atomic(atom_count *) atom_line;
    uint64_t atomic_tx;
    /* the same for compare-and-swaps alone (ops not weighted): their retries under
     * contention are the model's (prof/timing.c); ops per exact address (cas_keys: each
     * slot's address + 1, 0 free; an address finding no slot counts in cas_unkeyed, as
     * uncontended) */
    _Atomic(atom_count *) cas_addr;
    _Atomic(atom_count *) cas_line;
    _Atomic(atom_count *) cas_keys;
    _Atomic uint64_t cas_unkeyed;
    uint64_t cas_tx;
    uint64_t sys_read, sys_write;
    uint64_t fetch_l1, fetch_l2;   /* the workers' fetch_l1, fetch_l2 (all blocks) */
    uint64_t dram_write_bytes;     /* the workers' dram_write_bytes */
    uint64_t compact;              /* the workers' compact */
    uint64_t l1_lookups, l1_hits, dram_read_bytes;
    uint64_t l1_mask;          /* the L1 sectors left beside the shared-memory carveout */
    uint64_t (*host)[2];       /* host-mapped ranges [begin, end), sorted */
    size_t nhost;
};

/* ---- instruction analysis ---- */

static const ptx_func *func_of(const ptx_module *m, const ptx_insn *pi)
{
    if (!m)
        return NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (f->ninsns && pi >= f->insns && pi < f->insns + f->ninsns)
            return f;
    }
    return NULL;
}

static bool is_mod(const ptx_insn *pi, ptx_mod mod)
{
    for (unsigned i = 0; i < pi->nmods; i++)
        if (pi->mods[i] == mod)
            return true;
    return false;
}

static void add_reg(uint16_t *list, uint8_t *n, unsigned cap, int32_t reg)
{
    if (reg >= 0 && *n < cap)
        list[(*n)++] = (uint16_t)((uint32_t)reg % SCOREBOARD);
}

/* The registers an operand names (a vector's elements when f is known). */
static void operand_regs(const ptx_func *f, const ptx_operand *o, uint16_t *list, uint8_t *n,
                         unsigned cap)
{
    switch (o->kind) {
    case PTX_OPND_REG:
        add_reg(list, n, cap, o->reg);
        add_reg(list, n, cap, o->reg2);
        break;
    case PTX_OPND_ADDR:
        add_reg(list, n, cap, o->reg);
        break;
    case PTX_OPND_VEC: case PTX_OPND_LIST:
        if (f)
            for (uint32_t k = 0; k < o->vec_n && o->vec_first + k < f->nvec_elems; k++)
                operand_regs(NULL, &f->vec_elems[o->vec_first + k], list, n, cap);
        break;
    default:
        break;
    }
}

static bool writes_first_operand(unsigned op)
{
    switch ((ptx_opcode)op) {
    case PTX_OP_st: case PTX_OP_red: case PTX_OP_bra: case PTX_OP_brx: case PTX_OP_call:
    case PTX_OP_ret: case PTX_OP_exit: case PTX_OP_trap: case PTX_OP_bar: case PTX_OP_barrier:
    case PTX_OP_membar: case PTX_OP_fence: case PTX_OP_prefetch: case PTX_OP_prefetchu:
    case PTX_OP_cp: case PTX_OP_nanosleep: case PTX_OP_applypriority: case PTX_OP_discard:
    case PTX_OP_setmaxnreg:
        return false;
    default:
        return true;
    }
}

/* Is register reg read by any instruction of f? */
static bool reg_is_read(const ptx_func *f, int32_t reg)
{
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const ptx_insn *q = &f->insns[i];
        if (q->guard == reg)
            return true;
        unsigned first = writes_first_operand(q->op) ? 1 : 0;
        for (unsigned k = first; k < q->nopnds; k++) {
            uint16_t regs[16];
            uint8_t n = 0;
            operand_regs(f, &q->opnd[k], regs, &n, 16);
            for (unsigned j = 0; j < n; j++)
                if (regs[j] == (uint32_t)reg % SCOREBOARD)
                    return true;
        }
    }
    return false;
}

/* A branch to an unguarded ret of the kernel (or to exit): SASS ends those threads with
 * a predicated EXIT instead of branching, so Nsight Compute counts no branch target. */
static bool branches_to_exit(const ptx_func *f, const ptx_insn *pi)
{
    if (!f || pi->nopnds < 1 || pi->opnd[0].kind != PTX_OPND_LABEL || pi->opnd[0].label < 0 ||
        (uint32_t)pi->opnd[0].label >= f->nlabels)
        return false;
    int32_t t = f->labels[pi->opnd[0].label].insn;
    if (t < 0 || (uint32_t)t >= f->ninsns)
        return f->is_entry;  /* a label at the end: falling off the kernel is its end */
    const ptx_insn *target = &f->insns[t];
    return target->guard < 0 &&
           (target->op == PTX_OP_exit || (target->op == PTX_OP_ret && f->is_entry));
}

/* Can ptxas run pi under a predicate instead of branching around it? Arithmetic and
 * shared-memory accesses: yes. Global memory, barriers, calls, atomics and further
 * branches keep the branch (an H100 shows divergent branches around global accesses but
 * none around short shared-memory updates). */
static bool predicable(const ptx_insn *pi)
{
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_bra: case PTX_OP_brx: case PTX_OP_call: case PTX_OP_ret: case PTX_OP_exit:
    case PTX_OP_trap: case PTX_OP_bar: case PTX_OP_barrier: case PTX_OP_atom: case PTX_OP_red:
    case PTX_OP_membar: case PTX_OP_fence: case PTX_OP_cp: case PTX_OP_ldu:
    case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux:
        return false;
    case PTX_OP_ld: case PTX_OP_st:
        return is_mod(pi, PTX_MOD_shared);
    default:
        return true;
    }
}

#define IF_CONVERT_MAX 8  /* longest region (PTX instructions) taken as predicated */

/* A conditional forward branch over at most IF_CONVERT_MAX predicable instructions. */
static bool if_converted(const ptx_func *f, const ptx_insn *pi, const ptx_insn **first,
                         const ptx_insn **end)
{
    if (!f || pi->guard < 0 || pi->nopnds < 1 || pi->opnd[0].kind != PTX_OPND_LABEL ||
        pi->opnd[0].label < 0 || (uint32_t)pi->opnd[0].label >= f->nlabels)
        return false;
    int64_t from = pi - f->insns, to = f->labels[pi->opnd[0].label].insn;
    if (to <= from + 1 || to - from - 1 > IF_CONVERT_MAX || to > (int64_t)f->ninsns)
        return false;
    for (int64_t i = from + 1; i < to; i++)
        if (!predicable(&f->insns[i]))
            return false;
    *first = pi + 1;
    *end = f->insns + to;
    return true;
}

static ptx_type principal_type(const ptx_insn *pi)
{
    return pi->ntypes ? (ptx_type)pi->types[pi->ntypes - 1] : PTX_T_NONE;
}

static uint32_t latency_of(const prof_sm_model *m, unsigned kind)
{
    switch (kind) {
    case LAT_FP64: return m->lat_fp64;
    case LAT_SFU: return m->lat_sfu;
    case LAT_SHUFFLE: return m->lat_shuffle;
    case LAT_MEMORY: return m->lat_l1;  /* until the memory event says more */
    case LAT_NONE: return 0;
    case LAT_PRINTF: return m->printf_cycles;
    case LAT_TEXTURE: return m->lat_texture;
    case LAT_CLOCK: return m->lat_clock;
    default: return m->lat_alu;
    }
}

static void analyse(const prof_session *s, const ptx_insn *pi, insn_info *ii)
{
    memset(ii, 0, sizeof *ii);
    ii->key = pi;
    ptx_type t = principal_type(pi);
    ii->cls = (uint8_t)prof_insn_class_of(pi->op, t);
    ii->sass = 1;
    const ptx_func *f = func_of(s->module, pi);
    ii->lat = ii->cls == PROF_CLASS_FP64 ? LAT_FP64 : LAT_ALU;
    if (pi->op == PTX_OP_ld || pi->op == PTX_OP_st || pi->op == PTX_OP_atom ||
        pi->op == PTX_OP_red) {
        ii->mem_op = !is_mod(pi, PTX_MOD_param) && !is_mod(pi, PTX_MOD_const_);
        ii->bypass_l1 = is_mod(pi, PTX_MOD_volatile_) || is_mod(pi, PTX_MOD_relaxed) ||
                        is_mod(pi, PTX_MOD_acquire);
        ii->is_load = ii->mem_op && pi->op != PTX_OP_st && pi->op != PTX_OP_red;
        ii->is_store = ii->mem_op && pi->op != PTX_OP_ld;
        ii->mem_space = is_mod(pi, PTX_MOD_shared) ? PROF_SPACE_SHARED
                        : is_mod(pi, PTX_MOD_local) ? PROF_SPACE_LOCAL : PROF_SPACE_GLOBAL;
    }
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_ld: case PTX_OP_ldu:
        ii->lat = LAT_MEMORY;
        break;
    case PTX_OP_atom:
        ii->lat = LAT_MEMORY;
        ii->reduction = f && pi->nopnds > 0 && pi->opnd[0].kind == PTX_OPND_REG &&
                        !reg_is_read(f, pi->opnd[0].reg);
        break;
    case PTX_OP_red:
        ii->reduction = true;
        ii->lat = LAT_NONE;
        break;
    case PTX_OP_st: case PTX_OP_brx: case PTX_OP_ret: case PTX_OP_exit:
    case PTX_OP_bar: case PTX_OP_barrier:
        ii->lat = LAT_NONE;
        break;
    case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux:
        ii->lat = LAT_SHUFFLE;
        break;
    case PTX_OP_tex: case PTX_OP_tld4: case PTX_OP_suld:
        /* the texture path: its addresses are not followed, so one typical latency (the
         * texture pipeline, then L2 or DRAM) */
        ii->lat = LAT_TEXTURE;
        break;
    case PTX_OP_sqrt: case PTX_OP_rsqrt: case PTX_OP_rcp: case PTX_OP_sin: case PTX_OP_cos:
    case PTX_OP_lg2: case PTX_OP_ex2: case PTX_OP_tanh:
        ii->lat = LAT_SFU;
        /* IEEE-rounded forms are short Newton sequences in SASS */
        if (!is_mod(pi, PTX_MOD_approx))
            ii->sass = t == PTX_T_f64 ? 12 : 6;
        break;
    case PTX_OP_div: case PTX_OP_rem: {
        /* SASS has no divide: an integer division by a variable is a reciprocal estimate
         * and corrections (about 18 instructions for 32 bits), by a constant a
         * multiply-high and shifts; an IEEE float division a Newton sequence */
        bool by_constant = pi->nopnds >= 3 && pi->opnd[2].kind == PTX_OPND_IMM_INT;
        ii->lat = LAT_SFU;
        if (ptx_type_kinds[t] == 'f')
            ii->sass = is_mod(pi, PTX_MOD_approx) ? 2 : t == PTX_T_f64 ? 24 : 10;
        else if (by_constant)
            ii->sass = 4;
        else
            ii->sass = ptx_type_sizes[t] == 8 ? 40 : 18;
        break;
    }
    case PTX_OP_bra:
        ii->lat = LAT_NONE;
        ii->exit_branch = branches_to_exit(f, pi);
        if (!ii->exit_branch)
            ii->if_converted = if_converted(f, pi, &ii->region_first, &ii->region_end);
        break;
    case PTX_OP_mov:
        /* reading %clock, %clock64 or %globaltimer: the counter is read in program order,
         * once everything before it is done (CS2R/S2UR after a dependency wait), so that
         * two reads bracket the work between them */
        if (pi->nopnds >= 2 && pi->opnd[1].kind == PTX_OPND_SREG &&
            pi->opnd[1].sreg >= PTX_SREG_CLOCK && pi->opnd[1].sreg <= PTX_SREG_GLOBALTIMER_HI)
            ii->lat = LAT_CLOCK;
        break;
    case PTX_OP_call: {
        /* device printf (vprintf): formatting and the buffer cost the GPU thousands of cycles */
        for (unsigned k = 0; k < pi->nopnds; k++) {
            const ptx_operand *o = &pi->opnd[k];
            if (o->kind == PTX_OPND_SYM && o->sym.scope == PTX_SYM_FUNC && s->module &&
                o->sym.index >= 0 && (uint32_t)o->sym.index < s->module->nfuncs &&
                strcmp(s->module->funcs[o->sym.index].name, "vprintf") == 0)
                ii->lat = LAT_PRINTF;
        }
        break;
    }
    default:
        break;
    }
    switch ((ptx_opcode)pi->op) {
    case PTX_OP_bra:
        ii->boundary = !ii->exit_branch && !ii->if_converted;
        break;
    case PTX_OP_brx: case PTX_OP_call: case PTX_OP_ret: case PTX_OP_exit: case PTX_OP_trap:
    case PTX_OP_bar: case PTX_OP_barrier: case PTX_OP_membar: case PTX_OP_fence:
        ii->boundary = true;
        break;
    case PTX_OP_mov:
        ii->boundary = ii->lat == LAT_CLOCK;
        break;
    default:
        break;
    }
    unsigned first_src = 0;
    if (pi->nopnds > 0 && writes_first_operand(pi->op) &&
        (pi->opnd[0].kind == PTX_OPND_REG || pi->opnd[0].kind == PTX_OPND_VEC)) {
        operand_regs(f, &pi->opnd[0], ii->dst, &ii->ndst, 4);
        first_src = 1;
    }
    for (unsigned k = first_src; k < pi->nopnds; k++)
        operand_regs(f, &pi->opnd[k], ii->src, &ii->nsrc, 8);
    add_reg(ii->src, &ii->nsrc, 8, pi->guard);
    ii->latency = latency_of(&s->model, ii->lat);
    /* a division or IEEE root is a dependent sequence after its MUFU estimate */
    if (ii->lat == LAT_SFU && ii->sass > 1)
        ii->latency += (uint32_t)(ii->sass - 1) * s->model.lat_alu;
    ii->issue = ii->sass;
    /* mov of a constant: an immediate operand of the instructions reading it, in SASS
     * (an unrolled body of FMAs by distinct constants is one mov and one fma each in PTX,
     * one FFMA each on an H100: bench/timing/suite_ext.cu) */
    if (pi->op == PTX_OP_mov && pi->nopnds == 2 && pi->opnd[0].kind == PTX_OPND_REG &&
        (pi->opnd[1].kind == PTX_OPND_IMM_INT || pi->opnd[1].kind == PTX_OPND_IMM_F32 ||
         pi->opnd[1].kind == PTX_OPND_IMM_F64)) {
        ii->issue = 0;
        ii->latency = 0;
    }
}

/* Make f's arrays the current ones (allocating them on first use). False when pi belongs
 * to no function of the module. */
static bool select_func(prof_worker *w, const ptx_insn *pi)
{
    const ptx_module *m = w->s->module;
    const ptx_func *f = func_of(m, pi);
    if (!f)
        return false;
    size_t fi = (size_t)(f - m->funcs);
    if (!w->infos[fi]) {
        w->infos[fi] = calloc(f->ninsns, sizeof *w->infos[fi]);
        w->counts[fi] = calloc(f->ninsns, sizeof *w->counts[fi]);
        if (!w->infos[fi] || !w->counts[fi])
            abort();
    }
    w->cur_first = f->insns;
    w->cur_end = f->insns + f->ninsns;
    w->cur_n = f->ninsns;
    w->cur_infos = w->infos[fi];
    w->cur_counts = w->counts[fi];
    return true;
}

/* The instruction's entry, worked out on first use. The function whose instructions
 * were looked up last is checked first: a warp stays in one function for long. */
static const insn_info *info_of(prof_worker *w, const ptx_insn *pi)
{
    if (__builtin_expect(pi < w->cur_first || pi >= w->cur_end, 0) && !select_func(w, pi)) {
        analyse(w->s, pi, &w->scratch);
        return &w->scratch;
    }
    insn_info *e = &w->cur_infos[pi - w->cur_first];
    if (__builtin_expect(!e->key, 0))
        analyse(w->s, pi, e);
    return e;
}

/* info_of for an event's instruction: the event says where it lies in its function. */
static const insn_info *info_at(prof_worker *w, const exec_site *site)
{
    const ptx_insn *pi = site->insn;
    uint32_t idx = site->insn_index;
    if (__builtin_expect(idx >= w->cur_n || w->cur_first + idx != pi, 0))
        return info_of(w, pi);
    insn_info *e = &w->cur_infos[idx];
    if (__builtin_expect(!e->key, 0))
        analyse(w->s, pi, e);
    return e;
}

/* The executor's tally of f: the per-instruction counts of f (NULL for a function not of
 * the module, whose instructions then come as events). */
static exec_insn_tally *tally_of(void *state, const ptx_func *f)
{
    prof_worker *w = state;
    const ptx_module *m = w->s->module;
    if (!m || f < m->funcs || f >= m->funcs + m->nfuncs || !f->ninsns || !select_func(w, f->insns))
        return NULL;
    return w->counts[f - m->funcs];
}

/* The timed blocks need every event, for the clock; the others only what the counters
 * take from events: memory accesses (kernel parameters are not counted) and multi-way
 * branches (the tallies count the others). */
static uint32_t block_events(const exec_site *site)
{
    const prof_worker *w = site->worker_state;
    return w->timing_block ? EXEC_OBS_EV_ALL : EXEC_OBS_EV_BRANCH_IDX | EXEC_OBS_EV_MEM;
}

/* ---- tables kept from one launch to the next ---- */

/* A worker's memo and L1 tables take a third of a megabyte, and a launch may be tiny:
 * workers that finish leave theirs in the session's pool for the next launch's, so a
 * program of many small launches does not clear that much memory each time. The memo
 * stays valid from launch to launch (what it holds depends on the access and the counting
 * rules only) unless the rules change; the L1 starts cold each launch. */
typedef struct worker_tables {
    struct worker_tables *next;
    prof_rules rules;          /* the rules the memo's counts were made under */
    mem_memo *memo;
    uint64_t *l1;              /* NULL until a launch with timing needs it */
} worker_tables;

struct prof_table_pool {
    pthread_mutex_t lock;
    worker_tables *free;
};

prof_table_pool *prof_table_pool_new(void)
{
    prof_table_pool *p = calloc(1, sizeof *p);
    if (p)
        pthread_mutex_init(&p->lock, NULL);
    return p;
}

void prof_table_pool_free(prof_table_pool *p)
{
    if (!p)
        return;
    while (p->free) {
        worker_tables *t = p->free;
        p->free = t->next;
        free(t->memo);
        free(t->l1);
        free(t);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static bool same_rules(const prof_rules *a, const prof_rules *b)
{
    return a->generation == b->generation && a->l1_global_loads == b->l1_global_loads &&
           a->shared_bank_bytes == b->shared_bank_bytes &&
           a->shared_pair_merge == b->shared_pair_merge &&
           a->shared_wavefront_bytes == b->shared_wavefront_bytes;
}

static void take_tables(prof_worker *w, prof_table_pool *pool, bool timing)
{
    worker_tables *t = NULL;
    if (pool) {
        pthread_mutex_lock(&pool->lock);
        t = pool->free;
        if (t)
            pool->free = t->next;
        pthread_mutex_unlock(&pool->lock);
    }
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t || !(t->memo = aligned_alloc(_Alignof(mem_memo), MEMO_SLOTS * sizeof *t->memo)))
            abort();
        memset(t->memo, 0, MEMO_SLOTS * sizeof *t->memo);
        t->rules = w->rec.rules;
    } else if (!same_rules(&t->rules, &w->rec.rules)) {
        memset(t->memo, 0, MEMO_SLOTS * sizeof *t->memo);
        t->rules = w->rec.rules;
    }
    if (timing && t->l1)
        memset(t->l1, 0, L1_SECTORS * sizeof *t->l1);
    else if (timing && !(t->l1 = calloc(L1_SECTORS, sizeof *t->l1)))
        abort();
    w->tables = t;
    w->memo = t->memo;
    w->l1 = timing ? t->l1 : NULL;
}

static void give_back_tables(prof_worker *w, prof_table_pool *pool)
{
    worker_tables *t = w->tables;
    if (!pool) {
        free(t->memo);
        free(t->l1);
        free(t);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    t->next = pool->free;
    pool->free = t;
    pthread_mutex_unlock(&pool->lock);
}

/* ---- workers ---- */

static void *begin_worker(void *ctx)
{
    prof_session *s = ctx;
    prof_worker *w = aligned_alloc(_Alignof(prof_worker), sizeof *w);
    if (!w)
        abort();
    memset(w, 0, sizeof *w);
    w->s = s;
    w->touched = s->touched;
    w->written = s->written;
    w->first_block = s->first_block;
    w->timing = s->timing;
    prof_recorder_init(&w->rec, &s->launch.rules);
    const ptx_module *m = s->module;
    w->infos = calloc(m && m->nfuncs ? m->nfuncs : 1, sizeof *w->infos);
    w->counts = calloc(m && m->nfuncs ? m->nfuncs : 1, sizeof *w->counts);
    if (!w->infos || !w->counts)
        abort();
    take_tables(w, s->pool, s->timing);
    return w;
}

/* A branch over a region ptxas predicates instead (ii->if_converted, c its tally): the
 * hardware issues the region to every lane on the branch's path. Where the lanes split,
 * those that went around are active in the region too; where all went around, the region
 * is issued with every lane predicated off (and its shared accesses with no lane on).
 * The region comes after the branch: its tallies are folded later. */
static void fold_predicated_region(prof_worker *w, uint32_t fi, const insn_info *ii,
                                   const insn_count *c)
{
    const ptx_func *f = &w->s->module->funcs[fi];
    if (ii->region_first < f->insns || ii->region_end > f->insns + f->ninsns)
        return;
    prof_counters *pc = &w->rec.c;
    uint64_t around = exec_tally_all_taken(c), around_lanes = exec_tally_all_taken_lanes(c);
    for (const ptx_insn *q = ii->region_first; q < ii->region_end; q++) {
        size_t k = (size_t)(q - f->insns);
        w->counts[fi][k].active += c->diverged_lanes;
        if (!around)
            continue;
        insn_info *qi = &w->infos[fi][k];
        if (!qi->key)
            analyse(w->s, q, qi);
        pc->inst_executed += around * qi->sass;
        pc->thread_inst_executed += around_lanes * qi->sass;
        pc->inst_by_class[qi->cls] += around * qi->sass;
        if (qi->mem_op) {
            prof_mem_kind kind = prof_mem_kind_of((prof_space)qi->mem_space,
                                                  q->op == PTX_OP_st ? PROF_ACCESS_STORE
                                                                     : PROF_ACCESS_LOAD);
            if (kind != PROF_MEM_KIND_COUNT)
                pc->mem[kind].inst += around;
        }
    }
}

static int by_issued_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Instruction fetch: the code a function spends most of its time in (its hottest
 * instructions, taking 90% of what it issued: a loop's body, or the whole of a long
 * unrolled one), 16 bytes a SASS instruction. Where that exceeds the SM sub-partition's L0
 * instruction cache, each of those instructions is fetched again from the SM's L1
 * instruction cache every time it runs (a body swept in order, longer than the cache,
 * leaves nothing behind to hit), or from L2 when it exceeds that too: added to
 * w->fetch_l1 or w->fetch_l2 (warp-instructions, SASS-sized). */
static void fold_fetch(prof_worker *w, const ptx_func *f, uint32_t fi)
{
    const prof_sm_model *m = &w->s->model;
    uint64_t total = 0, sass = 0;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const insn_info *ii = &w->infos[fi][i];
        sass += ii->key ? ii->issue : 1;
    }
    if ((double)sass * 16 <= m->icache_l0_bytes)
        return;  /* all of it fits */
    uint64_t *weight = malloc(f->ninsns * sizeof *weight);
    if (!weight)
        return;
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->ninsns; i++) {
        const insn_info *ii = &w->infos[fi][i];
        uint64_t v = w->counts[fi][i].issued * (ii->key ? ii->issue : 1);
        if (v)
            weight[n++] = v;
        total += v;
    }
    qsort(weight, n, sizeof *weight, by_issued_desc);
    uint64_t hot = 0, hot_code = 0;
    /* ... and those run as often as the last of them (a straight-line body: all of it) */
    for (uint32_t i = 0; i < n && ((double)hot < 0.9 * (double)total ||
                                   (i && weight[i] == weight[i - 1])); i++) {
        hot += weight[i];
        hot_code++;
    }
    free(weight);
    double bytes = (double)hot_code * 16;
    if (bytes > m->icache_l1_bytes)
        w->fetch_l2 += hot;
    else if (bytes > m->icache_l0_bytes)
        w->fetch_l1 += hot;
}

/* The per-instruction counts into the counters, by class and SASS weight; a bra's
 * branches and divergence. */
static void fold_counts(prof_worker *w)
{
    const ptx_module *m = w->s->module;
    prof_counters *pc = &w->rec.c;
    for (uint32_t fi = 0; m && fi < m->nfuncs; fi++) {
        if (!w->counts[fi])
            continue;
        const ptx_func *f = &m->funcs[fi];
        for (uint32_t i = 0; i < f->ninsns; i++) {
            insn_count *c = &w->counts[fi][i];
            if (!c->issued)
                continue;
            if (!w->infos[fi][i].key)
                analyse(w->s, &f->insns[i], &w->infos[fi][i]);
        }
        fold_fetch(w, f, fi);
        for (uint32_t i = 0; i < f->ninsns; i++) {
            insn_count *c = &w->counts[fi][i];
            if (!c->issued)
                continue;
            insn_info *ii = &w->infos[fi][i];
            if (!ii->key)
                analyse(w->s, &f->insns[i], ii);
            if (ii->if_converted) {
                fold_predicated_region(w, fi, ii, c);
                continue;  /* a predicated region replaces the branch */
            }
            uint64_t active = exec_tally_active(c), pred_on = exec_tally_pred_on(c);
            pc->inst_executed += c->issued * ii->sass;
            pc->thread_inst_executed += active * ii->sass;
            pc->thread_inst_pred_on += pred_on * ii->sass;
            pc->inst_by_class[ii->cls] += c->issued * ii->sass;
            pc->thread_inst_by_class[ii->cls] += pred_on * ii->sass;
            if (f->insns[i].op == PTX_OP_bra && !ii->exit_branch) {
                pc->branches += c->issued;
                pc->divergent_branches += c->diverged;
            }
        }
    }
}

static void memo_flush(prof_worker *w);
static void fb_flush(prof_worker *w);

/* compact accesses of every session of the process (prof_compact_accesses) */
static _Atomic uint64_t compact_total;

static void end_worker(void *ctx, void *state)
{
    prof_session *s = ctx;
    prof_worker *w = state;
    memo_flush(w);
    fold_counts(w);
    pthread_mutex_lock(&s->lock);
    prof_counters_add(&s->total, &w->rec.c);
    s->l2_bytes += w->l2_bytes;
    s->dram_bytes += w->dram_bytes;
    s->atomic_tx += w->atomic_tx;
    s->cas_tx += w->cas_tx;
    s->sys_read += w->sys_read;
    s->sys_write += w->sys_write;
    s->fetch_l1 += w->fetch_l1;
    s->fetch_l2 += w->fetch_l2;
    s->l1_lookups += w->l1_lookups;
    s->l1_hits += w->l1_hits;
    s->dram_read_bytes += w->dram_read_bytes;
    s->dram_write_bytes += w->dram_write_bytes;
    s->compact += w->compact;
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add_explicit(&compact_total, w->compact, memory_order_relaxed);
    for (uint32_t i = 0; s->module && i < s->module->nfuncs; i++) {
        free(w->infos[i]);
        free(w->counts[i]);
    }
    free(w->infos);
    free(w->counts);
    give_back_tables(w, s->pool);
    free(w->warps);
    free(w->release);
    free(w);
}

/* ---- blocks ---- */

static void on_block_begin(const exec_site *site, uint32_t nthreads)
{
    prof_worker *w = site->worker_state;
    uint32_t nwarps = (nthreads + 31) / 32;
    if (nwarps > w->warps_cap) {
        warp_clock *n = realloc(w->warps, nwarps * sizeof *n);
        if (!n)
            abort();
        memset(n + w->warps_cap, 0, (nwarps - w->warps_cap) * sizeof *n);
        w->warps = n;
        w->warps_cap = nwarps;
    }
    /* clocks run on from the latest point any warp of this worker reached */
    uint64_t base = w->base + w->cur.critical_cycles;
    for (uint32_t i = 0; i < w->nwarps; i++)
        if (w->warps[i].t > base)
            base = w->warps[i].t;
    w->base = base;
    w->nwarps = nwarps;
    for (uint32_t i = 0; i < nwarps; i++) {
        w->warps[i].t = base;
        w->warps[i].bb_end = base;
        w->warps[i].miss_rounds = 0;
        memset(w->warps[i].store_start, 0, sizeof w->warps[i].store_start);
        w->warps[i].store_ack = 0;
        w->warps[i].last_miss_ready = base;
        w->warps[i].barriers = 0;
        w->warps[i].at_barrier = false;
        w->warps[i].events = 0;
        w->warps[i].issued = 0;
        w->warps[i].half_t = 0;
        w->warps[i].half_rounds = 0;
        w->warps[i].sfu_free = 0;
    }
    for (uint32_t g = 0; g < w->release_used; g++)
        w->release[g] = 0;
    w->release_used = 0;
    memset(&w->cur, 0, sizeof w->cur);
    w->pending = NULL;
    const exec_launch *L = site->launch;
    uint64_t linear = site->ctaid.x +
                      (uint64_t)L->grid.x * (site->ctaid.y + (uint64_t)L->grid.y * site->ctaid.z);
    prof_session *s = w->s;
    w->timing_block = s->timing && (linear % s->sample_stride == 0 || linear + 1 == s->nblocks);
    w->block = linear;
}

/* Does this event belong to the timing replay: a replayed block, and an instruction of a
 * warp still timed one by one (its insn event came first)? */
static inline bool replaying(const prof_worker *w, const exec_site *site)
{
    return w->timing_block && site->insn_event;
}

static void on_warp_end(const exec_site *site, uint64_t issued)
{
    prof_worker *w = site->worker_state;
    if (w->timing_block && site->warp < w->nwarps)
        w->warps[site->warp].issued = issued;
}

static void on_block_end(const exec_site *site)
{
    prof_worker *w = site->worker_state;
    prof_session *s = w->s;
    if (w->fb_n)
        fb_flush(w);
    if (!w->timing_block)
        return;
    uint64_t end = w->base;
    uint32_t rounds = 0;
    uint64_t events = 0, issued = 0;
    for (uint32_t i = 0; i < w->nwarps; i++) {
        const warp_clock *wc = &w->warps[i];
        uint64_t e = wc->t > wc->bb_end ? wc->t : wc->bb_end;
        uint32_t r = wc->miss_rounds;
        /* a warp timed for its first instructions only goes on at the pace the second half
         * of them set: past its cold start (a loop's first sweep over data missing L1, a
         * pointer chase's first lap), which the whole run does not repeat */
        if (wc->events > PROF_EVENTS_PER_WARP / 2 && wc->issued > wc->events &&
            wc->half_t >= w->base && e >= wc->half_t) {
            double half = (double)(wc->events - PROF_EVENTS_PER_WARP / 2);
            double pace = (double)(wc->issued - PROF_EVENTS_PER_WARP / 2) / half;
            e = wc->half_t + (uint64_t)((double)(e - wc->half_t) * pace);
            r = wc->half_rounds + (uint32_t)((double)(r - wc->half_rounds) * pace);
        } else if (wc->events && wc->issued > wc->events) {
            double pace = (double)wc->issued / (double)wc->events;
            e = w->base + (uint64_t)((double)(e - w->base) * pace);
            r = (uint32_t)((double)r * pace);
        }
        events += wc->events;
        issued += wc->issued > wc->events ? wc->issued : wc->events;
        if (e > end) {
            end = e;
            rounds = r;
        }
    }
    w->cur.critical_cycles = end - w->base;
    w->cur.miss_rounds = rounds;
    uint64_t replayed_sectors = w->cur.l1_sectors;
    if (events && issued > events) {
        /* the block's throughput needs, likewise */
        double pace = (double)issued / (double)events;
        w->cur.issue_cycles = (uint64_t)((double)w->cur.issue_cycles * pace);
        w->cur.shared_wavefronts = (uint64_t)((double)w->cur.shared_wavefronts * pace);
        w->cur.l1_sectors = (uint64_t)((double)w->cur.l1_sectors * pace);
        w->cur.l1_lines = (uint64_t)((double)w->cur.l1_lines * pace);
        w->cur.printf_records = (uint32_t)((double)w->cur.printf_records * pace);
        w->cur.printf_warps = (uint64_t)((double)w->cur.printf_warps * pace);
        w->cur.sfu_insts = (uint64_t)((double)w->cur.sfu_insts * pace);
        w->cur.fp64_insts = (uint64_t)((double)w->cur.fp64_insts * pace);
        w->cur.const_cycles = (uint64_t)((double)w->cur.const_cycles * pace);
    }
    const exec_launch *L = site->launch;
    uint64_t linear = site->ctaid.x +
                      (uint64_t)L->grid.x * (site->ctaid.y + (uint64_t)L->grid.y * site->ctaid.z);
    if (s->blocks && linear < s->nblocks)
        s->blocks[linear] = w->cur;
    pthread_mutex_lock(&s->lock);
    s->block_sum.critical_cycles += w->cur.critical_cycles;
    s->block_sum.issue_cycles += w->cur.issue_cycles;
    s->block_sum.shared_wavefronts += w->cur.shared_wavefronts;
    s->block_sum.l1_sectors += w->cur.l1_sectors;
    s->block_sum.l1_lines += w->cur.l1_lines;
    s->block_sum.miss_rounds += w->cur.miss_rounds;
    s->block_sum.printf_records += w->cur.printf_records;
    s->block_sum.printf_warps += w->cur.printf_warps;
    s->block_sum.sfu_insts += w->cur.sfu_insts;
    s->block_sum.fp64_insts += w->cur.fp64_insts;
    s->block_sum.const_cycles += w->cur.const_cycles;
    s->replayed_sectors += replayed_sectors;
    s->blocks_seen++;
    pthread_mutex_unlock(&s->lock);
}

/* ---- instructions ---- */

static void on_insn(const exec_site *site, uint32_t active, uint32_t exec_mask)
{
    prof_worker *w = site->worker_state;
    const insn_info *ii = info_at(w, site);
    if (__builtin_expect(ii == &w->scratch, 0)) {
        /* not an instruction of the module: counted at once */
        prof_on_insn_n(&w->rec, (prof_insn_class)ii->cls, active, exec_mask, ii->sass);
        return;
    }
    /* the executor tallies the module's instructions itself (tally_of); events come in
     * timed blocks only (block_events), for the clock */
    if (site->warp >= w->nwarps || !w->timing_block)
        return;
    warp_clock *wc = &w->warps[site->warp];
    if (wc->events == PROF_EVENTS_PER_WARP / 2) {
        wc->half_t = wc->t > wc->bb_end ? wc->t : wc->bb_end;
        wc->half_rounds = wc->miss_rounds;
    }
    wc->events++;
    prof_session *s = w->s;
    /* The slot it issues in, and when it can start: SASS schedules independent work
     * (loads above the arithmetic that uses them) within a basic block, so an instruction
     * waits for its own operands only; at a branch, barrier or call the warp waits for
     * everything before it. */
    uint64_t slot = wc->t;
    if (wc->at_barrier) {
        uint64_t rel = w->release[wc->barriers - 1] + s->model.lat_barrier;
        if (rel > slot)
            slot = rel;
        wc->at_barrier = false;
    }
    uint64_t t = slot, miss_ready = 0, miss_issue = 0;
    for (unsigned i = 0; i < ii->nsrc; i++) {
        unsigned r = ii->src[i];
        if (wc->reg[r].ready > t)
            t = wc->reg[r].ready;
        if (wc->reg[r].miss_issue && wc->reg[r].ready > miss_ready) {
            miss_ready = wc->reg[r].ready;
            miss_issue = wc->reg[r].miss_issue;
        }
    }
    if (ii->lat == LAT_SFU) {
        /* the SFU takes a warp-instruction every sfu_cycles: a warp of them waits for it */
        if (wc->sfu_free > t)
            t = wc->sfu_free;
        wc->sfu_free = t + (uint64_t)s->model.sfu_cycles;
        w->cur.sfu_insts++;
    }
    if (ii->cls == PROF_CLASS_FP64)
        w->cur.fp64_insts += ii->sass;
    if (ii->is_load && wc->store_start[ii->mem_space] >= t)
        t = wc->store_start[ii->mem_space] + 1;
    /* a volatile or strong load goes to L2 past the warp's own earlier stores: it waits
     * until L2 has taken them (the warp-synchronous reduction over volatile global memory:
     * each step a store's trip to L2, then the load's) */
    if (ii->is_load && ii->bypass_l1 && ii->mem_space == PROF_SPACE_GLOBAL &&
        wc->store_ack > t)
        t = wc->store_ack;
    if (ii->is_store && t > wc->store_start[ii->mem_space])
        wc->store_start[ii->mem_space] = t;
    /* a wait for data from past L1 that began after the last such wait ended: one more
     * round trip to L2 or DRAM on this warp's path */
    if (miss_ready == t && miss_ready > slot && miss_issue >= wc->last_miss_ready) {
        wc->miss_rounds++;
        wc->last_miss_ready = miss_ready;
    }
    if (ii->boundary) {
        if (wc->bb_end > t)
            t = wc->bb_end;
        wc->t = t + ii->issue;
        wc->bb_end = wc->t;
    } else {
        wc->t = slot + ii->issue;
        if (t + 1 > wc->bb_end)
            wc->bb_end = t + 1;
    }
    w->cur.issue_cycles += ii->issue;
    if (exec_mask) {
        uint64_t done = t + ii->latency;
        if (ii->lat == LAT_PRINTF)
            wc->t = wc->bb_end = done;  /* the call returns once its records are written */
        for (unsigned i = 0; i < ii->ndst; i++) {
            wc->reg[ii->dst[i]].ready = done;
            wc->reg[ii->dst[i]].miss_issue = 0;
        }
    }
    w->pending = ii->lat == LAT_MEMORY && exec_mask ? ii : NULL;
    w->pending_warp = wc;
    w->pending_issue = t;
    if (ii->lat == LAT_PRINTF && exec_mask)
        w->cur.printf_records += (uint32_t)__builtin_popcount(exec_mask);
    if (ii->lat == LAT_PRINTF && exec_mask)
        w->cur.printf_warps++;
}

static void on_branch(const exec_site *site, uint32_t active, uint32_t taken)
{
    prof_worker *w = site->worker_state;
    const insn_info *ii = info_at(w, site);
    if (ii->exit_branch || ii->if_converted)
        return;  /* a predicated EXIT, or predicated code, on the hardware: no branch */
    /* a bra of the module is counted from its tally (fold_counts); a brx.idx here */
    if (ii == &w->scratch || site->insn->op != PTX_OP_bra)
        prof_on_branch(&w->rec, active, taken);
    taken &= active;
    if (replaying(w, site) && taken && taken != active && site->warp < w->nwarps) {
        /* a divergent branch: SASS brackets the paths with BSSY/BSYNC, and the warp
         * waits at the reconvergence point for the path that ran first */
        warp_clock *wc = &w->warps[site->warp];
        wc->t += w->s->model.divergence_cycles;
        wc->bb_end = wc->t;
        w->cur.issue_cycles += 2;
    }
}

static void on_barrier(const exec_site *site, uint32_t id, uint32_t arrived, uint32_t expected)
{
    (void)id;
    (void)arrived;
    (void)expected;
    prof_worker *w = site->worker_state;
    if (!replaying(w, site) || site->warp >= w->nwarps)
        return;
    warp_clock *wc = &w->warps[site->warp];
    uint32_t g = wc->barriers++;
    if (g >= w->release_cap) {
        uint32_t cap = w->release_cap ? w->release_cap * 2 : 64;
        while (cap <= g)
            cap *= 2;
        uint64_t *n = realloc(w->release, cap * sizeof *n);
        if (!n)
            abort();
        memset(n + w->release_cap, 0, (cap - w->release_cap) * sizeof *n);
        w->release = n;
        w->release_cap = cap;
    }
    if (g >= w->release_used)
        w->release_used = g + 1;
    uint64_t arrive = wc->t > wc->bb_end ? wc->t : wc->bb_end;
    if (wc->store_ack > arrive)
        arrive = wc->store_ack;
    if (arrive > w->release[g])
        w->release[g] = arrive;
    wc->at_barrier = true;
}

/* ---- memory ---- */

/* Marks the sectors [first, last] touched in the launch; returns how many were not before
 * (what DRAM supplies). */
static inline uint64_t first_touches_of(prof_worker *w, uint64_t first, uint64_t last,
                                        uint64_t mark_first, uint64_t mark_last);

static inline uint64_t first_touches(prof_worker *w, uint64_t first, uint64_t last)
{
    return first_touches_of(w, first, last, first, last);
}

/* first_touches of the sectors [mark_first, mark_last] (a load's whole DRAM granules),
 * whose block is remembered for [first, last] only (the sectors it asked for: a later load
 * of the pair by another block finds it in L2, not a fill in flight) */
static inline __attribute__((always_inline)) uint64_t
first_touches_of(prof_worker *w, uint64_t first, uint64_t last, uint64_t mark_first,
                 uint64_t mark_last)
{
    uint64_t fresh = prof_touched_mark_fast(w->touched, &w->touched_at, mark_first, mark_last);
    if (fresh && w->first_block && last - first < 64 &&
        w->block + 1 < (1ull << FIRST_BLOCK_BITS)) {
        if (w->fb_n == FB_LOG)
            fb_flush(w);
        w->fb_log[w->fb_n++] =
            (struct fb_run){first, (uint32_t)(last - first), (uint32_t)(w->block + 1)};
    }
    return fresh;
}

/* The slot of first_block that sector sct goes in. */
static inline _Atomic uint64_t *fb_slot(_Atomic uint64_t *first_block, uint64_t sct)
{
    return &first_block[(sct * 0x9e3779b97f4a7c15ull >> 40) & (FIRST_SLOTS - 1)];
}

/* Makes the first_block writes held back, in the order they were asked for: each sector of
 * a run takes its slot unless the slot already names it. Until then no one looks at the
 * table on this worker's behalf: in_wave_fill makes them first, and every block's end
 * does (other workers see a block's writes once it is done; they ran at once before, and
 * when two workers' blocks meet in the table is a matter of timing anyway). */
static void fb_flush(prof_worker *w)
{
    _Atomic uint64_t *fb = w->first_block;
    for (uint32_t i = 0; i < w->fb_n; i++) {
        const struct fb_run *r = &w->fb_log[i];
        if (i + FB_AHEAD < w->fb_n) { /* the slots of a run ahead, on their way meanwhile */
            const struct fb_run *a = &w->fb_log[i + FB_AHEAD];
            for (uint64_t sct = a->first; sct <= a->first + a->more; sct++)
                __builtin_prefetch(fb_slot(fb, sct), 1);
        }
        for (uint64_t sct = r->first; sct <= r->first + r->more; sct++) {
            _Atomic uint64_t *e = fb_slot(fb, sct);
            if (atomic_load_explicit(e, memory_order_relaxed) >> FIRST_BLOCK_BITS != sct)
                atomic_store_explicit(e, sct << FIRST_BLOCK_BITS | (uint64_t)r->tag, memory_order_relaxed);
        }
    }
    w->fb_n = 0;
}

/* A store filling at most half of the n sectors it touches (global_timing's "partial"). */
static inline bool partial_store(exec_mem_access acc, uint32_t n, uint32_t size, uint32_t mask)
{
    return acc == EXEC_OBS_STORE && n && 2u * size * prof_popcount(mask) <= 32u * n;
}

/* The sectors a memo's runs cover. */
static inline uint32_t mm_sectors(const mem_memo *mm)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < mm->nruns; r++)
        n += mm->run_len[r];
    return n;
}

/* What DRAM moves for an access to sectors [first, last]: a load's first touch of a sector
 * brings in its 64-byte pair too (DRAM's access granule: a load of every other sector, or
 * of one sector a line, reads as much as a load of all of them on an H100,
 * bench/timing/suite_ext.cu), and its later loads of the pair hit; a store's first touch
 * writes its sector back (once, however often it is stored to), and a partial store to a
 * sector not read yet reads it first. Returns the sectors first touched. */
static inline __attribute__((always_inline)) uint64_t
dram_access(prof_worker *w, uint64_t first, uint64_t last, exec_mem_access acc, bool partial)
{
    uint64_t fresh;
    if (acc == EXEC_OBS_LOAD) {
        fresh = first_touches_of(w, first, last, first & ~1ull, last | 1ull);
        w->dram_read_bytes += 32 * fresh;
    } else {
        fresh = first_touches(w, first, last);
        if (acc != EXEC_OBS_STORE || partial)
            w->dram_read_bytes += 32 * fresh;
        w->dram_write_bytes +=
            32 * prof_touched_mark_fast(w->written, &w->written_at, first, last);
    }
    w->dram_bytes += 32 * fresh;
    return fresh;
}

/* A load missing L1 on a sector the launch had touched: did another block of the same
 * wave touch it first? On the GPU the blocks of a wave run at once, so such a miss finds
 * the sector's fill from DRAM still in flight (vcuda runs them one after another, and the
 * record says L2 has it). */
static bool in_wave_fill(prof_worker *w, uint64_t sct)
{
    const prof_session *s = w->s;
    if (!s->first_block || w->block + 1 >= (1ull << FIRST_BLOCK_BITS))
        return false;
    if (w->fb_n)
        fb_flush(w);
    uint64_t e = atomic_load_explicit(fb_slot(s->first_block, sct), memory_order_relaxed);
    if (e >> FIRST_BLOCK_BITS != sct)
        return false;
    uint64_t other = (e & ((1ull << FIRST_BLOCK_BITS) - 1)) - 1;
    return other != w->block && other / s->wave_blocks == w->block / s->wave_blocks;
}

/* The common well-coalesced access, a full warp reading one span of at most 8 bytes a
 * lane: true, with the span's first and last sectors. */
static bool coalesced_span(const uint64_t addr[32], uint32_t mask, uint32_t size,
                           uint64_t *first, uint64_t *last)
{
    if (size > 8 || !prof_contiguous_warp(addr, mask, size))
        return false;
    *first = addr[0] >> 5;
    *last = (addr[0] + 32ull * size - 1) >> 5;
    return true;
}

/* The distinct 32-byte sectors the lanes in mask touch (at most 64). */
static uint32_t sectors_of(const uint64_t addr[32], uint32_t mask, uint32_t size,
                           uint64_t out[64])
{
    uint32_t n = 0;
    uint64_t first, last;
    if (coalesced_span(addr, mask, size, &first, &last)) {
        for (uint64_t sct = first; sct <= last; sct++)
            out[n++] = sct;
        return n;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t first = addr[l] >> 5, last = (addr[l] + (size ? size : 1) - 1) >> 5;
        for (uint64_t sct = first; sct <= last && n < 64; sct++) {
            bool seen = false;
            /* lanes usually walk upwards: the sector is new or one of the last few */
            for (uint32_t k = n; k > 0 && k + 4 > n; k--)
                if (out[k - 1] == sct) {
                    seen = true;
                    break;
                }
            if (!seen) {
                for (uint32_t k = 0; k + 4 <= n && !seen; k++)
                    seen = out[k] == sct;
            }
            if (!seen)
                out[n++] = sct;
        }
    }
    return n;
}

/* Is addr in host memory mapped into the device (zero-copy)? */
static bool is_host(const prof_session *s, uint64_t addr)
{
    size_t lo = 0, hi = s->nhost;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (addr < s->host[mid][0])
            hi = mid;
        else if (addr >= s->host[mid][1])
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* The timing side of a global or local access: L1, and first touch in the launch (what
 * DRAM must supply). Returns the latency of a load; *missed: some sector came from past
 * L1. A miss is charged L2's latency here; the share that DRAM adds is spread over the
 * launch's misses when the grid is estimated (first touches happen in whichever block
 * runs first here, not where they happen on the GPU). */
static uint32_t global_timing(prof_worker *w, uint32_t smid, exec_mem_access acc,
                              const uint64_t *sect, uint32_t n, uint32_t bytes, bool *missed)
{
    /* a store that fills at most half of each sector it touches: L2 merges it into the
     * sector's bytes, a second pass over the sector (an H100's scattered 4-byte stores
     * take L2 about twice as long as whole sectors) */
    bool partial = acc == EXEC_OBS_STORE && n && 2 * bytes <= 32u * n;
    const prof_sm_model *m = &w->s->model;
    uint32_t lat = m->lat_l1;
    w->cur.l1_sectors += n;
    *missed = false;
    if (w->s->nhost && n && is_host(w->s, sect[0] << 5)) {
        /* host memory mapped into the device: over the host link, never cached in L1 */
        if (acc != EXEC_OBS_STORE)
            w->sys_read += 32ull * n;
        if (acc != EXEC_OBS_LOAD)
            w->sys_write += 32ull * n;
        *missed = acc != EXEC_OBS_STORE;
        return m->lat_sys;
    }
    for (uint32_t i = 0; i < n; i++) {
        /* each SM has its own L1: a line another SM's block brought in does not hit */
        uint64_t tag = sect[i] * 1024 + smid % 1024 + 1;
        uint64_t *line = &w->l1[(sect[i] + (sect[i] >> 7) * 0x9e3779b1ull) & w->s->l1_mask];
        uint64_t fresh = dram_access(w, sect[i], sect[i], acc, partial);
        w->l1_lookups++;
        w->l1_hits += *line == tag;
        if (acc == EXEC_OBS_LOAD && *line == tag && !(w->last && w->last->bypass_l1))
            continue;  /* L1 hit */
        w->l2_bytes += partial ? 64 : 32;
        if (acc == EXEC_OBS_LOAD) {
            *line = tag;  /* loads allocate; stores write through and keep the line */
            *missed = true;
            uint32_t l = m->lat_l2;
            if (!fresh && in_wave_fill(w, sect[i]))
                l += (uint32_t)(m->inwave_fill_share * (double)(m->lat_dram - m->lat_l2));
            if (l > lat)
                lat = l;
        }
    }
    if (acc == EXEC_OBS_ATOMIC) {
        lat = m->lat_l2;  /* atomics are done at L2 */
        *missed = true;
    }
    /* L1 looks up one 128-byte line per cycle: a scattered access waits for all of its */
    uint32_t lines = 0;
    for (uint32_t i = 0; i < n; i++) {
        /* sectors come mostly in order: a line is new unless one of the last few had it */
        bool seen = false;
        for (uint32_t j = i; j > 0 && j + 4 > i && !seen; j--)
            seen = sect[j - 1] >> 2 == sect[i] >> 2;
        lines += !seen;
    }
    w->cur.l1_lines += lines;
    if (lines > 1)
        lat += (lines - 1) * m->l1_line_cycles;
    return lat;
}

/* prof_mem_counts as an array of its fields (all uint64_t), for the memo's deltas. */
#define MEM_COUNT_FIELDS (sizeof(prof_mem_counts) / sizeof(uint64_t))
_Static_assert(MEM_COUNT_FIELDS == 10, "mem_memo.delta has one entry per prof_mem_counts field");

static void mem_counts_add(prof_mem_counts *d, const uint32_t delta[MEM_COUNT_FIELDS])
{
    uint64_t *f = (uint64_t *)d;
    for (size_t i = 0; i < MEM_COUNT_FIELDS; i++)
        f[i] += delta[i];
}

/* The distinct sectors of an access as runs from the first lane's sector (mem_memo). */
static void memo_sector_runs(mem_memo *mm, const uint64_t addr[32], uint32_t mask,
                             uint32_t size)
{
    uint64_t sect[64];
    uint32_t n = mask ? sectors_of(addr, mask, size, sect) : 0;
    uint64_t first = mask ? addr[__builtin_ctz(mask)] >> 5 : 0;
    mm->nruns = n >= 64 ? MEMO_NO_RUNS : 0;  /* 64: sectors_of may have stopped short */
    for (uint32_t i = 0; i < n && mm->nruns != MEMO_NO_RUNS; i++) {
        int64_t off = (int64_t)(sect[i] - first);
        uint8_t r = mm->nruns;
        if (r && off == (int64_t)mm->run_off[r - 1] + mm->run_len[r - 1] &&
            mm->run_len[r - 1] < 255) {
            mm->run_len[r - 1]++;
        } else if (r == MEMO_RUNS || off < INT32_MIN || off > INT32_MAX) {
            mm->nruns = MEMO_NO_RUNS;
        } else {
            mm->run_off[r] = (int32_t)off;
            mm->run_len[r] = 1;
            mm->nruns++;
        }
    }
}

/* Repeats of a memo entry are counted, not added (ten sums an access, where most accesses
 * repeat a pattern): their counts go to the worker's memo_counts when the entry makes
 * way for another, or has many, and into the counters at the end of the worker. */
#define MEMO_HITS_MAX (1u << 30)
static void memo_fold(prof_worker *w, mem_memo *mm)
{
    if (!mm->hits)
        return;
    uint64_t *f = w->memo_counts[mm->kind];
    for (size_t i = 0; i < MEM_COUNT_FIELDS; i++)
        f[i] += (uint64_t)mm->hits * mm->delta[i];
    mm->hits = 0;
}

static void memo_flush(prof_worker *w)
{
    for (uint32_t i = 0; w->memo && i < MEMO_SLOTS; i++)
        memo_fold(w, &w->memo[i]);
    for (uint32_t k = 0; k < PROF_MEM_KIND_COUNT; k++) {
        uint64_t *f = (uint64_t *)&w->rec.c.mem[k];
        for (size_t i = 0; i < MEM_COUNT_FIELDS; i++) {
            f[i] += w->memo_counts[k][i];
            w->memo_counts[k][i] = 0;
        }
    }
}

/* prof_on_mem, or what it gave for the same pattern last time (mem_memo). Returns the
 * pattern's entry. defer: a repeat may be counted later (memo_fold); else its counts are
 * in the counters on return (the timing replay reads them). */
/* The memo's pair of slots for instruction pi's access with the lanes of mask on, its
 * first lane at phase: a pattern goes in either (the one used less lately makes way). The
 * lanes on are part of the key: a loop whose active lanes halve each turn (a tree
 * reduction) makes one pattern per turn. The key is mixed whole (a multiplicative hash):
 * instructions lie a power of two apart in memory, and a hash of their addresses' low bits
 * put a loop's patterns in the same few slots (a matrix product missed the memo on one
 * access in twenty, each miss a full count). */
static inline mem_memo *memo_pair(prof_worker *w, const ptx_insn *pi, uint64_t phase,
                                  uint32_t mask)
{
    uint64_t h = ((uint64_t)(uintptr_t)pi * 0x9e3779b97f4a7c15ull + phase) * 0xbf58476d1ce4e5b9ull;
    h = (h + mask) * 0x94d049bb133111ebull;
    return &w->memo[(h >> 40) % MEMO_SLOTS & ~1u];
}

/* Slot mm of its pair was used: the other is the one to make way next. */
static inline void memo_used(mem_memo *mm, mem_memo *other)
{
    if (!mm->recent) {
        mm->recent = true;
        other->recent = false;
    }
}

static const mem_memo *count_mem(prof_worker *w, const ptx_insn *pi, prof_space ps,
                                 prof_access pa, prof_mem_kind kind, const uint64_t addr[32],
                                 uint32_t mask, uint32_t size, bool defer)
{
    uint64_t base = mask ? addr[__builtin_ctz(mask)] : 0;
    uint64_t phase = base % MEMO_PERIOD;
    mem_memo *pair = memo_pair(w, pi, phase, mask);
    for (unsigned k = 0; k < 2; k++) {
        mem_memo *mm = &pair[k];
        if (mm->insn != pi || mm->mask != mask || mm->size != size || mm->space != ps ||
            mm->access != pa || mm->base_phase != phase)
            continue;
        bool same = true;
        if (mask == 0xffffffffu) {
            uint64_t diff = 0;  /* a plain loop over the warp: the compiler vectorises it */
            for (uint32_t l = 0; l < 32; l++)
                diff |= (addr[l] - base) ^ (uint64_t)(int64_t)mm->rel[l];
            same = diff == 0;
        } else {
            for (uint32_t m = mask; m && same; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctz(m);
                same = addr[l] - base == (uint64_t)(int64_t)mm->rel[l];
            }
        }
        if (same) {
            memo_used(mm, &pair[1 - k]);
            if (!defer)
                mem_counts_add(&w->rec.c.mem[kind], mm->delta);
            else if (__builtin_expect(++mm->hits == MEMO_HITS_MAX, 0))
                memo_fold(w, mm);
            return mm;
        }
    }
    /* the slot used less lately (an empty one first) */
    mem_memo *mm = !pair[0].insn || (pair[1].insn && !pair[0].recent) ? &pair[0] : &pair[1];
    memo_used(mm, mm == pair ? &pair[1] : &pair[0]);
    memo_fold(w, mm);  /* (its repeats are counted before it goes) */
    prof_mem_counts before = w->rec.c.mem[kind];
    prof_on_mem(&w->rec, ps, pa, addr, mask, size);
    const uint64_t *after = (const uint64_t *)&w->rec.c.mem[kind];
    const uint64_t *was = (const uint64_t *)&before;
    mm->insn = pi;
    mm->aff_key = 0;
    mm->kind = (uint8_t)kind;
    mm->mask = mask;
    mm->size = size;
    mm->space = (uint8_t)ps;
    mm->access = (uint8_t)pa;
    mm->base_phase = (uint16_t)phase;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        int64_t rel = (int64_t)(addr[l] - base);
        if (rel < INT32_MIN || rel > INT32_MAX)
            mm->insn = NULL;  /* too far apart to remember */
        mm->rel[l] = (int32_t)rel;
    }
    for (size_t i = 0; i < MEM_COUNT_FIELDS; i++) {
        uint64_t d = after[i] - was[i];
        if (d > UINT32_MAX)
            mm->insn = NULL;
        mm->delta[i] = (uint32_t)d;
    }
    mm->nruns = MEMO_NO_RUNS;
    if (ps == PROF_SPACE_GLOBAL || ps == PROF_SPACE_LOCAL)
        memo_sector_runs(mm, addr, mask, size);
    return mm;
}

/* One of the session's atomic tables, made on first use (its entries `words` counts wide). */
/* A pair of atomic tables summed: the busiest address's count, all the ops, the lines
 * touched. */
static void atom_tables_sum(atom_count *by_addr, atom_count *by_line, uint32_t *hot,
                            uint64_t *ops, uint64_t *lines)
{
    *hot = 0;
    *ops = *lines = 0;
    for (uint32_t i = 0; i < ATOM_BUCKETS; i++) {
        uint32_t a = atomic_load_explicit(&by_addr[i], memory_order_relaxed);
        if (a > *hot)
            *hot = a;
        *ops += a;
        *lines += atomic_load_explicit(&by_line[i], memory_order_relaxed) != 0;
    }
}

static atom_count *atom_table_of(prof_session *s, _Atomic(atom_count *) *slot, size_t words)
{
    atom_count *t = atomic_load_explicit(slot, memory_order_acquire);
    if (t)
        return t;
    pthread_mutex_lock(&s->lock);
    t = atomic_load_explicit(slot, memory_order_relaxed);
    if (!t) {
        t = calloc((size_t)ATOM_BUCKETS * words, sizeof *t);
        if (!t)
            abort();
        atomic_store_explicit(slot, t, memory_order_release);
    }
    pthread_mutex_unlock(&s->lock);
    return t;
}

static atom_count *atom_table(prof_session *s, _Atomic(atom_count *) *slot)
{
    return atom_table_of(s, slot, 1);
}

static uint32_t atom_bucket(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 48) % ATOM_BUCKETS;
}

/* The slot of a swapped address in the session's exact table (linear probing from its
 * hash; a key is the address + 1 in two counts' room), or -1 when none is left for it. */
static int64_t cas_slot(prof_session *s, uint64_t addr)
{
    _Atomic uint64_t *keys = (_Atomic uint64_t *)(void *)atom_table_of(s, &s->cas_keys, 2);
    uint64_t key = addr + 1;
    uint32_t h = atom_bucket(addr >> 2);
    for (uint32_t i = 0; i < CAS_PROBES; i++) {
        uint32_t j = (h + i) % ATOM_BUCKETS;
        uint64_t k = atomic_load_explicit(&keys[j], memory_order_relaxed);
        if (k == 0 && atomic_compare_exchange_strong(&keys[j], &k, key))
            return j;
        if (k == key)
            return j;
    }
    return -1;
}

/* A global atomic warp-instruction: its ops on each address (a float op weighs more: the
 * L2 takes longer over it) and one transaction per 128-byte line it touches. */
static void count_atomics(prof_worker *w, const ptx_insn *pi, const uint64_t addr[32],
                          uint32_t mask)
{
    prof_session *s = w->s;
    atom_count *by_addr = atom_table(s, &s->atom_addr);
    atom_count *by_line = atom_table(s, &s->atom_line);
    ptx_type t = pi ? principal_type(pi) : PTX_T_NONE;
    bool is_float = pi && !is_mod(pi, PTX_MOD_cas) && ptx_type_kinds[t] == 'f';
    uint32_t weight = is_float ? (uint32_t)(5 * s->model.atom_float_factor + 0.5) : 5;
    uint64_t lines[32];
    uint32_t nlines = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        atomic_fetch_add_explicit(&by_addr[atom_bucket(addr[l] >> 2)], weight,
                                  memory_order_relaxed);
        uint64_t line = addr[l] >> 7;
        bool seen = false;
        for (uint32_t k = 0; k < nlines && !seen; k++)
            seen = lines[k] == line;
        if (!seen)
            lines[nlines++] = line;
    }
    for (uint32_t k = 0; k < nlines; k++)
        atomic_fetch_add_explicit(&by_line[atom_bucket(lines[k])], 1, memory_order_relaxed);
    w->atomic_tx += nlines;
    if (pi && is_mod(pi, PTX_MOD_cas)) {
        atom_count *cas_addr = atom_table(s, &s->cas_addr);
        atom_count *cas_line = atom_table(s, &s->cas_line);
        for (uint32_t m = mask; m; m &= m - 1) {
            int64_t j = cas_slot(s, addr[__builtin_ctz(m)]);
            if (j >= 0)
                atomic_fetch_add_explicit(&cas_addr[j], 1, memory_order_relaxed);
            else
                atomic_fetch_add_explicit(&s->cas_unkeyed, 1, memory_order_relaxed);
        }
        for (uint32_t k = 0; k < nlines; k++)
            atomic_fetch_add_explicit(&cas_line[atom_bucket(lines[k])], 1,
                                      memory_order_relaxed);
        w->cas_tx += nlines;
    }
}

/* Local memory as the GPU lays it out: each warp has its own region, and word w of lane l
 * lies at (w * 32 + l) * 4 in it, so the same offset in every lane is one contiguous 128
 * bytes and a dynamically indexed array scatters a warp's access over many lines. The
 * executor hands the timing the offsets within each thread's local window (the same in
 * every lane): these are the sectors the access touches in a window of its own, above any
 * global address. Returns how many (at most 64). */
#define LOCAL_TIMING_BASE (1ull << 58)
#define LOCAL_WARP_WORDS_SHIFT 22u     /* words a thread's local window may span: 16 MiB */
static uint32_t local_sectors(const exec_site *site, const uint64_t addr[32], uint32_t mask,
                              uint32_t size, uint64_t out[64])
{
    const exec_launch *L = site->launch;
    uint64_t block = site->ctaid.x +
                     (uint64_t)L->grid.x * (site->ctaid.y + (uint64_t)L->grid.y * site->ctaid.z);
    uint64_t wpb = ((uint64_t)L->block.x * L->block.y * L->block.z + 31) / 32;
    uint64_t warp_words = (block * wpb + site->warp) << LOCAL_WARP_WORDS_SHIFT;
    uint32_t n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint64_t a = addr[l] & ((1ull << (LOCAL_WARP_WORDS_SHIFT + 2)) - 1);
        for (uint64_t wd = a >> 2; wd <= (a + (size ? size : 1) - 1) >> 2; wd++) {
            uint64_t sct = (LOCAL_TIMING_BASE + ((warp_words + wd) * 32 + l) * 4) >> 5;
            bool seen = false;
            for (uint32_t k = 0; k < n && !seen; k++)
                seen = out[k] == sct;
            if (!seen && n < 64)
                out[n++] = sct;
        }
    }
    return n;
}

/* How many distinct values the n keys hold (n is small: a request's texels). */
static uint32_t distinct(const uint64_t *k, uint32_t n)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < i && k[j] != k[i])
            j++;
        d += j == i;
    }
    return d;
}

/* A texture or surface instruction: the unit takes the lanes in groups (fp->group), each
 * group with a lane on making one request, whose sectors and lines are those its lanes'
 * texels fall in, each counted once (what Nsight Compute counted on an H200 for 1D
 * fetches, point, linear and gather lookups of 2D arrays and 2D surface accesses:
 * tests/prof/texture). */
static void on_tex(const exec_site *site, const exec_tex_footprint *fp, uint32_t mask)
{
    prof_worker *w = site->worker_state;
    prof_mem_kind kind = fp->op == EXEC_TEX_OP_SURFACE_LD   ? PROF_MEM_SURFACE_LD
                         : fp->op == EXEC_TEX_OP_SURFACE_ST ? PROF_MEM_SURFACE_ST
                                                            : PROF_MEM_TEXTURE;
    uint32_t requests = 0, sectors = 0, lines = 0;
    uint32_t group = fp->group ? fp->group : 4;
    uint64_t sk[8 * EXEC_TEX_FOOTPRINT_MAX], lk[8 * EXEC_TEX_FOOTPRINT_MAX];
    for (uint32_t first = 0; first < 32; first += group) {
        uint32_t lanes = ((group == 32 ? ~0u : (1u << group) - 1u) << first) & mask;
        if (!lanes)
            continue;
        requests++;
        /* the request's active lanes in passes of fp->pass (all of them when 0), each
         * pass counting the sectors and lines its lanes' texels fall in */
        uint32_t n = 0, in_pass = 0;
        for (uint32_t m = lanes; m; m &= m - 1) {
            const exec_tex_lane_footprint *f = &fp->lane[__builtin_ctz(m)];
            for (uint32_t i = 0; i < f->n && n < 8 * EXEC_TEX_FOOTPRINT_MAX; i++, n++) {
                sk[n] = f->sector[i];
                lk[n] = f->line[i];
            }
            if (++in_pass == fp->pass || !(m & (m - 1))) {
                sectors += distinct(sk, n);
                lines += distinct(lk, n);
                n = in_pass = 0;
            }
        }
    }
    prof_on_tex(&w->rec, kind, requests, sectors, lines);
}

/* What DRAM supplies for a global access outside the replay, from its pattern's runs of
 * sectors (first: its first lane's sector). Inline, with dram_access: once per access, their
 * calls' saving and restoring of registers were a fifth of their instructions. */
static inline __attribute__((always_inline)) void
touch_runs(prof_worker *w, const mem_memo *mm, uint64_t first, exec_mem_access acc, uint32_t mask,
           uint32_t size)
{
    bool partial = acc == EXEC_OBS_STORE && partial_store(acc, mm_sectors(mm), size, mask);
    for (uint32_t r = 0; r < mm->nruns; r++) {
        uint64_t from = first + (uint64_t)(int64_t)mm->run_off[r];
        dram_access(w, from, from + mm->run_len[r] - 1, acc, partial);
    }
}

/* ... and from its lanes, when its pattern keeps no runs. */
static void touch_lanes(prof_worker *w, exec_mem_access acc, const uint64_t addr[32],
                        uint32_t mask, uint32_t size)
{
    uint64_t prev = UINT64_MAX, sk[64];
    bool part = acc == EXEC_OBS_STORE &&
                partial_store(acc, sectors_of(addr, mask, size, sk), size, mask);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        for (uint64_t sct = addr[l] >> 5; sct <= (addr[l] + size - 1) >> 5; sct++) {
            if (sct != prev)
                dram_access(w, sct, sct, acc, part);
            prev = sct;
        }
    }
}

static void on_mem(const exec_site *site, ptx_space space, exec_mem_access acc,
                   const uint64_t addr[32], uint32_t mask, uint32_t size)
{
    prof_worker *w = site->worker_state;
    prof_space ps;
    switch (space) {
    case PTX_SPACE_GLOBAL: ps = PROF_SPACE_GLOBAL; break;
    case PTX_SPACE_LOCAL: ps = PROF_SPACE_LOCAL; break;
    case PTX_SPACE_SHARED: ps = PROF_SPACE_SHARED; break;
    default: ps = (prof_space)-1; break;  /* constant and parameter loads */
    }
    prof_access pa = acc == EXEC_OBS_LOAD    ? PROF_ACCESS_LOAD
                     : acc == EXEC_OBS_STORE ? PROF_ACCESS_STORE
                                             : PROF_ACCESS_ATOMIC;
    bool replay = replaying(w, site);
    const insn_info *ii = replay ? w->pending : NULL;
    /* what the instruction means matters to an atomic (a RED?) and to the clock only */
    const insn_info *mi = site->insn && (acc == EXEC_OBS_ATOMIC || replay)
                              ? info_at(w, site) : NULL;
    if (acc == EXEC_OBS_ATOMIC && mi && mi->reduction)
        pa = PROF_ACCESS_REDUCTION;
    uint64_t wavefronts_before = 0;
    prof_mem_kind kind = (int)ps >= 0 ? prof_mem_kind_of(ps, pa) : PROF_MEM_KIND_COUNT;
    const mem_memo *mm = NULL;
    if (kind != PROF_MEM_KIND_COUNT) {
        wavefronts_before = w->rec.c.mem[kind].transactions;
        mm = count_mem(w, site->insn, ps, pa, kind, addr, mask, size, !replay);
    }
    prof_session *s = w->s;
    if (!s->timing || !mask)
        return;
    if (acc == EXEC_OBS_ATOMIC && ps == PROF_SPACE_GLOBAL)
        count_atomics(w, site->insn, addr, mask);
    if (!replay) {
        /* outside the replay only what DRAM must supply is kept: the access's sectors
         * against the launch's record (marking a sector twice counts it once) */
        if (ps == PROF_SPACE_LOCAL) {
            uint64_t sect[64];
            uint32_t n = local_sectors(site, addr, mask, size, sect);
            for (uint32_t i = 0; i < n; i++)
                dram_access(w, sect[i], sect[i], acc, partial_store(acc, n, size, mask));
            return;
        }
        if (ps == PROF_SPACE_GLOBAL) {
            if (mm && mm->nruns != MEMO_NO_RUNS) {
                touch_runs(w, mm, addr[__builtin_ctz(mask)] >> 5, acc, mask, size);
                return;
            }
            touch_lanes(w, acc, addr, mask, size);
        }
        return;
    }
    w->last = mi;
    uint32_t lat;
    bool missed = false;
    if (ps == PROF_SPACE_SHARED) {
        uint64_t wf = kind != PROF_MEM_KIND_COUNT
                          ? w->rec.c.mem[kind].transactions - wavefronts_before : 1;
        /* lanes of a shared atomic on one address are combined: no replays (an H100
         * takes as long with every lane on one address as with each on its own bank) */
        if (acc == EXEC_OBS_ATOMIC && wf > 2)
            wf = 2;
        w->cur.shared_wavefronts += wf;
        lat = s->model.lat_shared + 2 * (uint32_t)(wf > 1 ? wf - 1 : 0);
    } else if (ps == PROF_SPACE_GLOBAL || ps == PROF_SPACE_LOCAL) {
        /* the access's sectors: from its pattern's runs, else from the lanes */
        uint64_t sect[64];
        uint32_t n = 0;
        if (ps == PROF_SPACE_LOCAL) {
            n = local_sectors(site, addr, mask, size, sect);
        } else if (mm && mm->nruns != MEMO_NO_RUNS) {
            uint64_t first = addr[__builtin_ctz(mask)] >> 5;
            for (uint32_t r = 0; r < mm->nruns; r++)
                for (uint32_t i = 0; i < mm->run_len[r]; i++)
                    sect[n++] = first + (uint64_t)(int64_t)mm->run_off[r] + i;
        } else {
            n = sectors_of(addr, mask, size, sect);
        }
        lat = global_timing(w, site->smid, acc, sect, n,
                            (uint32_t)__builtin_popcount(mask) * size, &missed);
        /* __syncthreads makes the block's global writes visible to the block: with a
         * write-through L1 a barrier waits until L2 has taken them */
        if (acc != EXEC_OBS_LOAD && w->pending_warp) {
            uint64_t ack = w->pending_issue + s->model.lat_l2;
            if (ack > w->pending_warp->store_ack)
                w->pending_warp->store_ack = ack;
        }
    } else {
        lat = s->model.lat_alu;  /* constant cache and parameters */
        if (acc == EXEC_OBS_LOAD) {
            /* the constant cache serves one address at a time: a warp whose lanes read
             * different ones waits for each (and for each line to come in) */
            uint64_t seen_a[32], seen_l[32];
            uint32_t na = 0, nl = 0;
            for (uint32_t m = mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctz(m);
                bool a_seen = false, l_seen = false;
                for (uint32_t k = 0; k < na && !a_seen; k++)
                    a_seen = seen_a[k] == addr[l];
                if (!a_seen)
                    seen_a[na++] = addr[l];
                for (uint32_t k = 0; k < nl && !l_seen; k++)
                    l_seen = seen_l[k] == addr[l] >> 6;
                if (!l_seen)
                    seen_l[nl++] = addr[l] >> 6;
            }
            double extra = (na - 1) * s->model.const_addr_cycles +
                           (nl - 1) * s->model.const_line_cycles;
            w->cur.const_cycles += (uint64_t)(extra + 0.5);
            lat += (uint32_t)(extra + 0.5);
        }
    }
    if (ii && acc != EXEC_OBS_STORE) {
        uint64_t done = w->pending_issue + lat;
        warp_clock *wc = w->pending_warp;
        for (unsigned i = 0; i < ii->ndst; i++) {
            if (done > wc->reg[ii->dst[i]].ready)
                wc->reg[ii->dst[i]].ready = done;
            if (missed)
                wc->reg[ii->dst[i]].miss_issue = w->pending_issue ? w->pending_issue : 1;
        }
    }
}

/* A memo entry's key as on_mem_affine compares it, in one word (mem_memo.aff_key), less its
 * phase (affine_phase): the lanes on in the low 32 bits; size, space, access, rows and a
 * bit that is never 0 in the high 32. 0: an access whose size does not fit, which is never
 * told by its steps. (No argument is shifted into the high half: the compiler read such a
 * 32-bit one back as 8 bytes from a 4-byte slot it had stored it in, a load that waits for
 * the store to retire, a quarter of on_mem_affine's time.) */
static inline uint64_t affine_key(prof_space ps, prof_access pa, uint32_t mask, uint32_t size,
                                  uint32_t row_log2)
{
    if (size >= 1u << 12 || (uint32_t)ps >= 8u || (uint32_t)pa >= 8u || row_log2 >= 8u)
        return 0;
    return (uint64_t)(1u << 21 | row_log2 << 18 | (uint32_t)pa << 15 | (uint32_t)ps << 12 |
                      size) << 32 | mask;
}

/* The key with the first lane's phase. */
static inline uint64_t affine_phase(uint64_t key, uint64_t phase)
{
    _Static_assert(MEMO_PERIOD <= 256u, "phase in 8 bits");
    return key | phase << 56;
}

/* ... and its steps, each a 32-bit value (on_mem_affine takes no other). */
static inline uint64_t affine_steps(int64_t step, int64_t row_step)
{
    return (uint64_t)(uint32_t)step | (uint64_t)(uint32_t)row_step << 32;
}

/* on_mem_affine's access of a pattern not marked yet: on_mem's, from its lanes; then the
 * entry of pair that on_mem found or made for these lanes, if it kept them, is marked with
 * the steps. Out of line, as is affine_touch_lanes: their lanes' room on the stack is no
 * part of the common path's frame. */
static __attribute__((noinline, cold)) void
affine_first_seen(const exec_site *site, ptx_space space, exec_mem_access acc, uint64_t base,
                  int64_t step, int64_t row_step, uint32_t row_log2, uint32_t mask,
                  uint32_t size, mem_memo *pair)
{
    prof_space ps = space == PTX_SPACE_GLOBAL ? PROF_SPACE_GLOBAL : PROF_SPACE_SHARED;
    prof_access pa = acc == EXEC_OBS_LOAD ? PROF_ACCESS_LOAD : PROF_ACCESS_STORE;
    uint64_t addr[32];
    for (uint32_t l = 0; l < 32; l++)
        addr[l] = exec_affine_lane(base, step, row_step, row_log2, l);
    uint64_t first = addr[__builtin_ctz(mask)], phase = first % MEMO_PERIOD;
    on_mem(site, space, acc, addr, mask, size);
    for (unsigned k = 0; k < 2; k++) {
        mem_memo *e = &pair[k];
        bool these = e->insn == site->insn && e->mask == mask && e->size == size &&
                     e->space == ps && e->access == pa && e->base_phase == phase;
        for (uint32_t m = mask; m && these; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            these = addr[l] - first == (uint64_t)(int64_t)e->rel[l];
        }
        if (these) {
            e->aff_key = affine_phase(affine_key(ps, pa, mask, size, row_log2), phase);
            e->aff_steps = affine_steps(step, row_step);
        }
    }
}

/* What DRAM supplies for a repeat of a pattern that keeps no runs, from its lanes. */
static __attribute__((noinline, cold)) void
affine_touch_lanes(prof_worker *w, exec_mem_access acc, uint64_t base, int64_t step,
                   int64_t row_step, uint32_t row_log2, uint32_t mask, uint32_t size)
{
    uint64_t addr[32];
    for (uint32_t l = 0; l < 32; l++)
        addr[l] = exec_affine_lane(base, step, row_step, row_log2, l);
    touch_lanes(w, acc, addr, mask, size);
}

/* exec_observer.mem_affine: a global or shared load or store outside the replay, lane l at
 * base + x * step + y * row_step (x, y: its place in rows of 2^row_log2 lanes). A pattern
 * seen before (the memo's entry of its key, marked with this
 * step) is counted as on_mem counts its repeats, with no walk over the lanes; any other
 * is on_mem's, from its lanes, and marks its entry. Everything counted is what on_mem
 * would count: the entry is the one on_mem finds, and its lanes are those the step gives. */
static bool on_mem_affine(const exec_site *site, ptx_space space, exec_mem_access acc,
                          uint64_t base, int64_t step, int64_t row_step, uint32_t row_log2,
                          uint32_t mask, uint32_t size)
{
    prof_worker *w = site->worker_state;
    prof_space ps = space == PTX_SPACE_GLOBAL ? PROF_SPACE_GLOBAL : PROF_SPACE_SHARED;
    prof_access pa = acc == EXEC_OBS_LOAD ? PROF_ACCESS_LOAD : PROF_ACCESS_STORE;
    uint64_t key = affine_key(ps, pa, mask, size, row_log2);
    if ((space != PTX_SPACE_GLOBAL && space != PTX_SPACE_SHARED) || acc == EXEC_OBS_ATOMIC ||
        !mask || !key || replaying(w, site) || step < INT32_MIN || step > INT32_MAX ||
        row_log2 > 5)
        return false;
    if (row_log2 == 5)
        row_step = 0;  /* (one row: no lane has a row but the first) */
    else if (row_step < INT32_MIN || row_step > INT32_MAX)
        return false;
    uint64_t first =
        exec_affine_lane(base, step, row_step, row_log2, (uint32_t)__builtin_ctz(mask));
    uint64_t phase = first % MEMO_PERIOD;
    key = affine_phase(key, phase);
    uint64_t steps = affine_steps(step, row_step);
    mem_memo *pair = memo_pair(w, site->insn, phase, mask), *mm = NULL;
    __builtin_prefetch((const char *)&pair[0] + 64); /* (the runs: the second line) */
    __builtin_prefetch(&pair[1]);
    for (unsigned k = 0; k < 2 && !mm; k++)
        if (pair[k].aff_key == key && pair[k].aff_steps == steps &&
            pair[k].insn == site->insn) {
            mm = &pair[k];
            memo_used(mm, &pair[1 - k]);
        }
    if (!mm) {
        affine_first_seen(site, space, acc, base, step, row_step, row_log2, mask, size, pair);
        return true;
    }
    w->compact++;
    if (__builtin_expect(++mm->hits == MEMO_HITS_MAX, 0))
        memo_fold(w, mm);
    if (!w->timing || ps != PROF_SPACE_GLOBAL)
        return true;
    if (mm->nruns != MEMO_NO_RUNS)
        touch_runs(w, mm, first >> 5, acc, mask, size);
    else
        affine_touch_lanes(w, acc, base, step, row_step, row_log2, mask, size);
    return true;
}

uint64_t prof_session_compact_accesses(const prof_session *s) { return s->compact; }

uint64_t prof_compact_accesses(void)
{
    return atomic_load_explicit(&compact_total, memory_order_relaxed);
}

/* ---- the session ---- */

/* L1 and shared memory are one array per SM: the driver gives shared memory the smallest
 * carveout that holds the resident blocks' shared memory, and L1 keeps the rest (on an
 * H100, 256 KiB in all). A carveout the program prefers (a percentage of the largest) is
 * taken as asked, raised to hold one block (an H100 gave a kernel of no shared memory
 * asking for 100% the whole 228 KiB, its L1 28 KiB: bench/timing/suite_occ.cu). The
 * sectors L1 keeps, as a power of two (at least 512). */
static uint64_t l1_sectors_left(const prof_launch *L)
{
    const gpu_preset *p = L->preset;
    uint64_t per_block = (uint64_t)L->static_shared + L->dynamic_shared;
    if (!p || p->shared_carveout_count <= 0 || (per_block == 0 && L->carveout < 0))
        return L1_SECTORS;
    int blocks = L->occupancy.blocks_per_sm > 0 ? L->occupancy.blocks_per_sm : 1;
    uint64_t used = (per_block + p->reserved_shared_per_block) * (uint64_t)blocks;
    if (L->carveout >= 0) {
        uint64_t top = (uint64_t)p->shared_carveout_kb[p->shared_carveout_count - 1] * 1024;
        used = top * (uint64_t)(L->carveout > 100 ? 100 : L->carveout) / 100;
        if (per_block && used < per_block + p->reserved_shared_per_block)
            used = per_block + p->reserved_shared_per_block;
    }
    uint64_t carveout = (uint64_t)p->shared_carveout_kb[p->shared_carveout_count - 1] * 1024;
    for (int i = 0; i < p->shared_carveout_count; i++)
        if ((uint64_t)p->shared_carveout_kb[i] * 1024 >= used) {
            carveout = (uint64_t)p->shared_carveout_kb[i] * 1024;
            break;
        }
    uint64_t total = (uint64_t)L1_SECTORS * 32;
    uint64_t left = total > carveout ? (total - carveout) / 32 : 0, n = L1_SECTORS;
    while (n > 512 && n > left)
        n >>= 1;
    return n;
}

prof_session *prof_session_new(const prof_launch *L, const ptx_module *m, bool timing,
                               prof_table_pool *pool)
{
    prof_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->launch = *L;
    s->module = m;
    s->pool = pool;
    s->timing = timing && L->preset;
    if (L->preset)
        s->model = prof_sm_model_for(L->preset);
    pthread_mutex_init(&s->lock, NULL);
    s->nblocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
    /* Timing replays every block of a small grid; of a large one, blocks at a regular
     * stride (and the last), the others taking the cost of the timed block before them:
     * the blocks of one grid mostly do the same work, and replaying costs time. The
     * counters always see every block. */
    s->l1_mask = l1_sectors_left(L) - 1;
    s->sample_stride = s->nblocks > PROF_TIMED_BLOCKS ? (s->nblocks + PROF_TIMED_BLOCKS - 1) /
                                                            PROF_TIMED_BLOCKS : 1;
    if (s->timing) {
        s->touched = prof_touched_new();
        s->written = prof_touched_new();
        s->first_block = calloc(FIRST_SLOTS, sizeof *s->first_block);
        s->wave_blocks = (uint64_t)(L->occupancy.blocks_per_sm > 0 ? L->occupancy.blocks_per_sm
                                                                     : 1) *
                         (uint64_t)(L->preset->multiprocessor_count > 0
                                        ? L->preset->multiprocessor_count : 1);
        if (s->nblocks <= MAX_RECORDED_BLOCKS)
            s->blocks = calloc(s->nblocks ? s->nblocks : 1, sizeof *s->blocks);
        if (!s->touched || !s->written || !s->first_block ||
            (s->nblocks <= MAX_RECORDED_BLOCKS && !s->blocks)) {
            prof_session_free(s);
            return NULL;
        }
    }
    s->obs.ctx = s;
    s->obs.begin_worker = begin_worker;
    s->obs.end_worker = end_worker;
    s->obs.block_begin = on_block_begin;
    s->obs.block_end = on_block_end;
    s->obs.insn = on_insn;
    s->obs.tally = tally_of;
    s->obs.block_events = block_events;
    s->obs.insn_event_limit = PROF_EVENTS_PER_WARP;
    s->obs.warp_end = on_warp_end;
    s->obs.branch = on_branch;
    s->obs.mem = on_mem;
    s->obs.mem_affine = on_mem_affine;
    s->obs.tex = on_tex;
    s->obs.barrier = on_barrier;
    return s;
}

void prof_session_free(prof_session *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(atomic_load(&s->atom_addr));
    free(atomic_load(&s->atom_line));
    free(atomic_load(&s->cas_addr));
    free(atomic_load(&s->cas_line));
    free(atomic_load(&s->cas_keys));
    free(s->host);
    free(s->blocks);
    prof_touched_free(s->touched);
    prof_touched_free(s->written);
    free(s->first_block);
    free(s);
}

const exec_observer *prof_session_observer(prof_session *s) { return &s->obs; }

bool prof_session_set_host_ranges(prof_session *s, const uint64_t (*ranges)[2], size_t n)
{
    free(s->host);
    s->host = NULL;
    s->nhost = 0;
    if (!n)
        return true;
    s->host = malloc(n * sizeof *s->host);
    if (!s->host)
        return false;
    memcpy(s->host, ranges, n * sizeof *s->host);
    s->nhost = n;
    return true;
}

const prof_counters *prof_session_counters(const prof_session *s) { return &s->total; }

uint64_t prof_session_touched_bytes(prof_session *s, uint64_t lo, uint64_t hi)
{
    if (!s->touched || hi <= lo)
        return 0;
    return 32 * prof_touched_count(s->touched, lo >> 5, (hi - 1) >> 5);
}

prof_time_estimate prof_session_estimate(prof_session *s, uint64_t warp_instructions)
{
    prof_kernel_input in;
    memset(&in, 0, sizeof in);
    const prof_launch *L = &s->launch;
    in.blocks = s->nblocks;
    in.threads_per_block = L->block[0] * L->block[1] * L->block[2];
    in.regs_per_thread = (int)L->regs_per_thread;
    in.shared_per_block = (size_t)L->static_shared + L->dynamic_shared;
    in.warp_instructions = warp_instructions;
    prof_block_cost avg;
    uint64_t timed = (s->nblocks + s->sample_stride - 1) / s->sample_stride +
                     ((s->nblocks - 1) % s->sample_stride != 0);
    if (s->timing && s->blocks && s->blocks_seen == timed) {
        for (uint64_t b = 0; b + 1 < s->nblocks; b++)
            if (b % s->sample_stride)
                s->blocks[b] = s->blocks[b - b % s->sample_stride];
        in.block_costs = s->blocks;
    } else if (s->timing && s->blocks_seen) {
        /* too many blocks to keep one by one (or some never ran): the average block */
        avg = s->block_sum;
        avg.critical_cycles /= s->blocks_seen;
        avg.issue_cycles /= s->blocks_seen;
        avg.shared_wavefronts /= s->blocks_seen;
        avg.l1_sectors /= s->blocks_seen;
        avg.l1_lines /= s->blocks_seen;
        avg.miss_rounds /= s->blocks_seen;
        avg.sfu_insts /= s->blocks_seen;
        avg.fp64_insts /= s->blocks_seen;
        avg.const_cycles /= s->blocks_seen;
        avg.printf_records /= s->blocks_seen;
        avg.printf_warps /= s->blocks_seen;
        in.every_block = &avg;
    }
    /* L2 traffic was followed in the timed blocks only: scaled to all sectors counted */
    const prof_counters *c = &s->total;
    uint64_t sectors = c->mem[PROF_MEM_GLOBAL_LD].sectors + c->mem[PROF_MEM_GLOBAL_ST].sectors +
                       c->mem[PROF_MEM_GLOBAL_ATOM].sectors + c->mem[PROF_MEM_GLOBAL_RED].sectors +
                       c->mem[PROF_MEM_LOCAL_LD].sectors + c->mem[PROF_MEM_LOCAL_ST].sectors;
    double timed_sectors = (double)s->replayed_sectors;
    in.l2_bytes = timed_sectors > 0 ? (uint64_t)((double)s->l2_bytes * (double)sectors /
                                                 timed_sectors)
                                    : s->l2_bytes;
    in.dram_bytes = s->dram_bytes;
    in.dram_read_bytes = s->dram_read_bytes;
    in.dram_write_bytes = s->dram_write_bytes;
    double scale = timed_sectors > 0 ? (double)sectors / timed_sectors : 1;
    in.sys_read_bytes = (uint64_t)((double)s->sys_read * scale);
    in.sys_write_bytes = (uint64_t)((double)s->sys_write * scale);
    in.fetch_l1_insts = s->fetch_l1;
    in.fetch_l2_insts = s->fetch_l2;
    /* atomics: the busiest address, the transactions and the lines they went to */
    atom_count *by_addr = atomic_load(&s->atom_addr), *by_line = atomic_load(&s->atom_line);
    if (by_addr && by_line) {
        uint32_t hot;
        uint64_t lines, ops;
        atom_tables_sum(by_addr, by_line, &hot, &ops, &lines);
        in.atomic_hot = hot / 5.0;
        in.atomic_ops = (double)ops / 5.0;
        in.atomic_lines = lines;
        in.atomic_tx = s->atomic_tx;
    }
    atom_count *cas_addr = atomic_load(&s->cas_addr), *cas_line = atomic_load(&s->cas_line);
    if (cas_addr && cas_line) {
        uint32_t hot;
        uint64_t lines, ops;
        atom_tables_sum(cas_addr, cas_line, &hot, &ops, &lines);
        ops += atomic_load(&s->cas_unkeyed);
        in.cas_hot = hot;
        in.cas_ops = (double)ops;
        in.cas_lines = lines;
        in.cas_tx = s->cas_tx;
    }
    prof_time_estimate e = L->preset ? prof_estimate_kernel(L->preset, &in)
                                     : (prof_time_estimate){0};
    /* the caches' hit rates: L1 as replayed; L2 hit unless a read found the sector
     * untouched in the launch (written sectors are allocated without a fetch) */
    s->total.l1_sector_lookups = s->l1_lookups;
    s->total.l1_sector_hits = s->l1_hits;
    s->total.l2_sector_lookups = in.l2_bytes / 32;
    uint64_t l2_misses = s->dram_read_bytes / 32;
    s->total.l2_sector_hits = s->total.l2_sector_lookups > l2_misses
                                  ? s->total.l2_sector_lookups - l2_misses : 0;
    s->total.sm_elapsed_cycles = e.sm_elapsed_cycles;
    s->total.sm_active_cycles = e.sm_active_cycles;
    s->total.warps_active_cycles = e.warps_active_cycles;
    return e;
}
