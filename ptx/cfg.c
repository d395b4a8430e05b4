/* ptx/cfg.c — basic blocks of a function and the reconvergence point of every divergent
 * branch.
 *
 * Algorithm:
 *  1. Leaders: the first instruction, every branch target, and every instruction after a
 *     block-ending one (bra, brx, ret, exit, trap; guarded or not). Each leader starts a
 *     basic block.
 *  2. Edges: a block ending in bra goes to its target (and, when guarded, also falls
 *     through); brx.idx goes to each table target (plus fall-through when guarded);
 *     ret/exit/trap go to a virtual exit node (plus fall-through when guarded); any other
 *     block falls through to the next block, the last one to the exit. A target past the
 *     last instruction is the exit.
 *  3. Blocks that cannot reach the exit (infinite loops) get a virtual edge to the exit
 *     from the highest-numbered such block, one region at a time, so every block has a
 *     post-dominator (the usual treatment of endless loops in post-dominator trees).
 *  4. Immediate post-dominators: dominators of the reversed graph rooted at the exit, by
 *     the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
 *     Algorithm"): number nodes in post-order of a depth-first search from the exit over
 *     reversed edges, then repeat until stable: for each node in reverse post-order,
 *     ipdom = intersection (walking up by post-order number) of its processed successors.
 *  5. A branch with more than one successor (guarded bra, brx, guarded ret/exit/trap) gets
 *     reconv = first instruction of its block's ipdom, or -1 when that is the exit.
 *     Unconditional branches keep -1.
 * Cost: O(instructions + edges) per pass; the iteration converges in a few passes for the
 * reducible graphs compilers emit.
 */
#include "parser_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cfg {
    uint32_t nblocks;      /* real blocks; node nblocks is the exit */
    uint32_t *start;       /* first instruction of each block */
    /* edges in CSR form: successors of b are succ[succ_off[b] .. succ_off[b+1]) */
    uint32_t *succ_off, *succ;
    uint32_t *pred_off, *pred;
    uint32_t *edge_from, *edge_to, nedges, edges_cap;
} cfg;

static bool is_block_end(const ptx_insn *in) {
    return in->op == PTX_OP_bra || in->op == PTX_OP_brx || in->op == PTX_OP_ret || in->op == PTX_OP_exit ||
           in->op == PTX_OP_trap;
}

/* Instruction a label leads to (ninsns = past the end = exit). */
static uint32_t label_target(const ptx_func *f, int32_t label) {
    if (label < 0 || (uint32_t)label >= f->nlabels || f->labels[label].insn < 0) return f->ninsns;
    uint32_t t = (uint32_t)f->labels[label].insn;
    return t > f->ninsns ? f->ninsns : t;
}

static const ptx_operand *bra_target(const ptx_insn *in) {
    for (unsigned k = 0; k < in->nopnds; k++)
        if (in->opnd[k].kind == PTX_OPND_LABEL) return &in->opnd[k];
    return NULL;
}

static const ptx_operand *brx_table(const ptx_insn *in) {
    for (unsigned k = 0; k < in->nopnds; k++)
        if (in->opnd[k].kind == PTX_OPND_LIST) return &in->opnd[k];
    return NULL;
}

static bool add_edge(cfg *g, uint32_t from, uint32_t to) {
    for (uint32_t k = g->nedges; k > 0 && g->edge_from[k - 1] == from; k--)
        if (g->edge_to[k - 1] == to) return true; /* duplicate */
    if (g->nedges == g->edges_cap) {
        uint32_t ncap = g->edges_cap ? g->edges_cap * 2 : 64;
        uint32_t *a = realloc(g->edge_from, ncap * sizeof *a);
        if (!a) return false;
        g->edge_from = a;
        uint32_t *b = realloc(g->edge_to, ncap * sizeof *b);
        if (!b) return false;
        g->edge_to = b;
        g->edges_cap = ncap;
    }
    g->edge_from[g->nedges] = from;
    g->edge_to[g->nedges] = to;
    g->nedges++;
    return true;
}

/* Build both CSR adjacency arrays from the edge list. */
static bool build_csr(cfg *g) {
    uint32_t nn = g->nblocks + 1;
    free(g->succ_off); free(g->succ); free(g->pred_off); free(g->pred);
    g->succ_off = calloc(nn + 1, sizeof *g->succ_off);
    g->pred_off = calloc(nn + 1, sizeof *g->pred_off);
    g->succ = malloc((g->nedges + 1) * sizeof *g->succ);
    g->pred = malloc((g->nedges + 1) * sizeof *g->pred);
    if (!g->succ_off || !g->pred_off || !g->succ || !g->pred) return false;
    for (uint32_t e = 0; e < g->nedges; e++) {
        g->succ_off[g->edge_from[e] + 1]++;
        g->pred_off[g->edge_to[e] + 1]++;
    }
    for (uint32_t b = 0; b < nn; b++) {
        g->succ_off[b + 1] += g->succ_off[b];
        g->pred_off[b + 1] += g->pred_off[b];
    }
    uint32_t *sfill = calloc(nn, sizeof *sfill), *pfill = calloc(nn, sizeof *pfill);
    if (!sfill || !pfill) {
        free(sfill);
        free(pfill);
        return false;
    }
    for (uint32_t e = 0; e < g->nedges; e++) {
        uint32_t a = g->edge_from[e], b = g->edge_to[e];
        g->succ[g->succ_off[a] + sfill[a]++] = b;
        g->pred[g->pred_off[b] + pfill[b]++] = a;
    }
    free(sfill);
    free(pfill);
    return true;
}

/* Depth-first search from root over reversed edges (to predecessors), skipping nodes
 * already seen; appends nodes to order[] in post-order. stack holds pairs (node, next). */
static void reverse_dfs(const cfg *g, uint32_t root, uint8_t *seen, uint32_t *stack, uint32_t *order,
                        uint32_t *norder) {
    uint32_t sp = 0;
    seen[root] = 1;
    stack[sp++] = root;
    stack[sp++] = g->pred_off[root];
    while (sp) {
        uint32_t node = stack[sp - 2], next = stack[sp - 1];
        if (next < g->pred_off[node + 1]) {
            stack[sp - 1] = next + 1;
            uint32_t q = g->pred[next];
            if (!seen[q]) {
                seen[q] = 1;
                stack[sp++] = q;
                stack[sp++] = g->pred_off[q];
            }
        } else {
            sp -= 2;
            if (order) order[(*norder)++] = node;
        }
    }
}

static void cfg_free(cfg *g) {
    free(g->start);
    free(g->succ_off); free(g->succ); free(g->pred_off); free(g->pred);
    free(g->edge_from); free(g->edge_to);
}

bool ptx_cfg_build(ptx_func *f, char *err, size_t errlen) {
    uint32_t n = f->ninsns;
    for (uint32_t i = 0; i < n; i++) f->insns[i].reconv = -1;
    if (n == 0) return true;

    cfg g = {0};
    uint8_t *leader = calloc(n + 1, 1);
    uint32_t *block_of = malloc((size_t)(n + 1) * sizeof *block_of);
    uint8_t *seen = NULL;
    uint32_t *stack = NULL, *order = NULL, *po_num = NULL, *ipdom = NULL;
    bool ok = false;
    if (!leader || !block_of) goto out;

    /* 1. leaders */
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ptx_insn *in = &f->insns[i];
        if (!is_block_end(in)) continue;
        leader[i + 1] = 1;
        if (in->op == PTX_OP_bra) {
            const ptx_operand *t = bra_target(in);
            if (t) leader[label_target(f, t->label)] = 1;
        } else if (in->op == PTX_OP_brx) {
            const ptx_operand *tab = brx_table(in);
            for (uint32_t k = 0; tab && k < tab->vec_n; k++)
                leader[label_target(f, f->vec_elems[tab->vec_first + k].label)] = 1;
        }
    }
    for (uint32_t i = 0; i < n; i++) g.nblocks += leader[i];
    g.start = malloc(g.nblocks * sizeof *g.start);
    if (!g.start) goto out;
    for (uint32_t i = 0, b = 0; i < n; i++) {
        if (leader[i]) g.start[b++] = i;
        block_of[i] = b - 1;
    }
    const uint32_t exit_node = g.nblocks;
    block_of[n] = exit_node;

    /* 2. edges */
    for (uint32_t b = 0; b < g.nblocks; b++) {
        uint32_t last = (b + 1 < g.nblocks ? g.start[b + 1] : n) - 1;
        const ptx_insn *in = &f->insns[last];
        bool guarded = in->guard >= 0;
        bool falls = true;
        if (in->op == PTX_OP_bra) {
            const ptx_operand *t = bra_target(in);
            if (t && !add_edge(&g, b, block_of[label_target(f, t->label)])) goto out;
            falls = guarded;
        } else if (in->op == PTX_OP_brx) {
            const ptx_operand *tab = brx_table(in);
            for (uint32_t k = 0; tab && k < tab->vec_n; k++)
                if (!add_edge(&g, b, block_of[label_target(f, f->vec_elems[tab->vec_first + k].label)])) goto out;
            falls = guarded;
        } else if (in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap) {
            if (!add_edge(&g, b, exit_node)) goto out;
            falls = guarded;
        }
        if (falls && !add_edge(&g, b, block_of[last + 1])) goto out;
    }
    if (!build_csr(&g)) goto out;

    /* 3. endless loops: tie each region that cannot reach the exit to it */
    uint32_t nn = g.nblocks + 1;
    seen = calloc(nn, 1);
    stack = malloc((size_t)2 * (nn + 1) * sizeof *stack);
    order = malloc(nn * sizeof *order);
    po_num = malloc(nn * sizeof *po_num);
    ipdom = malloc(nn * sizeof *ipdom);
    if (!seen || !stack || !order || !po_num || !ipdom) goto out;
    reverse_dfs(&g, exit_node, seen, stack, NULL, NULL);
    bool added = false;
    for (uint32_t b = g.nblocks; b-- > 0;) {
        if (seen[b]) continue;
        if (!add_edge(&g, b, exit_node)) goto out;
        added = true;
        reverse_dfs(&g, b, seen, stack, NULL, NULL);
    }
    if (added && !build_csr(&g)) goto out;

    /* 4. immediate post-dominators */
    memset(seen, 0, nn);
    uint32_t norder = 0;
    reverse_dfs(&g, exit_node, seen, stack, order, &norder);
    const uint32_t undef = UINT32_MAX;
    for (uint32_t k = 0; k < nn; k++) ipdom[k] = undef;
    for (uint32_t k = 0; k < norder; k++) po_num[order[k]] = k;
    ipdom[exit_node] = exit_node;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = norder - 1; k-- > 0;) { /* reverse post-order, exit (last) excluded */
            uint32_t b = order[k], best = undef;
            for (uint32_t e = g.succ_off[b]; e < g.succ_off[b + 1]; e++) {
                uint32_t s = g.succ[e];
                if (ipdom[s] == undef) continue;
                if (best == undef) {
                    best = s;
                    continue;
                }
                uint32_t x = s, y = best;
                while (x != y) {
                    while (po_num[x] < po_num[y]) x = ipdom[x];
                    while (po_num[y] < po_num[x]) y = ipdom[y];
                }
                best = x;
            }
            if (best != undef && ipdom[b] != best) {
                ipdom[b] = best;
                changed = true;
            }
        }
    }

    /* 5. reconvergence points */
    for (uint32_t b = 0; b < g.nblocks; b++) {
        uint32_t nsucc = g.succ_off[b + 1] - g.succ_off[b];
        uint32_t last = (b + 1 < g.nblocks ? g.start[b + 1] : n) - 1;
        ptx_insn *in = &f->insns[last];
        if (!is_block_end(in) || nsucc < 2) continue;
        uint32_t d = ipdom[b];
        in->reconv = (d == undef || d == exit_node) ? -1 : (int32_t)g.start[d];
    }
    ok = true;
out:
    if (!ok && err && errlen) snprintf(err, errlen, "out of memory building the control-flow graph of '%s'", f->name);
    free(leader);
    free(block_of);
    free(seen);
    free(stack);
    free(order);
    free(po_num);
    free(ipdom);
    cfg_free(&g);
    return ok;
}
