/* tests/unit/test_runtime_timeline.c — the virtual clock's estimate (runtime/timeline.c):
 * what kernels, copies, sets and a kernel's first load cost on the device's timeline, and
 * how those costs scale. The values are the model's, not measurements: the checks pin
 * down its shape (linear in bytes and instructions, bounded by the SMs a grid occupies)
 * so that a change to it is deliberate. */
#include "runtime/rt.h"

#include <math.h>
#include <stdio.h>

static int failures;
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static bool near(double a, double b) { return fabs(a - b) <= 1e-9 + 1e-6 * fabs(b); }

static double kernel(const gpu_preset *p, uint64_t insns, uint64_t blocks, uint32_t threads) {
    rt_cost c = {.kind = RT_OP_KERNEL, .warp_instructions = insns, .blocks = blocks,
                 .threads_per_block = threads};
    return rt_timeline_cost_ms(p, &c);
}

static double copy(const gpu_preset *p, size_t bytes, rt_copy_dir dir) {
    rt_cost c = {.kind = RT_OP_COPY, .bytes = bytes, .dir = dir};
    return rt_timeline_cost_ms(p, &c);
}

int main(void) {
    const gpu_preset *h100 = gpu_preset_find("h100"), *k40 = gpu_preset_find("k40");

    /* Kernels: an overhead, then instructions spread over the SMs the grid occupies. */
    double empty = kernel(h100, 0, 1, 32);
    CHECK(empty > 0 && empty < 0.01);
    double one_sm = kernel(h100, 1000000, 1, 1024) - empty;      /* one SM, 32 warps */
    double all_sms = kernel(h100, 1000000, 1320, 1024) - empty;  /* every SM */
    CHECK(near(one_sm / all_sms, 132.0));
    CHECK(near(kernel(h100, 2000000, 1320, 1024) - empty, 2 * all_sms));
    /* one warp per SM issues one instruction a cycle, four warps four */
    CHECK(near((kernel(h100, 4000, 1, 32) - empty) / (kernel(h100, 4000, 1, 128) - empty), 4.0));
    /* 1e6 warp-instructions on one SM at 4 a cycle: 250000 cycles at the preset's clock */
    CHECK(near(one_sm, 250000.0 / h100->clock_khz));
    /* a slower clock and fewer SMs cost more */
    CHECK(kernel(k40, 1000000, 1320, 1024) > kernel(h100, 1000000, 1320, 1024));

    /* Copies: linear in bytes; device to device at the memory bandwidth (read and write),
     * host copies over the slower host link. */
    double small = copy(h100, 0, RT_COPY_H2D);
    CHECK(small > 0);
    double h2d = copy(h100, 1 << 26, RT_COPY_H2D) - small, d2h = copy(h100, 1 << 26, RT_COPY_D2H) - small;
    double d2d = copy(h100, 1 << 26, RT_COPY_D2D) - small;
    CHECK(near(h2d, d2h));
    CHECK(near(copy(h100, 1 << 27, RT_COPY_H2D) - small, 2 * h2d));
    CHECK(d2d < h2d);
    double bw = (double)h100->mem_clock_khz * 2.0 * h100->mem_bus_width / 8.0; /* bytes/ms */
    CHECK(near(d2d, 2.0 * (1 << 26) / bw));

    /* Sets write once at the memory bandwidth. */
    rt_cost set = {.kind = RT_OP_SET, .bytes = 1 << 26};
    rt_cost set0 = {.kind = RT_OP_SET, .bytes = 0};
    CHECK(near(rt_timeline_cost_ms(h100, &set) - rt_timeline_cost_ms(h100, &set0), (1 << 26) / bw));

    /* A first launch's load; records, waits and host functions take no time. */
    rt_cost load = {.kind = RT_OP_LOAD};
    CHECK(rt_timeline_cost_ms(h100, &load) > 0.05 && rt_timeline_cost_ms(h100, &load) < 0.5);
    rt_cost ev = {.kind = RT_OP_EVENT}, wait = {.kind = RT_OP_WAIT}, fn = {.kind = RT_OP_HOST_FN};
    CHECK(rt_timeline_cost_ms(h100, &ev) == 0 && rt_timeline_cost_ms(h100, &wait) == 0 &&
          rt_timeline_cost_ms(h100, &fn) == 0);

    if (failures) {
        fprintf(stderr, "test_runtime_timeline: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_runtime_timeline: all checks passed\n");
    return 0;
}
