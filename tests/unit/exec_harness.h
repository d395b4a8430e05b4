/* tests/unit/exec_harness.h — running PTX through the SIMT core without the device layer:
 * parse, load, fill a param buffer, run every block of a grid in order on one worker.
 * Included by the test_exec_*.c programs. */
#ifndef VCUDA_TESTS_EXEC_HARNESS_H
#define VCUDA_TESTS_EXEC_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"
#include "test_files.h"

static int harness_failures;

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            harness_failures++;                                                           \
        }                                                                                 \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                \
    do {                                                                                  \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);    \
        if (a_ != b_) {                                                                   \
            fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", __FILE__, __LINE__, \
                    #a, a_, #b, b_);                                                      \
            harness_failures++;                                                           \
        }                                                                                 \
    } while (0)

typedef struct harness {
    mem_table *mem;
    exec_program *prog;
    exec_worker *worker;
    char err[512];
} harness;

/* Parse and load text; on failure the error is in h->err and prog is NULL. */
static inline bool harness_load(harness *h, const char *text) {
    if (!h->mem) h->mem = mem_table_new();
    if (!h->worker) h->worker = exec_worker_new();
    h->err[0] = 0;
    ptx_module *m = ptx_parse(text, strlen(text), "test.ptx", h->err, sizeof h->err);
    if (!m) return false;
    h->prog = exec_program_load(m, h->mem, h->err, sizeof h->err);
    return h->prog != NULL;
}

/* Load a PTX file from tests/ptx/. */
static inline bool harness_load_file(harness *h, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/ptx/%s", VCUDA_TEST_DIR, name);
    char *text = test_read_file(path, NULL);
    if (!text) {
        snprintf(h->err, sizeof h->err, "cannot read %.400s", path);
        return false;
    }
    bool ok = harness_load(h, text);
    free(text);
    return ok;
}

static inline void harness_free(harness *h) {
    if (h->prog) exec_program_free(h->prog, h->mem);
    if (h->worker) exec_worker_free(h->worker);
    if (h->mem) mem_table_free(h->mem);
    memset(h, 0, sizeof *h);
}

/* Device memory: host memory entered in the allocation table. */
static inline void *harness_alloc(harness *h, size_t size) {
    void *p = aligned_alloc(256, (size + 255) & ~(size_t)255);
    if (!p) abort();
    memset(p, 0, size);
    if (!mem_table_add(h->mem, (uint64_t)(uintptr_t)p, size, MEM_KIND_DEVICE, 0)) abort();
    return p;
}

static inline void harness_dealloc(harness *h, void *p) {
    mem_alloc a;
    mem_table_remove(h->mem, (uint64_t)(uintptr_t)p, &a);
    free(p);
}

/* The kernel's param buffer from one pointer/value per parameter (args[i] points at the
 * i-th parameter's bytes, as in cudaLaunchKernel). */
static inline uint8_t *harness_params(const exec_kernel *k, void **args) {
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t *buf = calloc(1, ki->param_size + 16);
    if (!buf) abort();
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(buf + ki->param_offsets[i], args[i], ki->param_sizes[i]);
    return buf;
}

/* A launch of kernel k over the param buffer params (owned by the caller). */
static inline exec_launch harness_make_launch(harness *h, const exec_kernel *k, exec_dim3 grid,
                                              exec_dim3 block, uint32_t dyn_shared,
                                              const uint8_t *params) {
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid = grid;
    L.block = block;
    L.dyn_shared = dyn_shared;
    L.params = params;
    L.mem = h->mem;
    L.num_sms = 132;
    L.clock_khz = 1755000;
    L.grid_id = 1;
    return L;
}

typedef struct harness_run {
    exec_fault_kind kind;
    exec_fault fault;
    exec_output out;       /* all blocks' printf output, in block order */
} harness_run;

/* Run every block of the grid in order; stops at the first fault. */
static inline harness_run harness_launch(harness *h, const char *kernel, exec_dim3 grid,
                                         exec_dim3 block, uint32_t dyn_shared, void **args) {
    harness_run r;
    memset(&r, 0, sizeof r);
    const exec_kernel *k = exec_program_kernel(h->prog, kernel);
    if (!k) {
        fprintf(stderr, "no kernel %s\n", kernel);
        r.kind = EXEC_FAULT_INVALID_PC;
        harness_failures++;
        return r;
    }
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(h, k, grid, block, dyn_shared, params);
    for (uint32_t z = 0; z < grid.z && r.kind == EXEC_OK; z++)
        for (uint32_t y = 0; y < grid.y && r.kind == EXEC_OK; y++)
            for (uint32_t x = 0; x < grid.x && r.kind == EXEC_OK; x++) {
                exec_dim3 c = {x, y, z};
                r.kind = exec_run_block(h->worker, &L, c, x % 132, &r.out, &r.fault);
            }
    free(params);
    return r;
}

static inline exec_dim3 dim(uint32_t x, uint32_t y, uint32_t z) {
    exec_dim3 d = {x, y, z};
    return d;
}

/* Remove a directory of plain files (a test's own compile cache, say). */
static inline void harness_remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    char path[1024];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static inline int harness_report(const char *name) {
    if (harness_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, harness_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

#endif
