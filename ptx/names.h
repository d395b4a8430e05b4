/* ptx/names.h — open-addressing hash tables from names to small integers, used by the
 * parser for keywords (opcodes, types, modifiers), module symbols, function-scope names
 * (registers, local variables, parameters) and labels. Keys are not copied: they point to
 * text that outlives the table (the source, the module's names or static tables).
 * Entries are never removed; an entry whose binding is gone keeps kind 0 (unbound). */
#ifndef VCUDA_PTX_NAMES_H
#define VCUDA_PTX_NAMES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ptx_name_entry {
    const char *key;    /* NULL: empty slot */
    uint32_t len;
    uint32_t hash;
    uint8_t kind;       /* what the name is bound to; 0 = unbound */
    int32_t value;      /* index (meaning depends on kind) */
    uint32_t depth;     /* scope depth of the binding */
} ptx_name_entry;

typedef struct ptx_name_table {
    ptx_name_entry *slots;
    uint32_t cap;       /* power of two, or 0 before the first insert */
    uint32_t used;
} ptx_name_table;

/* The entry for key, or NULL when the name was never inserted. */
ptx_name_entry *ptx_names_find(const ptx_name_table *t, const char *key, uint32_t len);
/* The entry for key, inserted unbound (kind 0, value -1) when new. NULL when out of memory.
 * The pointer is valid until the next insert. */
ptx_name_entry *ptx_names_insert(ptx_name_table *t, const char *key, uint32_t len);
/* Forget every entry (keeps the storage). */
void ptx_names_clear(ptx_name_table *t);
void ptx_names_free(ptx_name_table *t);

#endif
