/* ptx/demangle.c — kernel and device-function names demangled by the C++ runtime's
 * __cxa_demangle (libstdc++, which is wherever nvcc is: nvcc needs the host C++ compiler),
 * then, for `vcuda check`, respelt as compute-sanitizer prints them.
 *
 * The library is C: it links the C++ runtime when the compiler has one (CMakeLists.txt);
 * a build without it refers to __cxa_demangle weakly and shows a name as it is, mangled,
 * when no library of the process defines it.
 *
 * compute-sanitizer's spelling differs from the C++ runtime's in two ways only: a space
 * before '*' and '&' ("int *", "int &&", but "void (*)(int)"), and cv-qualifiers of a
 * type written before it ("const char *const *" for "char const* const*"; a qualifier
 * after ')' — a const member function — stays where it is).
 */
#include "ptx/demangle.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The C++ ABI's demangler (extern "C" in libstdc++ and libc++abi): a strong reference
 * when the build links the C++ runtime, else a weak one that the program's own may fill. */
#ifdef VCUDA_CXX_RUNTIME_LINKED
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);
#define PTX_DM_HAVE_DEMANGLER 1
#else
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status)
    __attribute__((weak));
#define PTX_DM_HAVE_DEMANGLER (__cxa_demangle != NULL)
#endif

static bool ptx_dm_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The qualifier (" const" or " volatile", a whole word) at s, or NULL. */
static const char *ptx_dm_qualifier(const char *s) {
    static const char *const quals[] = {"const", "volatile"};
    if (*s != ' ') return NULL;
    for (size_t q = 0; q < sizeof quals / sizeof *quals; q++) {
        size_t n = strlen(quals[q]);
        if (!strncmp(s + 1, quals[q], n) && !ptx_dm_ident(s[1 + n])) return quals[q];
    }
    return NULL;
}

/* Where the type that ends at o[len] begins: after the nearest '(', '<', '[' or ',' that
 * encloses it, skipping bracketed parts ("std::vector<int> const", "(anonymous
 * namespace)::T const"), and after the qualifiers already moved to its front. */
static size_t ptx_dm_type_start(const char *o, size_t len) {
    int depth = 0;
    size_t i = len;
    for (; i > 0; i--) {
        char c = o[i - 1];
        if (c == ')' || c == '>' || c == ']') {
            depth++;
        } else if (c == '(' || c == '<' || c == '[') {
            if (depth == 0) break;
            depth--;
        } else if (c == ',' && depth == 0) {
            break;
        }
    }
    while (o[i] == ' ') i++;
    for (bool again = true; again;) {
        again = false;
        if (!strncmp(o + i, "const ", 6)) i += 6, again = true;
        else if (!strncmp(o + i, "volatile ", 9)) i += 9, again = true;
    }
    return i;
}

/* s in compute-sanitizer's spelling (malloc'd; NULL when out of memory). Moving a
 * qualifier keeps the length; each space before '*' or '&' adds one. */
static char *ptx_dm_sanitizer(const char *s) {
    size_t n = strlen(s);
    char *o = malloc(2 * n + 1);
    if (!o) return NULL;
    size_t len = 0;
    for (size_t i = 0; i < n;) {
        const char *q = ptx_dm_qualifier(s + i);
        char prev = len ? o[len - 1] : 0;
        if (q && prev && prev != ')') {
            size_t qn = strlen(q);
            if (prev == '*' || prev == '&') {
                /* a qualified pointer: "char* const" -> "char *const" */
                memcpy(o + len, q, qn);
                len += qn;
            } else {
                size_t at = ptx_dm_type_start(o, len);
                memmove(o + at + qn + 1, o + at, len - at);
                memcpy(o + at, q, qn);
                o[at + qn] = ' ';
                len += qn + 1;
            }
            i += qn + 1;
            continue;
        }
        char c = s[i++];
        if ((c == '*' || c == '&') && prev && prev != ' ' && prev != '(' && prev != '*' &&
            prev != '&')
            o[len++] = ' ';
        o[len++] = c;
    }
    o[len] = 0;
    return o;
}

char *ptx_demangle(const char *name, ptx_demangle_style style) {
    if (!name || strncmp(name, "_Z", 2) != 0 || !PTX_DM_HAVE_DEMANGLER) return NULL;
    int status = 0;
    char *gnu = __cxa_demangle(name, NULL, NULL, &status);
    if (status != 0 || !gnu) {
        free(gnu);
        return NULL;
    }
    if (style == PTX_DEMANGLE_GNU) return gnu;
    char *out = ptx_dm_sanitizer(gnu);
    free(gnu);
    return out;
}

void ptx_demangle_into(const char *name, ptx_demangle_style style, char *out, size_t n) {
    if (!n) return;
    char *d = ptx_demangle(name, style);
    size_t len = strlen(d ? d : name ? name : "?");
    if (len >= n) len = n - 1;
    memcpy(out, d ? d : name ? name : "?", len);
    out[len] = 0;
    free(d);
}
