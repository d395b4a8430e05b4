// A sum reduction in a shared library of kernels.
#pragma once
#include <cstddef>

// The sum of the n device floats at x, computed on the device; NAN on a CUDA error.
double vec_sum(const float *x, size_t n);
