/* tools/vcuda.c — the `vcuda` command: dispatch to its sub-commands, `run`, help and
 * version, and the process helpers the sub-commands share.
 *
 *   vcuda cc [nvcc options] files...   compile and link a CUDA program against libvcuda
 *   vcuda run [--device NAME] [--threads N] ./app [args]
 *   vcuda devices [--all] [--device NAME]
 *   vcuda prof [options] ./app [args]  (tools/prof.c)
 *   vcuda check [--tool NAME] [options] ./app [args]   (tools/check.c)
 */
#include "tool.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gpu/gpu.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: vcuda <command> [arguments]\n"
            "\n"
            "vcuda runs CUDA programs on a virtual NVIDIA GPU.\n"
            "\n"
            "commands:\n"
            "  cc [nvcc options] files...   compile with nvcc and link against libvcuda\n"
            "                               (-v, --verbose: print the nvcc command)\n"
            "  run [options] ./app [args]   run a program, with a per-kernel report at exit\n"
            "        --device NAME          emulate this device (sets VCUDA_DEVICE)\n"
            "        --devices LIST         several devices: h100,a100 or h100x2\n"
            "        --threads N            host threads running blocks (sets VCUDA_THREADS)\n"
            "  devices [--all]              describe the emulated devices (or every preset)\n"
            "        --device(s) LIST       describe these devices\n"
            "  prof [options] ./app [args]  profile: per-kernel time, configuration and\n"
            "                               metrics (see vcuda prof --help)\n"
            "  check [options] ./app [args] run a program under a checker (memcheck, racecheck,\n"
            "                               synccheck, initcheck): see vcuda check --help\n"
            "\n"
            "options: --help, --version\n"
            "devices:");
    for (size_t i = 0; i < gpu_preset_count; i++)
        fprintf(f, " %s%s", gpu_presets[i].key, i == 0 ? " (default)" : "");
    fprintf(f, "\n");
}

/* ---- helpers shared by the sub-commands ---- */

const char *tool_exe_dir(void) {
    static char dir[PATH_MAX];
    if (dir[0])
        return dir;
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    if (n <= 0) {
        dir[0] = 0;
        return NULL;
    }
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    return dir;
}

static bool needs_quotes(const char *s) {
    if (!*s)
        return true;
    for (; *s; s++) {
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
              strchr("-_./=,:+@%", *s)))
            return true;
    }
    return false;
}

void tool_print_command(char *const *argv) {
    for (size_t i = 0; argv[i]; i++) {
        if (i)
            fputc(' ', stderr);
        if (!needs_quotes(argv[i])) {
            fputs(argv[i], stderr);
            continue;
        }
        fputc('\'', stderr);
        for (const char *c = argv[i]; *c; c++) {
            if (*c == '\'')
                fputs("'\\''", stderr);
            else
                fputc(*c, stderr);
        }
        fputc('\'', stderr);
    }
    fputc('\n', stderr);
}

int tool_spawn_wait(char *const *argv) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "vcuda: cannot start %s: %s\n", argv[0], strerror(errno));
        return 127;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "vcuda: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return 127;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/* ---- vcuda run ---- */

static int tool_run(int argc, char **argv) {
    int i = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *v;
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if ((v = tool_option_value(argc, argv, &i, "--devices")) ||
                   (v = tool_option_value(argc, argv, &i, "--device"))) {
            if (!tool_check_devices("vcuda", v))
                return 2;
            setenv("VCUDA_DEVICE", v, 1);
        } else if ((v = tool_option_value(argc, argv, &i, "--threads"))) {
            if (!tool_check_threads("vcuda run", v))
                return 2;
            setenv("VCUDA_THREADS", v, 1);
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "vcuda run: unknown option '%s' (see vcuda --help)\n", argv[i]);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "vcuda run: no program given (usage: vcuda run [options] ./app [args])\n");
        return 2;
    }
    setenv("VCUDA_REPORT", "1", 1);
    tool_use_vcuda_libraries();
    fflush(stdout);
    execvp(argv[i], argv + i);
    fprintf(stderr, "vcuda run: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("vcuda %s (CUDA runtime API %d.%d)\n", VCUDA_VERSION_STRING, CUDART_VERSION / 1000,
               (CUDART_VERSION % 100) / 10);
        return 0;
    }
    if (strcmp(cmd, "cc") == 0)
        return tool_cc(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0)
        return tool_run(argc - 2, argv + 2);
    if (strcmp(cmd, "devices") == 0)
        return tool_devices(argc - 2, argv + 2);
    if (strcmp(cmd, "prof") == 0)
        return tool_prof(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0)
        return tool_check(argc - 2, argv + 2);
    fprintf(stderr, "vcuda: unknown command '%s' (see vcuda --help)\n", cmd);
    return 2;
}
