/* gpu/occupancy.c — the occupancy calculator: how many blocks of a kernel can be resident
 * on one SM, and which resource runs out first.
 *
 * The rules are those of NVIDIA's occupancy calculator and occupancy API, per device
 * preset:
 *   warps      a block takes ceil(threads / 32) warp slots of max_warps_per_sm;
 *   blocks     at most max_blocks_per_sm;
 *   registers  a warp's registers (regs x 32) are rounded up to reg_alloc_unit; the
 *              register file holds floor(regs_per_sm / per-warp) warps, rounded down to
 *              warp_alloc_granularity (registers are split between the SM's scheduler
 *              partitions); a block needing more than regs_per_block (its warps rounded up
 *              to the granularity, as the hardware checks) cannot launch at all;
 *   shared     static + dynamic + the per-block reserve, rounded up to shared_alloc_unit;
 *              the SM's shared memory is the carveout: the kernel's preference rounded up
 *              to a size the hardware supports, or if that is too small for one block the
 *              smallest supported size that holds it; without a preference, all of it.
 * tests/unit/test_gpu_occupancy.c checks these against every case recorded on an H100.
 */
#include "gpu.h"

#include <limits.h>

static int div_round_up(long long x, long long y) { return (int)((x + y - 1) / y); }
static long long round_up(long long x, long long y) { return (x + y - 1) / y * y; }

const char *gpu_occ_limiter_name(gpu_occ_limiter l) {
    switch (l) {
    case GPU_OCC_WARPS: return "warps";
    case GPU_OCC_BLOCKS: return "blocks";
    case GPU_OCC_REGISTERS: return "registers";
    case GPU_OCC_SHARED: return "shared memory";
    }
    return "?";
}

static long long regs_per_warp(const gpu_preset *p, int regs_per_thread) {
    return round_up((long long)regs_per_thread * p->warp_size, p->reg_alloc_unit);
}

/* Warps the register file holds for this per-thread count (INT_MAX when regs are 0). */
static int warps_by_registers(const gpu_preset *p, int regs_per_thread) {
    long long per_warp = regs_per_warp(p, regs_per_thread);
    if (per_warp == 0)
        return INT_MAX;
    int warps = (int)(p->regs_per_sm / per_warp);
    return warps / p->warp_alloc_granularity * p->warp_alloc_granularity;
}

/* Can one block of this many warps get its registers at all? */
static bool block_fits_registers(const gpu_preset *p, int regs_per_thread, int warps) {
    if (regs_per_thread > p->max_regs_per_thread_occupancy)
        return false;
    long long per_warp = regs_per_warp(p, regs_per_thread);
    long long checked = per_warp * round_up(warps, p->warp_alloc_granularity);
    return checked <= p->regs_per_block && per_warp * warps <= p->regs_per_block;
}

int gpu_max_threads_per_block(const gpu_preset *p, int regs_per_thread) {
    int warps = p->max_threads_per_block / p->warp_size;
    int by_regs = warps_by_registers(p, regs_per_thread);
    if (by_regs < warps)
        warps = by_regs;
    while (warps > 0 && !block_fits_registers(p, regs_per_thread, warps))
        warps--;
    return warps * p->warp_size;
}

/* The smallest carveout size holding bytes; 0 when none does. */
static long long carveout_at_least(const gpu_preset *p, long long bytes) {
    for (int i = 0; i < p->shared_carveout_count; i++) {
        long long size = (long long)p->shared_carveout_kb[i] * 1024;
        if (bytes <= size)
            return size;
    }
    return 0;
}

/* Shared memory an SM offers blocks that each take per_block bytes. */
static long long sm_shared_for(const gpu_preset *p, const gpu_occ_kernel *k,
                               long long per_block) {
    if (p->shared_carveout_count == 0)
        return (long long)p->shared_per_sm;
    long long preferred = (long long)p->shared_per_sm;
    if (k->carveout >= 0)
        preferred = carveout_at_least(p, (long long)k->carveout * (long long)p->shared_per_sm / 100);
    if (preferred >= per_block)
        return preferred;
    return carveout_at_least(p, per_block);
}

/* The per-block shared memory limit the launch is checked against. */
static long long block_shared_limit(const gpu_preset *p, const gpu_occ_kernel *k) {
    long long limit = (long long)p->shared_per_block;
    long long most = (long long)(k->static_shared + p->reserved_shared_per_block +
                                 k->max_dynamic_shared);
    if (k->dynamic_shared_raised && most > (long long)p->shared_per_block)
        limit = (long long)p->shared_per_block_optin;
    return limit + (long long)p->reserved_shared_per_block;
}

gpu_occ_kernel gpu_occ_kernel_default(const gpu_preset *p, int regs_per_thread,
                                      size_t static_shared) {
    gpu_occ_kernel k = {
        .regs_per_thread = regs_per_thread,
        .static_shared = static_shared,
        .max_dynamic_shared = static_shared < p->shared_per_block
                                  ? p->shared_per_block - static_shared : 0,
        .dynamic_shared_raised = false,
        .carveout = -1,
    };
    return k;
}

gpu_occupancy gpu_occupancy_kernel(const gpu_preset *p, const gpu_occ_kernel *k,
                                   int threads_per_block, size_t dynamic_shared) {
    gpu_occupancy r = {0, 0, 0.0, GPU_OCC_WARPS};
    if (threads_per_block < 1 || threads_per_block > p->max_threads_per_block)
        return r;
    int warps = div_round_up(threads_per_block, p->warp_size);

    int limit[4];
    limit[GPU_OCC_WARPS] = p->max_warps_per_sm / warps;
    limit[GPU_OCC_BLOCKS] = p->max_blocks_per_sm;
    if (!block_fits_registers(p, k->regs_per_thread, warps)) {
        limit[GPU_OCC_REGISTERS] = 0;
    } else {
        int by_regs = warps_by_registers(p, k->regs_per_thread);
        limit[GPU_OCC_REGISTERS] = by_regs == INT_MAX ? INT_MAX : by_regs / warps;
    }
    long long per_block = round_up((long long)(k->static_shared + p->reserved_shared_per_block +
                                               dynamic_shared),
                                   p->shared_alloc_unit);
    bool too_much = per_block > block_shared_limit(p, k) ||
                    (k->dynamic_shared_raised && dynamic_shared > k->max_dynamic_shared);
    if (too_much) {
        limit[GPU_OCC_SHARED] = 0;
    } else if (per_block == 0) {
        limit[GPU_OCC_SHARED] = INT_MAX;
    } else {
        limit[GPU_OCC_SHARED] = (int)(sm_shared_for(p, k, per_block) / per_block);
    }

    /* The first of the smallest limits names the limiter (warps before blocks before
     * registers before shared memory, as the calculator lists them). */
    gpu_occ_limiter which = GPU_OCC_WARPS;
    for (int i = 1; i < 4; i++) {
        if (limit[i] < limit[which])
            which = (gpu_occ_limiter)i;
    }
    r.blocks_per_sm = limit[which];
    r.limiter = which;
    r.warps_per_sm = r.blocks_per_sm * warps;
    r.occupancy = (double)r.warps_per_sm / p->max_warps_per_sm;
    return r;
}

gpu_occupancy gpu_occupancy_calc(const gpu_preset *p, int threads_per_block,
                                 int regs_per_thread, size_t shared_per_block) {
    gpu_occ_kernel k = gpu_occ_kernel_default(p, regs_per_thread, shared_per_block);
    /* Treat the whole amount as the block's own, allowed up to the opt-in limit. */
    k.max_dynamic_shared = p->shared_per_block_optin;
    k.dynamic_shared_raised = true;
    return gpu_occupancy_kernel(p, &k, threads_per_block, 0);
}

bool gpu_occupancy_available_dynamic_shared(const gpu_preset *p, const gpu_occ_kernel *k,
                                            int threads_per_block, int blocks_per_sm,
                                            size_t *available) {
    if (blocks_per_sm < 1)
        return false;
    /* That many blocks must fit with no dynamic shared memory at all. */
    gpu_occupancy base = gpu_occupancy_kernel(p, k, threads_per_block, 0);
    if (base.blocks_per_sm < blocks_per_sm)
        return false;
    /* The runtime divides the SM's shared memory evenly, in allocation units, and leaves
     * out the static part (not the per-block reserve: that is what the H100 reports). */
    long long share = (long long)p->shared_per_sm / blocks_per_sm;
    share = share / p->shared_alloc_unit * p->shared_alloc_unit;
    long long left = share - (long long)k->static_shared;
    if (left < 0)
        left = 0;
    if (left > (long long)k->max_dynamic_shared)
        left = (long long)k->max_dynamic_shared;
    *available = (size_t)left;
    return true;
}

/* A cluster's blocks all run in one GPC: a GPC of s SMs holding b blocks each fits
 * floor(s * b / size) clusters, and none when it has fewer SMs than the cluster has blocks;
 * b is the calculator's blocks per SM, but at most 8 (the rule that reproduces every answer
 * an H200 gave, for clusters of 1 to 16 blocks and 2 to 32 blocks per SM, with its GPCs in
 * the preset: tests/cuda/hopper/expected/cluster_launch.out). */
int gpu_occupancy_clusters(const gpu_preset *p, int cluster_size, int blocks_per_sm) {
    if (cluster_size < 1 || blocks_per_sm < 1 || !p->cluster_launch)
        return 0;
    if (blocks_per_sm > 8)
        blocks_per_sm = 8;
    int n = 0;
    for (unsigned g = 0; g < sizeof p->gpc_sms && p->gpc_sms[g]; g++) {
        int s = p->gpc_sms[g];
        if (s >= cluster_size)
            n += s * blocks_per_sm / cluster_size;
    }
    return n;
}
