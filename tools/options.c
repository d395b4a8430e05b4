/* tools/options.c — the command-line options that several `vcuda` commands take alike. */
#include "tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"

const char *tool_option_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] == 0 && *i + 1 < argc) return argv[++*i];
    return NULL;
}

bool tool_check_devices(const char *who, const char *name) {
    const gpu_preset *list[GPU_MAX_DEVICES];
    char err[512];
    if (gpu_preset_list(name, list, GPU_MAX_DEVICES, err, sizeof err) > 0) return true;
    fprintf(stderr, "%s: unknown device '%s'; valid names:", who, name);
    for (size_t i = 0; i < gpu_preset_count; i++) fprintf(stderr, " %s", gpu_presets[i].key);
    fprintf(stderr, " (several: h100,a100 or h100x2)\n");
    return false;
}

bool tool_check_threads(const char *who, const char *v) {
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 1) {
        fprintf(stderr, "%s: --threads needs a positive number, not '%s'\n", who, v);
        return false;
    }
    return true;
}
