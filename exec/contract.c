/* exec/contract.c — floating-point mul and add/sub contracted into fma, as ptxas does it.
 *
 * The PTX ISA lets the assembler fuse a mul and an add or sub that carry no rounding
 * modifier into one multiply-add ("mul/add sequences with no rounding modifiers may be
 * optimized to use fused-multiply-add instructions on the target device"), and nvcc's
 * default -fmad=true leaves many such pairs in its PTX for ptxas to fuse. ptxas does, so a
 * GPU rounds a*b + c once where the PTX spells two roundings. To print what the GPU
 * prints, the decoder fuses the same pairs: the add or sub becomes fma.rn of the mul's
 * operands (a neg of one operand put in front where the product or the addend is
 * negated; negation is exact); the mul itself stays, so every other reader of its
 * register still sees the rounded product.
 *
 * The rule, read from the SASS that ptxas (CUDA 13.0, -arch=sm_90) makes of hand-written
 * PTX (tests/ptx/exec/contract.ptx, what the SASS showed in contract_sass.txt beside it):
 *
 *   Not at all in a module whose target says debug (nvcc -G): ptxas assembles those at
 *   -O0, which fuses nothing (and neither does ptxas -O0 on any PTX).
 *   Products. mul.T with T f16, f16x2, bf16, bf16x2, f32 or f64, no rounding modifier, no
 *   .sat, not guarded (.ftz allowed). Also div.approx.f32 (.ftz allowed; __fdividef, and
 *   a / b under -use_fast_math), which ptxas makes a * rcp(b): MUFU.RCP and a product that
 *   fuses like a mul's (tests/cuda/conformance/fdivide_contract.cu; the SASS showed
 *   FFMA R, rcp, a, -c for __fdividef(a, b) - c). The fused add reads a and a hidden
 *   rcp.approx of b. Two things of the SASS this does not follow: a divisor that is a
 *   constant is folded by ptxas into the reciprocal correctly rounded (RN(1/b)), and a
 *   denormal divisor's operands are scaled by 2^24 before the product, where the hidden
 *   rcp.approx scales inside the reciprocal (only a quotient whose reciprocal is near
 *   FLT_MAX can differ).
 *   Uses. The reads of its register up to the next write of it, within its basic block
 *   (a block ends at a label and after bra, brx, call, ret, exit and trap; bar.sync does
 *   not end one). An unguarded neg.T or mov.T of the product passes it on: that
 *   instruction's own uses are the product's (neg flipping its sign). A product still
 *   read after its block, or rewritten by a guarded instruction, has a use that cannot
 *   fuse.
 *   A use can fuse when it is add.T or sub.T with no rounding modifier and the mul's
 *   .ftz or lack of it (.sat is fine: it becomes fma's), reading the product in one
 *   operand only (p + p stays a mul and an add). A product is eligible when every use
 *   can fuse; a product with any other use (a store, a compare, another mul, an fma's
 *   addend, abs, a use in another block) is fused nowhere.
 *   Which product an add takes, when both operands are eligible products:
 *     1. first, each add in program order that reads an eligible product with a single
 *        use takes it (the first operand when both are such);
 *     2. then each add not yet fused, in program order, takes the one of its eligible
 *        products not yet pinned that has fewer uses (the first operand on a tie).
 *   The other product of an add that took one is pinned: it is needed as a value there,
 *   so the adds after that one (in either pass) leave it unfused; adds that took it
 *   earlier keep it.
 *
 * Two things ptxas does that this does not follow: it works on values, so it fuses a
 * product even when one of the mul's source registers is written again before the add
 * (the PTX nvcc writes does not do that; vcuda leaves such a pair apart, the add would
 * read the new value); and it unrolls loops of a constant trip count first, so a product
 * made before such a loop is fused into the adds of its body, which the PTX puts in
 * another block (nvcc's own unroller usually leaves no such loop).
 */
#include "core.h"
#include "contract.h"

#include <stdlib.h>
#include <string.h>

/* A use of a product: add/sub insn, which operand (1 or 2) reads it, and whether the
 * value read is the product negated (through neg). */
typedef struct use {
    uint32_t insn;
    uint8_t opnd;
    bool neg;
} use;

typedef struct product {
    uint32_t insn;      /* the mul */
    use *uses;
    uint32_t nuses, cap;
    bool eligible;
    bool pinned;
} product;

typedef struct cstate {
    const ptx_func *pf;
    uint32_t *block;    /* basic block number of each instruction */
    bool *exposed;      /* per register: read somewhere before any write of it in the
                         * read's block (so a value may reach it from another block) */
    int32_t *prod_of;   /* per instruction: index of the product a mul defines, or -1 */
    product *prods;
    uint32_t nprods;
} cstate;

static bool is_fp_type(unsigned t) {
    return t == PTX_T_f16 || t == PTX_T_f16x2 || t == PTX_T_bf16 || t == PTX_T_bf16x2 ||
           t == PTX_T_f32 || t == PTX_T_f64;
}

/* Do pi's modifiers all appear in allowed (n entries)? */
static bool mods_within(const ptx_insn *pi, const uint8_t *allowed, unsigned n) {
    for (unsigned i = 0; i < pi->nmods; i++) {
        bool ok = false;
        for (unsigned k = 0; k < n; k++) ok |= pi->mods[i] == allowed[k];
        if (!ok) return false;
    }
    return true;
}

static const uint8_t mul_mods[] = {PTX_MOD_ftz};
static const uint8_t add_mods[] = {PTX_MOD_ftz, PTX_MOD_sat};

static bool plain_reg(const ptx_operand *o) { return o->kind == PTX_OPND_REG && o->reg2 < 0; }

static const uint8_t div_approx_mods[] = {PTX_MOD_approx, PTX_MOD_ftz};

/* div.approx.f32: a * rcp(b) to ptxas, a product like a mul's */
static bool is_div_product(const ptx_insn *pi) {
    return pi->op == PTX_OP_div && pi->ntypes == 1 && pi->types[0] == PTX_T_f32 &&
           ptx_insn_has_mod(pi, PTX_MOD_approx) && mods_within(pi, div_approx_mods, 2);
}

static bool is_product(const ptx_insn *pi) {
    return (pi->op == PTX_OP_mul || is_div_product(pi)) && pi->ntypes == 1 &&
           is_fp_type(pi->types[0]) && pi->guard < 0 && pi->nopnds == 3 &&
           plain_reg(&pi->opnd[0]) &&
           (pi->op == PTX_OP_div || mods_within(pi, mul_mods, 1));
}

/* add.T / sub.T that may take a product of a mul like mul_pi. */
static bool is_fusable_add(const ptx_insn *pi, const ptx_insn *mul_pi) {
    return (pi->op == PTX_OP_add || pi->op == PTX_OP_sub) && pi->ntypes == 1 &&
           pi->types[0] == mul_pi->types[0] && pi->nopnds == 3 && plain_reg(&pi->opnd[0]) &&
           mods_within(pi, add_mods, 2) &&
           ptx_insn_has_mod(pi, PTX_MOD_ftz) == ptx_insn_has_mod(mul_pi, PTX_MOD_ftz);
}

/* An unguarded neg.T or mov.T (or mov.bN of T's size) of one register: passes a value on.
 * *negates says which. */
static bool is_pass_through(const ptx_insn *pi, unsigned t, bool *negates) {
    if (pi->guard >= 0 || pi->ntypes != 1 || pi->nopnds != 2 || !plain_reg(&pi->opnd[0]) ||
        !plain_reg(&pi->opnd[1]))
        return false;
    unsigned pt = pi->types[0];
    if (pi->op == PTX_OP_neg && pt == t && mods_within(pi, mul_mods, 1)) {
        *negates = true;
        return true;
    }
    if (pi->op == PTX_OP_mov && pi->nmods == 0 &&
        (pt == t || (ptx_type_kinds[pt] == 'b' && ptx_type_sizes[pt] == ptx_type_sizes[t]))) {
        *negates = false;
        return true;
    }
    return false;
}

/* Calls fn(ctx, reg) for each register operand o names (vector elements, the second
 * register of "p|q", an address's base). */
static void each_reg(const ptx_func *pf, const ptx_operand *o, void (*fn)(void *, int32_t),
                     void *ctx) {
    uint32_t n = 1;
    if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST) n = o->vec_n;
    for (uint32_t k = 0; k < n; k++) {
        const ptx_operand *e = o;
        if (o->kind == PTX_OPND_VEC || o->kind == PTX_OPND_LIST) e = &pf->vec_elems[o->vec_first + k];
        if ((e->kind == PTX_OPND_REG || e->kind == PTX_OPND_ADDR) && e->reg >= 0) fn(ctx, e->reg);
        if ((e->kind == PTX_OPND_REG || e->kind == PTX_OPND_SINK) && e->reg2 >= 0) fn(ctx, e->reg2);
    }
}

/* Operand 0 is a destination unless the opcode says otherwise or it is an address. */
static bool first_is_dst(const ptx_insn *pi) {
    return pi->nopnds > 0 && !(ptx_opcode_flags[pi->op] & PTX_OPF_NODST) &&
           pi->opnd[0].kind != PTX_OPND_ADDR;
}

typedef struct reg_query {
    int32_t reg;
    bool hit;
} reg_query;

static void hit_if(void *ctx, int32_t r) {
    reg_query *q = ctx;
    q->hit |= r == q->reg;
}

/* Does pi read (write) register r? Writes are taken broadly (operand 0 of anything with
 * a destination): a wrong "yes" only keeps a pair apart. */
static bool reads_reg(const ptx_func *pf, const ptx_insn *pi, int32_t r) {
    reg_query q = {r, false};
    for (unsigned i = first_is_dst(pi) ? 1 : 0; i < pi->nopnds; i++) each_reg(pf, &pi->opnd[i], hit_if, &q);
    return q.hit;
}

static bool writes_reg(const ptx_func *pf, const ptx_insn *pi, int32_t r) {
    if (!first_is_dst(pi)) return false;
    reg_query q = {r, false};
    each_reg(pf, &pi->opnd[0], hit_if, &q);
    return q.hit;
}

/* The registers a block has written so far (unguarded writes), by block stamp. */
typedef struct exposure {
    uint32_t *written;  /* per register: 1 + the block that last wrote it */
    bool *exposed;
    uint32_t stamp;
} exposure;

static void note_read(void *ctx, int32_t r) {
    exposure *e = ctx;
    if (e->written[r] != e->stamp) e->exposed[r] = true;
}

static void note_write(void *ctx, int32_t r) {
    exposure *e = ctx;
    e->written[r] = e->stamp;
}

static bool ends_block(const ptx_insn *pi) {
    return (ptx_opcode_flags[pi->op] & PTX_OPF_BRANCH) != 0;
}

static void add_use(product *p, uint32_t insn, uint8_t opnd, bool neg) {
    if (p->nuses == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 4;
        p->uses = realloc(p->uses, p->cap * sizeof *p->uses);
        if (!p->uses) abort(); /* out of host memory while loading */
    }
    p->uses[p->nuses++] = (use){insn, opnd, neg};
}

/* Is any of the mul's source registers written strictly between the mul and insn j? */
static bool sources_rewritten(const cstate *s, const ptx_insn *mul, uint32_t from, uint32_t j) {
    for (uint32_t k = from + 1; k < j; k++)
        for (unsigned o = 1; o <= 2; o++)
            if (mul->opnd[o].kind == PTX_OPND_REG &&
                writes_reg(s->pf, &s->pf->insns[k], mul->opnd[o].reg))
                return true;
    return false;
}

/* Follow the value of register reg defined at instruction def (the product, or a neg/mov
 * of it, neg saying whether it is the product negated) to its uses. Returns false when a
 * use cannot fuse. depth bounds chains of neg/mov. */
static bool follow(cstate *s, product *p, int32_t reg, uint32_t def, bool neg, unsigned depth) {
    const ptx_func *pf = s->pf;
    const ptx_insn *mul = &pf->insns[p->insn];
    bool killed = false;
    for (uint32_t j = def + 1; j < pf->ninsns && s->block[j] == s->block[def] && !killed; j++) {
        const ptx_insn *pi = &pf->insns[j];
        if (reads_reg(pf, pi, reg)) {
            bool negates;
            if (is_fusable_add(pi, mul)) {
                bool in1 = plain_reg(&pi->opnd[1]) && pi->opnd[1].reg == reg;
                bool in2 = plain_reg(&pi->opnd[2]) && pi->opnd[2].reg == reg;
                if (in1 == in2) return false; /* p + p, or read some other way */
                uint8_t k = in1 ? 1 : 2;
                const ptx_operand *other = &pi->opnd[3 - k];
                /* the other operand made of the same product: not fused */
                if (other->kind == PTX_OPND_REG) {
                    if (other->reg == mul->opnd[0].reg) return false;
                    for (uint32_t u = 0; u < p->nuses; u++)
                        if (p->uses[u].insn == j) return false;
                }
                if (sources_rewritten(s, mul, p->insn, j)) return false;
                add_use(p, j, k, neg);
            } else if (depth < 8 && is_pass_through(pi, mul->types[0], &negates) &&
                       pi->opnd[1].reg == reg) {
                if (!follow(s, p, pi->opnd[0].reg, j, neg != negates, depth + 1)) return false;
            } else {
                return false;
            }
        }
        if (writes_reg(pf, pi, reg)) {
            if (pi->guard >= 0) return false;
            killed = true;
        }
    }
    /* still live at the end of its block: read after it */
    return killed || !s->exposed[reg];
}

static const use *use_at(const product *q, uint32_t j) {
    for (uint32_t u = 0; u < q->nuses; u++)
        if (q->uses[u].insn == j) return &q->uses[u];
    return NULL;
}

/* The eligible products add j reads, in operand order (up to two). */
static unsigned products_of_add(const cstate *s, uint32_t j, product **out) {
    product *a = NULL, *b = NULL;
    for (uint32_t i = 0; i < s->nprods; i++) {
        product *p = &s->prods[i];
        if (!p->eligible) continue;
        const use *u = use_at(p, j);
        if (!u) continue;
        if (u->opnd == 1) a = p;
        else b = p;
    }
    unsigned n = 0;
    if (a) out[n++] = a;
    if (b) out[n++] = b;
    return n;
}

static void take(cstate *s, exec_contract *c, uint32_t j, product *p, product *other) {
    const use *u = use_at(p, j);
    c->mul_of[j] = (int32_t)p->insn;
    bool is_sub = s->pf->insns[j].op == PTX_OP_sub;
    /* add: ±p + o; sub: ±p - o (p first) or o - ±p (p second) */
    bool neg_p = u->neg != (is_sub && u->opnd == 2);
    bool neg_o = is_sub && u->opnd == 1;
    c->how[j] = (uint8_t)((neg_p ? EXEC_CONTRACT_NEG_PRODUCT : 0) |
                          (neg_o ? EXEC_CONTRACT_NEG_ADDEND : 0) |
                          (u->opnd == 1 ? EXEC_CONTRACT_ADDEND_2 : EXEC_CONTRACT_ADDEND_1));
    if (other) other->pinned = true;
}

bool exec_contract_plan(const ptx_func *pf, exec_contract *c) {
    memset(c, 0, sizeof *c);
    uint32_t n = pf->ninsns;
    bool any = false;
    for (uint32_t i = 0; i < n && !any; i++) any = is_product(&pf->insns[i]);
    if (!any) return false;

    cstate s = {pf, calloc(n + 1, sizeof(uint32_t)), calloc(pf->nregs + 1, 1),
                NULL, calloc(n, sizeof(product)), 0};
    bool *label_at = calloc(n + 1, 1);
    exposure e = {calloc(pf->nregs + 1, sizeof(uint32_t)), s.exposed, 0};
    if (!s.block || !s.exposed || !s.prods || !label_at || !e.written) abort();
    for (uint32_t l = 0; l < pf->nlabels; l++)
        if (pf->labels[l].insn >= 0 && (uint32_t)pf->labels[l].insn <= n) label_at[pf->labels[l].insn] = true;
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *pi = &pf->insns[i];
        if (i > 0 && (label_at[i] || ends_block(&pf->insns[i - 1]))) b++;
        s.block[i] = b;
        e.stamp = b + 1;
        for (unsigned o = first_is_dst(pi) ? 1 : 0; o < pi->nopnds; o++)
            each_reg(pf, &pi->opnd[o], note_read, &e);
        if (first_is_dst(pi) && pi->guard < 0) each_reg(pf, &pi->opnd[0], note_write, &e);
    }
    free(label_at);
    free(e.written);

    for (uint32_t i = 0; i < n; i++) {
        if (!is_product(&pf->insns[i])) continue;
        product *p = &s.prods[s.nprods++];
        p->insn = i;
        p->eligible = follow(&s, p, pf->insns[i].opnd[0].reg, i, false, 0) && p->nuses > 0;
    }

    c->mul_of = malloc(n * sizeof *c->mul_of);
    c->how = calloc(n, 1);
    if (!c->mul_of || !c->how) abort();
    for (uint32_t i = 0; i < n; i++) c->mul_of[i] = -1;

    product *ops[2];
    /* 1: single-use products take their add */
    for (uint32_t j = 0; j < n; j++) {
        unsigned k = products_of_add(&s, j, ops);
        for (unsigned t = 0; t < k; t++) {
            if (ops[t]->nuses != 1) continue;
            take(&s, c, j, ops[t], k == 2 ? ops[1 - t] : NULL);
            c->count++;
            break;
        }
    }
    /* 2: the rest, in program order: the unpinned product with fewer uses */
    for (uint32_t j = 0; j < n; j++) {
        if (c->mul_of[j] >= 0) continue;
        unsigned k = products_of_add(&s, j, ops);
        product *best = NULL, *other = NULL;
        for (unsigned t = 0; t < k; t++) {
            if (ops[t]->pinned) continue;
            if (!best || ops[t]->nuses < best->nuses) best = ops[t];
        }
        if (!best) continue;
        for (unsigned t = 0; t < k; t++)
            if (ops[t] != best) other = ops[t];
        take(&s, c, j, best, other);
        c->count++;
    }

    for (uint32_t i = 0; i < s.nprods; i++) free(s.prods[i].uses);
    free(s.prods);
    free(s.block);
    free(s.exposed);
    if (!c->count) {
        exec_contract_free(c);
        return false;
    }
    return true;
}

void exec_contract_free(exec_contract *c) {
    free(c->mul_of);
    free(c->how);
    memset(c, 0, sizeof *c);
}

/* Emit op.T (neg, or rcp with the modifiers mods) of operand o of pi into a scratch slot
 * (an inserted instruction, hidden from observers); *slot gets the scratch slot. */
static bool emit_unary(exec_decoder *d, const ptx_insn *pi, unsigned op, const uint8_t *mods,
                       unsigned nmods, const ptx_operand *o, unsigned t, uint32_t *slot) {
    ptx_insn un;
    memset(&un, 0, sizeof un);
    un.op = (uint16_t)op;
    un.ntypes = 1;
    un.types[0] = (uint8_t)t;
    for (unsigned i = 0; i < nmods; i++) un.mods[un.nmods++] = mods[i];
    un.guard = -1;
    un.reconv = -1;
    un.nopnds = 2;
    un.opnd[0] = pi->opnd[0]; /* replaced by the scratch slot below */
    un.opnd[1] = *o;
    un.loc = pi->loc;
    exec_insn out;
    memset(&out, 0, sizeof out);
    out.guard = -1;
    out.reconv = -1;
    out.vec = 1;
    if (exec_decode_alu(d, &un, &out) != 1) return false;
    *slot = exec_dec_scratch(d);
    out.d[0] = *slot;
    out.op = (uint16_t)op;
    out.src = pi;
    out.obs = EXEC_OBS_K_HIDDEN;
    exec_dec_emit(d, &out);
    return true;
}

static bool emit_neg(exec_decoder *d, const ptx_insn *pi, const ptx_operand *o, unsigned t,
                     uint32_t *slot) {
    return emit_unary(d, pi, PTX_OP_neg, NULL, 0, o, t, slot);
}

int exec_contract_decode(exec_decoder *d, const exec_contract *c, uint32_t j, ptx_insn *as,
                         exec_insn *out) {
    const ptx_func *pf = d->pf;
    const ptx_insn *add = &pf->insns[j];
    const ptx_insn *mul = &pf->insns[c->mul_of[j]];
    uint8_t how = c->how[j];
    const ptx_operand *addend = &add->opnd[how & EXEC_CONTRACT_ADDEND_1 ? 1 : 2];
    unsigned t = add->types[0];

    memset(as, 0, sizeof *as);
    as->op = PTX_OP_fma;
    as->ntypes = 1;
    as->types[0] = (uint8_t)t;
    as->mods[as->nmods++] = PTX_MOD_rn;
    if (ptx_insn_has_mod(add, PTX_MOD_ftz)) as->mods[as->nmods++] = PTX_MOD_ftz;
    if (ptx_insn_has_mod(add, PTX_MOD_sat)) as->mods[as->nmods++] = PTX_MOD_sat;
    as->guard = add->guard;
    as->guard_neg = add->guard_neg;
    as->reconv = -1;
    as->loc = add->loc;
    as->nopnds = 4;
    as->opnd[0] = add->opnd[0];
    as->opnd[1] = mul->opnd[1];
    as->opnd[2] = mul->opnd[2];
    as->opnd[3] = *addend;

    uint32_t neg_a = 0, neg_c = 0, rcp_b = 0;
    bool div = mul->op == PTX_OP_div;
    if (div) {
        uint8_t mods[2] = {PTX_MOD_approx, PTX_MOD_ftz};
        unsigned nmods = ptx_insn_has_mod(mul, PTX_MOD_ftz) ? 2 : 1;
        if (!emit_unary(d, add, PTX_OP_rcp, mods, nmods, &mul->opnd[2], t, &rcp_b)) return -1;
    }
    if ((how & EXEC_CONTRACT_NEG_PRODUCT) && !emit_neg(d, add, &mul->opnd[1], t, &neg_a)) return -1;
    if ((how & EXEC_CONTRACT_NEG_ADDEND) && !emit_neg(d, add, addend, t, &neg_c)) return -1;
    int r = exec_decode_alu(d, as, out);
    if (r != 1) return r == 0 ? -1 : r;
    if (div) out->a[1] = rcp_b;
    if (how & EXEC_CONTRACT_NEG_PRODUCT) out->a[0] = neg_a;
    if (how & EXEC_CONTRACT_NEG_ADDEND) out->a[2] = neg_c;
    return 1;
}
