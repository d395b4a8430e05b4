/* blas/level1_d.c — the level-1 routines for double (blas/level1_t.h). */
#define T double
#define API(name) cublasD##name
#define IAPI(name) cublasId##name
#define ABS fabs
#include "level1_t.h"
