/* tests/unit/test_runtime_unsupported.c — a function vcuda does not implement
 * (runtime/unsupported.c) returns cudaErrorNotSupported, sets the last error, and names
 * itself on stderr once, at its first call only. */
#include "test_runtime_common.h"

#include <unistd.h>

/* Run two calls of an unsupported function with stderr going to a file; return what was
 * written there. */
static char *stderr_of_two_calls(cudaError_t *first, cudaError_t *second) {
    fflush(stderr);
    FILE *tmp = tmpfile();
    if (!tmp) return NULL;
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    struct cudaMemPoolPtrExportData data;
    int dummy;
    *first = cudaMemPoolExportPointer(&data, &dummy);
    *second = cudaMemPoolExportPointer(&data, &dummy);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    static char buf[4096];
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = 0;
    fclose(tmp);
    return buf;
}

int main(void) {
    cudaError_t a = cudaSuccess, b = cudaSuccess;
    char *text = stderr_of_two_calls(&a, &b);
    CHECK(text != NULL);
    CHECK(a == cudaErrorNotSupported);
    CHECK(b == cudaErrorNotSupported);
    CHECK_ERR(cudaGetLastError(), cudaErrorNotSupported);
    CHECK_ERR(cudaGetLastError(), cudaSuccess); /* not sticky */
    if (text) {
        const char *want = "vcuda: cudaMemPoolExportPointer is not supported";
        char *first = strstr(text, want);
        CHECK(first != NULL);
        CHECK(first && !strstr(first + 1, want)); /* said once */
    }
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
