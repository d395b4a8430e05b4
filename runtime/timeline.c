/* runtime/timeline.c — the virtual clock: how long an operation takes on the virtual
 * device, in milliseconds.
 *
 * Times the device reports (cudaEventElapsedTime) are read from a virtual timeline, not
 * the host's clock, so that a program measures the same times on every run and on every
 * host. Each stream has its own timeline position; an operation starts when its stream's
 * previous operation and everything it waits for have ended (and no earlier than what
 * the host had seen the device reach when it issued it), and it lasts what
 * rt_timeline_cost_ms says. Streams running side by side overlap on the timeline; what
 * concurrent kernels cost each other is not modelled. The host's own idle time between
 * calls does not advance the device's clock.
 *
 * The estimate is deliberately simple (a timing model proper replaces this function):
 *   kernel  a launch overhead, plus the executed warp-instructions issued at up to four
 *           per cycle on each SM the grid occupies (fewer when an SM holds fewer warps),
 *           at the preset's SM clock;
 *   copy    an overhead, plus the bytes at the preset's memory bandwidth (device to
 *           device: read and write) or, to and from the host, over the host link;
 *   set     an overhead, plus the bytes written at the memory bandwidth;
 *   load    a kernel's first launch loads its code (CUDA's lazy loading, engine.c): a
 *           fixed time, about what an H100 shows between events around a first launch.
 * Event records, waits and host functions take no device time.
 */
#include "rt.h"

#define RT_LAUNCH_OVERHEAD_MS 0.002   /* a kernel in a stream on an H100: about 2 us */
#define RT_COPY_OVERHEAD_MS 0.002
#define RT_HOST_LINK_BYTES_PER_MS 25.0e6 /* PCIe 5 x16 as copies see it: about 25 GB/s */
#define RT_ISSUE_PER_SM_CYCLE 4.0     /* warp schedulers per SM (sm_50 and later) */
#define RT_LAZY_LOAD_MS 0.1           /* a kernel's first launch loads it: ~0.1 ms on an H100 */

/* Device memory bandwidth in bytes per millisecond (double data rate). */
static double memory_bytes_per_ms(const gpu_preset *p) {
    return (double)p->mem_clock_khz * 2.0 * (double)p->mem_bus_width / 8.0;
}

double rt_timeline_cost_ms(const gpu_preset *p, const rt_cost *what) {
    switch (what->kind) {
    case RT_OP_KERNEL: {
        if (what->blocks == 0) return RT_LAUNCH_OVERHEAD_MS;
        double sms = (double)p->multiprocessor_count;
        if ((double)what->blocks < sms) sms = (double)what->blocks;
        double warps_per_block = (double)((what->threads_per_block + 31) / 32);
        double warps_per_sm = warps_per_block * ((double)what->blocks / sms);
        if (warps_per_sm > p->max_warps_per_sm) warps_per_sm = p->max_warps_per_sm;
        double issue = warps_per_sm < RT_ISSUE_PER_SM_CYCLE ? warps_per_sm : RT_ISSUE_PER_SM_CYCLE;
        double cycles = (double)what->warp_instructions / (sms * issue);
        return RT_LAUNCH_OVERHEAD_MS + cycles / (double)p->clock_khz;
    }
    case RT_OP_COPY:
    case RT_OP_COPY2D: {
        double bytes = (double)what->bytes;
        if (what->dir == RT_COPY_D2D) /* read and write */
            return RT_COPY_OVERHEAD_MS + 2.0 * bytes / memory_bytes_per_ms(p);
        if (what->dir == RT_COPY_H2H)
            return RT_COPY_OVERHEAD_MS + 2.0 * bytes / RT_HOST_LINK_BYTES_PER_MS;
        return RT_COPY_OVERHEAD_MS + bytes / RT_HOST_LINK_BYTES_PER_MS;
    }
    case RT_OP_SET:
    case RT_OP_SET2D:
        return RT_COPY_OVERHEAD_MS + (double)what->bytes / memory_bytes_per_ms(p);
    case RT_OP_LOAD:
        return RT_LAZY_LOAD_MS;
    default:
        return 0.0;
    }
}
