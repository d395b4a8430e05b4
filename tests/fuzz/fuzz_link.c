/* tests/fuzz/fuzz_link.c — fuzz target: relocatable device code, as `-rdc` programs load it.
 *
 * The input holds up to four PTX modules separated by a NUL byte (the path the fatbins
 * of separately compiled objects take at start-up): each is parsed, the ones that parse are
 * linked into one module, and the result is lowered. Every failure must be a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_MODULES = 4 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ptx_module *mods[MAX_MODULES];
    uint32_t n = 0;
    char err[512];
    size_t start = 0;
    for (size_t i = 0; i <= size && n < MAX_MODULES; i++) {
        if (i < size && data[i] != 0) continue;
        ptx_module *m = ptx_parse((const char *)data + start, i - start, "fuzz.ptx", err,
                                  sizeof err);
        if (m) mods[n++] = m;
        else if (!err[0]) abort();
        start = i + 1;
    }
    if (n == 0) return 0;
    err[0] = 0;
    ptx_module *linked = ptx_link(mods, n, "linked", err, sizeof err);
    if (!linked) {
        if (!err[0]) abort();
        return 0;
    }
    mem_table *mem = mem_table_new();
    exec_program *p = exec_program_load(linked, mem, err, sizeof err);
    if (p) exec_program_free(p, mem);
    else if (!err[0]) abort();
    mem_table_free(mem);
    return 0;
}
