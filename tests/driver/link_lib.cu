// tests/driver/link_lib.cu — the other half of the run-time linked program (link_main.cu).
__device__ int offset = 10;

__device__ float transform(float v) { return v * v - 1.0f; }
