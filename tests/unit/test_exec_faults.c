/* test_exec_faults — device faults (tests/ptx/exec/faults.cu): each becomes its
 * exec_fault_kind with a one-line diagnostic, never a host crash; a running block stops
 * when the launch is aborted. */
#include "exec_harness.h"

#include <pthread.h>
#include <time.h>

static void check_msg(const harness_run *r, const char *part) {
    if (!strstr(r->fault.msg, part)) {
        fprintf(stderr, "fault message lacks \"%s\": %s\n", part, r->fault.msg);
        harness_failures++;
    }
}

static void test_out_of_bounds(harness *h) {
    int *p = harness_alloc(h, 64 * 4);
    int n = 60;
    void *args[] = {&p, &n};
    harness_run r = harness_launch(h, "out_of_bounds", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_ADDRESS);
    check_msg(&r, "kernel 'out_of_bounds'");
    check_msg(&r, "block (0,0,0)");
    check_msg(&r, "thread (4,0,0)");
    check_msg(&r, "st.global.u32 [%rd");
    check_msg(&r, "4 bytes");
    check_msg(&r, "PTX line ");
    check_msg(&r, "faults.cu:8");
    CHECK(strchr(r.fault.msg, '\n') == NULL);
    /* a pointer to nothing at all */
    int *wild = (int *)(uintptr_t)0x1000;
    n = 0;
    void *args2[] = {&wild, &n};
    r = harness_launch(h, "out_of_bounds", dim(2, 1, 1), dim(32, 1, 1), 0, args2);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_ADDRESS);
    check_msg(&r, "thread (0,0,0)");
    check_msg(&r, "0x1000");
    harness_dealloc(h, p);
}

static void test_misaligned(harness *h) {
    char *p = harness_alloc(h, 256);
    void *args[] = {&p};
    harness_run r = harness_launch(h, "misaligned", dim(1, 1, 1), dim(8, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_MISALIGNED);
    check_msg(&r, "misaligned");
    check_msg(&r, "thread (0,0,0)");
    harness_dealloc(h, p);
}

static void test_shared_oob(harness *h) {
    int *out = harness_alloc(h, 32 * 4);
    int k = 40;
    void *args[] = {&out, &k};
    harness_run r = harness_launch(h, "shared_oob", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_ADDRESS);
    check_msg(&r, "shared load");
    check_msg(&r, "ld.shared.u32");
    k = 0;
    r = harness_launch(h, "shared_oob", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int i = 0; i < 32; i++) CHECK_EQ_U64(out[i], i);
    harness_dealloc(h, out);
}

static void test_trap(harness *h) {
    int *p = harness_alloc(h, 32 * 4);
    void *args[] = {&p};
    harness_run r = harness_launch(h, "do_trap", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_TRAP);
    check_msg(&r, "thread (3,0,0)");
    check_msg(&r, "trap");
    harness_dealloc(h, p);
}

static void test_assert(harness *h) {
    int *p = harness_alloc(h, 32 * 4);
    p[5] = 1;
    void *args[] = {&p};
    harness_run r = harness_launch(h, "do_assert", dim(2, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ASSERT);
    check_msg(&r, "thread (5,0,0)");
    /* the message is a diagnostic (for stderr), not printf output (for stdout) */
    CHECK(r.out.err && strstr(r.out.err, "faults.cu:29: void do_assert(const int *): block: "
                                         "[0,0,0], thread: [5,0,0] Assertion `p[threadIdx.x] "
                                         "== 0` failed.\n"));
    CHECK(r.out.data == NULL || strstr(r.out.data, "Assertion") == NULL);
    if (r.out.err) fprintf(stderr, "assert output: %s", r.out.err);
    free(r.out.data);
    free(r.out.err);
    harness_dealloc(h, p);
}

static volatile int abort_flag;

static void *set_abort_later(void *arg) {
    (void)arg;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    abort_flag = 1;
    return NULL;
}

static void test_abort(harness *h) {
    int *flag = harness_alloc(h, 4);
    const exec_kernel *k = exec_program_kernel(h->prog, "spin");
    void *args[] = {&flag};
    uint8_t *params = harness_params(k, args);
    exec_launch L = harness_make_launch(h, k, dim(1, 1, 1), dim(64, 1, 1), 0, params);
    L.abort = &abort_flag;
    abort_flag = 0;
    pthread_t th;
    pthread_create(&th, NULL, set_abort_later, NULL);
    exec_output out = {0};
    exec_fault f;
    exec_fault_kind kind = exec_run_block(h->worker, &L, dim(0, 0, 0), 0, &out, &f);
    pthread_join(th, NULL);
    CHECK_EQ_U64(kind, EXEC_FAULT_ABORTED);
    CHECK_EQ_U64(f.kind, EXEC_FAULT_ABORTED);
    free(params);
    harness_dealloc(h, flag);
}

int main(void) {
    harness h = {0};
    if (!harness_load_file(&h, "exec/faults.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    test_out_of_bounds(&h);
    test_misaligned(&h);
    test_shared_oob(&h);
    test_trap(&h);
    test_assert(&h);
    test_abort(&h);
    harness_free(&h);
    return harness_report("test_exec_faults");
}
