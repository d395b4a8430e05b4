/* runtime/ptrmap.c — a hash map from pointers to pointers (open addressing, linear
 * probing, backward-shift deletion). It maps kernel host stubs and variable shadows to
 * their records, and holds the set of live stream, event and kernel handles so that a
 * handle a program passes can be checked before it is used.
 */
#include "rt.h"

#include <stdlib.h>

static size_t rt_ptr_hash(const void *p, size_t mask) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull; /* a 64-bit mixer: pointers differ mostly in a few bits */
    x ^= x >> 33;
    return (size_t)x & mask;
}

void rt_ptrmap_free(rt_ptrmap *m) {
    free(m->keys);
    free(m->values);
    m->keys = NULL;
    m->values = NULL;
    m->cap = m->count = 0;
}

static bool rt_ptrmap_grow(rt_ptrmap *m) {
    size_t ncap = m->cap ? m->cap * 2 : 16;
    const void **keys = calloc(ncap, sizeof *keys);
    void **values = calloc(ncap, sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        size_t j = rt_ptr_hash(m->keys[i], ncap - 1);
        while (keys[j]) j = (j + 1) & (ncap - 1);
        keys[j] = m->keys[i];
        values[j] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->cap = ncap;
    return true;
}

bool rt_ptrmap_put(rt_ptrmap *m, const void *key, void *value) {
    if (!key) return false;
    if ((m->count + 1) * 2 > m->cap && !rt_ptrmap_grow(m)) return false;
    size_t mask = m->cap - 1, i = rt_ptr_hash(key, mask);
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & mask;
    if (!m->keys[i]) m->count++;
    m->keys[i] = key;
    m->values[i] = value;
    return true;
}

static size_t rt_ptrmap_slot(const rt_ptrmap *m, const void *key, bool *found) {
    *found = false;
    if (!m->cap || !key) return 0;
    size_t mask = m->cap - 1, i = rt_ptr_hash(key, mask);
    while (m->keys[i]) {
        if (m->keys[i] == key) {
            *found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
    return i;
}

void *rt_ptrmap_get(const rt_ptrmap *m, const void *key) {
    bool found;
    size_t i = rt_ptrmap_slot(m, key, &found);
    return found ? m->values[i] : NULL;
}

void *rt_ptrmap_remove(rt_ptrmap *m, const void *key) {
    bool found;
    size_t i = rt_ptrmap_slot(m, key, &found);
    if (!found) return NULL;
    void *value = m->values[i];
    size_t mask = m->cap - 1;
    /* Shift later members of the probe run back so that no lookup stops early. */
    size_t hole = i, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!m->keys[j]) break;
        size_t home = rt_ptr_hash(m->keys[j], mask);
        /* Move j into the hole unless its home lies cyclically in (hole, j]. */
        bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (stays) continue;
        m->keys[hole] = m->keys[j];
        m->values[hole] = m->values[j];
        hole = j;
    }
    m->keys[hole] = NULL;
    m->values[hole] = NULL;
    m->count--;
    return value;
}
