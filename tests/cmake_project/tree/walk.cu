#include "tree.h"

__global__ void walk(unsigned depth, unsigned fanout, unsigned long long *visits) {
    leaf_visit(visits);
    if (depth > 0 && threadIdx.x == 0) walk<<<fanout, 1>>>(depth - 1, fanout, visits);
}
