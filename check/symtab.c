/* check/symtab.c — the name of the host function at an address of the program, for the
 * "Host Frame: main [0x8d78] in app" lines of reports.
 *
 * dladdr knows only exported (dynamic) symbols, and a program's own functions — main
 * among them — are usually not exported. The full symbol table (.symtab) of the module
 * file is read instead, once per module (the program itself, nearly always): its
 * function symbols are kept sorted by address. Modules without one (stripped) give no
 * name.
 */
#include "internal.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct sym_entry {
    uint64_t addr, size;
    char *name;
} sym_entry;

typedef struct sym_table {
    char path[512];
    bool is_pie;        /* ET_DYN: symbol values are offsets from the load base */
    sym_entry *syms;
    size_t n;
} sym_table;

static pthread_mutex_t symtab_lock = PTHREAD_MUTEX_INITIALIZER;
static sym_table symtab_cache;   /* the last module looked at */

static int cmp_sym(const void *a, const void *b) {
    uint64_t x = ((const sym_entry *)a)->addr, y = ((const sym_entry *)b)->addr;
    return x < y ? -1 : x > y;
}

static void table_clear(sym_table *t) {
    for (size_t i = 0; i < t->n; i++) free(t->syms[i].name);
    free(t->syms);
    memset(t, 0, sizeof *t);
}

/* Read the function symbols of an ELF64 file. */
static void table_load(sym_table *t, const char *path) {
    table_clear(t);
    snprintf(t->path, sizeof t->path, "%s", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat sb;
    void *map = MAP_FAILED;
    if (fstat(fd, &sb) == 0 && (size_t)sb.st_size >= sizeof(Elf64_Ehdr))
        map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    const uint8_t *base = map;
    size_t size = (size_t)sb.st_size;
    const Elf64_Ehdr *eh = map;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
        goto out;
    t->is_pie = eh->e_type == ET_DYN;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *strs = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > size || strs->sh_offset + strs->sh_size > size)
            continue;
        const Elf64_Sym *syms = (const Elf64_Sym *)(base + sh[i].sh_offset);
        size_t count = sh[i].sh_size / sizeof(Elf64_Sym);
        t->syms = calloc(count + 1, sizeof *t->syms);
        if (!t->syms) goto out;
        for (size_t k = 0; k < count; k++) {
            if (ELF64_ST_TYPE(syms[k].st_info) != STT_FUNC || !syms[k].st_value ||
                syms[k].st_name >= strs->sh_size)
                continue;
            const char *name = (const char *)base + strs->sh_offset + syms[k].st_name;
            size_t len = strnlen(name, strs->sh_size - syms[k].st_name);
            t->syms[t->n].addr = syms[k].st_value;
            t->syms[t->n].size = syms[k].st_size;
            t->syms[t->n].name = strndup(name, len);
            if (t->syms[t->n].name) t->n++;
        }
        qsort(t->syms, t->n, sizeof *t->syms, cmp_sym);
        break;
    }
out:
    munmap(map, size);
}

bool check_host_symbol(const char *module_path, uintptr_t load_base, uintptr_t pc, char *out,
                       size_t n) {
    if (!module_path || !*module_path) module_path = "/proc/self/exe";
    bool found = false;
    pthread_mutex_lock(&symtab_lock);
    if (strcmp(symtab_cache.path, module_path) != 0) table_load(&symtab_cache, module_path);
    uint64_t a = symtab_cache.is_pie ? pc - load_base : pc;
    size_t lo = 0, hi = symtab_cache.n;
    while (lo < hi) { /* the last symbol starting at or below a */
        size_t mid = (lo + hi) / 2;
        if (symtab_cache.syms[mid].addr <= a) lo = mid + 1;
        else hi = mid;
    }
    if (lo) {
        const sym_entry *s = &symtab_cache.syms[lo - 1];
        if (a - s->addr < (s->size ? s->size : 1)) {
            ptx_demangle_into(s->name, PTX_DEMANGLE_SANITIZER, out, n);
            found = true;
        }
    }
    pthread_mutex_unlock(&symtab_lock);
    return found;
}
