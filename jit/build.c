/* jit/build.c — from generated C to a loaded shared object: the host C compiler (the one
 * nvcc itself needs: $VCUDA_JIT_CC, else `cc` on PATH; its flags come from jit/cc.c), run
 * as `cc -O<n> -fPIC -shared -march=native ...`, and an on-disk cache of what it made.
 *
 * The cache key is a hash of the source text (which carries the lowered instructions'
 * slots and the warp layout's offsets), the compiler's identity, its flags and the host's
 * CPU model (-march=native code may not run on another CPU). An entry is written under a
 * temporary name and renamed into place, so readers never see half a file; an entry that
 * does not load, or does not carry its own key, is removed and built again. Processes that
 * need the same entry at once (tests of one program run side by side) build it once: a
 * lock file beside the entry names the process building it, and the others wait for it.
 */
#include "internal.h"
#include "jit.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void jit_buf_printf(jit_buf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) abort();
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 65536;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) abort();
        b->s = s;
        b->cap = cap;
    }
}

void jit_buf_free(jit_buf *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* The host CPU's model line, part of the key of -march=native code (read once: every
 * unit's key has it). */
static char the_cpu[4096];
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void cpu_read(void) {
    char *out = the_cpu;
    size_t n = sizeof the_cpu;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) || !strncmp(line, "flags", 5)) {
            size_t l = strlen(out);
            snprintf(out + l, n - l, "%s", line);
            if (!strncmp(line, "flags", 5)) break;
        }
    fclose(f);
}

/* ---- the key ---- */

uint64_t jit_fnv1a(uint64_t h, const void *p, size_t n) {
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void make_key(const char *src, size_t len, const char *opt, char key[33]) {
    const jit_cc *cc = jit_cc_get();
    pthread_once(&cpu_once, cpu_read);
    const char *cpu = the_cpu;
    uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
    /* Everything besides the source that decides what the compiler makes, each part a
     * string: a new input (a setting of the generated code that its text does not show)
     * is added here, and only here. */
    const char *parts[JIT_CC_MAX_FLAGS + 8];
    size_t n = 0;
    parts[n++] = cc->ident;
    for (int i = 0; i < cc->nflags; i++) parts[n++] = cc->flags[i];
    parts[n++] = opt;
    parts[n++] = cpu;
    parts[n++] = "vcuda-jit-" JIT_VERSION;
    for (size_t i = 0; i < n; i++) {
        h1 = jit_fnv1a(h1, parts[i], strlen(parts[i]) + 1);
        h2 = jit_fnv1a(h2 ^ 0x5bd1e995u, parts[i], strlen(parts[i]) + 1);
    }
    h1 = jit_fnv1a(h1, src, len);
    h2 = jit_fnv1a(h2, src, len);
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

bool jit_cache_dir(char *buf, size_t n) {
    const char *d = getenv("VCUDA_CACHE_DIR");
    if (d && *d) return (size_t)snprintf(buf, n, "%s", d) < n;
    d = getenv("XDG_CACHE_HOME");
    if (d && *d) return (size_t)snprintf(buf, n, "%s/vcuda", d) < n;
    d = getenv("HOME");
    if (d && *d) return (size_t)snprintf(buf, n, "%s/.cache/vcuda", d) < n;
    return false;
}

bool jit_mkdirs(const char *path) {
    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) return false;
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return false;
            *p = '/';
        }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST;
}

/* Does the file at path hold every byte its ELF headers name (its section headers and
 * each segment it loads)? dlopen maps a cut entry (a disk full, a copy cut short) without
 * complaint, and the program dies of SIGBUS touching the part that is not there. */
static bool within(uint64_t off, uint64_t len, uint64_t size) {
    return off <= size && len <= size - off;
}

static bool elf_whole(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    Elf64_Ehdr eh;
    bool ok = fstat(fd, &st) == 0 && pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
              !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
              eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum > 0;
    uint64_t size = ok ? (uint64_t)st.st_size : 0;
    ok = ok && within(eh.e_shoff, (uint64_t)eh.e_shnum * eh.e_shentsize, size) &&
         within(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), size);
    for (unsigned i = 0; ok && i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        ok = pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)) ==
                 (ssize_t)sizeof ph &&
             (ph.p_type != PT_LOAD || within(ph.p_offset, ph.p_filesz, size));
    }
    close(fd);
    return ok;
}

/* Load a built object; it must be whole and carry the key it was built for. */
static void *open_entry(const char *path, const char *key) {
    if (!elf_whole(path)) return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) return NULL;
    const char *k = dlsym(h, "vj_key");
    if (!k || strcmp(k, key) != 0) {
        dlclose(h);
        return NULL;
    }
    return h;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The compilers running now, each the leader of its own process group (the driver and
 * the cc1, as and ld it starts), so that a program exiting while a kernel compiles in the
 * background can end all of them: killing the driver alone would leave its cc1 running
 * on, for nothing, since nothing would link what it makes. */
enum { JIT_MAX_COMPILERS = 64 };
static pthread_mutex_t compilers_mu = PTHREAD_MUTEX_INITIALIZER;
static pid_t compilers[JIT_MAX_COMPILERS];
static pthread_once_t compilers_once = PTHREAD_ONCE_INIT;

static void kill_compilers_at_exit(void) {
    pthread_mutex_lock(&compilers_mu);
    for (int i = 0; i < JIT_MAX_COMPILERS; i++)
        if (compilers[i] > 0) kill(-compilers[i], SIGKILL);
    pthread_mutex_unlock(&compilers_mu);
}

static void register_exit_handler(void) { atexit(kill_compilers_at_exit); }

static void compiler_track(pid_t pid, bool running) {
    pthread_once(&compilers_once, register_exit_handler);
    pthread_mutex_lock(&compilers_mu);
    for (int i = 0; i < JIT_MAX_COMPILERS; i++)
        if (compilers[i] == (running ? 0 : pid)) {
            compilers[i] = running ? pid : 0;
            break;
        }
    pthread_mutex_unlock(&compilers_mu);
}

void jit_kill_compiler(pid_t pid) {
    if (pid > 0) kill(-pid, SIGKILL);
}

/* Run the compiler on c_path into so_path, its messages into log_path. The compiler's
 * process group dies with the program (kill_compilers_at_exit), and its driver with the
 * thread that started it. */
/* How long a background compiler may run at the lowest priority (wall seconds) before it
 * is given the program's own: at nice 19 it gets the cores only when the program leaves
 * them idle, and a program whose launches run interpreted on every core (the kernels
 * waiting for this very code) may leave them busy for minutes (alignedTypes: 11 of its 12
 * kernels still interpreted after 5 minutes, each compile needing about 1 s of CPU). */
#define JIT_LOW_PRIORITY_SECONDS 8.0

/* Wait for the compiler pid started at the lowest priority; past the grace time raise its
 * process group to the program's priority, or, where the system does not let a process
 * lower a niceness (no CAP_SYS_NICE, RLIMIT_NICE), stop it: -2 then asks the caller to
 * start it again at the program's priority. */
static int wait_low(pid_t pid, int *status, struct rusage *ru) {
    struct timespec t0, now, nap = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t r = wait4(pid, status, WNOHANG, ru);
        if (r == pid) return 0;
        if (r < 0 && errno != EINTR) return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 >=
            JIT_LOW_PRIORITY_SECONDS)
            break;
        nanosleep(&nap, NULL);
    }
    if (setpriority(PRIO_PGRP, pid, getpriority(PRIO_PROCESS, 0)) == 0) {
        while (wait4(pid, status, 0, ru) < 0 && errno == EINTR) {}
        return 0;
    }
    kill(-pid, SIGKILL);
    while (wait4(pid, status, 0, ru) < 0 && errno == EINTR) {}
    return -2;
}

static int run_cc_at(const char *c_path, const char *so_path, const char *log_path,
                     const char *opt, jit_cancel *cancel, bool low, double *cpu_seconds);
static bool cancelled(jit_cancel *cancel);

static int run_cc(const char *c_path, const char *so_path, const char *log_path,
                  const char *opt, jit_cancel *cancel, double *cpu_seconds) {
    bool low = cancel && cancel->background;
    int rc = run_cc_at(c_path, so_path, log_path, opt, cancel, low, cpu_seconds);
    if (rc == -2) {
        double first = *cpu_seconds;
        rc = run_cc_at(c_path, so_path, log_path, opt, cancel, false, cpu_seconds);
        *cpu_seconds += first;
    }
    return rc;
}

static int run_cc_at(const char *c_path, const char *so_path, const char *log_path,
                     const char *opt, jit_cancel *cancel, bool low, double *cpu_seconds) {
    const jit_cc *cc = jit_cc_get();
    char *argv[JIT_CC_MAX_FLAGS + 8];
    int argc = 0;
    argv[argc++] = (char *)cc->path;
    argv[argc++] = (char *)opt;
    for (int i = 0; i < cc->nflags; i++) argv[argc++] = (char *)cc->flags[i];
    argv[argc++] = "-o";
    argv[argc++] = (char *)so_path;
    argv[argc++] = (char *)c_path;
    argv[argc] = NULL;
    if (cancel) pthread_mutex_lock(&cancel->mu);
    if (cancel && cancel->cancelled) {
        pthread_mutex_unlock(&cancel->mu);
        return -1;
    }
    /* the compiler's environment: the program's, less preloaded libraries (a sanitizer's
     * runtime preloaded into the program has no business in the compiler) */
    extern char **environ;
    size_t nenv = 0;
    while (environ[nenv]) nenv++;
    char **envp = calloc(nenv + 1, sizeof *envp);
    if (!envp) abort();
    for (size_t i = 0, k = 0; i < nenv; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11)) envp[k++] = environ[i];
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        /* a background compiler takes only the cores the program leaves idle: with one
         * worker per core running the first launches interpreted, a compiler at the
         * program's own priority took half their time (a first run of reduceInteger at
         * 2^24 took 29-31 s instead of 16 s), so the run waited for the compiler */
        if (low) setpriority(PRIO_PROCESS, 0, 19);
        int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execve(cc->path, argv, envp);
        _exit(127);
    }
    free(envp);
    if (pid > 0) {
        setpgid(pid, pid); /* (also here: the group must exist before anyone kills it) */
        compiler_track(pid, true);
    }
    int slot = -1; /* where the job that may stop it finds it */
    if (cancel) {
        for (int k = 0; pid > 0 && slot < 0 && k < JIT_MAX_WORKERS; k++)
            if (cancel->pids[k] == 0) {
                cancel->pids[k] = pid;
                slot = k;
            }
        pthread_mutex_unlock(&cancel->mu);
    }
    if (pid < 0) return -1;
    int status = 0;
    struct rusage ru; /* the driver's and the cc1, as and ld it waited for */
    memset(&ru, 0, sizeof ru);
    int waited = 0;
    if (low) waited = wait_low(pid, &status, &ru);
    else
        while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {}
    *cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    compiler_track(pid, false);
    if (cancel && slot >= 0) {
        pthread_mutex_lock(&cancel->mu);
        cancel->pids[slot] = 0;
        pthread_mutex_unlock(&cancel->mu);
    }
    if (waited == -2) return cancelled(cancel) ? -1 : -2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The compiler's words: its first line that says "error", else its first line (a log
 * opens with "In function ...", which says nothing of what went wrong). */
static void read_log(const char *log_path, char *err, size_t errlen, const char *what) {
    char msg[400] = "", line[400];
    FILE *f = fopen(log_path, "r");
    for (bool first = true; f && fgets(line, sizeof line, f); first = false) {
        line[strcspn(line, "\n")] = 0;
        if (first) snprintf(msg, sizeof msg, "%s", line);
        if (strstr(line, "error")) {
            snprintf(msg, sizeof msg, "%s", line);
            break;
        }
    }
    if (f) fclose(f);
    snprintf(err, errlen, "%s%s%s", what, msg[0] ? ": " : "", msg);
}

static bool build_entry(const char *src, size_t len, const char *opt, const char *dir,
                        const char *path, jit_build *out, jit_cancel *cancel, char *err,
                        size_t errlen);

static bool cancelled(jit_cancel *cancel) {
    if (!cancel) return false;
    pthread_mutex_lock(&cancel->mu);
    bool c = cancel->cancelled;
    pthread_mutex_unlock(&cancel->mu);
    return c;
}

/* Take the entry's lock file (holding our process id): 0 when we hold it and must build.
 * While another live process holds it, wait; -1 when the entry it built has loaded into
 * out. A lock whose process is gone (a program that ended while compiling) is taken over. */
/* Remove the temporary files a process that died while compiling left in dir. */
static void remove_leftovers(const char *dir, long pid) {
    char prefix[48], file[1400];
    snprintf(prefix, sizeof prefix, ".tmp-%ld-", pid);
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, prefix, strlen(prefix))) {
            snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
            unlink(file);
        }
    closedir(d);
}

static int take_lock(const char *dir, const char *lock_path, const char *path, jit_build *out,
                     jit_cancel *cancel) {
    for (unsigned waited = 0;; waited++) {
        int fd = open(lock_path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (write(fd, pid, (size_t)n) != n) {} /* a lock without a pid is taken over */
            close(fd);
            return 0;
        }
        /* (after ten minutes the other process is taken to be stuck: build anyway) */
        if (errno != EEXIST || cancelled(cancel) || waited > 12000) return 0;
        if (access(path, F_OK) == 0 && (out->handle = open_entry(path, out->key))) {
            out->from_cache = true;
            return -1;
        }
        char buf[32] = "";
        FILE *f = fopen(lock_path, "r");
        if (f) {
            if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
            fclose(f);
        }
        long owner = atol(buf);
        /* gone (or never written after a second): take it over */
        bool gone = owner > 0 ? kill((pid_t)owner, 0) != 0 && errno == ESRCH : waited > 20;
        if (gone) {
            if (owner > 0) remove_leftovers(dir, owner);
            unlink(lock_path);
            continue;
        }
        usleep(50000);
    }
}

bool jit_build_load(const char *src, size_t len, const char *opt, bool cache_only,
                    jit_build *out, jit_cancel *cancel, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    const jit_cc *cc = jit_cc_get();
    if (!cc->ok) {
        snprintf(err, errlen, "no C compiler (set VCUDA_JIT_CC, or put cc on PATH)");
        return false;
    }
    char dir[1024], path[1200];
    if (!jit_cache_dir(dir, sizeof dir) || !jit_mkdirs(dir)) {
        snprintf(err, errlen, "cannot create the cache directory %s", dir);
        return false;
    }
    make_key(src, len, opt, out->key);
    snprintf(path, sizeof path, "%s/%s.so", dir, out->key);
    if (access(path, F_OK) == 0) {
        out->handle = open_entry(path, out->key);
        if (out->handle) {
            out->from_cache = true;
            return true;
        }
        unlink(path); /* corrupt or stale: build it again */
    }
    if (cache_only) {
        snprintf(err, errlen, "not in the cache");
        return false;
    }
    /* one compiler per entry: another process building the same code is waited for */
    char lock_path[1200];
    snprintf(lock_path, sizeof lock_path, "%s/%s.lock", dir, out->key);
    int lk = take_lock(dir, lock_path, path, out, cancel);
    if (lk < 0) return true; /* the other process built it: out->handle is loaded */
    bool ok = build_entry(src, len, opt, dir, path, out, cancel, err, errlen);
    unlink(lock_path);
    return ok;
}

static bool build_entry(const char *src, size_t len, const char *opt, const char *dir,
                        const char *path, jit_build *out, jit_cancel *cancel, char *err,
                        size_t errlen) {
    static unsigned counter;
    unsigned seq = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    char c_path[1200], so_tmp[1200], log_path[1200];
    snprintf(c_path, sizeof c_path, "%s/.tmp-%ld-%u.c", dir, (long)getpid(), seq);
    snprintf(so_tmp, sizeof so_tmp, "%s/.tmp-%ld-%u.so", dir, (long)getpid(), seq);
    snprintf(log_path, sizeof log_path, "%s/.tmp-%ld-%u.log", dir, (long)getpid(), seq);
    FILE *f = fopen(c_path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", c_path);
        return false;
    }
    bool wrote = fwrite(src, 1, len, f) == len &&
                 fprintf(f, "const char vj_key[] = \"%s\";\n", out->key) > 0;
    if (fclose(f) != 0 || !wrote) {
        unlink(c_path);
        snprintf(err, errlen, "cannot write %s", c_path);
        return false;
    }
    double t0 = now_seconds();
    int rc = run_cc(c_path, so_tmp, log_path, opt, cancel, &out->cpu_seconds);
    out->compile_seconds = now_seconds() - t0;
    bool ok = false;
    if (rc != 0) {
        read_log(log_path, err, errlen, rc < 0 ? "the compiler was stopped" : "the compiler failed");
    } else if (rename(so_tmp, path) != 0) {
        snprintf(err, errlen, "cannot rename into %s", path);
    } else if (!(out->handle = open_entry(path, out->key))) {
        snprintf(err, errlen, "cannot load %s: %s", path, dlerror());
    } else {
        ok = true;
    }
    /* VCUDA_JIT_KEEP=1 keeps the generated C beside the entry, to read */
    char kept[1200];
    snprintf(kept, sizeof kept, "%s/%s.c", dir, out->key);
    const char *keep = getenv("VCUDA_JIT_KEEP");
    if (!(keep && *keep && strcmp(keep, "0") && rename(c_path, kept) == 0)) unlink(c_path);
    unlink(log_path);
    unlink(so_tmp);
    return ok;
}
