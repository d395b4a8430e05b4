/* test_ptx_isa_coverage — vcuda's coverage of the PTX ISA for sm_90, instruction by
 * instruction. tests/ptx/isa/sm90_instructions.txt lists every instruction (and every
 * variant whose support differs) that the PTX ISA allows on sm_90/sm_90a, each with a
 * minimal kernel body and a mark: supported or not. For each entry this test
 *   - wraps the body in a kernel and loads it with vcuda (parse + program load): a
 *     supported entry must load, an unsupported one must fail with an error naming it;
 *   - checks the bodies with NVIDIA's ptxas (all of one target in one module, so it
 *     costs two ptxas runs), so an entry whose PTX is wrong cannot pass by failing in
 *     vcuda for the wrong reason. Without ptxas (no CUDA toolkit) that half is skipped,
 *     saying so.
 * It prints the table (entry, supported or not, vcuda's error) and fails on any entry
 * whose result disagrees with its mark, so a change in support shows up here: an
 * instruction that starts loading must be marked supported (and its note in
 * tests/ptx/isa/NOTE.md removed). Why each unsupported entry is so: NOTE.md.
 *
 * With -v it also prints the error of every unsupported entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec_harness.h"

#define DATA VCUDA_TEST_DIR "/ptx/isa/sm90_instructions.txt"
#define MAX_ENTRIES 512

/* Declarations every kernel body gets, and the module-scope global it may address. */
static const char *const body_decls =
    "\t.reg .pred %p<4>;\n\t.reg .b16 %h<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
    "\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<8>;\n\t.shared .align 128 .b8 smem[4096];\n";
static const char *const module_decls = ".global .align 16 .b8 gmem[4096];\n";

typedef struct entry {
    char name[128];
    bool supported, sm90a;
    char *module;   /* module-scope lines ('^' lines of the data file) */
    char *body;     /* kernel body lines */
    int line;       /* line of its '==' in the data file */
} entry;

static entry entries[MAX_ENTRIES];
static int n_entries;

/* Append line [s, s+n) plus a newline to *buf (a malloc'd string). */
static void append(char **buf, const char *s, size_t n) {
    size_t old = *buf ? strlen(*buf) : 0;
    char *b = realloc(*buf, old + n + 2);
    if (!b) abort();
    memcpy(b + old, s, n);
    b[old + n] = '\n';
    b[old + n + 1] = 0;
    *buf = b;
}

/* "== NAME STATUS [sm_90a]": NAME may hold spaces, so the marks are read from the end. */
static bool parse_header(entry *e, const char *s, size_t n, int line) {
    char buf[256];
    if (n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end = buf + n;
    while (end > buf && end[-1] == ' ') *--end = 0;
    char *w = strrchr(buf, ' ');
    if (!w) return false;
    if (strcmp(w + 1, "sm_90a") == 0) {
        e->sm90a = true;
        *w = 0;
        w = strrchr(buf, ' ');
        if (!w) return false;
    }
    if (strcmp(w + 1, "yes") == 0) e->supported = true;
    else if (strcmp(w + 1, "no") != 0) return false;
    *w = 0;
    const char *name = buf + 2;
    while (*name == ' ') name++;
    if (!*name || strlen(name) >= sizeof e->name) return false;
    strcpy(e->name, name);
    e->line = line;
    return true;
}

static bool load_entries(char *text) {
    int line = 0;
    entry *cur = NULL;
    for (char *s = text; *s;) {
        char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        line++;
        if (n >= 2 && s[0] == '=' && s[1] == '=') {
            if (n_entries == MAX_ENTRIES) { fprintf(stderr, "too many entries\n"); return false; }
            cur = &entries[n_entries++];
            if (!parse_header(cur, s, n, line)) {
                fprintf(stderr, "%s:%d: malformed entry header\n", DATA, line);
                return false;
            }
        } else if (n == 0 || s[0] == '#') {
            /* blank or comment */
        } else if (!cur) {
            fprintf(stderr, "%s:%d: text before the first entry\n", DATA, line);
            return false;
        } else if (s[0] == '^') {
            append(&cur->module, s + 1, n - 1);
        } else {
            append(&cur->body, s, n);
        }
        s = nl ? nl + 1 : s + n;
    }
    for (int i = 0; i < n_entries; i++)
        if (!entries[i].body) {
            fprintf(stderr, "%s:%d: entry '%s' has no body\n", DATA, entries[i].line, entries[i].name);
            return false;
        }
    return true;
}

static void module_header(char **buf, bool sm90a) {
    const char *h = sm90a ? ".version 8.7\n.target sm_90a\n.address_size 64\n"
                          : ".version 8.7\n.target sm_90\n.address_size 64\n";
    append(buf, h, strlen(h) - 1);
    append(buf, module_decls, strlen(module_decls) - 1);
}

/* One kernel named `name` holding e's body. */
static void kernel_text(char **buf, const entry *e, const char *name) {
    char head[96];
    snprintf(head, sizeof head, ".visible .entry %s(.param .u64 p)\n{", name);
    append(buf, head, strlen(head));
    append(buf, body_decls, strlen(body_decls) - 1);
    append(buf, e->body, strlen(e->body) - 1);
    append(buf, "\tret;\n}", 7);
}

/* Load e alone with vcuda; false with the error in err. */
static bool vcuda_loads(const entry *e, char *err, size_t errlen) {
    char *text = NULL;
    module_header(&text, e->sm90a);
    if (e->module) append(&text, e->module, strlen(e->module) - 1);
    kernel_text(&text, e, "k");
    harness h = {0};
    bool ok = harness_load(&h, text);
    snprintf(err, errlen, "%s", h.err);
    harness_free(&h);
    free(text);
    return ok;
}

/* The line range each entry's body occupies in the ptxas module, to name the entry an
 * error line points at. */
typedef struct span { int first, last; } span;

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* Check every entry of one target with ptxas in one module: kernel k<i> per entry.
 * Returns the number of entries ptxas rejects (-1: ptxas not run). */
static int ptxas_check(bool sm90a, bool *bad) {
    char *text = NULL;
    module_header(&text, sm90a);
    /* module-scope lines once each (several entries declare the same texref or func) */
    for (int i = 0; i < n_entries; i++) {
        const entry *e = &entries[i];
        if (e->sm90a != sm90a || !e->module) continue;
        if (!strstr(text, e->module)) append(&text, e->module, strlen(e->module) - 1);
    }
    static span spans[MAX_ENTRIES];
    for (int i = 0; i < n_entries; i++) {
        const entry *e = &entries[i];
        spans[i].first = spans[i].last = -1;
        if (e->sm90a != sm90a) continue;
        char name[32];
        snprintf(name, sizeof name, "k%d", i);
        spans[i].first = count_lines(text) + 1;
        kernel_text(&text, e, name);
        spans[i].last = count_lines(text);
    }
    char path[] = "/tmp/vcuda_isa_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { free(text); return -1; }
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "p=$(command -v ptxas || ls \"${CUDA_HOME:-/usr/local/cuda}/bin/ptxas\" "
             "/usr/local/cuda/bin/ptxas 2>/dev/null | head -n1); "
             "[ -n \"$p\" ] || { echo NO-PTXAS; exit 0; }; "
             "\"$p\" -arch=%s -o /dev/null %s 2>&1",
             sm90a ? "sm_90a" : "sm_90", path);
    FILE *pp = popen(cmd, "r");
    int rejected = 0;
    bool none = false;
    char line[1024];
    while (pp && fgets(line, sizeof line, pp)) {
        if (strncmp(line, "NO-PTXAS", 8) == 0) { none = true; continue; }
        /* "ptxas /tmp/x, line N; error   : ..." */
        const char *l = strstr(line, ", line ");
        if (!strstr(line, "error") || !l) {
            if (strstr(line, "error") || strstr(line, "fatal")) { fputs(line, stderr); rejected++; }
            continue;
        }
        int ln = atoi(l + 7);
        int hit = -1;
        for (int i = 0; i < n_entries; i++)
            if (spans[i].first <= ln && ln <= spans[i].last) hit = i;
        if (hit < 0) { fprintf(stderr, "ptxas: %s", line); rejected++; continue; }
        if (!bad[hit]) rejected++;
        bad[hit] = true;
        fprintf(stderr, "ptxas rejects '%s' (%s:%d): %s", entries[hit].name, DATA, entries[hit].line,
                strstr(line, "error"));
    }
    if (pp) pclose(pp);
    unlink(path);
    return none ? -1 : rejected;
}

int main(int argc, char **argv) {
    bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    char *text = test_read_file(DATA, NULL);
    if (!text) { fprintf(stderr, "%s: unreadable\n", DATA); return 1; }
    if (!load_entries(text)) return 1;
    int n_yes = 0, n_no = 0;
    static bool ptxas_bad[MAX_ENTRIES];
    int r90 = ptxas_check(false, ptxas_bad), r90a = ptxas_check(true, ptxas_bad);
    if (r90 < 0 || r90a < 0)
        printf("note: ptxas not found (no CUDA toolkit): the snippets were not checked\n");
    else
        harness_failures += r90 + r90a;

    printf("%-48s %-8s %s\n", "PTX instruction (sm_90)", "vcuda", "");
    for (int i = 0; i < n_entries; i++) {
        const entry *e = &entries[i];
        char err[512];
        bool ok = vcuda_loads(e, err, sizeof err);
        /* the name an error must give: the entry's name up to a " (" qualifier */
        char key[128];
        strcpy(key, e->name); /* both hold 128 bytes */
        char *q = strstr(key, " (");
        if (q) *q = 0;
        const char *verdict = ok ? "yes" : "no";
        const char *why = "";
        if (ok != e->supported) {
            why = ok ? "  <- loads: mark it supported and drop its note" : "  <- marked supported, fails";
            harness_failures++;
        } else if (!ok && !strstr(err, key)) {
            why = "  <- the error does not name it";
            harness_failures++;
        }
        printf("%-48s %-8s%s%s\n", e->name, verdict, e->sm90a ? " (sm_90a)" : "", why);
        if ((!ok && (verbose || e->supported || !strstr(err, key))))
            printf("    %s\n", err);
        if (ok) n_yes++;
        else n_no++;
    }
    printf("%d instructions: %d supported, %d unsupported\n", n_entries, n_yes, n_no);
    for (int i = 0; i < n_entries; i++) {
        free(entries[i].module);
        free(entries[i].body);
    }
    free(text);
    if (harness_failures) printf("FAIL: %d disagreement(s)\n", harness_failures);
    return harness_report("test_ptx_isa_coverage");
}
