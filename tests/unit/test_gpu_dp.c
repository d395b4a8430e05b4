/* tests/unit/test_gpu_dp.c — dynamic parallelism below the runtime (exec/devrt.c,
 * gpu/dp.c): the order launched grids run in (block order, issue order, tail launches
 * last), a recursion thousands of grids deep, the pending-launch limit and the legacy
 * nesting limit, a fault in a child, printf order around launches, device-side
 * allocation and stream-ordered copies, and CDP1's
 * cudaDeviceSynchronize with its sync-depth limit. The kernels are nvcc's PTX of
 * tests/unit/data/dp/dp_unit.cu; they note what happened in a log in device memory. */
#include "exec/exec.h"
#include "gpu/device_internal.h"
#include "ptx/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_files.h"

static int failures;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            failures++;                                                                   \
        }                                                                                 \
    } while (0)

typedef struct world {
    gpu_device *dev;
    exec_program *prog;
    int *log;            /* device memory: count, then entries */
    char out[4096];      /* printf output */
    size_t outlen;
} world;

#define LOG_SIZE 8192

static void capture(const char *data, size_t len, void *ctx) {
    world *w = ctx;
    if (w->outlen + len < sizeof w->out) {
        memcpy(w->out + w->outlen, data, len);
        w->outlen += len;
        w->out[w->outlen] = 0;
    }
}

static char *read_text(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/dp/%s", VCUDA_TEST_DIR, name);
    return test_read_file(path, NULL);
}

static bool world_open(world *w, const char *preset, const char *ptx_file) {
    memset(w, 0, sizeof *w);
    w->dev = gpu_device_new(gpu_preset_find(preset), 2);
    char *text = read_text(ptx_file);
    CHECK(w->dev && text);
    if (!w->dev || !text) { free(text); return false; }
    char err[512];
    ptx_module *m = ptx_parse(text, strlen(text), ptx_file, err, sizeof err);
    free(text);
    if (m) w->prog = exec_program_load(m, gpu_device_mem(w->dev), err, sizeof err);
    if (!w->prog) fprintf(stderr, "load: %s\n", err);
    CHECK(w->prog != NULL);
    w->log = aligned_alloc(256, LOG_SIZE * sizeof(int));
    memset(w->log, 0, LOG_SIZE * sizeof(int));
    mem_table_add(gpu_device_mem(w->dev), (uint64_t)(uintptr_t)w->log, LOG_SIZE * sizeof(int),
                  MEM_KIND_DEVICE, 0);
    gpu_device_set_print(w->dev, capture, w);
    return w->prog != NULL;
}

/* Device-heap blocks the kernels left allocated (the runtime frees them at reset). */
typedef struct heap_blocks { uint64_t base[64]; int n; } heap_blocks;
static void collect_heap(const mem_alloc *a, void *ctx) {
    heap_blocks *h = ctx;
    if ((a->flags & EXEC_MEM_FLAG_DEVICE_HEAP) && h->n < 64) h->base[h->n++] = a->base;
}

static void world_close(world *w) {
    heap_blocks heap = {.n = 0};
    mem_table_each(gpu_device_mem(w->dev), collect_heap, &heap);
    for (int i = 0; i < heap.n; i++) {
        mem_table_remove(gpu_device_mem(w->dev), heap.base[i], NULL);
        free((void *)(uintptr_t)heap.base[i]);
    }
    if (w->prog) exec_program_free(w->prog, gpu_device_mem(w->dev));
    mem_table_remove(gpu_device_mem(w->dev), (uint64_t)(uintptr_t)w->log, NULL);
    free(w->log);
    gpu_device_free(w->dev);
}

/* Run kernel (its parameters: the log, then up to two ints) on grid x block threads. */
static exec_fault_kind run(world *w, const char *kernel, uint32_t grid, uint32_t block, int a,
                           int b, exec_fault *fault) {
    memset(w->log, 0, LOG_SIZE * sizeof(int));
    w->outlen = 0;
    w->out[0] = 0;
    const exec_kernel *k = exec_program_kernel(w->prog, kernel);
    CHECK(k != NULL);
    if (!k) return EXEC_FAULT_INVALID_PC;
    const exec_kernel_info *info = exec_kernel_get_info(k);
    uint8_t params[64] = {0};
    int *log = w->log;
    memcpy(params + info->param_offsets[0], &log, 8);
    if (info->nparams > 1) memcpy(params + info->param_offsets[1], &a, 4);
    if (info->nparams > 2) memcpy(params + info->param_offsets[2], &b, 4);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid = (exec_dim3){grid, 1, 1};
    L.block = (exec_dim3){block, 1, 1};
    L.params = params;
    L.mem = gpu_device_mem(w->dev);
    return gpu_run_grid(w->dev, &L, fault);
}

/* Is the log exactly the n values given? */
static bool log_is(const world *w, int n, const int *values) {
    if (w->log[0] != n) {
        fprintf(stderr, "log has %d entries, expected %d\n", w->log[0], n);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (w->log[1 + i] != values[i]) {
            fprintf(stderr, "log[%d] = %d, expected %d\n", i, w->log[1 + i], values[i]);
            return false;
        }
    return true;
}

static uint64_t outstanding(const world *w) { return atomic_load(&w->dev->dp_outstanding); }

static void test_order(void) {
    world w;
    if (!world_open(&w, "h100", "dp_unit.ptx")) return;
    exec_fault f;
    /* children of a grid run after all of its blocks, block by block */
    CHECK(run(&w, "_Z3fanPi", 5, 64, 0, 0, &f) == EXEC_OK);
    CHECK(log_is(&w, 5, (int[]){0, 1, 2, 3, 4}));
    /* a block's launches in issue order, fire-and-forget among them, the tail launch last */
    CHECK(run(&w, "_Z5tailsPi", 1, 32, 0, 0, &f) == EXEC_OK);
    CHECK(log_is(&w, 4, (int[]){1, 2, 4, 3}));
    /* what block 0 prints after its launch comes after block 1's output */
    CHECK(run(&w, "_Z7printerPi", 2, 32, 0, 0, &f) == EXEC_OK);
    CHECK(!strcmp(w.out, "a\nc\nb\n"));
    CHECK(outstanding(&w) == 0);
    world_close(&w);
}

static void test_depth_and_pending(void) {
    world w;
    if (!world_open(&w, "h100", "dp_unit.ptx")) return;
    exec_fault f;
    /* 3000 grids deep: each level starts after its parent's blocks, on the heap */
    gpu_device_set_dp_limits(w.dev, 5000, 0);
    CHECK(run(&w, "_Z5chainPiii", 1, 1, 0, 3000, &f) == EXEC_OK);
    bool ordered = w.log[0] == 3001;
    for (int i = 0; i <= 3000 && ordered; i++) ordered = w.log[1 + i] == i;
    CHECK(ordered);
    CHECK(outstanding(&w) == 0);
    /* a launch stays pending until its grid is complete: the 11th level is refused */
    gpu_device_set_dp_limits(w.dev, 10, 0);
    CHECK(run(&w, "_Z5chainPiii", 1, 1, 0, 20, &f) == EXEC_OK);
    CHECK(log_is(&w, 12, (int[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -69}));
    /* 8 launches by one thread with room for 5 */
    gpu_device_set_dp_limits(w.dev, 5, 0);
    CHECK(run(&w, "_Z4manyPii", 1, 32, 8, 0, &f) == EXEC_OK);
    CHECK(log_is(&w, 8, (int[]){-69, -69, -69, 100, 101, 102, 103, 104}));
    CHECK(outstanding(&w) == 0);
    world_close(&w);
}

static void test_child_fault(void) {
    world w;
    if (!world_open(&w, "h100", "dp_unit.ptx")) return;
    exec_fault f;
    memset(&f, 0, sizeof f);
    const exec_kernel *k = exec_program_kernel(w.prog, "_Z12launchFaultyPi");
    CHECK(k != NULL);
    /* the child writes through a null pointer: the parent grid fails with its fault */
    uint8_t params[8] = {0};
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid = (exec_dim3){3, 1, 1};
    L.block = (exec_dim3){32, 1, 1};
    L.params = params;
    L.mem = gpu_device_mem(w.dev);
    CHECK(gpu_run_grid(w.dev, &L, &f) == EXEC_FAULT_ILLEGAL_ADDRESS);
    CHECK(strstr(f.msg, "_Z6faultyPi") != NULL);
    CHECK(outstanding(&w) == 0); /* the other children were dropped */
    world_close(&w);
}

/* cudaMalloc, cudaMemsetAsync, a launch and cudaMemcpyAsync in the NULL stream run in
 * issue order; a copy from memory that is not the device's and a cudaFree of memory
 * not from the device heap are refused (cudaErrorInvalidValue). */
static void test_copies(void) {
    world w;
    if (!world_open(&w, "h100", "dp_unit.ptx")) return;
    exec_fault f;
    CHECK(run(&w, "_Z6copierPi", 1, 32, 0, 0, &f) == EXEC_OK);
    bool copied = true;
    for (int i = 0; i < 16; i++) copied &= w.log[100 + i] == i + 1;
    CHECK(copied);
    CHECK((uint32_t)w.log[200] == 0x07070707u);
    CHECK(w.log[0] == 2 && w.log[1] == 1 && w.log[2] == 1);
    world_close(&w);
}

static void test_cdp1(void) {
    world w;
    if (!world_open(&w, "a100", "dp_unit_cdp1.ptx")) return;
    exec_fault f;
    /* each level waits for its child, then notes: the deepest first */
    gpu_device_set_dp_limits(w.dev, 2048, 5);
    CHECK(run(&w, "_Z10syncParentPiii", 1, 32, 0, 3, &f) == EXEC_OK);
    CHECK(log_is(&w, 4, (int[]){3, 1002, 1001, 1000}));
    /* sync depth 2: the grid at depth 2 may not wait (its child still runs, later) */
    gpu_device_set_dp_limits(w.dev, 2048, 2);
    CHECK(run(&w, "_Z10syncParentPiii", 1, 32, 0, 3, &f) == EXEC_OK);
    CHECK(log_is(&w, 4, (int[]){-68, 3, 1001, 1000}));
    /* the legacy model's nesting limit: a grid at depth 24 cannot launch */
    CHECK(run(&w, "_Z5chainPiii", 1, 1, 0, 30, &f) == EXEC_OK);
    CHECK(w.log[0] == 26 && w.log[25] == 24 && w.log[26] == -65);
    CHECK(outstanding(&w) == 0);
    world_close(&w);
}

int main(void) {
    test_order();
    test_depth_and_pending();
    test_child_fault();
    test_copies();
    test_cdp1();
    if (failures) {
        fprintf(stderr, "test_gpu_dp: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_gpu_dp: all checks passed\n");
    return 0;
}
