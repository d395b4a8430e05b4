// Shared helpers of the texture and surface test programs: error checks that print the
// CUDA error's name, and a float's bit pattern for exact comparisons.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); exit(1); } } while (0)
// A call whose outcome (success or an error) is part of the expected output.
#define SHOW(call) do { cudaError_t e_ = (call); printf("%-60.60s -> %s\n", #call, \
    cudaGetErrorName(e_)); } while (0)

static inline unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
