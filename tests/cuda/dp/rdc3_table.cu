#include "rdc3_lib.h"

__device__ int table[16] = {5, 3, 8, 1, 9, 2, 7, 4, 6, 0, 11, 15, 13, 12, 14, 10};

__device__ int lookup(int i) { return table[i & 15] * 10 + table[(i >> 4) & 15]; }
