/* ptx/demangle.h — the C++ name behind a PTX function's Itanium-mangled name, for every
 * report that names a kernel or device function (profiler, timeline, progress line, graph
 * pictures, `vcuda check`). One routine, two spellings: the one nvprof and Nsight tools
 * print, and compute-sanitizer's.
 */
#ifndef VCUDA_PTX_DEMANGLE_H
#define VCUDA_PTX_DEMANGLE_H

#include <stddef.h>

typedef enum ptx_demangle_style {
    /* "reduce(int*, char const*)": the C++ runtime's spelling, as nvprof and Nsight print */
    PTX_DEMANGLE_GNU,
    /* "reduce(int *, const char *)": compute-sanitizer's */
    PTX_DEMANGLE_SANITIZER,
} ptx_demangle_style;

/* The demangled name (malloc'd), or NULL when name is not a mangled C++ name, the C++
 * runtime is not there, or memory runs out. */
char *ptx_demangle(const char *name, ptx_demangle_style style);

/* The demangled name into out (n bytes, cut to fit), or the name itself when it cannot be
 * demangled; NULL names "?". */
void ptx_demangle_into(const char *name, ptx_demangle_style style, char *out, size_t n);

#endif
