/* runtime/regs.c — registers per thread as the real toolchain assigns them.
 *
 * Occupancy depends on the registers ptxas gives each kernel, which a PTX-level estimate
 * can only approach. So when the CUDA toolkit is at hand, the module's PTX is assembled
 * once with `ptxas -arch=sm_XY -v` for the preset's architecture and the "Used N
 * registers" line of each entry is taken. The report is cached on disk, keyed by a hash
 * of the PTX and the architecture ($XDG_CACHE_HOME/vcuda, else ~/.cache/vcuda), so a
 * program pays for ptxas once. Without ptxas (or when it refuses the PTX for this
 * architecture) the estimate from the PTX stands, and rt_func_registers says which.
 *
 * ptxas is VCUDA_PTXAS, else $CUDA_HOME/bin/ptxas, else the one beside the nvcc found
 * when vcuda was built, else ptxas from PATH. VCUDA_PTXAS=none turns it off.
 */
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef VCUDA_NVCC
#define VCUDA_NVCC ""
#endif

extern char **environ;

static uint64_t rt_fnv1a(const char *s, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static bool rt_is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The ptxas to run, or NULL when there is none or it is turned off. */
static const char *rt_ptxas_path(void) {
    static char path[1024];
    const char *env = getenv("VCUDA_PTXAS");
    if (env && *env) return strcmp(env, "none") == 0 ? NULL : env;
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(path, sizeof path, "%s/bin/ptxas", home);
        if (rt_is_file(path)) return path;
    }
    if (VCUDA_NVCC[0] && !strstr(VCUDA_NVCC, "NOTFOUND")) {
        snprintf(path, sizeof path, "%s", VCUDA_NVCC);
        char *slash = strrchr(path, '/');
        if (slash) {
            snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path), "ptxas");
            if (rt_is_file(path)) return path;
        }
    }
    const char *p = getenv("PATH");
    while (p && *p) {
        size_t n = strcspn(p, ":");
        if (n && n < sizeof path - 8) {
            snprintf(path, sizeof path, "%.*s/ptxas", (int)n, p);
            if (rt_is_file(path)) return path;
        }
        p += n + (p[n] == ':');
    }
    return NULL;
}

static void rt_cache_dir(char *buf, size_t n) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg) snprintf(buf, n, "%s/vcuda", xdg);
    else if (home && *home) snprintf(buf, n, "%s/.cache/vcuda", home);
    else snprintf(buf, n, "/tmp/vcuda-cache");
}

static char *rt_read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    while (s) {
        size_t got = fread(s + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (cap - len <= 1) {
            char *n = realloc(s, cap * 2);
            if (!n) { free(s); s = NULL; break; }
            s = n;
            cap *= 2;
        }
    }
    fclose(f);
    if (s) s[len] = 0;
    return s;
}

static bool rt_write_all(const char *path, const char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Run ptxas on ptx for arch; its -v report (stderr), malloc'd, or NULL. */
static char *rt_run_ptxas(const char *ptxas, const char *ptx, const char *arch) {
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = "/tmp";
    char in[1024], out[1100];
    snprintf(in, sizeof in, "%s/vcuda-ptxas-XXXXXX", tmp);
    int fd = mkstemp(in);
    if (fd < 0) return NULL;
    size_t len = strlen(ptx);
    bool ok = write(fd, ptx, len) == (ssize_t)len;
    close(fd);
    snprintf(out, sizeof out, "%s.log", in);
    char *report = NULL;
    if (ok) {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char arch_opt[32];
        snprintf(arch_opt, sizeof arch_opt, "-arch=%s", arch);
        char *argv[] = {(char *)ptxas, arch_opt, "-v", in, "-o", "/dev/null", NULL};
        pid_t pid;
        int status = 0;
        if (posix_spawn(&pid, ptxas, &fa, NULL, argv, environ) == 0) {
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) report = rt_read_all(out);
        }
        posix_spawn_file_actions_destroy(&fa);
    }
    unlink(in);
    unlink(out);
    return report;
}

/* A cache entry is the report between a header naming what it is for (the arch and the
 * hash of the PTX) and a trailer giving the report's length, so that an entry cut short
 * (a process killed while writing one, before the rename that publishes it, cannot leave
 * one; a full disk can), garbled, or written for other input is recognised and replaced. */
#define RT_CACHE_TRAILER "\nvcuda-cache-end %zu\n"

static char *rt_cache_wrap(const char *report, const char *header) {
    size_t hl = strlen(header), rl = strlen(report), cap = hl + rl + 64;
    char *e = malloc(cap);
    if (!e) return NULL;
    memcpy(e, header, hl);
    memcpy(e + hl, report, rl);
    snprintf(e + hl + rl, cap - hl - rl, RT_CACHE_TRAILER, rl);
    return e;
}

/* The report inside entry if it is a whole entry with this header, else NULL. */
static char *rt_cache_unwrap(const char *entry, const char *header) {
    size_t hl = strlen(header), el = strlen(entry);
    if (el < hl || memcmp(entry, header, hl) != 0) return NULL;
    const char *end = NULL;
    for (const char *p = strstr(entry + hl, "\nvcuda-cache-end "); p;
         p = strstr(p + 1, "\nvcuda-cache-end "))
        end = p;
    if (!end) return NULL;
    size_t rl = (size_t)(end - (entry + hl));
    char trailer[64];
    snprintf(trailer, sizeof trailer, RT_CACHE_TRAILER, rl);
    if (strcmp(end, trailer) != 0) return NULL;
    char *r = malloc(rl + 1);
    if (!r) return NULL;
    memcpy(r, entry + hl, rl);
    r[rl] = 0;
    return r;
}

/* The ptxas report for this PTX and arch, from the cache or a fresh run. */
static char *rt_ptxas_report(const char *ptx, const char *arch) {
    const char *ptxas = rt_ptxas_path();
    if (!ptxas) return NULL;
    uint64_t h = rt_fnv1a(arch, strlen(arch), 0xcbf29ce484222325ull);
    h = rt_fnv1a(ptx, strlen(ptx), h);
    char dir[900], path[1024];
    rt_cache_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/ptxas-%016llx.txt", dir, (unsigned long long)h);
    char header[128];
    snprintf(header, sizeof header, "vcuda-cache ptxas %s %016llx\n", arch, (unsigned long long)h);
    char *cached = rt_read_all(path);
    if (cached) {
        char *report = rt_cache_unwrap(cached, header);
        free(cached);
        if (report) return report;
        /* corrupt, cut short or not ours: never trusted, made anew below */
    }
    char *report = rt_run_ptxas(ptxas, ptx, arch);
    if (!report) return NULL;
    /* write the cache atomically: another process may be filling the same entry */
    char parent[1024];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash) {
        *slash = 0;
        mkdir(parent, 0700);
    }
    mkdir(dir, 0700);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    char *entry = rt_cache_wrap(report, header);
    if (entry && rt_write_all(tmp, entry, strlen(entry))) {
        if (rename(tmp, path) != 0) unlink(tmp);
    } else {
        unlink(tmp);
    }
    free(entry);
    return report;
}

/* Registers of entry name in a ptxas -v report; -1 when absent. */
static int rt_report_regs(const char *report, const char *name) {
    char needle[600];
    snprintf(needle, sizeof needle, "Compiling entry function '%s'", name);
    const char *p = strstr(report, needle);
    if (!p) return -1;
    const char *next = strstr(p + 1, "Compiling entry function");
    const char *used = strstr(p, "Used ");
    if (!used || (next && used > next)) return -1;
    int regs = -1;
    if (sscanf(used, "Used %d registers", &regs) != 1) return -1;
    return regs;
}

/* Assemble f's module once for the preset and note the registers of all its kernels.
 * Called with c->lock held. */
static void rt_module_ptxas(rt_context *c, rt_module *m) {
    m->regs_checked = true;
    const gpu_preset *p = rt_cur(c)->preset;
    char err[256];
    uint32_t arch = 0;
    cudaError_t code = cudaSuccess;
    char *ptx = rt_fatbin_select_ptx(m->image, m->image_size, p->major * 10 + p->minor, &arch,
                                     &code, err, sizeof err);
    if (!ptx) return;
    char arch_name[16];
    snprintf(arch_name, sizeof arch_name, "sm_%d%d", p->major, p->minor);
    char *report = rt_ptxas_report(ptx, arch_name);
    free(ptx);
    if (!report) return;
    for (rt_func *f = c->funcs; f; f = f->next) {
        if (f->mod != m) continue;
        int regs = rt_report_regs(report, f->name);
        if (regs >= 0) {
            f->ptxas_regs = regs;
            f->has_ptxas_regs = true;
        }
    }
    free(report);
}

int rt_func_registers(rt_context *c, rt_func *f, bool *from_ptxas) {
    if (f->mod && !f->mod->regs_checked && f->mod->image) rt_module_ptxas(c, f->mod);
    if (f->has_ptxas_regs) {
        if (from_ptxas) *from_ptxas = true;
        return f->ptxas_regs;
    }
    if (from_ptxas) *from_ptxas = false;
    return -1;
}
