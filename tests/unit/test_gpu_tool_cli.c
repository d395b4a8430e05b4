/* tests/unit/test_gpu_tool_cli.c — the `vcuda` command (build/bin/vcuda next to this
 * test's folder): help and version, the commands not built yet, `run` setting the
 * environment, `devices` against what deviceQuery printed on an H100, and the nvcc
 * command `cc` builds (checked with a stand-in nvcc that prints its arguments, and with
 * the real nvcc's --dryrun when there is one). */
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test_files.h"

static int failures;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static char vcuda[PATH_MAX + 16];
static char tmpdir[PATH_MAX];

/* Run a shell command line; return its exit status and its stdout+stderr in *out. */
static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...) {
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[4200];
    snprintf(full, sizeof full, "( %s ) 2>&1", cmd);
    FILE *p = popen(full, "r");
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int status = pclose(p);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_basics(void) {
    char *out;
    CHECK(sh(&out, "%s --version", vcuda) == 0 && strstr(out, "vcuda ") && strstr(out, "13.0"));
    free(out);
    CHECK(sh(&out, "%s --help", vcuda) == 0 && strstr(out, "cc [nvcc options]") &&
          strstr(out, "h100 (default)") && strstr(out, "fermi"));
    free(out);
    CHECK(sh(&out, "%s", vcuda) == 2);
    free(out);
    CHECK(sh(&out, "%s frobnicate", vcuda) == 2 && strstr(out, "unknown command"));
    free(out);
    /* prof: checks its options, then runs the program with the profiler's environment */
    CHECK(sh(&out, "%s prof", vcuda) == 2 && strstr(out, "no program given"));
    free(out);
    CHECK(sh(&out, "%s prof --metrics gld_efficiency,nonsense_metric true", vcuda) == 1 &&
          strstr(out, "unknown metric or event name \"nonsense_metric\""));
    free(out);
    CHECK(sh(&out, "%s prof --device fermi --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum "
             "true", vcuda) == 1 && strstr(out, "not available on"));
    free(out);
    CHECK(sh(&out, "%s prof --metrics branch_efficiency --events gld_transactions --print-gpu-trace "
             "--csv sh -c 'echo $VCUDA_PROF $VCUDA_PROF_METRICS $VCUDA_PROF_TRACE $VCUDA_PROF_CSV'",
             vcuda) == 0 &&
          strcmp(out, "1 branch_efficiency,gld_transactions 1 1\n") == 0);
    free(out);
    CHECK(sh(&out, "%s prof --query-metrics", vcuda) == 0 && strstr(out, "achieved_occupancy") &&
          strstr(out, "smsp__sass_average_branch_targets_threads_uniform.pct"));
    free(out);
    CHECK(sh(&out, "%s check", vcuda) == 2 && strstr(out, "no program given"));
    free(out);
    CHECK(sh(&out, "%s check --tool nocheck ./app", vcuda) == 2 && strstr(out, "unknown tool"));
    free(out);
    CHECK(sh(&out, "%s check --tool racecheck --leak-check full ./app", vcuda) == 2 &&
          strstr(out, "memcheck option"));
    free(out);
    CHECK(sh(&out, "%s check --help", vcuda) == 0 && strstr(out, "--leak-check"));
    free(out);
}

static void test_run(void) {
    char *out;
    CHECK(sh(&out, "env -u VCUDA_DEVICE %s run sh -c 'echo dev=$VCUDA_DEVICE report=$VCUDA_REPORT'",
             vcuda) == 0 &&
          strcmp(out, "dev= report=1\n") == 0);
    free(out);
    CHECK(sh(&out, "%s run --device K40 --threads 3 sh -c 'echo $VCUDA_DEVICE $VCUDA_THREADS; exit 7'",
             vcuda) == 7 &&
          strcmp(out, "K40 3\n") == 0);
    free(out);
    CHECK(sh(&out, "%s run --device=v100 -- sh -c 'echo $VCUDA_DEVICE'", vcuda) == 0 &&
          strcmp(out, "v100\n") == 0);
    free(out);
    CHECK(sh(&out, "%s run --device gtx9000 true", vcuda) == 2 &&
          strstr(out, "unknown device 'gtx9000'") && strstr(out, "a100"));
    free(out);
    CHECK(sh(&out, "%s run --threads zero true", vcuda) == 2);
    free(out);
    CHECK(sh(&out, "%s run", vcuda) == 2 && strstr(out, "no program"));
    free(out);
    CHECK(sh(&out, "%s run ./no-such-program-here", vcuda) == 127);
    free(out);
}

static void test_devices(void) {
    char *out;
    CHECK(sh(&out, "env -u VCUDA_DEVICE %s devices 2>/dev/null", vcuda) == 0);
    char *want = test_read_file(VCUDA_TEST_DIR "/data/h100/devicequery.txt", NULL);
    CHECK(want != NULL);
    if (want) {
        /* the same, but for the program's name on the first line */
        const char *o = strchr(out, '\n'), *w = strchr(want, '\n');
        CHECK(strncmp(out, "vcuda devices Starting...", 25) == 0);
        CHECK(o && w && strcmp(o, w) == 0);
        if (o && w && strcmp(o, w) != 0)
            fprintf(stderr, "--- vcuda devices:\n%s--- recorded:\n%s", out, want);
    }
    free(want);
    free(out);

    CHECK(sh(&out, "%s devices --device fermi 2>/dev/null", vcuda) == 0 &&
          strstr(out, "Device 0: \"Tesla M2090\"") &&
          strstr(out, "(016) Multiprocessors, (032) CUDA Cores/MP:    512 CUDA Cores") &&
          strstr(out, "(65535, 65535, 65535)"));
    free(out);
    CHECK(sh(&out, "%s devices --all 2>/dev/null", vcuda) == 0 &&
          strstr(out, "=== h100: NVIDIA H100 80GB HBM3, Hopper") &&
          strstr(out, "\"NVIDIA A100-SXM4-40GB\"") && strstr(out, "\"Tesla V100-SXM2-16GB\"") &&
          strstr(out, "\"Tesla K40m\"") && strstr(out, "\"Tesla M2090\"") &&
          strstr(out, "(015) Multiprocessors, (192) CUDA Cores/MP:    2880 CUDA Cores"));
    free(out);
    CHECK(sh(&out, "%s devices --device nope", vcuda) == 2 && strstr(out, "valid names"));
    free(out);
    CHECK(sh(&out, "VCUDA_DEVICE=nope %s devices", vcuda) != 0 && strstr(out, "nope"));
    free(out);
}

/* ---- vcuda cc ---- */

static char fake_nvcc[PATH_MAX + 16];

/* The arguments vcuda cc passed to the stand-in nvcc, one line. */
static char *cc_args(const char *args) {
    char *out;
    int rc = sh(&out, "VCUDA_NVCC=%s %s cc %s", fake_nvcc, vcuda, args);
    CHECK(rc == 0);
    return out;
}

/* An installed layout, <prefix>/bin/vcuda and <prefix>/lib/libvcuda.so (a stand-in
 * library with the registration entry points a kernel-less program calls): the program
 * links against that library and finds it at run time through its rpath. */
static void test_cc_link_installed_layout(void) {
    char *out;
    CHECK(sh(&out, "mkdir -p %s/prefix/bin %s/prefix/lib && cp %s %s/prefix/bin/vcuda", tmpdir,
             tmpdir, vcuda, tmpdir) == 0);
    free(out);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/stub.c", tmpdir);
    FILE *f = fopen(path, "w");
    fprintf(f, "#include <stdio.h>\n"
               "void **__cudaRegisterFatBinary(void *fb) { (void)fb; puts(\"stand-in libvcuda\"); return 0; }\n"
               "void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }\n"
               "void __cudaUnregisterFatBinary(void **h) { (void)h; }\n"
               "char __cudaInitModule(void **h) { (void)h; return 0; }\n");
    fclose(f);
    CHECK(sh(&out, "cc -shared -fPIC -o %s/prefix/lib/libvcuda.so %s", tmpdir, path) == 0);
    free(out);
    snprintf(path, sizeof path, "%s/main.cu", tmpdir);
    f = fopen(path, "w");
    fprintf(f, "#include <cstdio>\nint main() { std::puts(\"main ran\"); return 0; }\n");
    fclose(f);
    CHECK(sh(&out, "cd %s && env -u VCUDA_NVCC prefix/bin/vcuda cc -o app main.cu", tmpdir) == 0);
    free(out);
    CHECK(sh(&out, "cd / && %s/app", tmpdir) == 0 && strcmp(out, "stand-in libvcuda\nmain ran\n") == 0);
    free(out);
}

static void test_cc(void) {
    snprintf(fake_nvcc, sizeof fake_nvcc, "%s/nvcc", tmpdir);
    FILE *f = fopen(fake_nvcc, "w");
    fprintf(f, "#!/bin/sh\necho \"$@\"\n");
    fclose(f);
    chmod(fake_nvcc, 0755);

    /* linking: -cudart none first, the library and its rpath last */
    char *a = cc_args("-O2 -o app app.cu");
    CHECK(strncmp(a, "-cudart none -O2 -o app app.cu -L", 33) == 0);
    CHECK(strstr(a, "/lib -lvcuda -Xlinker -rpath,") != NULL);
    CHECK(strstr(a, "-gencode") == NULL); /* nvcc's default embeds PTX */
    free(a);
    /* compiling only: no library; the user's -cudart is replaced, and no machine code is
     * made (a real architecture becomes its virtual one) */
    a = cc_args("-c -cudart static -arch=sm_90 x.cu -o x.o");
    CHECK(strcmp(a, "-cudart none -c -arch=compute_90 -code=compute_90 x.cu -o x.o\n") == 0);
    free(a);
    a = cc_args("-c -arch sm_90a x.cu");
    CHECK(strcmp(a, "-cudart none -c -arch=compute_90a -code=compute_90a x.cu\n") == 0);
    free(a);
    a = cc_args("-c -arch=native x.cu");
    CHECK(strcmp(a, "-cudart none -c -arch=native x.cu\n") == 0);
    free(a);
    /* VCUDA_CC_SASS=1 keeps nvcc's machine code */
    char *out;
    CHECK(sh(&out, "VCUDA_CC_SASS=1 VCUDA_NVCC=%s %s cc -c -arch=sm_90 x.cu", fake_nvcc, vcuda) == 0 &&
          strcmp(out, "-cudart none -c -arch=sm_90 x.cu\n") == 0);
    free(out);
    a = cc_args("--cudart=shared -ptx x.cu");
    CHECK(strcmp(a, "-cudart none -ptx x.cu\n") == 0);
    free(a);
    /* machine code named: the virtual architecture's PTX instead */
    a = cc_args("-c -arch=compute_80 -code=sm_80,sm_86 x.cu");
    CHECK(strcmp(a, "-cudart none -c -arch=compute_80 -code=compute_80 x.cu\n") == 0);
    free(a);
    a = cc_args("-c -gencode arch=compute_70,code=sm_70 -gencode=arch=compute_90a,code=sm_90a x.cu");
    CHECK(strcmp(a, "-cudart none -c -gencode=arch=compute_70,code=compute_70 "
                    "-gencode=arch=compute_90a,code=compute_90a x.cu\n") == 0);
    free(a);
    a = cc_args("-c --generate-code arch=compute_80,code=[sm_80,compute_80] x.cu");
    CHECK(strcmp(a, "-cudart none -c -gencode=arch=compute_80,code=[compute_80] x.cu\n") == 0);
    free(a);
    a = cc_args("-c -arch compute_75 -code compute_75,sm_75 x.cu");
    CHECK(strcmp(a, "-cudart none -c -arch=compute_75 -code=compute_75 x.cu\n") == 0);
    free(a);
    /* with VCUDA_CC_SASS=1, SASS only: PTX added for the highest architecture named */
    CHECK(sh(&out, "VCUDA_CC_SASS=1 VCUDA_NVCC=%s %s cc -c -arch=compute_80 -code=sm_80,sm_86 x.cu",
             fake_nvcc, vcuda) == 0 &&
          strcmp(out, "-cudart none -c -arch=compute_80 -code=sm_80,sm_86 x.cu -gencode "
                      "arch=compute_86,code=compute_86\n") == 0);
    free(out);
    /* values taken as values: "-o -c" names an output file called -c (links) */
    a = cc_args("-Xcompiler -fPIC -I inc -o app app.cu");
    CHECK(strstr(a, "-Xcompiler -fPIC -I inc -o app app.cu -L") != NULL);
    free(a);
    a = cc_args("-dc -rdc true x.cu");
    CHECK(strstr(a, "-lvcuda") == NULL);
    free(a);
    /* -v prints the command (to stderr) and is not passed on */
    CHECK(sh(&out, "VCUDA_NVCC=%s %s cc -v -c x.cu 2>&1 >/dev/null", fake_nvcc, vcuda) == 0);
    CHECK(strstr(out, "/nvcc -cudart none -c x.cu\n") != NULL);
    free(out);
    CHECK(sh(&out, "VCUDA_NVCC=/no/such/nvcc %s cc -c x.cu", vcuda) == 127);
    free(out);

    /* the real nvcc, if there is one: the added options are accepted and PTX is embedded */
    if (sh(&out, "command -v nvcc || test -x \"$CUDA_HOME/bin/nvcc\" || test -x /usr/local/cuda/bin/nvcc") == 0) {
        free(out);
        char src[PATH_MAX + 8];
        snprintf(src, sizeof src, "%s/k.cu", tmpdir);
        f = fopen(src, "w");
        fprintf(f, "__global__ void k(int *p) { *p = 1; }\n");
        fclose(f);
        CHECK(sh(&out, "env -u VCUDA_NVCC %s cc --dryrun -c -arch=compute_90 -code=sm_90 %s -o %s/k.o",
                 vcuda, src, tmpdir) == 0 &&
              strstr(out, "kind=ptx,sm=90") && !strstr(out, "kind=elf"));
        free(out);
        CHECK(sh(&out, "env -u VCUDA_NVCC VCUDA_CC_SASS=1 %s cc --dryrun -c -arch=sm_90 %s -o %s/k.o",
                 vcuda, src, tmpdir) == 0 &&
              strstr(out, "kind=ptx,sm=90") && strstr(out, "kind=elf,sm=90"));
        free(out);
        CHECK(sh(&out, "env -u VCUDA_NVCC %s cc --dryrun -gencode arch=compute_80,code=sm_80 %s -o %s/k",
                 vcuda, src, tmpdir) == 0 &&
              strstr(out, "kind=ptx,sm=80") && strstr(out, "-lvcuda") &&
              strstr(out, "-rpath"));
        free(out);
        test_cc_link_installed_layout();
    } else {
        free(out);
        printf("no nvcc: the real-compiler checks are skipped\n");
    }
}

int main(void) {
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(n > 0);
    self[n > 0 ? n : 0] = 0;
    *strrchr(self, '/') = 0; /* build/tests */
    snprintf(vcuda, sizeof vcuda, "%s/../bin/vcuda", self);
    if (access(vcuda, X_OK) != 0) {
        fprintf(stderr, "test_gpu_tool_cli: %s is not built\n", vcuda);
        return 1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/vcuda-cli-XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    test_basics();
    test_run();
    test_devices();
    test_cc();
    char *out;
    sh(&out, "rm -rf '%s'", tmpdir);
    free(out);
    if (failures) {
        fprintf(stderr, "test_gpu_tool_cli: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_gpu_tool_cli: ok\n");
    return 0;
}
