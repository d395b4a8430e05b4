/* tools/check.c — `vcuda check`: run a program under one of the checkers, in the manner
 * of compute-sanitizer.
 *
 *   vcuda check [--tool memcheck|racecheck|synccheck|initcheck] [--leak-check full|no]
 *               [--log-file FILE] [--print-limit N] [--error-exitcode N]
 *               [--device NAME] [--threads N] ./app [args]
 *
 * The command only sets the environment the runtime reads (VCUDA_CHECK and friends, see
 * check/check.h), runs the program and waits for it. The reports are written by the
 * library inside the program, on its stdout with compute-sanitizer's "========= " prefix
 * (or into --log-file); the library leaves the error count in a status file, from which
 * the command prints the closing "ERROR SUMMARY" once it knows how the program ended.
 *
 * Exit status: --error-exitcode (default 1) when any error was reported, otherwise the
 * program's own. (compute-sanitizer returns the program's status unless asked with
 * --error-exitcode; a checker that found errors should say so to scripts by default.)
 * memcheck runs blocks on one host thread unless --threads says otherwise: the first
 * invalid access stops a grid, and which blocks ran before that must not depend on how
 * host threads were scheduled.
 */
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "gpu/gpu.h"

static bool parse_count(const char *opt, const char *v, long min, long *out) {
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (*v && !*end && !errno && n >= min) {
        *out = n;
        return true;
    }
    fprintf(stderr, "vcuda check: %s needs a number >= %ld, not '%s'\n", opt, min, v);
    return false;
}

static void check_usage(FILE *f) {
    fprintf(f,
            "usage: vcuda check [options] ./app [args]\n"
            "\n"
            "Runs a CUDA program on the virtual GPU under a checker, as compute-sanitizer does:\n"
            "reports go to the program's stdout prefixed with \"========= \", followed by\n"
            "\"ERROR SUMMARY: N errors\".\n"
            "\n"
            "  --tool NAME           memcheck (default): out-of-bounds and misaligned accesses,\n"
            "                        use after free, bad frees, API errors;\n"
            "                        racecheck: hazards between threads of a block (shared\n"
            "                        and global memory; lanes of one warp on sm_70+ presets);\n"
            "                        synccheck: divergent barriers, bad warp-sync masks;\n"
            "                        initcheck: reads of device memory nothing wrote\n"
            "  --leak-check full|no  memcheck: report device memory never freed (default no)\n"
            "  --log-file FILE       write the reports to FILE instead of stdout\n"
            "  --print-limit N       print at most N reports (default 100; 0: all)\n"
            "  --error-exitcode N    exit status when errors were found (default 1)\n"
            "  --device NAME         emulate this device (sets VCUDA_DEVICE)\n"
            "  --threads N           host threads running blocks (memcheck default: 1)\n");
}

int tool_check(int argc, char **argv) {
    check_tool tool = CHECK_TOOL_MEMCHECK;
    bool leaks = false, threads_given = false;
    const char *log = NULL;
    long error_exitcode = 1;
    int i = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        long n;
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            check_usage(stdout);
            return 0;
        } else if ((v = tool_option_value(argc, argv, &i, "--tool"))) {
            tool = check_tool_from_name(v);
            if (tool == CHECK_TOOL_NONE) {
                fprintf(stderr, "vcuda check: unknown tool '%s' (memcheck, racecheck, synccheck, "
                        "initcheck)\n", v);
                return 2;
            }
        } else if ((v = tool_option_value(argc, argv, &i, "--leak-check"))) {
            if (strcmp(v, "full") && strcmp(v, "no")) {
                fprintf(stderr, "vcuda check: --leak-check takes full or no, not '%s'\n", v);
                return 2;
            }
            leaks = !strcmp(v, "full");
        } else if ((v = tool_option_value(argc, argv, &i, "--log-file"))) {
            log = v;
        } else if ((v = tool_option_value(argc, argv, &i, "--print-limit"))) {
            if (!parse_count("--print-limit", v, 0, &n)) return 2;
            setenv("VCUDA_CHECK_PRINT_LIMIT", v, 1);
        } else if ((v = tool_option_value(argc, argv, &i, "--error-exitcode"))) {
            if (!parse_count("--error-exitcode", v, 0, &n) || n > 255) return 2;
            error_exitcode = n;
        } else if ((v = tool_option_value(argc, argv, &i, "--device"))) {
            if (!gpu_preset_find(v)) {
                fprintf(stderr, "vcuda check: unknown device '%s' (see vcuda devices --all)\n", v);
                return 2;
            }
            setenv("VCUDA_DEVICE", v, 1);
        } else if ((v = tool_option_value(argc, argv, &i, "--threads"))) {
            if (!parse_count("--threads", v, 1, &n)) return 2;
            setenv("VCUDA_THREADS", v, 1);
            threads_given = true;
        } else {
            fprintf(stderr, "vcuda check: unknown option '%s' (see vcuda check --help)\n", argv[i]);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "vcuda check: no program given (usage: vcuda check [options] ./app "
                "[args])\n");
        return 2;
    }
    if (leaks && tool != CHECK_TOOL_MEMCHECK) {
        fprintf(stderr, "vcuda check: --leak-check is a memcheck option\n");
        return 2;
    }

    FILE *out = stdout;
    if (log) {
        out = fopen(log, "w"); /* the program appends its reports */
        if (!out) {
            fprintf(stderr, "vcuda check: cannot write %s: %s\n", log, strerror(errno));
            return 2;
        }
        setenv("VCUDA_CHECK_LOG", log, 1);
    }
    char status_path[] = "/tmp/vcuda-check.XXXXXX";
    int fd = mkstemp(status_path);
    if (fd < 0) {
        fprintf(stderr, "vcuda check: cannot make a status file: %s\n", strerror(errno));
        return 2;
    }
    close(fd);
    setenv("VCUDA_CHECK", check_tool_name(tool), 1);
    if (leaks) setenv("VCUDA_CHECK_LEAKS", "1", 1);
    setenv("VCUDA_CHECK_STATUS", status_path, 1);
    if (tool == CHECK_TOOL_MEMCHECK && !threads_given) setenv("VCUDA_THREADS", "1", 1);

    const char *device = getenv("VCUDA_DEVICE");
    const gpu_preset *preset = device && *device ? gpu_preset_find(device) : &gpu_presets[0];
    fprintf(out, "========= VCUDA CHECK: %s on %s (compute capability %d.%d)\n",
            check_tool_name(tool), preset ? preset->key : device, preset ? preset->major : 0,
            preset ? preset->minor : 0);
    fflush(out);

    tool_use_vcuda_libraries();
    int rc = tool_spawn_wait(argv + i);

    uint64_t errors = 0, printed = 0;
    bool have_status = false;
    FILE *st = fopen(status_path, "r");
    if (st) {
        have_status = fscanf(st, "errors %" SCNu64 " printed %" SCNu64, &errors, &printed) == 2;
        fclose(st);
    }
    unlink(status_path);

    if (log) {
        fclose(out);
        out = fopen(log, "a");
        if (!out) out = stdout;
    }
    if (!have_status && rc >= 128)
        fprintf(out, "========= Error: the program was killed by signal %d before its "
                "checker could report\n", rc - 128);
    if (rc != 0) fprintf(out, "========= Target application returned an error\n");
    fprintf(out, "========= ERROR SUMMARY: %" PRIu64 " error%s\n", errors, errors == 1 ? "" : "s");
    if (errors > printed)
        fprintf(out, "========= ERROR SUMMARY: %" PRIu64 " error%s not printed. Use "
                "--print-limit option to adjust the number of printed errors\n",
                errors - printed, errors - printed == 1 ? " was" : "s were");
    fflush(out);
    if (out != stdout) fclose(out);
    if (errors) return (int)error_exitcode;
    return rc;
}
