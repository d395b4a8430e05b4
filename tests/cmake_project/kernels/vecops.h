// Vector kernels, launched through host wrappers so callers need no CUDA syntax.
#pragma once
#include <cstddef>

// y = a*x + y on the device; returns the CUDA error code (0 on success).
int vec_saxpy(float a, const float *x, float *y, size_t n);
