/* tests/unit/test_gpu_device_exec.c — the device running real kernels (tests/ptx/gpu/
 * device.ptx) through the SIMT core on 1, 2, 3 and 8 host threads: results, printf output
 * in block order and identical whatever the thread count, %smid, and the first fault in
 * block order with the output of the blocks before it. */
#include "gpu/gpu.h"
#include "ptx/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "test_files.h"

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

typedef struct capture {
    char *data;
    size_t len, cap;
} capture;

static void capture_print(const char *data, size_t len, void *ctx) {
    capture *c = ctx;
    if (c->len + len + 1 > c->cap) {
        c->cap = (c->len + len + 1) * 2;
        c->data = realloc(c->data, c->cap);
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    c->data[c->len] = 0;
}

typedef struct env {
    gpu_device *dev;
    exec_program *prog;
    capture out;
} env;

static bool env_open(env *e, unsigned threads) {
    memset(e, 0, sizeof *e);
    e->dev = gpu_device_new(gpu_preset_find("h100"), threads);
    gpu_device_set_print(e->dev, capture_print, &e->out);
    char *text = test_read_file(VCUDA_TEST_DIR "/ptx/gpu/device.ptx", NULL);
    CHECK(text != NULL);
    if (!text)
        return false;
    char err[512] = "";
    ptx_module *m = ptx_parse(text, strlen(text), "device.ptx", err, sizeof err);
    free(text);
    if (m)
        e->prog = exec_program_load(m, gpu_device_mem(e->dev), err, sizeof err);
    if (!e->prog)
        fprintf(stderr, "loading device.ptx: %s\n", err);
    CHECK(e->prog != NULL);
    return e->prog != NULL;
}

static void env_close(env *e) {
    if (e->prog)
        exec_program_free(e->prog, gpu_device_mem(e->dev));
    gpu_device_free(e->dev);
    free(e->out.data);
}

static void *dev_alloc(env *e, size_t size) {
    void *p = aligned_alloc(256, (size + 255) & ~(size_t)255);
    memset(p, 0, size);
    CHECK(mem_table_add(gpu_device_mem(e->dev), (uint64_t)(uintptr_t)p, size, MEM_KIND_DEVICE, 0));
    return p;
}

static void dev_free(env *e, void *p) {
    CHECK(mem_table_remove(gpu_device_mem(e->dev), (uint64_t)(uintptr_t)p, NULL));
    free(p);
}

/* Launch kernel with one pointer/value per parameter (args[i] points at its bytes). */
static exec_fault_kind launch(env *e, const char *name, exec_dim3 grid, exec_dim3 block,
                              uint32_t dyn_shared, void **args, exec_fault *fault,
                              gpu_grid_stats *st) {
    const exec_kernel *k = exec_program_kernel(e->prog, name);
    CHECK(k != NULL);
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t *params = calloc(1, ki->param_size + 16);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->param_offsets[i], args[i], ki->param_sizes[i]);
    exec_launch L = {.kernel = k, .grid = grid, .block = block, .dyn_shared = dyn_shared,
                     .params = params, .mem = gpu_device_mem(e->dev)};
    e->out.len = 0;
    if (e->out.data)
        e->out.data[0] = 0;
    exec_fault_kind r = gpu_run_grid_stats(e->dev, &L, fault, st);
    free(params);
    return r;
}

static const unsigned thread_counts[] = {1, 2, 3, 8};
#define NCOUNTS (sizeof thread_counts / sizeof thread_counts[0])

static void test_hello(void) {
    char *first = NULL;
    for (size_t t = 0; t < NCOUNTS; t++) {
        env e;
        if (!env_open(&e, thread_counts[t]))
            return;
        exec_dim3 grid = {5, 4, 3};
        unsigned nblocks = 60;
        unsigned *sm = dev_alloc(&e, nblocks * sizeof *sm);
        unsigned *counter = dev_alloc(&e, sizeof *counter);
        void *args[] = {&sm, &counter};
        exec_fault f;
        gpu_grid_stats st;
        CHECK(launch(&e, "hello", grid, (exec_dim3){96, 1, 1}, 0, args, &f, &st) == EXEC_OK);
        CHECK(*counter == nblocks * 96);
        for (unsigned b = 0; b < nblocks; b++)
            CHECK(sm[b] == b % 132);
        CHECK(st.blocks_run == nblocks && st.warp_instructions > 0);
        /* the expected text: block order, thread 0 then 1 */
        capture want = {0};
        for (unsigned b = 0; b < nblocks; b++) {
            for (unsigned th = 0; th < 2; th++) {
                char line[96];
                int n = snprintf(line, sizeof line, "block %u (%u,%u,%u) thread %u\n", b, b % 5,
                                 b / 5 % 4, b / 20, th);
                capture_print(line, (size_t)n, &want);
            }
        }
        CHECK(e.out.data && strcmp(e.out.data, want.data) == 0);
        if (!first)
            first = strdup(e.out.data ? e.out.data : "");
        else
            CHECK(e.out.data && strcmp(first, e.out.data) == 0);
        free(want.data);
        dev_free(&e, sm);
        dev_free(&e, counter);
        env_close(&e);
    }
    free(first);
}

static void test_block_sum(void) {
    for (size_t t = 0; t < NCOUNTS; t++) {
        env e;
        if (!env_open(&e, thread_counts[t]))
            return;
        unsigned nblocks = 200, bs = 128;
        int *in = dev_alloc(&e, nblocks * bs * sizeof *in);
        int *out = dev_alloc(&e, nblocks * sizeof *out);
        for (unsigned i = 0; i < nblocks * bs; i++)
            in[i] = (int)(i % 1000) - 300;
        void *args[] = {&in, &out};
        exec_fault f;
        CHECK(launch(&e, "block_sum", (exec_dim3){nblocks, 1, 1}, (exec_dim3){bs, 1, 1},
                     bs * sizeof(int), args, &f, NULL) == EXEC_OK);
        for (unsigned b = 0; b < nblocks; b++) {
            int want = 0;
            for (unsigned i = 0; i < bs; i++)
                want += in[b * bs + i];
            CHECK(out[b] == want);
        }
        dev_free(&e, in);
        dev_free(&e, out);
        env_close(&e);
    }
}

static void test_fault(void) {
    for (size_t t = 0; t < NCOUNTS; t++) {
        env e;
        if (!env_open(&e, thread_counts[t]))
            return;
        unsigned nblocks = 64, bad = 21, spin = 2000;
        int *p = dev_alloc(&e, nblocks * sizeof *p);
        void *args[] = {&p, &bad, &spin};
        exec_fault f;
        gpu_grid_stats st;
        exec_fault_kind r = launch(&e, "fault_in", (exec_dim3){nblocks, 1, 1},
                                   (exec_dim3){64, 1, 1}, 0, args, &f, &st);
        CHECK(r == EXEC_FAULT_ILLEGAL_ADDRESS && f.kind == r);
        CHECK(strstr(f.msg, "fault_in") != NULL);
        CHECK(strstr(f.msg, "(21,0,0)") != NULL || strstr(f.msg, "21") != NULL);
        capture want = {0};
        for (unsigned b = 0; b <= bad; b++) {
            char line[64];
            int n = snprintf(line, sizeof line, "block %u before\n", b);
            capture_print(line, (size_t)n, &want);
            if (b < bad) {
                n = snprintf(line, sizeof line, "block %u after\n", b);
                capture_print(line, (size_t)n, &want);
            }
        }
        CHECK(e.out.data && strcmp(e.out.data, want.data) == 0);
        if (e.out.data && strcmp(e.out.data, want.data) != 0)
            fprintf(stderr, "%u threads, got:\n%s", thread_counts[t], e.out.data);
        free(want.data);
        /* a later grid on the same device runs normally */
        unsigned none = 1000;
        void *args2[] = {&p, &none, &(unsigned){10}};
        CHECK(launch(&e, "fault_in", (exec_dim3){4, 1, 1}, (exec_dim3){32, 1, 1}, 0, args2, &f,
                     NULL) == EXEC_OK);
        CHECK(e.out.data && strncmp(e.out.data, "block 0 before\nblock 0 after\nblock 1 before\n", 44) == 0);
        dev_free(&e, p);
        env_close(&e);
    }
}

int main(void) {
    test_hello();
    test_block_sum();
    test_fault();
    if (failures) {
        fprintf(stderr, "test_gpu_device_exec: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_gpu_device_exec: ok\n");
    return 0;
}
