// A kernel that walks a tree of grids from the device (dynamic parallelism).
#pragma once

// Launched with one thread: counts, into *visits, every node of a tree of the given depth
// where each node launches `fanout` children.
__global__ void walk(unsigned depth, unsigned fanout, unsigned long long *visits);
// Defined in another file: a leaf's work (needs relocatable device code).
__device__ void leaf_visit(unsigned long long *visits);
