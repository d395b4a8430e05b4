/* exec/program.c — loading a module: variable storage, frame layouts, decoding every
 * function, and per-kernel facts (parameter layout, shared memory layout, local memory
 * size, register estimate).
 */
#include "core.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_uint_fast64_t program_serials = 1;

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static void load_error(const ptx_module *m, const ptx_srcloc *loc, char *err, size_t errlen,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void load_error(const ptx_module *m, const ptx_srcloc *loc, char *err, size_t errlen,
                       const char *fmt, ...) {
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s:%u:%u: error: %s", m->source_name ? m->source_name : "<ptx>",
             loc ? loc->ptx_line : 0, loc ? (unsigned)loc->ptx_col : 0, what);
}

static int builtin_of(const char *name) {
    if (!strcmp(name, "vprintf")) return EXEC_BUILTIN_VPRINTF;
    if (!strcmp(name, "__assertfail")) return EXEC_BUILTIN_ASSERTFAIL;
    if (!strcmp(name, "malloc")) return EXEC_BUILTIN_MALLOC;
    if (!strcmp(name, "free")) return EXEC_BUILTIN_FREE;
    return exec_devrt_builtin_of(name);
}

const exec_func *exec_program_func(const exec_program *p, uint32_t index) {
    const exec_func *f = &p->funcs[index];
    if (f->code || f->builtin) return f;
    /* a prototype declared before its definition: use the definition */
    for (uint32_t i = 0; i < p->m->nfuncs; i++)
        if (p->funcs[i].code && !strcmp(p->m->funcs[i].name, f->pf->name)) return &p->funcs[i];
    return f;
}

/* ---- module variables ---- */

static uint64_t symbol_value(const exec_program *p, const ptx_symref *s, bool *ok) {
    *ok = true;
    if (s->scope == PTX_SYM_FUNC)
        return EXEC_FUNC_TOKEN_BASE + (uint64_t)s->index * EXEC_FUNC_TOKEN_STEP;
    if (s->scope == PTX_SYM_MODULE_VAR && p->var_addr[s->index])
        return (uint64_t)(uintptr_t)p->var_addr[s->index];
    *ok = false;
    return 0;
}

static bool load_vars(exec_program *p, char *err, size_t errlen) {
    const ptx_module *m = p->m;
    p->var_addr = calloc(m->nvars ? m->nvars : 1, sizeof *p->var_addr);
    p->var_sid = calloc(m->nvars ? m->nvars : 1, sizeof *p->var_sid);
    p->var_borrowed = calloc(m->nvars ? m->nvars : 1, sizeof *p->var_borrowed);
    if (!p->var_addr || !p->var_sid || !p->var_borrowed) abort();
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        p->var_sid[i] = -1;
        if (v->space == PTX_SPACE_SHARED) {
            if (!v->is_extern) p->var_sid[i] = (int32_t)p->nsids++;
            continue;
        }
        if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) continue;
        if (v->is_extern) {
            load_error(m, &v->loc, err, errlen,
                       "extern variable '%s' is not defined in this module", v->name);
            return false;
        }
        if (v->is_managed && p->opts.managed_from) {
            /* one copy for every device: the first device's */
            size_t size = 0;
            p->var_addr[i] = exec_program_var(p->opts.managed_from, v->name, &size);
            if (!p->var_addr[i] || size != v->size) {
                load_error(m, &v->loc, err, errlen,
                           "__managed__ variable '%s' differs between the devices' code", v->name);
                return false;
            }
            p->var_borrowed[i] = true;
            continue;
        }
        uint64_t align = v->align < 16 ? 16 : v->align;
        uint64_t size = v->size ? v->size : 1;
        void *mem = aligned_alloc(align, align_up(size, align));
        if (!mem) abort();
        memset(mem, 0, align_up(size, align));
        if (v->init) memcpy(mem, v->init, v->size);
        p->var_addr[i] = mem;
        mem_kind kind = v->space == PTX_SPACE_CONST ? MEM_KIND_CONST_VAR : MEM_KIND_GLOBAL_VAR;
        /* a managed variable is every device's */
        uint32_t tag = v->is_managed ? 0 : p->opts.device_tag;
        if (!mem_table_add_dev(p->mem, (uint64_t)(uintptr_t)mem, size, kind, 0, tag)) {
            load_error(m, &v->loc, err, errlen, "cannot enter variable '%s' in the memory table",
                       v->name);
            return false;
        }
    }
    /* addresses inside initialisers (pointer tables, function pointer tables) */
    for (uint32_t i = 0; i < m->nvars; i++) {
        const ptx_var *v = &m->vars[i];
        for (uint32_t r = 0; r < v->nrelocs && p->var_addr[i] && !p->var_borrowed[i]; r++) {
            const ptx_reloc *rl = &v->relocs[r];
            bool ok;
            uint64_t val = symbol_value(p, &rl->sym, &ok) + (uint64_t)rl->addend;
            if (!ok || rl->offset + rl->size > v->size) {
                load_error(m, &v->loc, err, errlen,
                           "initialiser of '%s' takes an address that cannot be resolved",
                           v->name);
                return false;
            }
            uint8_t *dst = (uint8_t *)p->var_addr[i] + rl->offset;
            if (rl->size == 4) { uint32_t v32 = (uint32_t)val; memcpy(dst, &v32, 4); }
            else memcpy(dst, &val, 8);
        }
    }
    return true;
}

/* ---- frames ---- */

static uint32_t place(uint32_t *off, const ptx_var *v) {
    uint32_t a = v->align ? v->align : 1;
    *off = (uint32_t)align_up(*off, a);
    uint32_t at = *off;
    *off += (uint32_t)v->size;
    return at;
}

static bool layout_frame(exec_program *p, exec_func *f, char *err, size_t errlen) {
    const ptx_func *pf = f->pf;
    f->param_off = calloc(pf->nparams + 1, sizeof *f->param_off);
    f->ret_off = calloc(pf->nrets + 1, sizeof *f->ret_off);
    f->local_off = calloc(pf->nlocals + 1, sizeof *f->local_off);
    f->local_sid = calloc(pf->nlocals + 1, sizeof *f->local_sid);
    if (!f->param_off || !f->ret_off || !f->local_off || !f->local_sid) abort();
    uint32_t off = 0;
    if (pf->is_entry) {
        /* kernel parameters: the launch's param buffer, in declaration order */
        uint32_t poff = 0;
        for (uint32_t i = 0; i < pf->nparams; i++) f->param_off[i] = place(&poff, &pf->params[i]);
    } else {
        for (uint32_t i = 0; i < pf->nparams; i++) {
            if (pf->params[i].space != PTX_SPACE_PARAM) {
                load_error(p->m, &pf->loc, err, errlen, "function '%s': only .param parameters "
                           "are supported", pf->name);
                return false;
            }
            f->param_off[i] = place(&off, &pf->params[i]);
        }
        for (uint32_t i = 0; i < pf->nrets; i++) f->ret_off[i] = place(&off, &pf->rets[i]);
    }
    for (uint32_t i = 0; i < pf->nlocals; i++) {
        const ptx_var *v = &pf->locals[i];
        f->local_off[i] = -1;
        f->local_sid[i] = -1;
        if (v->space == PTX_SPACE_LOCAL || v->space == PTX_SPACE_PARAM)
            f->local_off[i] = (int32_t)place(&off, v);
        else if (v->space == PTX_SPACE_SHARED)
            f->local_sid[i] = (int32_t)p->nsids++;
    }
    f->frame_size = (uint32_t)align_up(off, 16);
    return true;
}

/* ---- kernels ---- */

typedef struct walk {
    const exec_program *p;
    uint8_t *state;        /* 0 unseen, 1 on the DFS stack, 2 done */
    uint32_t *stack_bytes; /* local bytes of the deepest call chain from the function */
    bool recursive;
    bool indirect;
} walk;

static void walk_calls(walk *wk, const exec_func *f) {
    uint32_t i = f->index;
    if (wk->state[i] == 2) return;
    if (wk->state[i] == 1) { wk->recursive = true; return; }
    wk->state[i] = 1;
    uint32_t deepest = 0;
    for (uint32_t c = 0; c < f->ncalls; c++) {
        const exec_func *callee = f->calls[c].callee;
        if (!callee) {
            /* indirect: any function with a body may be called */
            wk->indirect = true;
            for (uint32_t k = 0; k < wk->p->m->nfuncs; k++) {
                const exec_func *g = &wk->p->funcs[k];
                if (!g->code || g->pf->is_entry) continue;
                walk_calls(wk, g);
                if (wk->state[k] == 2 && wk->stack_bytes[k] > deepest) deepest = wk->stack_bytes[k];
            }
            continue;
        }
        if (!callee->code) continue; /* builtins run without a frame */
        walk_calls(wk, callee);
        if (wk->state[callee->index] == 2 && wk->stack_bytes[callee->index] > deepest)
            deepest = wk->stack_bytes[callee->index];
    }
    wk->stack_bytes[i] = f->frame_size + deepest;
    wk->state[i] = 2;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void setup_kernel(exec_program *p, exec_kernel *k, exec_func *f) {
    const ptx_module *m = p->m;
    const ptx_func *pf = f->pf;
    k->prog = p;
    k->func = f;
    exec_kernel_info *info = &k->info;
    info->name = pf->name;
    info->nparams = pf->nparams;
    k->param_offsets = calloc(pf->nparams + 1, sizeof *k->param_offsets);
    k->param_sizes = calloc(pf->nparams + 1, sizeof *k->param_sizes);
    k->shared_off = malloc((p->nsids + 1) * sizeof *k->shared_off);
    if (!k->param_offsets || !k->param_sizes || !k->shared_off) abort();
    uint32_t end = 0;
    for (uint32_t i = 0; i < pf->nparams; i++) {
        k->param_offsets[i] = f->param_off[i];
        k->param_sizes[i] = (uint32_t)pf->params[i].size;
        if (f->param_off[i] + k->param_sizes[i] > end) end = f->param_off[i] + k->param_sizes[i];
    }
    info->param_offsets = k->param_offsets;
    info->param_sizes = k->param_sizes;
    info->param_size = end;

    /* which functions can run: the kernel and its callees */
    walk wk = {.p = p};
    wk.state = calloc(m->nfuncs + 1, 1);
    wk.stack_bytes = calloc(m->nfuncs + 1, sizeof *wk.stack_bytes);
    if (!wk.state || !wk.stack_bytes) abort();
    walk_calls(&wk, f);

    /* static shared memory: every shared variable a reachable function names */
    uint32_t *sids = malloc((p->nsids + 1) * sizeof *sids);
    if (!sids) abort();
    uint32_t nsids = 0;
    for (uint32_t s = 0; s < p->nsids; s++) k->shared_off[s] = UINT32_MAX;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (wk.state[i] != 2) continue;
        const exec_func *g = &p->funcs[i];
        for (uint32_t u = 0; u < g->nused_sids; u++) {
            uint32_t s = g->used_sids[u];
            if (k->shared_off[s] == UINT32_MAX) { k->shared_off[s] = 0; sids[nsids++] = s; }
        }
    }
    qsort(sids, nsids, sizeof *sids, cmp_u32); /* declaration order */
    /* the user's variables start after the device's reserved shared memory, as on a GPU
     * (their addresses are what the program sees) */
    uint32_t off = p->opts.reserved_shared;
    for (uint32_t i = 0; i < nsids; i++) k->shared_off[sids[i]] = place(&off, p->sid_var[sids[i]]);
    free(sids);
    info->reserved_shared = p->opts.reserved_shared;
    info->static_shared = off - p->opts.reserved_shared;
    uint32_t dyn_align = 16;
    for (uint32_t i = 0; i < m->nvars; i++)
        if (m->vars[i].space == PTX_SPACE_SHARED && m->vars[i].is_extern &&
            m->vars[i].align > dyn_align)
            dyn_align = m->vars[i].align;
    k->dyn_base = (uint32_t)align_up(off, dyn_align);
    info->dyn_shared_base = k->dyn_base;

    /* a reachable function allocating on its stack gets the kernel a stack region */
    for (uint32_t i = 0; i < m->nfuncs && !info->dyn_stack; i++) {
        if (wk.state[i] != 2) continue;
        const ptx_func *g = p->funcs[i].pf;
        for (uint32_t j = 0; j < g->ninsns && !info->dyn_stack; j++)
            info->dyn_stack = g->insns[j].op == PTX_OP_alloca ||
                              g->insns[j].op == PTX_OP_stacksave ||
                              g->insns[j].op == PTX_OP_stackrestore;
    }
    uint32_t stack = wk.stack_bytes[f->index];
    info->local_one_pass = (uint32_t)align_up(stack, 16);
    info->recursive = wk.recursive;
    if (wk.recursive) stack += EXEC_RECURSION_STACK_BYTES;
    info->local_per_thread = (uint32_t)align_up(stack, 16);

    /* the device heap: a reachable function calls the malloc or free builtin */
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (wk.state[i] != 2) continue;
        const exec_func *g = &p->funcs[i];
        for (uint32_t c = 0; c < g->ncalls; c++) {
            const exec_func *callee = g->calls[c].callee;
            if (callee && (callee->builtin == EXEC_BUILTIN_MALLOC ||
                           callee->builtin == EXEC_BUILTIN_FREE))
                info->uses_device_heap = true;
            if (callee && exec_devrt_is_graph_launch(callee->builtin))
                info->uses_graph_launch = true;
            if (callee && exec_devrt_is_kernel_launch(callee->builtin))
                info->uses_kernel_launch = true;
        }
    }

    uint32_t regs = 0;
    bool calls = false;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (wk.state[i] != 2) continue;
        if (p->funcs[i].regs_estimate > regs) regs = p->funcs[i].regs_estimate;
        if (p->funcs[i].ncalls) calls = true;
    }
    /* a kernel that makes calls follows the ABI's register convention: ptxas reports at
     * least 24 registers for such kernels on sm_90 */
    if (calls && regs < 24) regs = 24;
    info->regs_per_thread = regs;
    free(wk.state);
    free(wk.stack_bytes);

    for (int d = 0; d < 3; d++) { info->maxntid[d] = pf->maxntid[d]; info->reqntid[d] = pf->reqntid[d]; }
    info->minnctapersm = pf->minnctapersm;
    memcpy(info->reqnctapercluster, pf->reqnctapercluster, sizeof info->reqnctapercluster);
    info->explicitcluster = pf->explicitcluster;
    info->maxclusterrank = pf->maxclusterrank;
    info->ptx_version = m->version_major * 10 + m->version_minor;
    info->target_sm = m->target_sm;
}

/* ---- load / free ---- */

exec_program *exec_program_load(ptx_module *m, mem_table *mem, char *err, size_t errlen) {
    return exec_program_load_opts(m, mem, NULL, err, errlen);
}

exec_program *exec_program_load_opts(ptx_module *m, mem_table *mem, const exec_program_opts *o,
                                     char *err, size_t errlen) {
    if (m->address_size && m->address_size != 64) {
        load_error(m, NULL, err, errlen, ".address_size %u is not supported (only 64)",
                   m->address_size);
        ptx_module_free(m);
        return NULL;
    }
    exec_program *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->m = m;
    p->mem = mem;
    if (o) p->opts = *o;
    p->serial = atomic_fetch_add(&program_serials, 1);
    p->native_on = true; /* (code installed later runs unless a test turns it off) */
    p->funcs = calloc(m->nfuncs + 1, sizeof *p->funcs);
    if (!p->funcs) abort();
    if (!load_vars(p, err, errlen)) goto fail;

    for (uint32_t i = 0; i < m->nfuncs; i++) {
        exec_func *f = &p->funcs[i];
        f->pf = &m->funcs[i];
        f->index = i;
        if (f->pf->ninsns == 0) f->builtin = builtin_of(f->pf->name);
        if (!layout_frame(p, f, err, errlen)) goto fail;
    }
    /* shared ids -> declarations */
    p->sid_var = calloc(p->nsids + 1, sizeof *p->sid_var);
    if (!p->sid_var) abort();
    for (uint32_t i = 0; i < m->nvars; i++)
        if (p->var_sid[i] >= 0) p->sid_var[p->var_sid[i]] = &m->vars[i];
    for (uint32_t i = 0; i < m->nfuncs; i++)
        for (uint32_t l = 0; l < m->funcs[i].nlocals; l++)
            if (p->funcs[i].local_sid[l] >= 0)
                p->sid_var[p->funcs[i].local_sid[l]] = &m->funcs[i].locals[l];

    for (uint32_t i = 0; i < m->nfuncs; i++) {
        exec_func *f = &p->funcs[i];
        const ptx_func *pf = f->pf;
        if (pf->ninsns == 0) continue;
        uint32_t *reg_slot = malloc((pf->nregs + 1) * sizeof *reg_slot);
        if (!reg_slot) abort();
        uint32_t nslots = 0, npreds = 0;
        for (uint32_t r = 0; r < pf->nregs; r++) {
            if (pf->regs[r].type == PTX_T_pred) {
                reg_slot[r] = npreds++;
            } else { /* a .b128 register is two slots: low and high 64 bits */
                reg_slot[r] = nslots;
                nslots += pf->regs[r].type == PTX_T_b128 ? 2 : 1;
            }
        }
        f->pred_false = npreds;
        f->pred_true = npreds + 1;
        f->npreds = npreds + 2;
        f->regs_estimate = exec_estimate_regs(pf);
        bool ok = exec_lower_func(p, f, reg_slot, nslots, err, errlen);
        free(reg_slot);
        if (!ok) goto fail;
    }
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && p->funcs[i].code) p->nkernels++;
    p->kernels = calloc(p->nkernels + 1, sizeof *p->kernels);
    if (!p->kernels) abort();
    uint32_t nk = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && p->funcs[i].code) setup_kernel(p, &p->kernels[nk++], &p->funcs[i]);
    return p;
fail:
    exec_program_free(p, mem);
    return NULL;
}

void exec_program_free(exec_program *p, mem_table *mem) {
    if (!p) return;
    const ptx_module *m = p->m;
    for (uint32_t i = 0; p->var_addr && i < m->nvars; i++) {
        if (!p->var_addr[i] || (p->var_borrowed && p->var_borrowed[i])) continue;
        mem_alloc gone;
        mem_table_remove(mem, (uint64_t)(uintptr_t)p->var_addr[i], &gone);
        free(p->var_addr[i]);
    }
    for (uint32_t i = 0; p->funcs && i < m->nfuncs; i++) {
        exec_func *f = &p->funcs[i];
        free(f->code);
        free(f->consts);
        free(f->param_off);
        free(f->ret_off);
        free(f->local_off);
        free(f->local_sid);
        for (uint32_t c = 0; c < f->ncalls; c++) {
            free(f->calls[c].arg_off);
            free(f->calls[c].arg_size);
            free(f->calls[c].ret_off);
            free(f->calls[c].ret_size);
        }
        free(f->calls);
        free(f->used_sids);
        free(f->jump_tables);
        for (uint32_t b = 0; b < f->nblobs; b++) free(f->blobs[b]);
        free(f->blobs);
    }
    for (uint32_t i = 0; p->kernels && i < p->nkernels; i++) {
        free(p->kernels[i].param_offsets);
        free(p->kernels[i].param_sizes);
        free(p->kernels[i].shared_off);
    }
    free(p->kernels);
    free(p->funcs);
    free(p->var_addr);
    free(p->var_borrowed);
    free(p->var_sid);
    free(p->sid_var);
    ptx_module_free(p->m);
    free(p);
}

const exec_kernel *exec_program_kernel(const exec_program *p, const char *name) {
    for (uint32_t i = 0; i < p->nkernels; i++)
        if (!strcmp(p->kernels[i].info.name, name)) return &p->kernels[i];
    return NULL;
}

void *exec_program_var(const exec_program *p, const char *name, size_t *size) {
    for (uint32_t i = 0; i < p->m->nvars; i++) {
        if (!p->var_addr[i] || strcmp(p->m->vars[i].name, name)) continue;
        if (size) *size = p->m->vars[i].size;
        return p->var_addr[i];
    }
    return NULL;
}

const ptx_module *exec_program_module(const exec_program *p) { return p->m; }

const exec_kernel_info *exec_kernel_get_info(const exec_kernel *k) { return &k->info; }
