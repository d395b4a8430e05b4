/* tests/unit/test_gpu_occupancy.c — the occupancy calculator: hand-worked cases from the
 * CUDA occupancy calculator's rules on every preset, and every case recorded on a real H100
 * with cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyAvailableDynamicSMemPerBlock
 * and cudaFuncGetAttributes (tests/data/h100/occupancy.txt). */
#include "gpu/gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static void expect_calc(const char *dev, int threads, int regs, size_t shared, int blocks,
                        double occupancy, gpu_occ_limiter limiter) {
    const gpu_preset *p = gpu_preset_find(dev);
    gpu_occupancy o = gpu_occupancy_calc(p, threads, regs, shared);
    if (o.blocks_per_sm != blocks || fabs(o.occupancy - occupancy) > 1e-9 ||
        (blocks > 0 && o.limiter != limiter)) {
        fprintf(stderr, "%s %d threads %d regs %zu shared: got %d blocks %.4f (%s), want %d %.4f (%s)\n",
                dev, threads, regs, shared, o.blocks_per_sm, o.occupancy,
                gpu_occ_limiter_name(o.limiter), blocks, occupancy, gpu_occ_limiter_name(limiter));
        failures++;
    }
    CHECK(o.warps_per_sm == o.blocks_per_sm * ((threads + 31) / 32));
}

/* Worked by hand from the calculator's rules. */
static void test_known_cases(void) {
    /* H100: 8 warps a block, 64 warps an SM */
    expect_calc("h100", 256, 32, 0, 8, 1.0, GPU_OCC_WARPS);
    /* 64 regs x 32 = 2048 a warp; 65536 / 2048 = 32 warps = one 32-warp block */
    expect_calc("h100", 1024, 64, 0, 1, 0.5, GPU_OCC_REGISTERS);
    /* 32-thread blocks: 2 warps each would allow 64, the block limit is 32 */
    expect_calc("h100", 32, 16, 0, 32, 0.5, GPU_OCC_BLOCKS);
    /* 48 KiB + 1 KiB reserve a block: 233472 / 50176 = 4 */
    expect_calc("h100", 128, 32, 49152, 4, 0.25, GPU_OCC_SHARED);
    /* 255 regs: 8160 -> 8192 a warp, 8 warps an SM; 288 threads = 9 warps: none */
    expect_calc("h100", 288, 255, 0, 0, 0.0, GPU_OCC_REGISTERS);
    expect_calc("h100", 256, 255, 0, 1, 0.125, GPU_OCC_REGISTERS);
    expect_calc("h100", 1025, 8, 0, 0, 0.0, GPU_OCC_WARPS);
    /* more than the opt-in maximum never fits */
    expect_calc("h100", 64, 32, 232449, 0, 0.0, GPU_OCC_SHARED);

    /* A100: 164 KiB an SM; 20 KiB + 1 KiB reserve = 21504 -> 7 blocks */
    expect_calc("a100", 128, 32, 20480, 7, 7 * 4 / 64.0, GPU_OCC_SHARED);
    /* 37 regs: 1184 -> 1280 a warp, 51 warps -> 48 by the granularity of 4 */
    expect_calc("a100", 256, 37, 0, 6, 0.75, GPU_OCC_REGISTERS);

    /* V100: 96 KiB an SM, allocation unit 256, no reserve: 16 KiB -> 6 blocks */
    expect_calc("v100", 128, 64, 16384, 6, 24 / 64.0, GPU_OCC_SHARED);
    expect_calc("v100", 128, 64, 16385, 5, 20 / 64.0, GPU_OCC_SHARED);

    /* K40: 16 blocks an SM; 192 threads, 37 regs: 48 warps by registers -> 8 blocks */
    expect_calc("k40", 192, 37, 0, 8, 0.75, GPU_OCC_REGISTERS);
    expect_calc("k40", 64, 16, 0, 16, 0.5, GPU_OCC_BLOCKS);
    expect_calc("k40", 256, 32, 12288, 4, 0.5, GPU_OCC_SHARED);

    /* Fermi: 48 warps, 8 blocks, 32K registers in units of 64, warp granularity 2 */
    expect_calc("fermi", 256, 32, 0, 4, 32 / 48.0, GPU_OCC_REGISTERS);
    expect_calc("fermi", 128, 20, 0, 8, 32 / 48.0, GPU_OCC_BLOCKS);
    /* 21 regs: 672 -> 704 a warp, 46 warps (a multiple of the granularity 2) */
    expect_calc("fermi", 192, 21, 0, 7, 42 / 48.0, GPU_OCC_REGISTERS);
    /* 10-warp blocks: 4 by warps and 4 by registers; the first limit listed names it */
    expect_calc("fermi", 320, 21, 0, 4, 40 / 48.0, GPU_OCC_WARPS);
    expect_calc("fermi", 192, 16, 0, 8, 1.0, GPU_OCC_WARPS);
    expect_calc("fermi", 256, 63, 0, 2, 16 / 48.0, GPU_OCC_REGISTERS);
    expect_calc("fermi", 256, 64, 0, 0, 0.0, GPU_OCC_REGISTERS); /* over 63 */
    expect_calc("fermi", 256, 16, 16384, 3, 24 / 48.0, GPU_OCC_SHARED);

    /* max threads per block as cudaFuncGetAttributes reports it */
    const gpu_preset *h = gpu_preset_find("h100");
    CHECK(gpu_max_threads_per_block(h, 64) == 1024);
    CHECK(gpu_max_threads_per_block(h, 72) == 896);
    CHECK(gpu_max_threads_per_block(h, 255) == 256);
    const gpu_preset *f = gpu_preset_find("fermi");
    CHECK(gpu_max_threads_per_block(f, 32) == 1024);
    CHECK(gpu_max_threads_per_block(f, 63) == 512); /* 2048 a warp: 16 warps */
    CHECK(gpu_max_threads_per_block(f, 64) == 0);
    CHECK(strcmp(gpu_occ_limiter_name(GPU_OCC_SHARED), "shared memory") == 0);
}

/* ---- the H100 recording ---- */

typedef struct func_attrs {
    char name[32];
    int regs, max_threads;
    size_t static_smem;
} func_attrs;

static const func_attrs *find_func(const func_attrs *fs, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(fs[i].name, name) == 0)
            return &fs[i];
    return NULL;
}

static gpu_occ_kernel kernel_for(const gpu_preset *p, int regs, size_t static_smem,
                                 size_t max_dyn) {
    gpu_occ_kernel k = gpu_occ_kernel_default(p, regs, static_smem);
    if (max_dyn != k.max_dynamic_shared) {
        k.max_dynamic_shared = max_dyn;
        k.dynamic_shared_raised = true;
    }
    return k;
}

static void test_h100_recording(void) {
    const gpu_preset *p = gpu_preset_find("h100");
    FILE *f = fopen(VCUDA_TEST_DIR "/data/h100/occupancy.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    func_attrs funcs[64];
    int nfuncs = 0, nocc = 0, ncarve = 0, navail = 0, bad = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char name[32], err[64];
        int regs, block, blocks, max_threads, carve, nblocks, max_dyn;
        size_t static_smem, dyn, avail;
        if (sscanf(line, "func %31s regs %d static_smem %zu local %*u max_threads %d", name,
                   &regs, &static_smem, &max_threads) == 4) {
            func_attrs *fa = &funcs[nfuncs++];
            snprintf(fa->name, sizeof fa->name, "%s", name);
            fa->regs = regs;
            fa->static_smem = static_smem;
            fa->max_threads = max_threads;
            if (gpu_max_threads_per_block(p, regs) != max_threads) {
                fprintf(stderr, "max threads for %d regs: %d, recorded %d\n", regs,
                        gpu_max_threads_per_block(p, regs), max_threads);
                bad++;
            }
        } else if (sscanf(line, "occ %31s regs %d static_smem %zu block %d dyn %zu max_dyn %d -> %d %63s",
                          name, &regs, &static_smem, &block, &dyn, &max_dyn, &blocks, err) == 8) {
            nocc++;
            gpu_occ_kernel k = kernel_for(p, regs, static_smem, (size_t)max_dyn);
            gpu_occupancy o = gpu_occupancy_kernel(p, &k, block, dyn);
            if (o.blocks_per_sm != blocks || strcmp(err, "cudaSuccess") != 0) {
                if (bad++ < 20)
                    fprintf(stderr, "mismatch (got %d): %s", o.blocks_per_sm, line);
            }
        } else if (sscanf(line, "carveout %d %31s block %d dyn %zu -> %d", &carve, name, &block,
                          &dyn, &blocks) == 5) {
            ncarve++;
            const func_attrs *fa = find_func(funcs, nfuncs, name);
            CHECK(fa != NULL);
            if (!fa)
                continue;
            /* the recording raised each kernel's dynamic limit before trying carveouts */
            gpu_occ_kernel k = kernel_for(p, fa->regs, fa->static_smem,
                                          p->shared_per_block_optin - fa->static_smem);
            k.carveout = carve;
            gpu_occupancy o = gpu_occupancy_kernel(p, &k, block, dyn);
            if (o.blocks_per_sm != blocks) {
                if (bad++ < 20)
                    fprintf(stderr, "mismatch (got %d): %s", o.blocks_per_sm, line);
            }
        } else if (sscanf(line, "availdyn %31s block %d nblocks %d max_dyn %d -> %zu %63s", name,
                          &block, &nblocks, &max_dyn, &avail, err) == 6) {
            navail++;
            const func_attrs *fa = find_func(funcs, nfuncs, name);
            CHECK(fa != NULL);
            if (!fa)
                continue;
            gpu_occ_kernel k = kernel_for(p, fa->regs, fa->static_smem, (size_t)max_dyn);
            size_t got = 0;
            bool ok = gpu_occupancy_available_dynamic_shared(p, &k, block, nblocks, &got);
            bool want_ok = strcmp(err, "cudaSuccess") == 0;
            if (ok != want_ok || (ok && got != avail)) {
                if (bad++ < 20)
                    fprintf(stderr, "mismatch (got %d, %zu): %s", ok, got, line);
            }
        }
    }
    fclose(f);
    CHECK(nfuncs == 27);
    CHECK(nocc == 11286 && ncarve == 1215 && navail == 864);
    CHECK(bad == 0);
}

int main(void) {
    test_known_cases();
    test_h100_recording();
    if (failures) {
        fprintf(stderr, "test_gpu_occupancy: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_gpu_occupancy: ok\n");
    return 0;
}
