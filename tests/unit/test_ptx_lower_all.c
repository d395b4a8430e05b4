/* test_ptx_lower_all — every PTX file of the test tree parses AND loads: the parser, the
 * decoder of every instruction class and the program loader accept all of them. The
 * files are real nvcc output (tests/ptx/parse/, tests/ptx/corpus/ — many kinds of device
 * code compiled for several architectures and with -G) plus the PTX of the exec and ALU
 * tests, so an instruction nvcc emits and vcuda cannot run is reported by name and line.
 *
 * A few files are known not to load (the table below says why); they must keep failing
 * for that reason until it is fixed.
 *
 * With file arguments it loads just those and prints each one's result, which makes it a
 * quick way to try newly generated PTX: test_ptx_lower_all a.ptx b.ptx ...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"
#include "test_files.h"

/* Files that do not load yet, and the start of the error each gives: what vcuda lacks. */
static const struct known { const char *file, *error; } known_failures[] = {
    { NULL, NULL }, /* none today; the end of the table */
};

static const struct known *known_failure(const char *name) {
    for (size_t i = 0; known_failures[i].file; i++)
        if (strcmp(known_failures[i].file, name) == 0) return &known_failures[i];
    return NULL;
}

/* Parse and load one file; prints the error and returns false on failure. */
static bool load_one(const char *path, const char *name, bool verbose) {
    size_t len = 0;
    char err[512] = "";
    char *text = test_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "%s: unreadable\n", path);
        return false;
    }
    bool ok = false;
    const struct known *kf = verbose ? NULL : known_failure(name);
    ptx_module *m = ptx_parse(text, len, name, err, sizeof err);
    if (m) {
        mem_table *mem = mem_table_new();
        exec_program *p = exec_program_load(m, mem, err, sizeof err);
        if (p) {
            ok = true;
            exec_program_free(p, mem);
        }
        mem_table_free(mem);
    }
    free(text);
    if (kf) { /* it must still fail, for the reason on record */
        if (ok) fprintf(stderr, "%s loads now: take it off the known failures\n", name);
        else if (!strstr(err, kf->error)) fprintf(stderr, "%s fails differently: %s\n", name, err);
        else return true;
        return false;
    }
    if (!ok) fprintf(stderr, "%s\n", err);
    else if (verbose) printf("%s: ok\n", name);
    return ok;
}

/* Load every .ptx directly in dir; returns the number that failed, counts into *n. */
static int load_dir(const char *dir, int *n) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        return 1;
    }
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        (*n)++;
        if (!load_one(path, e->d_name, false)) failed++;
    }
    closedir(d);
    return failed;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        int failed = 0;
        for (int i = 1; i < argc; i++) failed += !load_one(argv[i], argv[i], true);
        return failed != 0;
    }
    static const char *const dirs[] = { "ptx/parse", "ptx/corpus", "ptx/exec", "ptx/alu",
                                        "ptx/gpu" };
    int failed = 0, n = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", VCUDA_TEST_DIR, dirs[i]);
        failed += load_dir(dir, &n);
    }
    if (n < 60) {
        fprintf(stderr, "only %d PTX files found\n", n);
        failed++;
    }
    if (failed) {
        fprintf(stderr, "test_ptx_lower_all: %d of %d files failed to load\n", failed, n);
        return 1;
    }
    printf("test_ptx_lower_all: %d files parsed and loaded\n", n);
    return 0;
}
