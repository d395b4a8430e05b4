/* tools/cc.c — `vcuda cc`: compile a CUDA program with nvcc for the virtual GPU.
 *
 * The user's nvcc options pass through unchanged, with four changes:
 *   - `-cudart none` (any -cudart the user gave is replaced): the program must not link
 *     NVIDIA's runtime, libvcuda provides the same entry points;
 *   - no machine code (SASS) is made, since vcuda runs PTX and ptxas's code generation is
 *     a sixth of a large program's compile (Thrust's sort: 17 of 104 CPU seconds): a real
 *     architecture becomes its virtual one, -arch=sm_NN alone turning into
 *     -arch=compute_NN -code=compute_NN and the sm_NN entries of -code or of a -gencode's
 *     code= into the virtual architecture's compute_NN (__CUDA_ARCH__ and the PTX are
 *     what they were). VCUDA_CC_SASS=1 keeps nvcc's machine code, for a binary meant to
 *     run on a GPU as well;
 *   - -cubin (machine code only, which vcuda cannot run) makes a fatbin holding the PTX
 *     instead, under the name the cubin would have had (the -o given, else the input's
 *     base name with .cubin): cuModuleLoad and cuModuleLoadData take either, by content,
 *     as nvrtcGetCUBIN's answer is one too (nvrtc/nvrtc.c);
 *   - PTX must be in the binary, since PTX is what vcuda runs: when the -arch/-code/
 *     -gencode options name only machine code (SASS), `-gencode
 *     arch=compute_NN,code=compute_NN` is added for the highest NN they name (with no
 *     architecture option at all, nvcc's default embeds PTX already);
 *   - when nvcc links (no -c, -E, -ptx, -lib, ... phase option), `-L<libdir> -lvcuda
 *     -Xlinker -rpath,<libdir>`, where libdir is the lib folder next to this command's
 *     bin folder (a build tree or an installed tree) or else the build's lib folder.
 * Linking relocatable device code (-rdc=true, or objects given as inputs) takes the
 * separate-compilation path of tools/rdc.c, which does the device-link step itself.
 * nvcc is VCUDA_NVCC, else $CUDA_HOME/bin/nvcc, else the nvcc found when vcuda was built,
 * else nvcc from PATH.
 */
#include "tool.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef VCUDA_NVCC
#define VCUDA_NVCC ""
#endif
#ifndef VCUDA_BUILD_DIR
#define VCUDA_BUILD_DIR ""
#endif

/* nvcc options whose value may come as the next argument (so the value is not mistaken
 * for a file or an option of its own). */
static const char *const value_options[] = {
    "-o", "--output-file", "-I", "--include-path", "-D", "--define-macro", "-U",
    "--undefine-macro", "-L", "--library-path", "-l", "--library", "-x", "--x",
    "-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options", "-Xptxas",
    "--ptxas-options", "-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options",
    "-ccbin", "--compiler-bindir", "-arch", "--gpu-architecture", "-code", "--gpu-code",
    "-gencode", "--generate-code", "-std", "--std", "-include", "--pre-include", "-isystem",
    "--system-include", "-odir", "--output-directory", "-MF", "--dependency-output", "-MT",
    "--dependency-target-name", "-maxrregcount", "--maxrregcount", "-rdc",
    "--relocatable-device-code", "-t", "--threads", "-cudart", "--cudart", "-ldir",
    "--libdevice-directory", "-Xfatbin", "--fatbin-options", "-split-compile",
    "--split-compile", "-time", "--time", "-Werror", "--Werror", NULL};

/* Phase options after which nvcc does not link an executable. */
static const char *const no_link_options[] = {
    "-c", "--compile", "-E", "--preprocess", "-ptx", "--ptx", "-cubin", "--cubin",
    "-fatbin", "--fatbin", "-M", "--generate-dependencies", "-MM",
    "--generate-nonsystem-dependencies", "-lib", "--lib", "-dc", "--device-c", "-dw",
    "--device-w", "-dlink", "--device-link", "-cuda", "--cuda", "-optix-ir", "--optix-ir",
    "-lto-ir", "-ltoir", "--generate-lto-ir", "-V", "--version", "-h", "--help",
    "--list-gpu-arch", "-arch-ls", "--list-gpu-code", "-code-ls", NULL};

static bool in_list(const char *const *list, const char *s) {
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

static bool takes_separate_value(const char *opt) { return in_list(value_options, opt); }

/* What the architecture options say. */
typedef struct arch_info {
    bool any;          /* some -arch, -code or -gencode was given */
    bool ptx;          /* PTX will be embedded */
    bool arch_given;   /* -arch given */
    bool code_given;   /* -code given */
    bool arch_implies_ptx; /* -arch names something that embeds PTX by itself */
    int highest;       /* highest compute capability named (e.g. 90), 0 if none */
    char suffix[4];    /* its feature suffix ("a", "f") if any */
} arch_info;

/* Note every sm_NN / compute_NN in text; returns true if one is compute_. */
static bool scan_archs(arch_info *a, const char *text) {
    bool compute = false;
    for (const char *p = text; *p; p++) {
        int skip = 0;
        if (strncmp(p, "compute_", 8) == 0) {
            skip = 8;
            compute = true;
        } else if (strncmp(p, "sm_", 3) == 0) {
            skip = 3;
        }
        if (!skip || !isdigit((unsigned char)p[skip]))
            continue;
        int n = 0;
        const char *q = p + skip;
        while (isdigit((unsigned char)*q))
            n = n * 10 + (*q++ - '0');
        if (n > a->highest) {
            a->highest = n;
            size_t k = 0;
            while (k < sizeof a->suffix - 1 && isalpha((unsigned char)q[k])) {
                a->suffix[k] = q[k];
                k++;
            }
            a->suffix[k] = 0;
        }
        p = q - 1;
    }
    return compute;
}

/* The value of option opt at argv[i] ("-opt=v", "-opt v"), or NULL when argv[i] is not
 * that option. */
static const char *value_of(int argc, char **argv, int i, const char *opt) {
    size_t n = strlen(opt);
    if (strncmp(argv[i], opt, n) != 0)
        return NULL;
    if (argv[i][n] == '=')
        return argv[i] + n + 1;
    if (argv[i][n] == 0)
        return i + 1 < argc ? argv[i + 1] : "";
    return NULL;
}

static void note_arch_option(arch_info *a, int argc, char **argv, int i) {
    const char *v;
    if ((v = value_of(argc, argv, i, "-gencode")) || (v = value_of(argc, argv, i, "--generate-code"))) {
        a->any = true;
        scan_archs(a, v);
        const char *code = strstr(v, "code=");
        if (code && scan_archs(a, code + 5))
            a->ptx = true;
    } else if ((v = value_of(argc, argv, i, "-arch")) ||
               (v = value_of(argc, argv, i, "--gpu-architecture"))) {
        a->any = true;
        a->arch_given = true;
        scan_archs(a, v);
        /* -arch=sm_NN and -arch=compute_NN alone embed PTX; so do all, all-major, native */
        a->arch_implies_ptx = true;
    } else if ((v = value_of(argc, argv, i, "-code")) || (v = value_of(argc, argv, i, "--gpu-code"))) {
        a->any = true;
        a->code_given = true;
        if (scan_archs(a, v))
            a->ptx = true;
    }
}

static bool file_exists(const char *path) { return access(path, F_OK) == 0; }

static const char *find_nvcc(void) {
    static char path[PATH_MAX];
    const char *env = getenv("VCUDA_NVCC");
    if (env && *env)
        return env;
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(path, sizeof path, "%s/bin/nvcc", home);
        if (file_exists(path))
            return path;
    }
    if (VCUDA_NVCC[0] && strstr(VCUDA_NVCC, "NOTFOUND") == NULL && file_exists(VCUDA_NVCC))
        return VCUDA_NVCC;
    return "nvcc";
}

const char *tool_lib_dir(void) {
    static char dir[PATH_MAX];
    char lib[PATH_MAX + 32];
    const char *bin = tool_exe_dir();
    if (bin) {
        snprintf(lib, sizeof lib, "%s/../lib/libvcuda.so", bin);
        char resolved[PATH_MAX];
        if (realpath(lib, resolved)) {
            char *slash = strrchr(resolved, '/');
            *slash = 0;
            snprintf(dir, sizeof dir, "%s", resolved);
            return dir;
        }
    }
    snprintf(dir, sizeof dir, "%s/lib", VCUDA_BUILD_DIR);
    return dir;
}

void tool_use_vcuda_libraries(void) {
    const char *dir = tool_lib_dir();
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    if (!path) return;
    snprintf(path, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", path, 1);
    free(path);
}

/* "compute_" followed by what follows "sm_" or "compute_" at the start of arch ("sm_90a"
 * -> "compute_90a"), or NULL when arch names neither (native, all, all-major). */
static char *virtual_arch(const char *arch) {
    const char *num = strncmp(arch, "sm_", 3) == 0 ? arch + 3
                      : strncmp(arch, "compute_", 8) == 0 ? arch + 8 : NULL;
    if (!num || !isdigit((unsigned char)*num)) return NULL;
    size_t n = strcspn(num, ",]\"");
    char *v = malloc(n + 9);
    if (v) snprintf(v, n + 9, "compute_%.*s", (int)n, num);
    return v;
}

/* A -code list (or a -gencode's code= list, brackets kept) with its sm_ entries replaced
 * by virt once. */
static char *virtual_codes(const char *codes, const char *virt) {
    size_t cap = strlen(codes) + strlen(virt) + 4;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t o = 0;
    bool open = codes[0] == '[', added = false;
    const char *p = codes + (open ? 1 : 0);
    if (open) out[o++] = '[';
    while (*p && *p != ']') {
        size_t n = strcspn(p, ",]");
        bool real = strncmp(p, "sm_", 3) == 0;
        bool is_virt = strlen(virt) == n && strncmp(p, virt, n) == 0;
        const char *item = real || is_virt ? (added ? NULL : virt) : p;
        size_t len = real || is_virt ? strlen(virt) : n;
        if (item) {
            if (o > (open ? 1u : 0u)) out[o++] = ',';
            memcpy(out + o, item, len);
            o += len;
            if (real || is_virt) added = true;
        }
        p += n;
        if (*p == ',') p++;
    }
    if (open) out[o++] = ']';
    out[o] = 0;
    return out;
}

/* The arguments with the architecture options rewritten so that nvcc makes no machine
 * code (see the header); *n_out gets their count. The strings made here live as long as
 * the command. */
static char **without_sass(int argc, char **argv, int *n_out) {
    char **out = calloc((size_t)argc + 2, sizeof *out);
    if (!out) return NULL;
    const char *arch = NULL;
    bool code_given = false;
    for (int i = 0; i < argc; i++) {
        const char *v;
        if ((v = value_of(argc, argv, i, "-arch")) || (v = value_of(argc, argv, i, "--gpu-architecture")))
            arch = v;
        if (value_of(argc, argv, i, "-code") || value_of(argc, argv, i, "--gpu-code"))
            code_given = true;
    }
    char *arch_virt = arch ? virtual_arch(arch) : NULL;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        bool separate = a[0] == '-' && !strchr(a, '=') && i + 1 < argc;
        char *made = NULL, *code = NULL;
        if (arch_virt && ((v = value_of(argc, argv, i, "-arch")) ||
                          (v = value_of(argc, argv, i, "--gpu-architecture")))) {
            size_t len = strlen(arch_virt) + 8;
            made = malloc(len);
            if (made) snprintf(made, len, "-arch=%s", arch_virt);
            if (!code_given && made && (code = malloc(len)))
                snprintf(code, len, "-code=%s", arch_virt);
        } else if (arch_virt && ((v = value_of(argc, argv, i, "-code")) ||
                                 (v = value_of(argc, argv, i, "--gpu-code")))) {
            char *codes = virtual_codes(v, arch_virt);
            size_t len = codes ? strlen(codes) + 8 : 0;
            made = codes ? malloc(len) : NULL;
            if (made) snprintf(made, len, "-code=%s", codes);
            free(codes);
        } else if ((v = value_of(argc, argv, i, "-gencode")) ||
                   (v = value_of(argc, argv, i, "--generate-code"))) {
            /* arch=compute_NN,code=... */
            const char *c = strstr(v, "code=");
            char *virt = strncmp(v, "arch=", 5) == 0 ? virtual_arch(v + 5) : NULL;
            if (c && virt) {
                char *codes = virtual_codes(c + 5, virt);
                size_t len = codes ? (size_t)(c + 5 - v) + strlen(codes) + 12 : 0;
                made = codes ? malloc(len) : NULL;
                if (made) snprintf(made, len, "-gencode=%.*s%s", (int)(c + 5 - v), v, codes);
                free(codes);
            }
            free(virt);
        }
        if (made) {
            out[n++] = made;
            if (code) out[n++] = code;
            if (separate) i++; /* the value was the next argument */
        } else {
            out[n++] = argv[i];
            if (separate && takes_separate_value(a)) out[n++] = argv[++i];
        }
    }
    free(arch_virt);
    *n_out = n;
    return out;
}

/* The arguments with -cubin turned into -fatbin (see the header), and -o <name>.cubin
 * added when no output was named; NULL when there is no -cubin. */
static char **cubin_as_fatbin(int argc, char **argv, int *n_out) {
    bool cubin = false, output = false;
    const char *input = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-cubin") || !strcmp(a, "--cubin")) cubin = true;
        else if (value_of(argc, argv, i, "-o") || value_of(argc, argv, i, "--output-file"))
            output = true;
        else if (a[0] != '-') input = a;
        if (a[0] == '-' && !strchr(a, '=') && takes_separate_value(a)) i++;
    }
    if (!cubin) return NULL;
    char **out = calloc((size_t)argc + 3, sizeof *out);
    if (!out) return NULL;
    int n = 0;
    for (int i = 0; i < argc; i++)
        out[n++] = !strcmp(argv[i], "-cubin") || !strcmp(argv[i], "--cubin") ? "-fatbin" : argv[i];
    if (!output && input) {
        const char *base = strrchr(input, '/');
        base = base ? base + 1 : input;
        const char *dot = strrchr(base, '.');
        size_t stem = dot ? (size_t)(dot - base) : strlen(base);
        char *name = malloc(stem + 8);
        if (name) {
            snprintf(name, stem + 8, "%.*s.cubin", (int)stem, base);
            out[n++] = "-o";
            out[n++] = name;
        }
    }
    *n_out = n;
    return out;
}

/* The rewritten arguments, kept reachable for the command's whole life (its strings are
 * the arguments nvcc is given) */
static char **volatile cc_rewritten_args; /* volatile: a store never read is kept */
static char **volatile cc_cubin_args;

int tool_cc(int argc, char **argv) {
    if (argc == 0) {
        fprintf(stderr, "usage: vcuda cc [nvcc options] files...\n");
        return 2;
    }
    const char *keep = getenv("VCUDA_CC_SASS");
    if (!keep || !*keep || strcmp(keep, "0") == 0) {
        int n;
        char **rewritten = cc_rewritten_args = without_sass(argc, argv, &n);
        if (rewritten) {
            argc = n;
            argv = rewritten;
        }
        char **fatbin = cc_cubin_args = cubin_as_fatbin(argc, argv, &n);
        if (fatbin) {
            argc = n;
            argv = fatbin;
        }
    }
    /* room for the user's arguments and the few added ones */
    char **cmd = calloc((size_t)argc + 16, sizeof *cmd);
    char gencode[64], rpath[PATH_MAX + 16], libflag[PATH_MAX + 8];
    if (!cmd)
        return 1;
    size_t n = 0;
    cmd[n++] = (char *)find_nvcc();
    cmd[n++] = "-cudart";
    cmd[n++] = "none";

    bool verbose = false, link = true, rdc = false, objects = false;
    arch_info arch = {0};
    /* the same arguments sorted for the separate-compilation path: options, inputs, -o */
    char **opts = calloc((size_t)argc + 8, sizeof *opts);
    char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    size_t nopts = 0, ninputs = 0;
    const char *output = NULL;
    if (!opts || !inputs) {
        free(cmd);
        free(opts);
        free(inputs);
        return 1;
    }
    opts[nopts++] = cmd[0];
    opts[nopts++] = "-cudart";
    opts[nopts++] = "none";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            verbose = true;
            continue;
        }
        if (value_of(argc, argv, i, "-cudart") || value_of(argc, argv, i, "--cudart")) {
            /* replaced by -cudart none */
            if (!strchr(a, '=') && i + 1 < argc)
                i++;
            continue;
        }
        if (in_list(no_link_options, a))
            link = false;
        note_arch_option(&arch, argc, argv, i);
        const char *v;
        if ((v = value_of(argc, argv, i, "-rdc")) ||
            (v = value_of(argc, argv, i, "--relocatable-device-code")))
            rdc = strcmp(v, "true") == 0;
        if ((v = value_of(argc, argv, i, "-o")) || (v = value_of(argc, argv, i, "--output-file"))) {
            output = v;
        } else if (a[0] != '-') {
            inputs[ninputs++] = argv[i];
            size_t len = strlen(a);
            if (len > 2 && a[len - 2] == '.' && (a[len - 1] == 'o' || a[len - 1] == 'a'))
                objects = true; /* maybe relocatable: the device link must look */
        } else {
            opts[nopts++] = argv[i];
            if (!strchr(a, '=') && takes_separate_value(a) && i + 1 < argc)
                opts[nopts++] = argv[i + 1];
        }
        cmd[n++] = argv[i];
        if (a[0] == '-' && !strchr(a, '=') && takes_separate_value(a) && i + 1 < argc)
            cmd[n++] = argv[++i];
    }
    if (arch.arch_given && !arch.code_given && arch.arch_implies_ptx)
        arch.ptx = true;
    if (arch.any && !arch.ptx && arch.highest > 0) {
        snprintf(gencode, sizeof gencode, "arch=compute_%d%s,code=compute_%d%s", arch.highest,
                 arch.suffix, arch.highest, arch.suffix);
        cmd[n++] = "-gencode";
        cmd[n++] = gencode;
        opts[nopts++] = "-gencode";
        opts[nopts++] = gencode;
    }
    if (link && (rdc || objects)) {
        const char *libdir = tool_lib_dir();
        snprintf(libflag, sizeof libflag, "-L%s", libdir);
        snprintf(rpath, sizeof rpath, "-rpath,%s", libdir);
        char *link_flags[] = {libflag, "-lvcuda", "-Xlinker", rpath};
        int rc = tool_cc_rdc(opts, nopts, inputs, ninputs, output, link_flags, 4, verbose);
        free(cmd);
        free(opts);
        free(inputs);
        return rc;
    }
    free(opts);
    free(inputs);
    if (link) {
        const char *libdir = tool_lib_dir();
        snprintf(libflag, sizeof libflag, "-L%s", libdir);
        snprintf(rpath, sizeof rpath, "-rpath,%s", libdir);
        cmd[n++] = libflag;
        cmd[n++] = "-lvcuda";
        cmd[n++] = "-Xlinker";
        cmd[n++] = rpath;
    }
    cmd[n] = NULL;
    if (verbose)
        tool_print_command(cmd);
    int rc = tool_spawn_wait(cmd);
    if (rc == 127 && strcmp(cmd[0], "nvcc") == 0)
        fprintf(stderr, "vcuda cc: nvcc not found: set VCUDA_NVCC or CUDA_HOME, or put nvcc in PATH\n");
    free(cmd);
    return rc;
}
