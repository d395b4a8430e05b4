/* jit/cc.c — the host C compiler the compiled tier runs: where it is, who it is (the first
 * line of `cc --version`) and every flag a compile gives it, in one list that both the
 * command line and the cache key are made from.
 *
 * Finding out who the compiler is and whether it takes the AVX2 move widths costs two
 * compiler runs; a record of both beside the kernel cache (cc-<hash of its path>.id),
 * valid while the compiler's file is the same one (device, inode, size and modification
 * time), spares them to every later process: a program whose kernels are all cached then
 * starts no compiler at all. A record that does not read back whole is made again.
 */
#include "internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every compile's flags but the optimisation level and the files.
 * -ffp-contract=off: the tiers round each float operation alike (no fused multiply-add
 * the PTX did not ask for). */
static const char *const fixed_flags[] = {"-fPIC", "-shared", "-march=native",
                                          "-ffp-contract=off", "-w"};
/* Moves and stores at most 256 bits wide, given where the host has AVX2 but no AVX-512
 * and the compiler takes them: the vector tier's 64-byte lane chunks are no machine mode
 * there, and by default gcc copies them in 16-byte pieces that the next 32-byte load
 * cannot forward from. */
static const char *const move_width_flags[] = {"-mmove-max=256", "-mstore-max=256"};

_Static_assert(sizeof fixed_flags / sizeof fixed_flags[0] +
                       sizeof move_width_flags / sizeof move_width_flags[0] <=
                   JIT_CC_MAX_FLAGS,
               "jit_cc.flags holds every flag");

#define RECORD_MAGIC "vcuda-cc 1"

/* An executable named name on PATH (or name itself when it holds a slash). */
static bool find_program(const char *name, char *out, size_t n) {
    if (strchr(name, '/')) {
        snprintf(out, n, "%s", name);
        return access(out, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len && (size_t)snprintf(out, n, "%.*s/%s", (int)len, path, name) < n &&
            access(out, X_OK) == 0)
            return true;
        path += len + (end ? 1 : 0);
    }
    return false;
}

/* What the record holds besides the path: the file it describes, and what was found. */
typedef struct cc_facts {
    char file[128];  /* "dev ino size mtime.ns" of the compiler's file */
    char ident[256];
    bool move_width; /* takes -mmove-max/-mstore-max */
} cc_facts;

static bool file_stamp(const char *path, char *out, size_t n) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    snprintf(out, n, "%ju %ju %jd %jd.%09ld", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino,
             (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    return true;
}

/* The record's path for the compiler at cc_path, or false without a cache directory. */
static bool record_path(const char *cc_path, char *out, size_t n, char *dir, size_t dn) {
    if (!jit_cache_dir(dir, dn)) return false;
    uint64_t h = jit_fnv1a(0xcbf29ce484222325ull, cc_path, strlen(cc_path));
    return (size_t)snprintf(out, n, "%s/cc-%016" PRIx64 ".id", dir, h) < n;
}

/* One "name=value" line of f into out; false unless the line is there and whole. */
static bool read_field(FILE *f, const char *name, char *out, size_t n) {
    char line[1024];
    if (!fgets(line, sizeof line, f)) return false;
    size_t len = strlen(line), nl = strlen(name);
    if (len == 0 || line[len - 1] != '\n') return false;
    line[len - 1] = 0;
    if (strncmp(line, name, nl) || line[nl] != '=') return false;
    return (size_t)snprintf(out, n, "%s", line + nl + 1) < n;
}

static bool record_read(const char *rec, const char *cc_path, cc_facts *out) {
    FILE *f = fopen(rec, "r");
    if (!f) return false;
    char magic[32], path[600], move[8], end[8];
    bool ok = read_field(f, "magic", magic, sizeof magic) && !strcmp(magic, RECORD_MAGIC) &&
              read_field(f, "path", path, sizeof path) && !strcmp(path, cc_path) &&
              read_field(f, "file", out->file, sizeof out->file) &&
              read_field(f, "ident", out->ident, sizeof out->ident) && out->ident[0] &&
              read_field(f, "move-width", move, sizeof move) &&
              (!strcmp(move, "0") || !strcmp(move, "1")) &&
              read_field(f, "end", end, sizeof end) && fgetc(f) == EOF;
    fclose(f);
    out->move_width = ok && move[0] == '1';
    return ok;
}

/* Written under a temporary name and renamed, so that readers see a whole record. */
static void record_write(const char *rec, const char *dir, const char *cc_path,
                         const cc_facts *facts) {
    if (!jit_mkdirs(dir)) return;
    char tmp[1200];
    static unsigned seq;
    snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-cc%u.id", dir, (long)getpid(),
             __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    bool wrote = fprintf(f, "magic=%s\npath=%s\nfile=%s\nident=%s\nmove-width=%d\nend=\n",
                         RECORD_MAGIC, cc_path, facts->file, facts->ident,
                         facts->move_width) > 0;
    if (fclose(f) != 0 || !wrote || rename(tmp, rec) != 0) unlink(tmp);
}

/* Ask the compiler itself: its identity, and whether it takes the move widths. */
static bool cc_ask(const char *cc_path, cc_facts *out) {
    char cmd[sizeof ((jit_cc *)0)->path + 128];
    snprintf(cmd, sizeof cmd, "env -u LD_PRELOAD '%s' --version 2>/dev/null", cc_path);
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    bool ok = fgets(out->ident, sizeof out->ident, p) != NULL;
    out->ident[strcspn(out->ident, "\n")] = 0;
    while (fgetc(p) != EOF) {}
    pclose(p);
    if (!ok || !out->ident[0]) return false;
    snprintf(cmd, sizeof cmd,
             "env -u LD_PRELOAD '%s' %s %s -x c -c -o /dev/null /dev/null >/dev/null 2>&1",
             cc_path, move_width_flags[0], move_width_flags[1]);
    out->move_width = system(cmd) == 0;
    return true;
}

static jit_cc the_cc;
static pthread_once_t cc_once = PTHREAD_ONCE_INIT;

static void cc_find(void) {
    const char *env = getenv("VCUDA_JIT_CC");
    if (!find_program(env && *env ? env : "cc", the_cc.path, sizeof the_cc.path)) return;
    cc_facts facts, known;
    memset(&facts, 0, sizeof facts);
    if (!file_stamp(the_cc.path, facts.file, sizeof facts.file)) return;
    char dir[1024], rec[1200];
    bool have_rec = record_path(the_cc.path, rec, sizeof rec, dir, sizeof dir);
    if (have_rec && record_read(rec, the_cc.path, &known) && !strcmp(known.file, facts.file)) {
        facts = known;
    } else {
        if (!cc_ask(the_cc.path, &facts)) return;
        if (have_rec) record_write(rec, dir, the_cc.path, &facts);
    }
    snprintf(the_cc.ident, sizeof the_cc.ident, "%s", facts.ident);
    for (size_t i = 0; i < sizeof fixed_flags / sizeof fixed_flags[0]; i++)
        the_cc.flags[the_cc.nflags++] = fixed_flags[i];
    if (facts.move_width && __builtin_cpu_supports("avx2") &&
        !__builtin_cpu_supports("avx512f"))
        for (size_t i = 0; i < sizeof move_width_flags / sizeof move_width_flags[0]; i++)
            the_cc.flags[the_cc.nflags++] = move_width_flags[i];
    the_cc.ok = true;
}

const jit_cc *jit_cc_get(void) {
    pthread_once(&cc_once, cc_find);
    return &the_cc;
}
