/* test_prof_launch.c — prof_launch_init with the real device presets: rules by
 * generation and the theoretical occupancy from the occupancy calculator. */
#include <math.h>
#include "prof/metrics.h"
#include "prof_test.h"

static double value(const char *name, const prof_counters *c, const prof_launch *L)
{
    bool as_ncu;
    const prof_metric *m = prof_metric_find(name, &as_ncu);
    return m ? prof_metric_value(m, as_ncu, c, L) : NAN;
}

int main(void)
{
    prof_counters none;
    prof_counters_clear(&none);
    const uint32_t grid[3] = {128, 1, 1}, block[3] = {256, 1, 1};

    /* H100: 256 threads x 32 registers = 8192 registers a block, 8 blocks of 8 warps
     * fill the 64 warp slots */
    const gpu_preset *h100 = gpu_preset_find("h100");
    prof_launch L;
    prof_launch_init(&L, h100, grid, block, 32, 1024, 512, 2e-6);
    EXPECT_EQ(L.rules.generation, PROF_GEN_SECTORED);
    EXPECT_EQ(L.rules.shared_pair_merge, true);
    EXPECT_EQ(L.occupancy.blocks_per_sm, 8);
    EXPECT_NEAR(value("theoretical_occupancy", &none, &L), 1.0, 1e-12);
    EXPECT_NEAR(value("sm__maximum_warps_per_active_cycle_pct", &none, &L), 100, 1e-9);
    EXPECT_NEAR(value("launch__waves_per_multiprocessor", &none, &L), 128.0 / (8 * 132), 1e-12);
    EXPECT_NEAR(value("launch__shared_mem_per_block_static", &none, &L), 1024, 0);
    EXPECT_NEAR(value("launch__shared_mem_per_block_dynamic", &none, &L), 512, 0);
    EXPECT_NEAR(value("warps_launched", &none, &L), 128 * 8, 0);

    /* 64 registers a thread: 4 blocks, half the warp slots */
    prof_launch_init(&L, h100, grid, block, 64, 0, 0, 0);
    EXPECT_EQ(L.occupancy.blocks_per_sm, 4);
    EXPECT_NEAR(value("theoretical_occupancy", &none, &L), 0.5, 1e-12);

    /* the older generations */
    prof_launch_init(&L, gpu_preset_find("k40"), grid, block, 32, 0, 0, 0);
    EXPECT_EQ(L.rules.generation, PROF_GEN_KEPLER);
    EXPECT_EQ(L.rules.l1_global_loads, false);
    EXPECT_EQ(L.rules.shared_wavefront_bytes, 256);
    prof_launch_init(&L, gpu_preset_find("fermi"), grid, block, 32, 0, 0, 0);
    EXPECT_EQ(L.rules.generation, PROF_GEN_FERMI);
    EXPECT_EQ(L.rules.l1_global_loads, true);
    /* Fermi's 32768 registers hold 4 blocks of 8192: 32 of its 48 warp slots */
    EXPECT_EQ(L.occupancy.warps_per_sm, 32);
    EXPECT_NEAR(value("theoretical_occupancy", &none, &L), 32.0 / 48, 1e-12);
    prof_launch_init(&L, gpu_preset_find("v100"), grid, block, 32, 0, 0, 0);
    EXPECT_EQ(L.rules.generation, PROF_GEN_SECTORED);
    return prof_test_finish("test_prof_launch");
}
