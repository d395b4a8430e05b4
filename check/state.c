/* check/state.c — the checker of the process: its configuration from the environment,
 * where reports go, the error counts, and the summary written at exit.
 *
 * The summary follows compute-sanitizer: "LEAK SUMMARY" with leak checking, "RACECHECK
 * SUMMARY" for racecheck, then "ERROR SUMMARY: N errors" counting every report (also
 * those beyond the print limit). Under `vcuda check` the command prints the last lines
 * itself, after the program's exit status is known: the library then only writes the
 * counts to the status file the command named (VCUDA_CHECK_STATUS).
 */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static check_state *check_the_state;
static pthread_once_t check_once = PTHREAD_ONCE_INIT;

check_tool check_state_tool(const check_state *st) { return st ? st->tool : CHECK_TOOL_NONE; }

check_state *check_state_new(check_tool tool, bool leak_check, unsigned long print_limit,
                             FILE *out) {
    check_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->tool = tool;
    st->leak_check = tool == CHECK_TOOL_MEMCHECK && leak_check;
    st->print_limit = print_limit;
    st->out = out;
    pthread_mutex_init(&st->lock, NULL);
    pthread_rwlock_init(&st->alloc_lock, NULL);
    return st;
}

void check_state_free(check_state *st) {
    if (!st) return;
    for (size_t i = 0; i < st->nallocs; i++) {
        free(st->allocs[i].init);
        free(st->allocs[i].site);
    }
    free(st->allocs);
    free(st->status_path);
    if (st->out_owned) fclose(st->out);
    pthread_mutex_destroy(&st->lock);
    pthread_rwlock_destroy(&st->alloc_lock);
    free(st);
}

static void check_create(void) {
    const char *tool = getenv("VCUDA_CHECK");
    if (!tool || !*tool || !strcmp(tool, "0") || !strcmp(tool, "none")) return;
    check_tool t = check_tool_from_name(tool);
    if (t == CHECK_TOOL_NONE) {
        fprintf(stderr, "vcuda: VCUDA_CHECK=%s names no checker (memcheck, racecheck, "
                "synccheck or initcheck)\n", tool);
        exit(2);
    }
    const char *leaks = getenv("VCUDA_CHECK_LEAKS");
    unsigned long print_limit = CHECK_DEFAULT_PRINT_LIMIT;
    const char *limit = getenv("VCUDA_CHECK_PRINT_LIMIT");
    if (limit && *limit) {
        char *end;
        unsigned long v = strtoul(limit, &end, 10);
        if (!*end) print_limit = v;
    }
    FILE *out = stdout;
    const char *log = getenv("VCUDA_CHECK_LOG");
    if (log && *log) {
        out = fopen(log, "a");
        if (!out) {
            fprintf(stderr, "vcuda: cannot open the check log %s: %s\n", log, strerror(errno));
            exit(2);
        }
    }
    check_state *st = check_state_new(t, leaks && *leaks && strcmp(leaks, "0"), print_limit, out);
    if (!st) {
        fprintf(stderr, "vcuda: out of memory starting the checker\n");
        exit(2);
    }
    st->out_owned = out != stdout;
    const char *status = getenv("VCUDA_CHECK_STATUS");
    if (status && *status) st->status_path = strdup(status);
    check_the_state = st;
}

check_state *check_get(void) {
    pthread_once(&check_once, check_create);
    return check_the_state;
}

/* Reports share stdout with the program: its buffered output goes first, so that the
 * two stay in the order they were produced. */
static void check_write(check_state *st, const char *text) {
    if (st->out == stdout) fflush(stdout);
    fputs(text, st->out);
    fflush(st->out);
}

void check_emit(check_state *st, const char *text) {
    pthread_mutex_lock(&st->lock);
    st->errors++;
    if (!st->print_limit || st->printed < st->print_limit) {
        st->printed++;
        check_write(st, text);
    }
    pthread_mutex_unlock(&st->lock);
}

void check_count(check_state *st, uint64_t n) {
    pthread_mutex_lock(&st->lock);
    st->errors += n;
    pthread_mutex_unlock(&st->lock);
}

void check_finish(check_state *st) {
    if (!st) return;
    pthread_mutex_lock(&st->lock);
    if (st->finished) {
        pthread_mutex_unlock(&st->lock);
        return;
    }
    st->finished = true;
    check_buf b = {0};
    if (st->leak_check)
        check_line(&b, "LEAK SUMMARY: %" PRIu64 " bytes leaked in %" PRIu64 " allocations",
                   st->leaked_bytes, st->leaked_allocs);
    if (st->tool == CHECK_TOOL_RACECHECK) {
        uint64_t shown = st->race_errors + st->race_warnings;
        check_line(&b, "RACECHECK SUMMARY: %" PRIu64 " hazard%s displayed (%" PRIu64
                   " error%s, %" PRIu64 " warning%s)", shown, shown == 1 ? "" : "s",
                   st->race_errors, st->race_errors == 1 ? "" : "s", st->race_warnings,
                   st->race_warnings == 1 ? "" : "s");
    }
    FILE *status = st->status_path ? fopen(st->status_path, "w") : NULL;
    if (status) {
        /* the command prints the error summary once it knows the program's status */
        fprintf(status, "errors %" PRIu64 "\nprinted %" PRIu64 "\n", st->errors, st->printed);
        fclose(status);
    } else {
        check_line(&b, "ERROR SUMMARY: %" PRIu64 " error%s", st->errors,
                   st->errors == 1 ? "" : "s");
        if (st->errors > st->printed)
            check_line(&b, "ERROR SUMMARY: %" PRIu64 " error%s not printed. Use "
                       "--print-limit option to adjust the number of printed errors",
                       st->errors - st->printed, st->errors - st->printed == 1 ? " was" :
                       "s were");
    }
    if (b.len) check_write(st, b.p);
    check_buf_free(&b);
    if (st->out_owned) fflush(st->out);
    pthread_mutex_unlock(&st->lock);
}
