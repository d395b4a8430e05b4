/* tests/fuzz/fuzz_ptx.c — fuzz target: PTX text through the parser and the loader.
 *
 * Any input must end in a module or in one error message, never in a crash, a hang or a
 * leak: the parser and the lowering of every instruction form run on it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512];
    ptx_module *m = ptx_parse((const char *)data, size, "fuzz.ptx", err, sizeof err);
    if (!m) {
        /* A rejected input must say why. */
        if (!err[0]) abort();
        return 0;
    }
    mem_table *mem = mem_table_new();
    exec_program *p = exec_program_load(m, mem, err, sizeof err);
    if (p) exec_program_free(p, mem);
    else if (!err[0]) abort();
    mem_table_free(mem);
    return 0;
}
