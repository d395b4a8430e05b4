/* test_prof_ground_truth.c — the counting model against what Nsight Compute reported on
 * an H100 for the same accesses.
 *
 * data/prof/h100_ncu.csv holds one launch per line: a single warp-level load, store or
 * atomic (space, op, access size, active mask, the 32 lane offsets) and the counters ncu
 * read for it (see data/prof/README.md for how it was made). Every line must match:
 * requests, sectors, global efficiency, line lookups of atomics, shared wavefronts
 * (loads, stores, atomics), bank conflicts, instruction-level wavefronts and shared
 * efficiency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prof/coalesce.h"
#include "prof/banks.h"
#include "prof_test.h"

#define MAX_COLS 64

typedef struct row {
    char *col[MAX_COLS];
    int ncol;
} row;

static int split_csv(char *line, row *r)
{
    r->ncol = 0;
    char *p = line;
    while (r->ncol < MAX_COLS) {
        r->col[r->ncol++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = 0;
        p = comma + 1;
    }
    char *nl = strchr(r->col[r->ncol - 1], '\n');
    if (nl)
        *nl = 0;
    return r->ncol;
}

static int column(const row *header, const char *name)
{
    for (int i = 0; i < header->ncol; i++)
        if (strcmp(header->col[i], name) == 0)
            return i;
    fprintf(stderr, "column %s missing from the data file\n", name);
    exit(2);
}

static long long num(const row *r, const row *h, const char *name)
{
    return atoll(r->col[column(h, name)]);
}

static double real(const row *r, const row *h, const char *name)
{
    return atof(r->col[column(h, name)]);
}

/* Launches the model does not reproduce yet, each with what differs. A listed launch must
 * still differ (so a fix is noticed and the entry removed). */
static const struct known_difference {
    int id;
    const char *what;
} known_differences[] = {
    {500, "64-bit atomics, random addresses with 4 repeated: ncu counts 21 sectors, the "
          "one-lane-per-address rounds give 20 (line lookups agree: 12)"},
};

static const char *known_difference(int id)
{
    for (size_t i = 0; i < sizeof known_differences / sizeof known_differences[0]; i++)
        if (known_differences[i].id == id)
            return known_differences[i].what;
    return NULL;
}

/* Nsight Compute rounds percentages to two decimals in its CSV. */
#define PCT_TOL 0.006

static int check_row(const prof_rules *rules, const row *h, const row *r)
{
    int before = prof_test_failures;
    const char *kernel = r->col[column(h, "kernel")];
    unsigned size = (unsigned)num(r, h, "size");
    uint32_t mask = (uint32_t)strtoul(r->col[column(h, "mask")], NULL, 16);
    uint64_t addr[32] = {0};
    char *offs = r->col[column(h, "offsets")];
    for (int i = 0; i < 32 && *offs; i++)
        addr[i] = strtoull(offs, &offs, 10);

    if (!strcmp(kernel, "global_ld") || !strcmp(kernel, "global_st")) {
        bool st = kernel[7] == 's';
        prof_mem_cost c = prof_coalesce(rules, PROF_SPACE_GLOBAL,
                                        st ? PROF_ACCESS_STORE : PROF_ACCESS_LOAD, addr, mask, size);
        EXPECT_EQ(c.requests, num(r, h, st ? "g_st_req" : "g_ld_req"));
        EXPECT_EQ(c.sectors, num(r, h, st ? "g_st_sec" : "g_ld_sec"));
        EXPECT_EQ(c.transactions, c.sectors);
        EXPECT_NEAR(100.0 * c.bytes_used / c.bytes_transferred,
                    real(r, h, st ? "g_st_eff" : "g_ld_eff"), PCT_TOL);
    } else if (!strcmp(kernel, "local_ld") || !strcmp(kernel, "local_st")) {
        bool st = kernel[6] == 's';
        prof_mem_cost c = prof_coalesce(rules, PROF_SPACE_LOCAL,
                                        st ? PROF_ACCESS_STORE : PROF_ACCESS_LOAD, addr, mask, size);
        EXPECT_EQ(c.requests, num(r, h, st ? "l_st_req" : "l_ld_req"));
        EXPECT_EQ(c.sectors, num(r, h, st ? "l_st_sec" : "l_ld_sec"));
    } else if (!strcmp(kernel, "global_atom") || !strcmp(kernel, "global_atom64") ||
               !strcmp(kernel, "global_red")) {
        bool red = kernel[7] == 'r';
        prof_mem_cost c = prof_coalesce(rules, PROF_SPACE_GLOBAL,
                                        red ? PROF_ACCESS_REDUCTION : PROF_ACCESS_ATOMIC,
                                        addr, mask, size);
        EXPECT_EQ(c.requests, num(r, h, red ? "red_req" : "atom_req"));
        EXPECT_EQ(c.sectors, num(r, h, red ? "red_sec" : "atom_sec"));
        EXPECT_EQ(c.lines, num(r, h, red ? "red_set" : "atom_set"));
        EXPECT_EQ(c.transactions, c.lines);
    } else if (!strcmp(kernel, "shared_ld") || !strcmp(kernel, "shared_st")) {
        bool st = kernel[7] == 's';
        prof_shared_cost c = prof_banks(rules, st ? PROF_ACCESS_STORE : PROF_ACCESS_LOAD,
                                        addr, mask, size);
        EXPECT_EQ(c.wavefronts, num(r, h, st ? "s_st_wf" : "s_ld_wf"));
        EXPECT_EQ(c.bank_conflicts, num(r, h, st ? "s_st_bc" : "s_ld_bc"));
        EXPECT_EQ(c.sass_wavefronts, num(r, h, st ? "s_st_sass_wf" : "s_ld_sass_wf"));
        EXPECT_NEAR(100.0 * c.bytes_used / (128.0 * c.sass_wavefronts), real(r, h, "s_eff"),
                    PCT_TOL);
    } else if (!strcmp(kernel, "shared_atom")) {
        prof_shared_cost c = prof_banks(rules, PROF_ACCESS_ATOMIC, addr, mask, size);
        EXPECT_EQ(c.wavefronts, num(r, h, "s_atom_wf"));
        EXPECT_EQ(c.bank_conflicts, num(r, h, "s_atom_bc"));
        EXPECT_EQ(c.sass_wavefronts, num(r, h, "s_atom_sass_wf"));
        EXPECT_NEAR(100.0 * c.bytes_used / (128.0 * c.sass_wavefronts), real(r, h, "s_eff"),
                    PCT_TOL);
    } else {
        return 0;  /* branch kernels: their SASS has no PTX-level counterpart to compare */
    }
    if (prof_test_failures != before)
        fprintf(stderr, "  in launch %s (%s, %u bytes, mask %08x)\n", r->col[0], kernel, size,
                mask);
    return 1;
}

int main(void)
{
    const char *path = VCUDA_TEST_DIR "/unit/data/prof/h100_ncu.csv";
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 1;
    }
    gpu_preset h100 = { .key = "h100", .major = 9, .minor = 0 };
    prof_rules rules = prof_rules_for(&h100);

    static char header_line[4096], line[4096];
    row header, r;
    if (!fgets(header_line, sizeof header_line, f)) {
        fprintf(stderr, "%s: empty\n", path);
        return 1;
    }
    split_csv(header_line, &header);
    int checked = 0;
    while (fgets(line, sizeof line, f)) {
        split_csv(line, &r);
        const char *known = known_difference(atoi(r.col[0]));
        int before = prof_test_failures;
        checked += check_row(&rules, &header, &r);
        if (known) {
            bool differs = prof_test_failures != before;
            prof_test_failures = before;
            if (differs) {
                printf("known difference, launch %s: %s\n", r.col[0], known);
            } else {
                fprintf(stderr, "launch %s now matches: drop it from known_differences\n",
                        r.col[0]);
                prof_test_failures++;
            }
        }
    }
    fclose(f);
    printf("checked %d accesses against Nsight Compute\n", checked);
    EXPECT_EQ(checked, 517);
    return prof_test_finish("test_prof_ground_truth");
}
