/* check/demangle.c — kernel names as compute-sanitizer prints them.
 *
 * nvcc gives kernels Itanium C++ ABI names (_Z17fillNoBoundsCheckPim). Reports show them
 * demangled, in compute-sanitizer's spelling: "fillNoBoundsCheck(int *, unsigned long)",
 * "const char *", template functions with their return type and arguments
 * ("void reduce<512u>(int *, unsigned int)").
 *
 * This is the subset kernels use: plain and nested names (N...E, with const member
 * qualifiers), template arguments (types, integer literals, template parameters T_),
 * builtin types, pointers, references, const/volatile, arrays, the std:: abbreviations
 * and substitutions (S_, S0_, ...). Anything else (function types, expressions, operator
 * names) gives up, and the mangled name is shown as it is.
 */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DM_MAX_SUBS 64
#define DM_MAX_TARGS 32
#define DM_TEXT 256

typedef struct dm_str { char s[DM_TEXT]; } dm_str;

typedef struct dm {
    const char *p;
    bool fail;
    dm_str subs[DM_MAX_SUBS];
    int nsubs;
    dm_str targs[DM_MAX_TARGS];  /* the last template arguments seen (for T_) */
    int ntargs;
} dm;

/* d = the formatted text (cut at DM_TEXT). */
static void put(dm_str *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(dm_str *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->s, sizeof d->s, fmt, ap);
    va_end(ap);
}

static void cat(dm_str *d, const char *s) {
    size_t n = strlen(d->s);
    snprintf(d->s + n, sizeof d->s - n, "%s", s);
}

static void add_sub(dm *m, const char *s) {
    if (m->nsubs < DM_MAX_SUBS) snprintf(m->subs[m->nsubs++].s, DM_TEXT, "%s", s);
}

static bool parse_type(dm *m, dm_str *out);
static bool parse_name(dm *m, dm_str *out, bool *is_template);

static bool parse_number(dm *m, long *v) {
    if (!isdigit((unsigned char)*m->p)) return false;
    *v = strtol(m->p, (char **)&m->p, 10);
    return true;
}

static bool parse_source_name(dm *m, dm_str *out) {
    long len;
    if (!parse_number(m, &len) || len <= 0 || (long)strlen(m->p) < len || len >= DM_TEXT)
        return false;
    memcpy(out->s, m->p, (size_t)len);
    out->s[len] = 0;
    m->p += len;
    return true;
}

/* S_ S0_ ... S9_ SA_ ...: base-36 sequence ids; St Sa Sb Ss Si So Sd abbreviations. */
static bool parse_substitution(dm *m, dm_str *out) {
    if (*m->p != 'S') return false;
    m->p++;
    static const struct { char c; const char *s; } abbr[] = {
        {'t', "std"}, {'a', "std::allocator"}, {'b', "std::basic_string"},
        {'s', "std::string"}, {'i', "std::istream"}, {'o', "std::ostream"},
        {'d', "std::iostream"}};
    for (size_t i = 0; i < sizeof abbr / sizeof abbr[0]; i++)
        if (*m->p == abbr[i].c) {
            m->p++;
            snprintf(out->s, DM_TEXT, "%s", abbr[i].s);
            return true;
        }
    long id = 0;
    if (*m->p != '_') {
        while (isdigit((unsigned char)*m->p) || isupper((unsigned char)*m->p)) {
            id = id * 36 + (isdigit((unsigned char)*m->p) ? *m->p - '0' : *m->p - 'A' + 10);
            m->p++;
        }
        id++;
    }
    if (*m->p != '_' || id >= m->nsubs) return false;
    m->p++;
    *out = m->subs[id];
    return true;
}

static bool parse_template_param(dm *m, dm_str *out) {
    if (*m->p != 'T') return false;
    m->p++;
    long id = 0;
    if (*m->p != '_') {
        if (!parse_number(m, &id)) return false;
        id++;
    }
    if (*m->p != '_' || id >= m->ntargs) return false;
    m->p++;
    *out = m->targs[id];
    return true;
}

static const char *builtin(char c) {
    switch (c) {
    case 'v': return "void"; case 'b': return "bool"; case 'c': return "char";
    case 'a': return "signed char"; case 'h': return "unsigned char"; case 's': return "short";
    case 't': return "unsigned short"; case 'i': return "int"; case 'j': return "unsigned int";
    case 'l': return "long"; case 'm': return "unsigned long"; case 'x': return "long long";
    case 'y': return "unsigned long long"; case 'n': return "__int128";
    case 'o': return "unsigned __int128"; case 'f': return "float"; case 'd': return "double";
    case 'e': return "long double"; case 'w': return "wchar_t"; case 'z': return "...";
    default: return NULL;
    }
}

/* An integer literal of type t: c++filt's suffixes for the common integer types. */
static bool parse_literal(dm *m, dm_str *out) {
    char t = *m->p++;
    bool neg = *m->p == 'n';
    if (neg) m->p++;
    const char *start = m->p;
    while (isdigit((unsigned char)*m->p)) m->p++;
    if (m->p == start || *m->p != 'E') return false;
    char digits[64];
    size_t n = (size_t)(m->p - start) < sizeof digits - 1 ? (size_t)(m->p - start) : sizeof digits - 1;
    memcpy(digits, start, n);
    digits[n] = 0;
    m->p++;
    const char *suffix = NULL;
    switch (t) {
    case 'b':
        snprintf(out->s, DM_TEXT, "%s", strcmp(digits, "0") ? "true" : "false");
        return true;
    case 'i': suffix = ""; break;
    case 'j': suffix = "u"; break;
    case 'l': suffix = "l"; break;
    case 'm': suffix = "ul"; break;
    case 'x': suffix = "ll"; break;
    case 'y': suffix = "ull"; break;
    default: break;
    }
    if (suffix) {
        snprintf(out->s, DM_TEXT, "%s%s%s", neg ? "-" : "", digits, suffix);
    } else {
        const char *bt = builtin(t);
        if (!bt) return false;
        snprintf(out->s, DM_TEXT, "(%s)%s%s", bt, neg ? "-" : "", digits);
    }
    return true;
}

static bool parse_template_args(dm *m, dm_str *out) {
    if (*m->p != 'I') return false;
    m->p++;
    dm_str args[DM_MAX_TARGS];
    int n = 0;
    snprintf(out->s, DM_TEXT, "<");
    while (*m->p && *m->p != 'E') {
        dm_str a = {{0}};
        if (*m->p == 'L') {
            m->p++;
            if (!parse_literal(m, &a)) return false;
        } else if (!parse_type(m, &a)) {
            return false;
        }
        if (n) cat(out, ", ");
        cat(out, a.s);
        if (n < DM_MAX_TARGS) args[n++] = a;
    }
    if (*m->p != 'E') return false;
    m->p++;
    /* nested ">>" reads as a shift in older C++: keep them apart */
    size_t len = strlen(out->s);
    cat(out, len && out->s[len - 1] == '>' ? " >" : ">");
    memcpy(m->targs, args, sizeof(dm_str) * (size_t)n);
    m->ntargs = n;
    return true;
}

/* N [K|V] prefix... E: every prefix is a substitution candidate; the last component is
 * one too unless the name is a function's (the caller decides). */
static bool parse_nested(dm *m, dm_str *out, bool *is_template) {
    m->p++; /* N */
    while (*m->p == 'K' || *m->p == 'V' || *m->p == 'r') m->p++; /* member qualifiers */
    out->s[0] = 0;
    int last_sub = -1;
    *is_template = false;
    while (*m->p && *m->p != 'E') {
        dm_str part = {{0}};
        if (*m->p == 'S') {
            if (!parse_substitution(m, &part)) return false;
            snprintf(out->s, DM_TEXT, "%s", part.s);
            *is_template = false;
            continue;
        }
        if (*m->p == 'I') {
            dm_str a;
            if (!parse_template_args(m, &a)) return false;
            cat(out, a.s);
            *is_template = true;
        } else if (*m->p == 'T') {
            if (!parse_template_param(m, &part)) return false;
            snprintf(out->s, DM_TEXT, "%s", part.s);
            *is_template = false;
        } else {
            if (!parse_source_name(m, &part)) return false;
            if (out->s[0]) cat(out, "::");
            cat(out, part.s);
            *is_template = false;
        }
        if (*m->p != 'E') {
            add_sub(m, out->s);
            last_sub = m->nsubs - 1;
        }
    }
    (void)last_sub;
    if (*m->p != 'E') return false;
    m->p++;
    return true;
}

static bool parse_name(dm *m, dm_str *out, bool *is_template) {
    *is_template = false;
    if (*m->p == 'N') return parse_nested(m, out, is_template);
    if (*m->p == 'S' && m->p[1] == 't') {
        m->p += 2;
        dm_str n;
        if (!parse_source_name(m, &n)) return false;
        put(out, "std::%s", n.s);
    } else if (*m->p == 'S') {
        if (!parse_substitution(m, out)) return false;
        if (*m->p != 'I') return true;
    } else if (!parse_source_name(m, out)) {
        return false;
    }
    if (*m->p == 'I') {
        add_sub(m, out->s); /* an unscoped template name is a candidate */
        dm_str a;
        if (!parse_template_args(m, &a)) return false;
        cat(out, a.s);
        *is_template = true;
    }
    return true;
}

/* Pointer/reference/qualifier suffixes in compute-sanitizer's spelling: "int *",
 * "const char *", "char *const", "int **". */
static void append_declarator(dm_str *t, const char *tok) {
    size_t n = strlen(t->s);
    bool glue = n && (t->s[n - 1] == '*' || t->s[n - 1] == '&');
    cat(t, glue ? "" : " ");
    cat(t, tok);
}

static bool parse_type(dm *m, dm_str *out) {
    const char *bt = builtin(*m->p);
    if (bt) {
        m->p++;
        snprintf(out->s, DM_TEXT, "%s", bt);
        return true;
    }
    dm_str inner = {{0}};
    switch (*m->p) {
    case 'P': case 'R': case 'O': {
        char c = *m->p++;
        if (!parse_type(m, &inner)) return false;
        *out = inner;
        append_declarator(out, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
        add_sub(m, out->s);
        return true;
    }
    case 'K': case 'V': {
        char c = *m->p++;
        if (!parse_type(m, &inner)) return false;
        size_t n = strlen(inner.s);
        if (n && (inner.s[n - 1] == '*' || inner.s[n - 1] == '&')) {
            *out = inner;
            cat(out, c == 'K' ? "const" : "volatile");
        } else {
            put(out, "%s %s", c == 'K' ? "const" : "volatile", inner.s);
        }
        add_sub(m, out->s);
        return true;
    }
    case 'A': {
        m->p++;
        long dim = 0;
        if (!parse_number(m, &dim) || *m->p != '_') return false;
        m->p++;
        if (!parse_type(m, &inner)) return false;
        put(out, "%s [%ld]", inner.s, dim);
        add_sub(m, out->s);
        return true;
    }
    case 'T':
        if (!parse_template_param(m, out)) return false;
        add_sub(m, out->s);
        return true;
    case 'S':
        if (m->p[1] != 't') {
            if (!parse_substitution(m, out)) return false;
            if (*m->p == 'I') {
                dm_str a;
                if (!parse_template_args(m, &a)) return false;
                cat(out, a.s);
                add_sub(m, out->s);
            }
            return true;
        }
        __attribute__((fallthrough)); /* St names a class */
    default: {
        bool tmpl;
        if (!(*m->p == 'N' || *m->p == 'S' || isdigit((unsigned char)*m->p))) return false;
        if (!parse_name(m, out, &tmpl)) return false;
        add_sub(m, out->s);
        return true;
    }
    }
}

static bool demangle(const char *mangled, char *buf, size_t n) {
    dm *m = calloc(1, sizeof *m);
    if (!m) return false;
    bool ok = false;
    m->p = mangled + 2;
    if (*m->p == 'L') m->p++; /* internal linkage (a static function) */
    dm_str name = {{0}}, ret = {{0}}, params = {{0}};
    bool is_template = false;
    if (!parse_name(m, &name, &is_template)) goto out;
    if (is_template && !parse_type(m, &ret)) goto out; /* template functions: return type */
    if (*m->p == 'v' && m->p[1] == 0) {
        m->p++;
    } else {
        int k = 0;
        while (*m->p) {
            dm_str t = {{0}};
            if (*m->p == '.') break; /* clone suffixes (.cold, ...) */
            if (!parse_type(m, &t)) goto out;
            if (k++) cat(&params, ", ");
            cat(&params, t.s);
        }
    }
    if (*m->p && *m->p != '.') goto out;
    snprintf(buf, n, "%s%s%s(%s)", ret.s, ret.s[0] ? " " : "", name.s, params.s);
    ok = true;
out:
    free(m);
    return ok;
}

void check_demangle(const char *mangled, char *out, size_t n) {
    if (!n) return;
    if (!mangled) mangled = "?";
    if (strncmp(mangled, "_Z", 2) != 0 || !demangle(mangled, out, n))
        snprintf(out, n, "%s", mangled);
}
