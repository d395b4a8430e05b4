/* tests/prof/ncu_compare.c — compare what `vcuda prof --csv --print-gpu-trace --metrics`
 * reported for each launch of a program with what Nsight Compute measured on an H100
 * (tests/data/ncu/<test>.csv, one row per launch in launch order).
 *
 * usage: ncu_compare NCU_CSV VCUDA_CSV [TEST KNOWN_DIFFERENCES]
 *
 * Checked, launch by launch, for every metric both files hold:
 *   counts of requests, sectors, wavefronts and bank conflicts: within 2% (and within 2
 *     when the H100 counted fewer than 100, where 2% is less than one event);
 *   bank conflicts, moreover, within 0.5% of the wavefronts of the same operation: the
 *     H100 counts a few more wavefronts than conflict-free accesses need (5127 for 5120
 *     shared stores, with "7 conflicts"), which no model of the accesses can predict;
 *   branch efficiency and warp execution efficiency: within 5 percentage points (the
 *     ratio of active threads per instruction is compared as a percentage of 32).
 * Every other column is ignored. A difference listed in KNOWN_DIFFERENCES for TEST (lines
 * "test kernel-prefix metric|*  reason", '*' in test matching any) is reported as known,
 * not as a failure. Exit status 0 when all hold; the differences are listed.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 256
#define MAX_ROWS 4096

typedef struct table {
    int nrows, ncols;
    char *cell[MAX_ROWS][MAX_COLS];
    int row_cols[MAX_ROWS];
} table;

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* Split CSV text into t (quoted fields may hold commas and doubled quotes). Lines that do
 * not start a CSV record of the report ('=' prefixed log lines, blank lines) are skipped. */
static void parse_csv(char *text, table *t) {
    memset(t, 0, sizeof *t);
    char *p = text;
    while (*p && t->nrows < MAX_ROWS) {
        char *eol = strchr(p, '\n');
        if (eol) *eol = 0;
        if (*p && *p != '=' && *p != '\r') {
            int c = 0;
            char *q = p;
            while (c < MAX_COLS) {
                char *out = q, *field = q;
                if (*q == '"') {
                    q++;
                    field = out = q;
                    while (*q) {
                        if (*q == '"' && q[1] == '"') { *out++ = '"'; q += 2; continue; }
                        if (*q == '"') { q++; break; }
                        *out++ = *q++;
                    }
                    while (*q && *q != ',') q++;
                } else {
                    while (*q && *q != ',' && *q != '\r') q++;
                    out = q;
                }
                char sep = *q;
                *out = 0;
                t->cell[t->nrows][c++] = field;
                if (sep != ',') break;
                q++;
            }
            t->row_cols[t->nrows] = c;
            if (c > t->ncols) t->ncols = c;
            t->nrows++;
        }
        if (!eol) break;
        p = eol + 1;
    }
}

static int column(const table *t, const char *name) {
    for (int c = 0; c < t->row_cols[0]; c++)
        if (strcmp(t->cell[0][c], name) == 0) return c;
    return -1;
}

static bool number(const char *s, double *v) {
    if (!s || !*s || strcmp(s, "n/a") == 0) return false;
    char buf[64];
    size_t n = 0;
    for (; *s && n < sizeof buf - 1; s++)
        if (*s != ',' && *s != '%') buf[n++] = *s;
    buf[n] = 0;
    char *end;
    *v = strtod(buf, &end);
    return end != buf;
}

typedef enum { KIND_COUNT, KIND_CONFLICTS, KIND_PERCENT, KIND_THREADS } metric_kind;

static const struct {
    const char *name;
    metric_kind kind;
} checked[] = {
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", KIND_COUNT},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", KIND_COUNT},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", KIND_COUNT},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", KIND_COUNT},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", KIND_COUNT},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", KIND_COUNT},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", KIND_CONFLICTS},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", KIND_CONFLICTS},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", KIND_COUNT},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", KIND_COUNT},
    {"smsp__sass_average_branch_targets_threads_uniform.pct", KIND_PERCENT},
    {"smsp__thread_inst_executed_per_inst_executed.ratio", KIND_THREADS},
};

/* Is (test, kernel, metric) listed in the known differences? */
static bool known(const char *known_text, const char *test, const char *kernel,
                  const char *metric) {
    if (!known_text) return false;
    const char *p = known_text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        if (len < sizeof line && *p != '#') {
            memcpy(line, p, len);
            line[len] = 0;
            char t[256], k[256], m[256];
            if (sscanf(line, "%255s %255s %255s", t, k, m) == 3 &&
                (strcmp(t, "*") == 0 || strcmp(t, test) == 0) &&
                strncmp(kernel, k, strlen(k)) == 0 &&
                (strcmp(m, "*") == 0 || strcmp(m, metric) == 0))
                return true;
        }
        p += len + (eol != NULL);
    }
    return false;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: ncu_compare NCU_CSV VCUDA_CSV [TEST KNOWN_DIFFERENCES]\n");
        return 2;
    }
    const char *test = argc == 5 ? argv[3] : "";
    char *known_text = argc == 5 ? read_file(argv[4]) : NULL;
    char *a = read_file(argv[1]), *b = read_file(argv[2]);
    if (!a || !b) {
        fprintf(stderr, "ncu_compare: cannot read %s\n", a ? argv[2] : argv[1]);
        return 2;
    }
    static table ncu, vc;
    parse_csv(a, &ncu);
    parse_csv(b, &vc);
    /* ncu: header, units, then launches; vcuda: header, then launches */
    int ncu_first = 2, vc_first = 1;
    int launches = ncu.nrows - ncu_first;
    if (vc.nrows - vc_first != launches) {
        fprintf(stderr, "ncu_compare: %d launches measured on the H100, %d profiled here\n",
                launches, vc.nrows - vc_first);
        return 1;
    }
    int kernel_col = column(&ncu, "Kernel Name"), vc_kernel = column(&vc, "Kernel");
    int failures = 0, compared = 0, known_count = 0;
    for (size_t m = 0; m < sizeof checked / sizeof checked[0]; m++) {
        int cn = column(&ncu, checked[m].name), cv = column(&vc, checked[m].name);
        if (cn < 0 || cv < 0) continue;
        for (int r = 0; r < launches; r++) {
            double want, got;
            if (!number(ncu.cell[ncu_first + r][cn], &want) ||
                !number(vc.cell[vc_first + r][cv], &got))
                continue;
            bool ok;
            double shown_want = want, shown_got = got;
            switch (checked[m].kind) {
            case KIND_COUNT:
                ok = fabs(got - want) <= (want < 100 ? 2.0 : 0.02 * want);
                break;
            case KIND_CONFLICTS: {
                /* the wavefronts column of the same operation (ld / st) */
                char wf_name[128];
                snprintf(wf_name, sizeof wf_name, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum",
                         strstr(checked[m].name, "_op_ld") ? "ld" : "st");
                int cw = column(&ncu, wf_name);
                double wavefronts = 0, tol = want < 100 ? 2.0 : 0.02 * want;
                if (cw >= 0 && number(ncu.cell[ncu_first + r][cw], &wavefronts) &&
                    0.005 * wavefronts > tol)
                    tol = 0.005 * wavefronts;
                ok = fabs(got - want) <= tol;
                break;
            }
            case KIND_PERCENT:
                ok = fabs(got - want) <= 5.0;
                break;
            default: /* threads per instruction, as a percentage of a warp */
                shown_want = 100.0 * want / 32.0;
                shown_got = 100.0 * got / 32.0;
                ok = fabs(shown_got - shown_want) <= 5.0;
                break;
            }
            compared++;
            const char *kernel = vc_kernel >= 0 ? vc.cell[vc_first + r][vc_kernel]
                                                : ncu.cell[ncu_first + r][kernel_col];
            bool is_known = !ok && known(known_text, test, kernel, checked[m].name);
            printf("%s launch %d %-40.40s %-58s H100 %14.2f vcuda %14.2f\n",
                   ok ? "ok  " : is_known ? "known" : "FAIL", r + 1, kernel, checked[m].name,
                   shown_want, shown_got);
            if (!ok && !is_known) failures++;
            if (is_known) known_count++;
        }
    }
    printf("%d values compared, %d outside the tolerance, %d known differences\n", compared,
           failures, known_count);
    free(known_text);
    free(a);
    free(b);
    return failures || compared == 0 ? 1 : 0;
}
