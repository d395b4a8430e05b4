#include "tree.h"

__device__ void leaf_visit(unsigned long long *visits) { atomicAdd(visits, 1ULL); }
