/* ptx/names.c — the name tables of names.h: FNV-1a hashing, linear probing, doubling at
 * half load, so lookups stay O(1) for functions with thousands of registers and labels. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_name(const char *s, uint32_t len) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

ptx_name_entry *ptx_names_find(const ptx_name_table *t, const char *key, uint32_t len) {
    if (t->cap == 0) return NULL;
    uint32_t h = hash_name(key, len), mask = t->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        ptx_name_entry *e = &t->slots[i];
        if (!e->key) return NULL;
        if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) return e;
    }
}

static bool grow(ptx_name_table *t) {
    uint32_t ncap = t->cap ? t->cap * 2 : 64;
    ptx_name_entry *ns = calloc(ncap, sizeof *ns);
    if (!ns) return false;
    for (uint32_t k = 0; k < t->cap; k++) {
        ptx_name_entry *e = &t->slots[k];
        if (!e->key) continue;
        uint32_t i = e->hash & (ncap - 1);
        while (ns[i].key) i = (i + 1) & (ncap - 1);
        ns[i] = *e;
    }
    free(t->slots);
    t->slots = ns;
    t->cap = ncap;
    return true;
}

ptx_name_entry *ptx_names_insert(ptx_name_table *t, const char *key, uint32_t len) {
    if ((t->used + 1) * 2 > t->cap && !grow(t)) return NULL;
    uint32_t h = hash_name(key, len), mask = t->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        ptx_name_entry *e = &t->slots[i];
        if (!e->key) {
            e->key = key;
            e->len = len;
            e->hash = h;
            e->kind = 0;
            e->value = -1;
            e->depth = 0;
            t->used++;
            return e;
        }
        if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) return e;
    }
}

void ptx_names_clear(ptx_name_table *t) {
    /* A table grown for one huge function is dropped rather than wiped, so clearing stays
     * proportional to what the next user puts in. */
    if (t->cap > 4096) {
        ptx_names_free(t);
        return;
    }
    if (t->slots) memset(t->slots, 0, (size_t)t->cap * sizeof *t->slots);
    t->used = 0;
}

void ptx_names_free(ptx_name_table *t) {
    free(t->slots);
    t->slots = NULL;
    t->cap = t->used = 0;
}
