/* prof/hooks.c — the out-of-line hook: one memory instruction into the counters. */
#include "hooks.h"
#include "coalesce.h"
#include "banks.h"

void prof_on_mem(prof_recorder *p, prof_space space, prof_access access,
                 const uint64_t addr[32], uint32_t mask, unsigned size)
{
    prof_mem_kind k = prof_mem_kind_of(space, access);
    if (k == PROF_MEM_KIND_COUNT)
        return;  /* no such instruction on hardware (local atomics); nothing to count */
    prof_mem_counts *m = &p->c.mem[k];
    m->inst++;
    if (space == PROF_SPACE_SHARED) {
        prof_shared_cost s = prof_banks(&p->rules, access, addr, mask, size);
        m->requests += s.requests;
        m->transactions += s.wavefronts;
        m->ideal_transactions += s.ideal_wavefronts;
        m->sass_wavefronts += s.sass_wavefronts;
        m->bytes_requested += s.bytes_requested;
        m->bytes_used += s.bytes_used;
        m->bytes_transferred += (uint64_t)s.wavefronts * p->rules.shared_wavefront_bytes;
        return;
    }
    prof_mem_cost c = prof_coalesce(&p->rules, space, access, addr, mask, size);
    m->requests += c.requests;
    m->sectors += c.sectors;
    m->set_accesses += c.lines;
    m->transactions += c.transactions;
    m->bytes_requested += c.bytes_requested;
    m->bytes_used += c.bytes_used;
    m->bytes_transferred += c.bytes_transferred;
}
