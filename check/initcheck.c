/* check/initcheck.c — reads of device memory nothing wrote.
 *
 * cudaMalloc'd memory starts unwritten (vcuda hands out zeroed memory, a GPU does not:
 * a program that reads it before writing works here by luck only). Every byte has a
 * shadow byte (check/alloc.c) set by memset, copies and kernels' stores and atomics; a
 * kernel load that touches an unset byte is reported per lane, as compute-sanitizer
 * does:
 *
 *   ========= Uninitialized __global__ memory read of size 4 bytes
 *   =========     at vectorAdd(int *) in memset_error.cu:41 (PTX line 30)
 *   =========     by thread (31,0,0) in block (1,0,0)
 *   =========     Address 0x7f3c7ec000fc
 *
 * Workers set shadow bytes of the same allocation at once, so shadow bytes are written
 * with relaxed atomic stores (each byte only ever goes from 0 to 1).
 */
#include "internal.h"

#include <inttypes.h>

/* The tracked allocation holding [a, a+size): shadow pointer and its start; NULL when
 * the access is not in tracked memory. */
static uint8_t *shadow_for(check_worker *w, uint64_t a, uint32_t size, uint64_t *base) {
    check_state *st = w->cl->st;
    uint64_t gen = check_alloc_generation(st);
    if (w->cache_gen != gen || a < w->cache_lo || a + size > w->cache_hi) {
        check_alloc al;
        if (!check_alloc_find(st, a, &al) || !al.init) {
            w->cache_gen = gen - 1; /* nothing cached */
            return NULL;
        }
        w->cache_lo = al.base;
        w->cache_hi = al.base + al.size;
        w->cache_init = al.init;
        w->cache_gen = gen;
        if (a + size > w->cache_hi) return NULL;
    }
    *base = w->cache_lo;
    return w->cache_init;
}

void check_initcheck_mem(check_worker *w, const exec_site *s, ptx_space space,
                         exec_mem_access access, const uint64_t addr[32], uint32_t mask,
                         uint32_t size) {
    if (space != PTX_SPACE_GLOBAL) return;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint64_t a = addr[lane], base;
        uint8_t *init = shadow_for(w, a, size, &base);
        if (!init) continue;
        uint8_t *p = init + (a - base);
        if (access != EXEC_OBS_STORE) {
            bool all = true;
            for (uint32_t k = 0; k < size && all; k++)
                all = __atomic_load_n(&p[k], __ATOMIC_RELAXED) != 0;
            if (!all) {
                check_buf b = {0};
                check_report_head(&b, w->cl, s, lane, "Uninitialized __global__ memory %s of "
                                  "size %u bytes", access == EXEC_OBS_LOAD ? "read" : "atomic",
                                  size);
                check_line(&b, "    Address 0x%" PRIx64, a);
                check_report_launch_site(&b, w->cl);
                check_line(&b, "%s", "");
                check_worker_report(w, b.p);
            }
        }
        if (access != EXEC_OBS_LOAD)
            for (uint32_t k = 0; k < size; k++) __atomic_store_n(&p[k], 1, __ATOMIC_RELAXED);
    }
}
