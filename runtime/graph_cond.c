/* runtime/graph_cond.c — conditional graph nodes (if, while, switch) and their handles,
 * and child graph nodes (a body that always runs once).
 *
 * A handle (cudaGraphConditionalHandleCreate) is the device address of a 32-bit word, the
 * condition, entered in the device's allocation table so that device code sets it with
 * cudaGraphSetConditional (an executor builtin that stores the value there, exec/devrt.c).
 * With cudaGraphCondAssignDefault the word takes its default value as each launch of the
 * graph begins (the launch's first operation); otherwise it keeps what it was last set to.
 *
 * A conditional node's body graphs are instantiated with it, each as its operations in
 * dependency order; when the launch reaches the node, the engine thread that runs it
 * reads the condition and runs the chosen body's operations one after the other — again
 * while the condition stays non-zero, for a while node — and the node completes after
 * them. Bodies hold kernels, copies, sets, empty nodes, conditionals and child graphs, and
 * a child graph also host nodes (run on that thread) and memory nodes (as in graph_nodes.c).
 */
#include "graph_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_cond_handle {
    uint32_t word;              /* the condition (its address is the handle) */
    uint32_t def;
    bool assign_default;
    const rt_graph *graph;
    struct rt_cond_handle *next;
} rt_cond_handle;

/* The handles made so far; they live until the device is reset. */
static pthread_mutex_t rt_cond_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_cond_handle *rt_cond_handles;

typedef struct rt_cond_body {
    rt_op **ops;                /* in dependency order */
    size_t nops;
} rt_cond_body;

typedef struct rt_cond_exec {
    uint32_t *word;
    enum cudaGraphConditionalNodeType type;
    unsigned size;
    rt_cond_body *bodies;
} rt_cond_exec;

RT_API cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                    cudaGraph_t graph,
                                                    unsigned int defaultLaunchValue,
                                                    unsigned int flags) {
    rt_context *c = rt_ctx();
    cudaError_t e = rt_enter(c);
    if (e) return e;
    if (!pHandle_out || (flags & ~(unsigned)cudaGraphCondAssignDefault))
        return rt_record(cudaErrorInvalidValue);
    pthread_mutex_lock(&c->engine_lock);
    rt_graph *g = graph ? rt_ptrmap_get(&c->graphs, graph) : NULL;
    pthread_mutex_unlock(&c->engine_lock);
    if (!g) return rt_record(cudaErrorInvalidValue);
    rt_cond_handle *h = calloc(1, sizeof *h);
    if (!h) return rt_record(cudaErrorMemoryAllocation);
    h->word = h->def = defaultLaunchValue;
    h->assign_default = flags & cudaGraphCondAssignDefault;
    h->graph = g;
    pthread_mutex_lock(&c->lock);
    bool ok = mem_table_add(c->mem, (uint64_t)(uintptr_t)&h->word,
                            sizeof h->word, MEM_KIND_INTERNAL, 0);
    pthread_mutex_unlock(&c->lock);
    if (!ok) {
        free(h);
        return rt_record(cudaErrorMemoryAllocation);
    }
    pthread_mutex_lock(&rt_cond_lock);
    h->next = rt_cond_handles;
    rt_cond_handles = h;
    pthread_mutex_unlock(&rt_cond_lock);
    *pHandle_out = (cudaGraphConditionalHandle)(uintptr_t)&h->word;
    return cudaSuccess;
}

/* The handle whose condition is at value (rt_cond_lock held), or NULL. */
static rt_cond_handle *rt_cond_find(cudaGraphConditionalHandle value) {
    for (rt_cond_handle *h = rt_cond_handles; h; h = h->next)
        if ((cudaGraphConditionalHandle)(uintptr_t)&h->word == value) return h;
    return NULL;
}

bool rt_graph_cond_handle_ok(cudaGraphConditionalHandle handle) {
    pthread_mutex_lock(&rt_cond_lock);
    bool ok = rt_cond_find(handle) != NULL;
    pthread_mutex_unlock(&rt_cond_lock);
    return ok;
}

/* ---- instantiation ---- */

/* A body graph's operations in dependency order (Kahn, by index among the ready). */
static cudaError_t rt_cond_body_build(rt_context *c, rt_graph_exec *x, const rt_graph *g,
                                      rt_cond_body *b) {
    size_t n = g->nnodes;
    size_t *waiting = calloc(n ? n : 1, sizeof *waiting);
    bool *placed = calloc(n ? n : 1, sizeof *placed);
    b->ops = calloc(n ? n : 1, sizeof *b->ops);
    cudaError_t e = waiting && placed && b->ops ? cudaSuccess : cudaErrorMemoryAllocation;
    for (size_t i = 0; !e && i < n; i++) waiting[i] = g->nodes[i]->ndeps;
    while (!e && b->nops < n) {
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++)
            if (!placed[i] && waiting[i] == 0) pick = i;
        if (pick == n) {
            e = cudaErrorInvalidValue; /* a cycle */
            break;
        }
        placed[pick] = true;
        const rt_graph_node *node = g->nodes[pick];
        switch (node->type) {
        case cudaGraphNodeTypeKernel: case cudaGraphNodeTypeMemcpy:
        case cudaGraphNodeTypeMemset: case cudaGraphNodeTypeEmpty:
        case cudaGraphNodeTypeConditional: case cudaGraphNodeTypeGraph:
        case cudaGraphNodeTypeHost: case cudaGraphNodeTypeMemAlloc:
        case cudaGraphNodeTypeMemFree:
            break;
        default:
            fprintf(stderr, "vcuda: a conditional node's body may not hold a node of type %d\n",
                    (int)node->type);
            e = cudaErrorNotSupported;
            break;
        }
        if (e) break;
        rt_op *op = node->type == cudaGraphNodeTypeConditional ? rt_graph_cond_op(c, x, node)
                    : node->type == cudaGraphNodeTypeGraph     ? rt_graph_child_op(c, x, node)
                                                                : rt_op_clone(node->op);
        if (!op) {
            e = cudaErrorMemoryAllocation;
            break;
        }
        b->ops[b->nops++] = op;
        for (size_t j = 0; j < n; j++)
            for (size_t d = 0; d < g->nodes[j]->ndeps; d++)
                if (g->nodes[j]->deps[d] == node) waiting[j]--;
    }
    free(waiting);
    free(placed);
    return e;
}

static void rt_cond_exec_free(rt_cond_exec *ce) {
    if (!ce) return;
    for (unsigned i = 0; ce->bodies && i < ce->size; i++) {
        for (size_t k = 0; k < ce->bodies[i].nops; k++) rt_op_free(ce->bodies[i].ops[k]);
        free(ce->bodies[i].ops);
    }
    free(ce->bodies);
    free(ce);
}

/* The condition of a child graph node: its body always runs, once. */
static uint32_t rt_cond_always = 1;

static rt_op *rt_graph_body_op(rt_context *c, rt_graph_exec *x, uint32_t *word,
                               enum cudaGraphConditionalNodeType type, unsigned size,
                               rt_graph *const *bodies);

rt_op *rt_graph_child_op(rt_context *c, rt_graph_exec *x, const rt_graph_node *n) {
    return rt_graph_body_op(c, x, &rt_cond_always, cudaGraphCondTypeIf, 1, &n->x.child);
}

rt_op *rt_graph_cond_op(rt_context *c, rt_graph_exec *x, const rt_graph_node *n) {
    return rt_graph_body_op(c, x, (uint32_t *)(uintptr_t)n->x.cond.handle, n->x.cond.type,
                            n->x.cond.size, n->x.cond.bodies);
}

static rt_op *rt_graph_body_op(rt_context *c, rt_graph_exec *x, uint32_t *word,
                               enum cudaGraphConditionalNodeType type, unsigned size,
                               rt_graph *const *bodies) {
    rt_cond_exec **conds = realloc(x->conds, (x->nconds + 1) * sizeof *conds);
    if (!conds) return NULL;
    x->conds = conds;
    rt_cond_exec *ce = calloc(1, sizeof *ce);
    rt_op *op = rt_op_new(RT_OP_COND);
    if (ce) ce->bodies = calloc(size, sizeof *ce->bodies);
    if (!ce || !op || !ce->bodies) {
        free(op);
        if (ce) free(ce->bodies);
        free(ce);
        return NULL;
    }
    x->conds[x->nconds++] = ce; /* freed with x, whatever happens below */
    ce->word = word;
    ce->type = type;
    ce->size = size;
    for (unsigned i = 0; i < ce->size; i++) {
        if (rt_cond_body_build(c, x, bodies[i], &ce->bodies[i]) != cudaSuccess) {
            free(op);
            return NULL;
        }
    }
    op->u.cond.ce = ce;
    return op;
}

cudaError_t rt_graph_exec_defaults(rt_graph_exec *x, const rt_graph *g) {
    pthread_mutex_lock(&rt_cond_lock);
    cudaError_t e = cudaSuccess;
    for (rt_cond_handle *h = rt_cond_handles; h && !e; h = h->next) {
        if (h->graph != g || !h->assign_default) continue;
        uint32_t **w = realloc(x->reset_words, (x->nresets + 1) * sizeof *w);
        if (w) x->reset_words = w;
        uint32_t *v = w ? realloc(x->reset_values, (x->nresets + 1) * sizeof *v) : NULL;
        if (v) x->reset_values = v;
        if (!w || !v) {
            e = cudaErrorMemoryAllocation;
            break;
        }
        x->reset_words[x->nresets] = &h->word;
        x->reset_values[x->nresets] = h->def;
        x->nresets++;
    }
    pthread_mutex_unlock(&rt_cond_lock);
    return e;
}

void rt_graph_exec_conds_free(rt_graph_exec *x) {
    for (size_t i = 0; i < x->nconds; i++) rt_cond_exec_free(x->conds[i]);
    free(x->conds);
    free(x->reset_words);
    free(x->reset_values);
}

/* ---- launching ---- */

/* The start of a launch: the conditions take their defaults (the values are copied, the
 * executable graph may go before the launch has run). */
typedef struct rt_cond_reset {
    size_t n;
    uint32_t *words[];
} rt_cond_reset;

static void rt_cond_reset_run(rt_context *c, void *arg) {
    (void)c;
    rt_cond_reset *r = arg;
    uint32_t *values = (uint32_t *)&r->words[r->n];
    for (size_t i = 0; i < r->n; i++) __atomic_store_n(r->words[i], values[i], __ATOMIC_RELEASE);
    free(r);
}

rt_op *rt_graph_exec_entry_op(rt_graph_exec *x) {
    if (!x->nresets) return rt_op_new(RT_OP_WAIT);
    rt_cond_reset *r = malloc(sizeof *r + x->nresets * (sizeof(uint32_t *) + sizeof(uint32_t)));
    rt_op *op = rt_op_new(RT_OP_MEMOP);
    if (!r || !op) {
        free(r);
        free(op);
        return NULL;
    }
    r->n = x->nresets;
    memcpy(r->words, x->reset_words, x->nresets * sizeof *r->words);
    memcpy(&r->words[r->n], x->reset_values, x->nresets * sizeof *x->reset_values);
    op->u.memop.fn = rt_cond_reset_run;
    op->u.memop.arg = r;
    return op;
}

/* The body to run for condition value v, or NULL. */
static const rt_cond_body *rt_cond_pick(const rt_cond_exec *ce, uint32_t v) {
    switch (ce->type) {
    case cudaGraphCondTypeIf:
        if (v) return &ce->bodies[0];
        return ce->size == 2 ? &ce->bodies[1] : NULL;
    case cudaGraphCondTypeWhile:
        return v ? &ce->bodies[0] : NULL;
    case cudaGraphCondTypeSwitch:
        return v < ce->size ? &ce->bodies[v] : NULL;
    default:
        return NULL;
    }
}

void rt_graph_cond_run(rt_context *c, rt_op *op) {
    const rt_cond_exec *ce = op->u.cond.ce;
    double t = op->vstart;
    for (;;) {
        uint32_t v = __atomic_load_n(ce->word, __ATOMIC_ACQUIRE);
        const rt_cond_body *b = rt_cond_pick(ce, v);
        if (!b) break;
        for (size_t k = 0; k < b->nops; k++) {
            rt_op *body = b->ops[k];
            /* the body's work belongs to the node: its output and faults are released
             * with it */
            body->stream = op->stream;
            body->seq = op->seq;
            body->order = op->order;
            body->vstart = t;
            /* its kernels' device graph launches wait in the launching graph's
             * environment (the executable graph's launches run one at a time) */
            if (body->kind == RT_OP_KERNEL) body->u.kernel.graph_env = op->u.cond.graph_env;
            if (body->kind == RT_OP_COND) body->u.cond.graph_env = op->u.cond.graph_env;
            if (body->kind == RT_OP_WAIT) {
                body->vend = t;
            } else if (body->kind == RT_OP_HOST_FN) {
                /* a host node of a child graph: on this thread, the node waits for it */
                body->u.host_fn.fn(body->u.host_fn.data);
                body->vend = t;
            } else {
                rt_engine_run_op(c, body);
            }
            t = body->vend;
        }
        pthread_mutex_lock(&c->engine_lock);
        bool faulted = c->device_fault != cudaSuccess;
        pthread_mutex_unlock(&c->engine_lock);
        if (faulted || ce->type != cudaGraphCondTypeWhile) break;
    }
    op->vend = t;
}

rt_op *const *rt_graph_child_body(const rt_op *op, size_t *n) {
    const rt_cond_exec *ce = op->u.cond.ce;
    *n = ce->size ? ce->bodies[0].nops : 0;
    return ce->size ? ce->bodies[0].ops : NULL;
}

bool rt_graph_cond_launches_graphs(const rt_op *op) {
    const rt_cond_exec *ce = op->u.cond.ce;
    for (unsigned i = 0; ce && i < ce->size; i++)
        for (size_t k = 0; k < ce->bodies[i].nops; k++) {
            const rt_op *body = ce->bodies[i].ops[k];
            if (body->kind == RT_OP_KERNEL &&
                exec_kernel_get_info(body->u.kernel.func->kernel)->uses_graph_launch)
                return true;
            if (body->kind == RT_OP_COND && rt_graph_cond_launches_graphs(body)) return true;
        }
    return false;
}

/* cudaDeviceReset: the handles' conditions leave with the device's allocation table. */
void rt_graph_cond_reset(void) {
    pthread_mutex_lock(&rt_cond_lock);
    for (rt_cond_handle *h = rt_cond_handles, *n; h; h = n) {
        n = h->next;
        free(h);
    }
    rt_cond_handles = NULL;
    pthread_mutex_unlock(&rt_cond_lock);
}
