/* tools/prof.c — `vcuda prof`: profile a CUDA program on the virtual GPU, in the spirit
 * of nvprof.
 *
 *   vcuda prof [options] ./app [args]
 *     (no option)            per-kernel summary: calls, estimated device time, grid and
 *                            block, registers per thread, shared memory, occupancy
 *     --metrics a,b,... | all  metrics by nvprof name or Nsight Compute name, per kernel
 *                            (invocations, min, max, avg) as nvprof prints them
 *     --events a,b,...       the same (nvprof's events are rows of the one metric table)
 *     --print-gpu-trace      one line per launch instead of per kernel
 *     --csv                  comma-separated output
 *     --log-file PATH        the report into PATH instead of stderr
 *     --timeline FILE        also the run's timeline: Chrome trace-event JSON, or an HTML
 *                            page drawing it when FILE ends in .html (runtime/trace.c)
 *     --query-metrics        list every metric under its nvprof and Nsight Compute names
 *     --device NAME, --threads N   as for `vcuda run`
 *
 * The command checks the options, sets the environment the runtime reads (VCUDA_PROF and
 * friends, runtime/profile.c) and runs the program in its own process, so the program's
 * stdout is untouched; the report goes to stderr at exit, as nvprof's does.
 */
#include "tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu.h"
#include "prof/report.h"

static void prof_usage(FILE *f) {
    fprintf(f,
            "usage: vcuda prof [options] ./app [args]\n"
            "\n"
            "Profile a CUDA program on the virtual GPU. Without options: per kernel, the\n"
            "calls, estimated device time, grid, block, registers, shared memory, occupancy.\n"
            "\n"
            "options:\n"
            "  --metrics LIST          nvprof or Nsight Compute metric names, comma-separated,\n"
            "                          or 'all' (every nvprof metric)\n"
            "  --events LIST           the same\n"
            "  --print-gpu-trace       one line per kernel launch\n"
            "  --csv                   comma-separated values\n"
            "  --log-file PATH         write the report to PATH (default: stderr)\n"
            "  --timeline FILE         write the run's timeline (streams, copies, kernels with\n"
            "                          their metrics, host functions, events, the host's API\n"
            "                          calls) on the virtual device clock: Chrome trace-event\n"
            "                          JSON (Perfetto, chrome://tracing), or a page to open\n"
            "                          in a browser when FILE ends in .html\n"
            "  --query-metrics         list the metrics and exit\n"
            "  --device NAME           emulate this device (sets VCUDA_DEVICE)\n"
            "  --threads N             host threads running blocks (sets VCUDA_THREADS)\n");
}

static void query_metrics(void) {
    printf("%-42s %-70s %s\n", "nvprof name", "Nsight Compute name", "Description");
    for (size_t i = 0; i < prof_metric_count; i++) {
        const prof_metric *m = &prof_metrics[i];
        printf("%-42s %-70s %s%s\n", m->nvprof ? m->nvprof : "-", m->ncu ? m->ncu : "-",
               m->description, m->flags & PROF_MF_EVENT ? " (nvprof event)" : "");
    }
}

/* Append a to the comma-separated list in buf. */
static bool append_list(char *buf, size_t n, const char *a) {
    size_t len = strlen(buf);
    int w = snprintf(buf + len, n - len, "%s%s", len ? "," : "", a);
    return w >= 0 && (size_t)w < n - len;
}

int tool_prof(int argc, char **argv) {
    static char metrics[8192];
    int i = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if ((v = tool_option_value(argc, argv, &i, "--metrics")) ||
                   (v = tool_option_value(argc, argv, &i, "--events")) ||
                   (v = tool_option_value(argc, argv, &i, "-m")) ||
                   (v = tool_option_value(argc, argv, &i, "-e"))) {
            if (!append_list(metrics, sizeof metrics, v)) {
                fprintf(stderr, "vcuda prof: metric list too long\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--print-gpu-trace") == 0) {
            setenv("VCUDA_PROF_TRACE", "1", 1);
        } else if (strcmp(argv[i], "--csv") == 0) {
            setenv("VCUDA_PROF_CSV", "1", 1);
        } else if ((v = tool_option_value(argc, argv, &i, "--log-file")) ||
                   (v = tool_option_value(argc, argv, &i, "-o"))) {
            setenv("VCUDA_PROF_LOG", v, 1);
        } else if ((v = tool_option_value(argc, argv, &i, "--timeline"))) {
            if (!*v) {
                fprintf(stderr, "vcuda prof: --timeline needs a file name\n");
                return 2;
            }
            setenv("VCUDA_PROF_TIMELINE", v, 1);
        } else if (strcmp(argv[i], "--query-metrics") == 0) {
            query_metrics();
            return 0;
        } else if ((v = tool_option_value(argc, argv, &i, "--devices")) ||
                   (v = tool_option_value(argc, argv, &i, "--device"))) {
            if (!tool_check_devices("vcuda prof", v)) return 2;
            setenv("VCUDA_DEVICE", v, 1);
        } else if ((v = tool_option_value(argc, argv, &i, "--threads"))) {
            if (!tool_check_threads("vcuda prof", v)) return 2;
            setenv("VCUDA_THREADS", v, 1);
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            prof_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "vcuda prof: unknown option '%s' (see vcuda prof --help)\n", argv[i]);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "vcuda prof: no program given (usage: vcuda prof [options] ./app [args])\n");
        return 2;
    }
    if (metrics[0]) {
        prof_selection sel;
        char err[256];
        if (!prof_selection_parse(&sel, metrics, err, sizeof err)) {
            fprintf(stderr, "vcuda: %s (see vcuda prof --query-metrics)\n", err);
            return 1;
        }
        char perr[256] = "";
        const gpu_preset *p = gpu_preset_from_env(perr, sizeof perr);
        if (p && !prof_selection_check(&sel, p, err, sizeof err)) {
            fprintf(stderr, "vcuda: %s\n", err);
            return 1;
        }
        setenv("VCUDA_PROF_METRICS", metrics, 1);
    }
    /* the command line, for the report's first lines */
    char command[4096] = "";
    size_t len = 0;
    for (int k = i; k < argc && len < sizeof command; k++) {
        int w = snprintf(command + len, sizeof command - len, "%s%s", k > i ? " " : "", argv[k]);
        if (w < 0) break;
        len += (size_t)w;
    }
    setenv("VCUDA_PROF", "1", 1);
    setenv("VCUDA_PROF_COMMAND", command, 1);
    if (!getenv("VCUDA_PROF_CSV"))
        fprintf(stderr, "==%d== vcuda prof is profiling process %d, command: %s\n", (int)getpid(),
                (int)getpid(), command);
    fflush(stderr);
    tool_use_vcuda_libraries();
    execvp(argv[i], argv + i);
    fprintf(stderr, "vcuda prof: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
