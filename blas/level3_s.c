/* blas/level3_s.c — the matrix routines for float (blas/level3_t.h). */
#define T float
#define API(name) cublasS##name
#define UPPER "S"
#include "level3_t.h"
