/* blas/level1_s.c — the level-1 routines for float (blas/level1_t.h). */
#define T float
#define API(name) cublasS##name
#define IAPI(name) cublasIs##name
#define ABS fabsf
#include "level1_t.h"
