/* ptx/link.c — the PTX linker: separately compiled modules (relocatable device code,
 * nvcc -rdc=true) become one module, the way nvlink binds the objects of a program.
 *
 * Linkage follows PTX: a .visible function or variable is seen by every module, a .weak
 * (or .common) one too unless a .visible definition of the same name exists, anything else
 * is private to its module. An .extern declaration is bound to the definition of that name;
 * a function no module defines stays a declaration (the executor serves vprintf, malloc
 * and the device runtime itself), while an .extern variable nobody defines is an error, as
 * are two .visible definitions of one name. Dynamic shared memory (.extern .shared arrays)
 * is per module by nature and is kept as declared.
 *
 * The modules' declarations are moved, not copied, into the result; every module-level
 * symbol reference (operands, vector and call-list elements, initialiser relocations) is
 * renumbered, and so are source-file numbers, so diagnostics still name the right file.
 */
#include "ir.h"
#include "names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINK_FUNC = 1, LINK_VAR = 2 };

typedef struct linker {
    ptx_module **mods;
    uint32_t n;
    const char *name;
    char *err;
    size_t errlen;
    /* per module: old index -> index in the result, and whether the declaration itself
     * goes into the result (a definition, or the one declaration kept for a name) */
    int32_t **func_map, **var_map;
    uint8_t **func_own, **var_own;
    /* per module: first .file number of the module in the result */
    uint32_t *file_base;
    /* name -> the chosen definition of a shared (visible or weak) symbol, encoded as
     * module << 20 | index; and name -> the single declaration kept for an unresolved
     * function */
    ptx_name_table defs, undefined;
    ptx_module *out;
} linker;

#define LINK_INDEX_BITS 20u
#define LINK_MAX_INDEX ((1u << LINK_INDEX_BITS) - 1u)

static bool link_fail(linker *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool link_fail(linker *l, const char *fmt, ...) {
    if (l->err && l->errlen) {
        int k = snprintf(l->err, l->errlen, "%s: error: ", l->name);
        va_list ap;
        va_start(ap, fmt);
        if (k >= 0 && (size_t)k < l->errlen) vsnprintf(l->err + k, l->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *mod_name(const linker *l, uint32_t m) {
    return l->mods[m]->source_name ? l->mods[m]->source_name : "<ptx>";
}

static bool func_defined(const ptx_func *f) { return f->ninsns > 0; }
static bool var_defined(const ptx_var *v) { return !v->is_extern; }
static bool shares(bool visible, bool weak) { return visible || weak; }

/* Enter the definitions other modules may bind to; a second strong definition of a name
 * is an error, a weak one gives way to a strong one and to an earlier weak one. */
static bool collect_definitions(linker *l) {
    for (uint32_t m = 0; m < l->n; m++) {
        const ptx_module *mod = l->mods[m];
        if (mod->nfuncs > LINK_MAX_INDEX || mod->nvars > LINK_MAX_INDEX)
            return link_fail(l, "module %s is too large to link", mod_name(l, m));
        for (uint32_t k = 0; k < mod->nfuncs + mod->nvars; k++) {
            bool is_func = k < mod->nfuncs;
            const char *name;
            bool weak;
            if (is_func) {
                const ptx_func *f = &mod->funcs[k];
                if (!func_defined(f) || !shares(f->is_visible, f->is_weak)) continue;
                name = f->name;
                weak = f->is_weak && !f->is_visible;
            } else {
                const ptx_var *v = &mod->vars[k - mod->nfuncs];
                if (!var_defined(v) || !shares(v->is_visible, v->is_weak)) continue;
                if (v->space != PTX_SPACE_GLOBAL && v->space != PTX_SPACE_CONST) continue;
                name = v->name;
                weak = v->is_weak && !v->is_visible;
            }
            uint32_t index = is_func ? k : k - mod->nfuncs;
            ptx_name_entry *e = ptx_names_insert(&l->defs, name, (uint32_t)strlen(name));
            if (!e) return link_fail(l, "out of memory");
            if (e->kind == 0) {
                e->kind = is_func ? LINK_FUNC : LINK_VAR;
                e->value = (int32_t)(m << LINK_INDEX_BITS | index);
                e->depth = weak;
                continue;
            }
            uint32_t other = (uint32_t)e->value >> LINK_INDEX_BITS;
            if (e->kind != (is_func ? LINK_FUNC : LINK_VAR))
                return link_fail(l, "'%s' is a function in one module and a variable in another "
                                 "(%s, %s)", name, mod_name(l, other), mod_name(l, m));
            if (!weak && !e->depth)
                return link_fail(l, "multiple definitions of '%s' (in %s and %s)", name,
                                 mod_name(l, other), mod_name(l, m));
            if (!weak && e->depth) { /* a strong definition overrides the weak one */
                e->value = (int32_t)(m << LINK_INDEX_BITS | index);
                e->depth = 0;
            }
        }
    }
    return true;
}

/* The chosen definition of name as (module, index), or false when there is none of that
 * kind. */
static bool definition_of(const linker *l, const char *name, int kind, uint32_t *m,
                          uint32_t *index) {
    const ptx_name_entry *e = ptx_names_find(&l->defs, name, (uint32_t)strlen(name));
    if (!e || e->kind != kind) return false;
    *m = (uint32_t)e->value >> LINK_INDEX_BITS;
    *index = (uint32_t)e->value & LINK_MAX_INDEX;
    return true;
}

/* Decide where each function and variable of each module goes: its own slot in the
 * result, or the slot of the definition (or single declaration) it binds to. Slots of
 * definitions are assigned first, module by module, so the result lists each module's
 * own declarations in their original order. */
static bool assign_slots(linker *l) {
    uint32_t nfuncs = 0, nvars = 0;
    for (uint32_t m = 0; m < l->n; m++) {
        const ptx_module *mod = l->mods[m];
        l->func_map[m] = malloc((mod->nfuncs + 1) * sizeof **l->func_map);
        l->var_map[m] = malloc((mod->nvars + 1) * sizeof **l->var_map);
        l->func_own[m] = calloc(mod->nfuncs + 1, 1);
        l->var_own[m] = calloc(mod->nvars + 1, 1);
        if (!l->func_map[m] || !l->var_map[m] || !l->func_own[m] || !l->var_own[m])
            return link_fail(l, "out of memory");
        for (uint32_t i = 0; i < mod->nfuncs; i++) {
            const ptx_func *f = &mod->funcs[i];
            uint32_t dm, di;
            bool own = func_defined(f);
            if (own && shares(f->is_visible, f->is_weak) &&
                definition_of(l, f->name, LINK_FUNC, &dm, &di) && (dm != m || di != i))
                own = false; /* a weak duplicate: the chosen definition stands for it */
            l->func_map[m][i] = own ? (int32_t)nfuncs++ : -1;
            l->func_own[m][i] = own;
        }
        for (uint32_t i = 0; i < mod->nvars; i++) {
            const ptx_var *v = &mod->vars[i];
            bool own = var_defined(v) || v->space == PTX_SPACE_SHARED;
            uint32_t dm, di;
            if (own && var_defined(v) && shares(v->is_visible, v->is_weak) &&
                definition_of(l, v->name, LINK_VAR, &dm, &di) && (dm != m || di != i))
                own = false;
            l->var_map[m][i] = own ? (int32_t)nvars++ : -1;
            l->var_own[m][i] = own;
        }
    }
    /* bindings: declarations and dropped duplicates take the slot of their definition */
    for (uint32_t m = 0; m < l->n; m++) {
        const ptx_module *mod = l->mods[m];
        for (uint32_t i = 0; i < mod->nfuncs; i++) {
            if (l->func_map[m][i] >= 0) continue;
            const ptx_func *f = &mod->funcs[i];
            uint32_t dm, di;
            if (definition_of(l, f->name, LINK_FUNC, &dm, &di)) {
                const ptx_func *def = &l->mods[dm]->funcs[di];
                if (def->is_entry != f->is_entry || def->nparams != f->nparams ||
                    def->nrets != f->nrets)
                    return link_fail(l, "'%s' is declared in %s differently from its definition "
                                     "in %s", f->name, mod_name(l, m), mod_name(l, dm));
                l->func_map[m][i] = l->func_map[dm][di];
                continue;
            }
            /* defined by no module: one declaration per name is kept */
            ptx_name_entry *e = ptx_names_insert(&l->undefined, f->name, (uint32_t)strlen(f->name));
            if (!e) return link_fail(l, "out of memory");
            if (e->kind == 0) { /* the first declaration of the name is the one kept */
                e->kind = LINK_FUNC;
                e->value = (int32_t)nfuncs++;
                l->func_own[m][i] = 1;
            }
            l->func_map[m][i] = e->value;
        }
        for (uint32_t i = 0; i < mod->nvars; i++) {
            if (l->var_map[m][i] >= 0) continue;
            const ptx_var *v = &mod->vars[i];
            uint32_t dm, di;
            if (!definition_of(l, v->name, LINK_VAR, &dm, &di))
                return link_fail(l, "undefined device variable '%s' (declared .extern in %s)",
                                 v->name, mod_name(l, m));
            const ptx_var *def = &l->mods[dm]->vars[di];
            if (def->space != v->space)
                return link_fail(l, "'%s' is declared in %s in another state space than its "
                                 "definition in %s", v->name, mod_name(l, m), mod_name(l, dm));
            l->var_map[m][i] = l->var_map[dm][di];
        }
    }
    l->out->nfuncs = nfuncs;
    l->out->nvars = nvars;
    return true;
}

static void remap_symref(const linker *l, uint32_t m, ptx_symref *s) {
    if (s->index < 0) return;
    if (s->scope == PTX_SYM_FUNC) s->index = l->func_map[m][s->index];
    else if (s->scope == PTX_SYM_MODULE_VAR) s->index = l->var_map[m][s->index];
}

static void remap_operand(const linker *l, uint32_t m, ptx_operand *o) {
    if (o->kind == PTX_OPND_SYM || o->kind == PTX_OPND_ADDR) remap_symref(l, m, &o->sym);
}

static uint16_t remap_file(const linker *l, uint32_t m, uint16_t file) {
    return file ? (uint16_t)(file + l->file_base[m]) : 0;
}

static void remap_var(const linker *l, uint32_t m, ptx_var *v) {
    for (uint32_t r = 0; r < v->nrelocs; r++) remap_symref(l, m, &v->relocs[r].sym);
    v->loc.file = remap_file(l, m, v->loc.file);
}

static void remap_func(const linker *l, uint32_t m, ptx_func *f) {
    for (uint32_t i = 0; i < f->ninsns; i++) {
        ptx_insn *in = &f->insns[i];
        for (uint32_t k = 0; k < in->nopnds; k++) remap_operand(l, m, &in->opnd[k]);
        in->loc.file = remap_file(l, m, in->loc.file);
    }
    for (uint32_t i = 0; i < f->nvec_elems; i++) remap_operand(l, m, &f->vec_elems[i]);
    f->loc.file = remap_file(l, m, f->loc.file);
}

/* Move the kept declarations into the result (renumbered) and empty the modules. */
static bool build(linker *l) {
    ptx_module *out = l->out;
    out->funcs = calloc(out->nfuncs + 1, sizeof *out->funcs);
    out->vars = calloc(out->nvars + 1, sizeof *out->vars);
    uint32_t nfiles = 0;
    for (uint32_t m = 0; m < l->n; m++) {
        l->file_base[m] = nfiles;
        nfiles += l->mods[m]->nfiles;
    }
    out->files = calloc(nfiles + 1, sizeof *out->files);
    if (!out->funcs || !out->vars || !out->files) return link_fail(l, "out of memory");
    out->nfiles = nfiles;
    for (uint32_t m = 0; m < l->n; m++) {
        ptx_module *mod = l->mods[m];
        for (uint32_t i = 0; i < mod->nfiles; i++) {
            out->files[l->file_base[m] + i] = mod->files[i];
            mod->files[i] = NULL;
        }
        if (mod->version_major * 10 + mod->version_minor >
            out->version_major * 10 + out->version_minor) {
            out->version_major = mod->version_major;
            out->version_minor = mod->version_minor;
        }
        if (mod->target_sm > out->target_sm) out->target_sm = mod->target_sm;
        for (uint32_t i = 0; i < mod->nfuncs; i++) {
            if (!l->func_own[m][i]) continue;
            remap_func(l, m, &mod->funcs[i]);
            out->funcs[l->func_map[m][i]] = mod->funcs[i];
            memset(&mod->funcs[i], 0, sizeof mod->funcs[i]);
        }
        for (uint32_t i = 0; i < mod->nvars; i++) {
            if (!l->var_own[m][i]) continue;
            remap_var(l, m, &mod->vars[i]);
            out->vars[l->var_map[m][i]] = mod->vars[i];
            memset(&mod->vars[i], 0, sizeof mod->vars[i]);
        }
    }
    return true;
}

static void check_address_size(linker *l, bool *ok) {
    for (uint32_t m = 0; m < l->n && *ok; m++) {
        uint32_t a = l->mods[m]->address_size;
        if (a && l->out->address_size && a != l->out->address_size)
            *ok = link_fail(l, "modules of different .address_size (%u and %u)",
                            l->out->address_size, a);
        if (a) l->out->address_size = a;
    }
}

ptx_module *ptx_link(ptx_module **mods, uint32_t n, const char *name, char *err, size_t errlen) {
    linker l;
    memset(&l, 0, sizeof l);
    l.mods = mods;
    l.n = n;
    l.name = name ? name : "<linked ptx>";
    l.err = err;
    l.errlen = errlen;
    if (err && errlen) err[0] = 0;
    l.out = calloc(1, sizeof *l.out);
    l.func_map = calloc(n + 1, sizeof *l.func_map);
    l.var_map = calloc(n + 1, sizeof *l.var_map);
    l.func_own = calloc(n + 1, sizeof *l.func_own);
    l.var_own = calloc(n + 1, sizeof *l.var_own);
    l.file_base = calloc(n + 1, sizeof *l.file_base);
    bool ok = l.out && l.func_map && l.var_map && l.func_own && l.var_own && l.file_base;
    if (!ok) link_fail(&l, "out of memory");
    if (ok) ok = (l.out->source_name = strdup(l.name)) != NULL;
    if (ok) check_address_size(&l, &ok);
    if (ok) ok = collect_definitions(&l);
    if (ok) ok = assign_slots(&l);
    if (ok) ok = build(&l);
    for (uint32_t m = 0; m < n; m++) {
        if (l.func_map) free(l.func_map[m]);
        if (l.var_map) free(l.var_map[m]);
        if (l.func_own) free(l.func_own[m]);
        if (l.var_own) free(l.var_own[m]);
        ptx_module_free(mods[m]); /* what was moved out is zeroed there */
    }
    free(l.func_map);
    free(l.var_map);
    free(l.func_own);
    free(l.var_own);
    free(l.file_base);
    ptx_names_free(&l.defs);
    ptx_names_free(&l.undefined);
    if (!ok) {
        ptx_module_free(l.out);
        return NULL;
    }
    return l.out;
}
