/* prof/metrics.c — the metric table and the function behind each row.
 *
 * Names and their equivalences follow NVIDIA's nvprof-to-Nsight-Compute transition table;
 * where a measurement on an H100 showed what an Nsight Compute metric really divides by,
 * the function follows the measurement (see tests/unit/data/prof/README.md):
 *   - efficiencies count the distinct bytes the lanes touch, so a broadcast read of one
 *     4-byte word in a 32-byte sector is 12.5% efficient;
 *   - smsp__thread_inst_executed_per_inst_executed.pct is warp_execution_efficiency (all
 *     active threads); the predicated-on variant is ..._pred_on_per_inst_executed.pct;
 *   - a divergent branch counts once in smsp__sass_branch_targets_threads_divergent, so
 *     smsp__sass_average_branch_targets_threads_uniform.pct equals branch_efficiency,
 *     except for a kernel without branches: 0 there, 100% for nvprof's name.
 * A ratio whose denominator is zero is 0 (what nvprof prints for, e.g., shared
 * transactions per request of a kernel without shared memory), except branch efficiency,
 * which is 100% when there was no branch to diverge.
 */
#include <math.h>
#include <string.h>
#include "metrics.h"

static double ratio(double num, double den) { return den != 0 ? num / den : 0.0; }
static double pct(double num, double den) { return 100.0 * ratio(num, den); }

#define MEM(kind) (&c->mem[PROF_MEM_##kind])

static double total_blocks(const prof_launch *L)
{
    return (double)L->grid[0] * L->grid[1] * L->grid[2];
}

static double threads_per_block(const prof_launch *L)
{
    return (double)L->block[0] * L->block[1] * L->block[2];
}

static double total_warps(const prof_launch *L)
{
    return total_blocks(L) * ceil(threads_per_block(L) / 32.0);
}

/* ---- occupancy and activity ---- */
static double achieved_occupancy(const prof_counters *c, const prof_launch *L)
{
    if (!c->sm_active_cycles || !L->preset || L->preset->max_warps_per_sm <= 0)
        return NAN;  /* the scheduler recorded no residency */
    return (double)c->warps_active_cycles / (double)c->sm_active_cycles /
           L->preset->max_warps_per_sm;
}
static double theoretical_occupancy(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return L->preset ? L->occupancy.occupancy : NAN;
}
static double sm_efficiency(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return c->sm_elapsed_cycles ? pct(c->sm_active_cycles, c->sm_elapsed_cycles) : NAN;
}

/* ---- caches (the timing model's) ---- */
static double l1_hit_rate(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return c->l1_sector_lookups ? pct(c->l1_sector_hits, c->l1_sector_lookups) : NAN;
}
static double l2_hit_rate(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return c->l2_sector_lookups ? pct(c->l2_sector_hits, c->l2_sector_lookups) : NAN;
}

/* ---- instructions and branches ---- */
static double branch_efficiency(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return c->branches ? pct(c->branches - c->divergent_branches, c->branches) : 100.0;
}
/* Nsight Compute's average divides by the branch targets and shows 0 for a kernel with
 * none (an H100 shows 0.00 for kernels whose only PTX branch became a predicated exit). */
static double branch_targets_uniform_pct(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return pct(c->branches - c->divergent_branches, c->branches);
}
static double warp_execution_efficiency(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return pct(c->thread_inst_executed, 32.0 * c->inst_executed);
}
static double warp_nonpred_execution_efficiency(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return pct(c->thread_inst_pred_on, 32.0 * c->inst_executed);
}
static double threads_per_inst(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return ratio(c->thread_inst_executed, c->inst_executed);
}
static double inst_executed(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)c->inst_executed;
}
static double inst_per_warp(const prof_counters *c, const prof_launch *L)
{
    return ratio(c->inst_executed, total_warps(L));
}
static double thread_inst_executed(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)c->thread_inst_executed;
}
static double thread_inst_pred_on(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)c->thread_inst_pred_on;
}
static double branches(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)c->branches;
}
static double divergent_branches(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)c->divergent_branches;
}
static double uniform_branches(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)(c->branches - c->divergent_branches);
}
static double warps_launched(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return total_warps(L);
}
static double cf_executed(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)c->inst_by_class[PROF_CLASS_CONTROL];
}
static double ldst_executed(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)(MEM(GLOBAL_LD)->inst + MEM(GLOBAL_ST)->inst + MEM(LOCAL_LD)->inst +
                    MEM(LOCAL_ST)->inst + MEM(SHARED_LD)->inst + MEM(SHARED_ST)->inst);
}

/* Thread instructions of one class, guard on (nvprof's inst_fp_32 and friends). */
#define CLASS_METRIC(fn, cls)                                                        \
    static double fn(const prof_counters *c, const prof_launch *L)                   \
    {                                                                                \
        (void)L;                                                                     \
        return (double)c->thread_inst_by_class[cls];                                 \
    }
CLASS_METRIC(inst_fp_32, PROF_CLASS_FP32)
CLASS_METRIC(inst_fp_64, PROF_CLASS_FP64)
CLASS_METRIC(inst_fp_16, PROF_CLASS_FP16)
CLASS_METRIC(inst_integer, PROF_CLASS_INTEGER)
CLASS_METRIC(inst_bit_convert, PROF_CLASS_CONVERSION)
CLASS_METRIC(inst_control, PROF_CLASS_CONTROL)
CLASS_METRIC(inst_compute_ld_st, PROF_CLASS_LDST)
CLASS_METRIC(inst_misc, PROF_CLASS_MISC)
CLASS_METRIC(inst_inter_thread_communication, PROF_CLASS_INTER_THREAD)

/* ---- memory: one family of functions per counter row ---- */
#define MEM_METRICS(prefix, kind)                                                    \
    static double prefix##_inst(const prof_counters *c, const prof_launch *L)        \
    {                                                                                \
        (void)L;                                                                     \
        return (double)MEM(kind)->inst;                                              \
    }                                                                                \
    static double prefix##_requests(const prof_counters *c, const prof_launch *L)    \
    {                                                                                \
        (void)L;                                                                     \
        return (double)MEM(kind)->requests;                                          \
    }                                                                                \
    static double prefix##_transactions(const prof_counters *c, const prof_launch *L) \
    {                                                                                \
        (void)L;                                                                     \
        return (double)MEM(kind)->transactions;                                      \
    }                                                                                \
    static double prefix##_per_request(const prof_counters *c, const prof_launch *L) \
    {                                                                                \
        (void)L;                                                                     \
        return ratio(MEM(kind)->transactions, MEM(kind)->requests);                  \
    }                                                                                \
    static double prefix##_efficiency(const prof_counters *c, const prof_launch *L)  \
    {                                                                                \
        (void)L;                                                                     \
        return pct(MEM(kind)->bytes_used, MEM(kind)->bytes_transferred);             \
    }                                                                                \
    static double prefix##_bytes(const prof_counters *c, const prof_launch *L)       \
    {                                                                                \
        (void)L;                                                                     \
        return (double)MEM(kind)->bytes_transferred;                                 \
    }                                                                                \
    static double prefix##_throughput(const prof_counters *c, const prof_launch *L)  \
    {                                                                                \
        return L->duration_s > 0 ? MEM(kind)->bytes_transferred / L->duration_s : NAN; \
    }                                                                                \
    static double prefix##_requested_throughput(const prof_counters *c,              \
                                                const prof_launch *L)                \
    {                                                                                \
        return L->duration_s > 0 ? MEM(kind)->bytes_requested / L->duration_s : NAN; \
    }                                                                                \
    static double prefix##_sectors(const prof_counters *c, const prof_launch *L)     \
    {                                                                                \
        (void)L;                                                                     \
        return (double)MEM(kind)->sectors;                                           \
    }                                                                                \
    static double prefix##_set_accesses(const prof_counters *c, const prof_launch *L) \
    {                                                                                \
        (void)L;                                                                     \
        return (double)MEM(kind)->set_accesses;                                      \
    }                                                                                \
    static double prefix##_bank_conflicts(const prof_counters *c, const prof_launch *L) \
    {                                                                                \
        (void)L;                                                                     \
        return (double)(MEM(kind)->transactions - MEM(kind)->ideal_transactions);    \
    }

/* Not every kind uses every function of its family. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
MEM_METRICS(gld, GLOBAL_LD)
MEM_METRICS(gst, GLOBAL_ST)
MEM_METRICS(gatom, GLOBAL_ATOM)
MEM_METRICS(gred, GLOBAL_RED)
MEM_METRICS(lld, LOCAL_LD)
MEM_METRICS(lst, LOCAL_ST)
MEM_METRICS(sld, SHARED_LD)
MEM_METRICS(sst, SHARED_ST)
MEM_METRICS(satom, SHARED_ATOM)
MEM_METRICS(tex, TEXTURE)
MEM_METRICS(suld, SURFACE_LD)
MEM_METRICS(sust, SURFACE_ST)
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static double shared_efficiency(const prof_counters *c, const prof_launch *L)
{
    uint64_t used = MEM(SHARED_LD)->bytes_used + MEM(SHARED_ST)->bytes_used +
                    MEM(SHARED_ATOM)->bytes_used;
    uint64_t wavefronts = MEM(SHARED_LD)->sass_wavefronts + MEM(SHARED_ST)->sass_wavefronts +
                          MEM(SHARED_ATOM)->sass_wavefronts;
    return pct(used, (double)wavefronts * L->rules.shared_wavefront_bytes);
}
static double atomic_transactions(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return (double)(MEM(GLOBAL_ATOM)->transactions + MEM(GLOBAL_RED)->transactions);
}
static double atomic_transactions_per_request(const prof_counters *c, const prof_launch *L)
{
    (void)L;
    return ratio(MEM(GLOBAL_ATOM)->transactions + MEM(GLOBAL_RED)->transactions,
                 MEM(GLOBAL_ATOM)->requests + MEM(GLOBAL_RED)->requests);
}

/* ---- launch ---- */
static double registers_per_thread(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return L->regs_per_thread;
}
static double grid_size(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return total_blocks(L);
}
static double block_size(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return threads_per_block(L);
}
static double shared_static(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return L->static_shared;
}
static double shared_dynamic(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    return L->dynamic_shared;
}
static double waves_per_sm(const prof_counters *c, const prof_launch *L)
{
    (void)c;
    if (!L->preset || L->occupancy.blocks_per_sm <= 0)
        return NAN;
    return total_blocks(L) / ((double)L->occupancy.blocks_per_sm * L->preset->multiprocessor_count);
}

#define C PROF_UNIT_COUNT
#define P PROF_UNIT_PERCENT
#define R PROF_UNIT_RATIO
#define T PROF_UNIT_BYTES_PER_S
#define EV PROF_MF_EVENT
#define VC PROF_MF_VCUDA

const prof_metric prof_metrics[] = {
    /* nvprof, ncu, ncu_scale, unit, ncu_unit, flags, description, compute */
    {"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active", 100, R, "%", 0,
     "Achieved Occupancy", achieved_occupancy},
    {"theoretical_occupancy", "sm__maximum_warps_per_active_cycle_pct", 100, R, "%", VC,
     "Theoretical Occupancy", theoretical_occupancy},
    {"sm_efficiency", "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed", 1, P, "%", 0,
     "Multiprocessor Activity", sm_efficiency},
    {"branch_efficiency", NULL, 1, P, "%", 0, "Branch Efficiency", branch_efficiency},
    {"tex_cache_hit_rate", "l1tex__t_sector_hit_rate.pct", 1, P, "%", 0,
     "Unified Cache Hit Rate", l1_hit_rate},
    {"l2_tex_hit_rate", "lts__t_sector_hit_rate.pct", 1, P, "%", 0, "L2 Cache Hit Rate",
     l2_hit_rate},
    {NULL, "smsp__sass_average_branch_targets_threads_uniform.pct", 1, P, "%", 0,
     "Branch Efficiency (0 without branches)", branch_targets_uniform_pct},
    {"warp_execution_efficiency", "smsp__thread_inst_executed_per_inst_executed.pct", 1, P, "%",
     0, "Warp Execution Efficiency", warp_execution_efficiency},
    {"warp_nonpred_execution_efficiency",
     "smsp__thread_inst_executed_pred_on_per_inst_executed.pct", 1, P, "%", 0,
     "Warp Non-Predicated Execution Efficiency", warp_nonpred_execution_efficiency},
    {NULL, "smsp__thread_inst_executed_per_inst_executed.ratio", 1, R, "", 0,
     "Average active threads per executed warp instruction", threads_per_inst},
    {"inst_executed", "smsp__inst_executed.sum", 1, C, "inst", 0,
     "Instructions Executed", inst_executed},
    {"inst_per_warp", "smsp__average_inst_executed_per_warp.ratio", 1, R, "inst/warp", 0,
     "Instructions per warp", inst_per_warp},
    {"thread_inst_executed", "smsp__thread_inst_executed.sum", 1, C, "inst", EV,
     "Thread Instructions Executed", thread_inst_executed},
    {"not_predicated_off_thread_inst_executed", "smsp__thread_inst_executed_pred_on.sum", 1, C,
     "inst", EV, "Not Predicated-Off Thread Instructions Executed", thread_inst_pred_on},
    {"warps_launched", "smsp__warps_launched.sum", 1, C, "warp", EV,
     "Warps Launched", warps_launched},
    {"branch", "smsp__sass_branch_targets.sum", 1, C, "branches", EV,
     "Branches", branches},
    {"divergent_branch", "smsp__sass_branch_targets_threads_divergent.sum", 1, C, "branches", EV,
     "Divergent Branches", divergent_branches},
    {NULL, "smsp__sass_branch_targets_threads_uniform.sum", 1, C, "branches", 0,
     "Branches where all active threads took the same path", uniform_branches},
    {"cf_executed", NULL, 1, C, "", 0,
     "Executed Control-Flow Instructions", cf_executed},
    {NULL, "smsp__inst_executed_op_branch.sum", 1, C, "inst", 0,
     "Warp-level control-flow instructions executed (bra, brx, call, ret, exit)", cf_executed},
    {NULL, "smsp__sass_thread_inst_executed.sum", 1, C, "inst", 0,
     "Thread instructions executed", thread_inst_executed},
    {"ldst_executed", NULL, 1, C, "", 0,
     "Executed Load/Store Instructions", ldst_executed},
    {"inst_fp_32", "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", 1, C, "inst", 0,
     "FP Instructions(Single)", inst_fp_32},
    {"inst_fp_64", "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum", 1, C, "inst", 0,
     "FP Instructions(Double)", inst_fp_64},
    {"inst_fp_16", "smsp__sass_thread_inst_executed_op_fp16_pred_on.sum", 1, C, "inst", 0,
     "HP Instructions(Half)", inst_fp_16},
    {"inst_integer", "smsp__sass_thread_inst_executed_op_integer_pred_on.sum", 1, C, "inst", 0,
     "Integer Instructions", inst_integer},
    {"inst_bit_convert", "smsp__sass_thread_inst_executed_op_conversion_pred_on.sum", 1, C,
     "inst", 0, "Bit-Convert Instructions", inst_bit_convert},
    {"inst_control", "smsp__sass_thread_inst_executed_op_control_pred_on.sum", 1, C, "inst", 0,
     "Control-Flow Instructions", inst_control},
    {"inst_compute_ld_st", "smsp__sass_thread_inst_executed_op_memory_pred_on.sum", 1, C, "inst",
     0, "Load/Store Instructions", inst_compute_ld_st},
    {"inst_misc", "smsp__sass_thread_inst_executed_op_misc_pred_on.sum", 1, C, "inst", 0,
     "Misc Instructions", inst_misc},
    {"inst_inter_thread_communication",
     "smsp__sass_thread_inst_executed_op_inter_thread_communication_pred_on.sum", 1, C, "inst", 0,
     "Inter-Thread Instructions", inst_inter_thread_communication},

    /* global memory */
    {"gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 1, P,
     "%", 0, "Global Memory Load Efficiency", gld_efficiency},
    {"gst_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", 1, P,
     "%", 0, "Global Memory Store Efficiency", gst_efficiency},
    {"gld_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1, C, "sector", 0,
     "Global Load Transactions", gld_transactions},
    {"gst_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 1, C, "sector", 0,
     "Global Store Transactions", gst_transactions},
    {"gld_transactions_per_request",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 1, R, "sector", 0,
     "Global Load Transactions Per Request", gld_per_request},
    {"gst_transactions_per_request",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", 1, R, "sector", 0,
     "Global Store Transactions Per Request", gst_per_request},
    {"global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1, C, "", 0,
     "Global Load Requests", gld_requests},
    {"global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 1, C, "", 0,
     "Global Store Requests", gst_requests},
    {"inst_executed_global_loads", "smsp__inst_executed_op_global_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for global loads", gld_inst},
    {"inst_executed_global_stores", "smsp__inst_executed_op_global_st.sum", 1, C, "inst", 0,
     "Warp level instructions for global stores", gst_inst},
    {NULL, "smsp__sass_inst_executed_op_global_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for global loads", gld_inst},
    {NULL, "smsp__sass_inst_executed_op_global_st.sum", 1, C, "inst", 0,
     "Warp level instructions for global stores", gst_inst},
    {"gld_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second", 1, T,
     "byte/second", 0, "Global Load Throughput", gld_throughput},
    {"gst_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second", 1, T,
     "byte/second", 0, "Global Store Throughput", gst_throughput},
    {"gld_requested_throughput", NULL, 1, T, "", 0,
     "Requested Global Load Throughput", gld_requested_throughput},
    {"gst_requested_throughput", NULL, 1, T, "", 0,
     "Requested Global Store Throughput", gst_requested_throughput},
    {NULL, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", 1, C, "byte", 0,
     "Bytes requested for global loads", gld_bytes},
    {NULL, "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum", 1, C, "byte", 0,
     "Bytes requested for global stores", gst_bytes},

    /* the texture pipe (prof_on_tex says how requests and sectors are counted) */
    {"tex_cache_requests", "l1tex__t_requests_pipe_tex_mem_texture.sum", 1, C, "", 0,
     "Texture Cache Requests", tex_requests},
    {"texture_load_requests", NULL, 1, C, "", 0, "Texture Load Requests", tex_requests},
    {"tex_cache_transactions", "l1tex__t_sectors_pipe_tex_mem_texture.sum", 1, C, "sector", 0,
     "Texture Cache Transactions", tex_sectors},
    {NULL, "l1tex__t_set_accesses_pipe_tex_mem_texture.sum", 1, C, "", 0,
     "Cache set accesses for texture lookups", tex_set_accesses},
    {"inst_executed_tex_ops", "smsp__inst_executed_op_texture.sum", 1, C, "inst", 0,
     "Warp level instructions for texture", tex_inst},
    {NULL, "smsp__sass_inst_executed_op_texture.sum", 1, C, "inst", 0,
     "Warp level instructions for texture", tex_inst},
    {"surface_load_requests", "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum", 1, C, "", 0,
     "Surface Load Requests", suld_requests},
    {NULL, "l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum", 1, C,
     "sector", 0, "Sectors requested for surface loads", suld_sectors},
    {"surface_store_requests", "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum", 1, C, "", 0,
     "Surface Store Requests", sust_requests},
    {NULL, "l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum", 1, C,
     "sector", 0, "Sectors requested for surface stores", sust_sectors},
    {"inst_executed_surface_loads", "smsp__inst_executed_op_surface_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for surface loads", suld_inst},
    {"inst_executed_surface_stores", "smsp__inst_executed_op_surface_st.sum", 1, C, "inst", 0,
     "Warp level instructions for surface stores", sust_inst},

    /* atomics */
    {"atomic_transactions", NULL, 1, C, "", 0,
     "Atomic Transactions", atomic_transactions},
    {"atomic_transactions_per_request", NULL, 1, R, "", 0,
     "Atomic Transactions Per Request", atomic_transactions_per_request},
    {"global_atomic_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", 1, C, "", 0,
     "Global Atomic Requests", gatom_requests},
    {"global_reduction_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 1, C, "", 0,
     "Global Reduction Requests", gred_requests},
    {"inst_executed_global_atomics", "smsp__sass_inst_executed_op_global_atom.sum", 1, C, "inst",
     0, "Warp level instructions for global atom and atom cas", gatom_inst},
    {"inst_executed_global_reductions", "smsp__inst_executed_op_global_red.sum", 1, C, "inst", 0,
     "Warp level instructions for global reductions", gred_inst},
    {NULL, "smsp__sass_inst_executed_op_global_red.sum", 1, C, "inst", 0,
     "Warp level instructions for global reductions", gred_inst},
    {NULL, "l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum", 1, C, "", 0,
     "Cache set accesses for global atomics", gatom_set_accesses},
    {NULL, "l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum", 1, C, "", 0,
     "Cache set accesses for global reductions", gred_set_accesses},
    {NULL, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", 1, C, "sector", 0,
     "Sectors requested for global atomics", gatom_sectors},
    {NULL, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", 1, C, "sector", 0,
     "Sectors requested for global reductions", gred_sectors},

    /* local memory */
    {"local_load_transactions", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 1, C, "sector",
     0, "Local Load Transactions", lld_transactions},
    {"local_store_transactions", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", 1, C, "sector",
     0, "Local Store Transactions", lst_transactions},
    {"local_load_transactions_per_request",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_local_op_ld.ratio", 1, R, "sector", 0,
     "Local Memory Load Transactions Per Request", lld_per_request},
    {"local_store_transactions_per_request",
     "l1tex__average_t_sectors_per_request_pipe_lsu_mem_local_op_st.ratio", 1, R, "sector", 0,
     "Local Memory Store Transactions Per Request", lst_per_request},
    {"local_load_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", 1, C, "", 0,
     "Local Load Requests", lld_requests},
    {"local_store_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", 1, C, "", 0,
     "Local Store Requests", lst_requests},
    {"local_load_throughput", "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum.per_second", 1, T,
     "byte/second", 0, "Local Memory Load Throughput", lld_throughput},
    {"local_store_throughput", "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum.per_second", 1, T,
     "byte/second", 0, "Local Memory Store Throughput", lst_throughput},

    /* shared memory */
    {"shared_load_transactions", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1, C, "",
     0, "Shared Load Transactions", sld_transactions},
    {"shared_store_transactions", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 1, C,
     "", 0, "Shared Store Transactions", sst_transactions},
    {"shared_load_transactions_per_request", NULL, 1, R, "", 0,
     "Shared Memory Load Transactions Per Request", sld_per_request},
    {"shared_store_transactions_per_request", NULL, 1, R, "", 0,
     "Shared Memory Store Transactions Per Request", sst_per_request},
    {"shared_efficiency", "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", 1, P, "%",
     0, "Shared Memory Efficiency", shared_efficiency},
    {"shared_ld_bank_conflict", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1, C,
     "", EV, "Shared Load Bank Conflicts", sld_bank_conflicts},
    {"shared_st_bank_conflict", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 1, C,
     "", EV, "Shared Store Bank Conflicts", sst_bank_conflicts},
    {"inst_executed_shared_loads", "smsp__inst_executed_op_shared_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for shared loads", sld_inst},
    {"inst_executed_shared_stores", "smsp__inst_executed_op_shared_st.sum", 1, C, "inst", 0,
     "Warp level instructions for shared stores", sst_inst},
    {"inst_executed_shared_atomics", "smsp__inst_executed_op_shared_atom.sum", 1, C, "inst", 0,
     "Warp level shared instructions for atom and atom CAS", satom_inst},
    {NULL, "smsp__sass_inst_executed_op_shared_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for shared loads", sld_inst},
    {NULL, "smsp__sass_inst_executed_op_shared_st.sum", 1, C, "inst", 0,
     "Warp level instructions for shared stores", sst_inst},
    {"inst_executed_local_loads", "smsp__inst_executed_op_local_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for local loads", lld_inst},
    {"inst_executed_local_stores", "smsp__inst_executed_op_local_st.sum", 1, C, "inst", 0,
     "Warp level instructions for local stores", lst_inst},
    {NULL, "smsp__sass_inst_executed_op_local_ld.sum", 1, C, "inst", 0,
     "Warp level instructions for local loads", lld_inst},
    {NULL, "smsp__sass_inst_executed_op_local_st.sum", 1, C, "inst", 0,
     "Warp level instructions for local stores", lst_inst},

    /* the launch */
    {NULL, "launch__registers_per_thread", 1, C, "register/thread", 0,
     "Registers per thread", registers_per_thread},
    {NULL, "launch__grid_size", 1, C, "", 0, "Blocks in the grid", grid_size},
    {NULL, "launch__block_size", 1, C, "", 0, "Threads per block", block_size},
    {NULL, "sm__ctas_launched.sum", 1, C, "block", 0, "Blocks launched", grid_size},
    {NULL, "launch__shared_mem_per_block_static", 1, C, "byte/block", 0,
     "Static shared memory per block", shared_static},
    {NULL, "launch__shared_mem_per_block_dynamic", 1, C, "byte/block", 0,
     "Dynamic shared memory per block", shared_dynamic},
    {NULL, "launch__waves_per_multiprocessor", 1, R, "", 0,
     "Waves of blocks per multiprocessor", waves_per_sm},
};
const size_t prof_metric_count = sizeof prof_metrics / sizeof prof_metrics[0];

const prof_metric *prof_metric_find(const char *name, bool *as_ncu)
{
    for (size_t i = 0; i < prof_metric_count; i++) {
        const prof_metric *m = &prof_metrics[i];
        if (m->nvprof && strcmp(m->nvprof, name) == 0) {
            if (as_ncu)
                *as_ncu = false;
            return m;
        }
        if (m->ncu && strcmp(m->ncu, name) == 0) {
            if (as_ncu)
                *as_ncu = true;
            return m;
        }
    }
    return NULL;
}

bool prof_metric_available(const prof_metric *m, const gpu_preset *p, bool as_ncu)
{
    if (as_ncu)
        return m->ncu != NULL && p != NULL && p->major >= 7;
    return m->nvprof != NULL;
}

double prof_metric_value(const prof_metric *m, bool as_ncu, const prof_counters *c,
                         const prof_launch *L)
{
    double v = m->compute(c, L);
    return as_ncu ? v * m->ncu_scale : v;
}
