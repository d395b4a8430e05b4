/* blas/level3_d.c — the matrix routines for double (blas/level3_t.h). */
#define T double
#define API(name) cublasD##name
#define UPPER "D"
#include "level3_t.h"
