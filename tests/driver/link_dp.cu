// tests/driver/link_dp.cu — a kernel that launches kernels (dynamic parallelism), compiled
// to relocatable PTX and linked at run time with the device runtime library (cuLink*).
__global__ void child(int *out, int base) { out[base + threadIdx.x] = base + threadIdx.x * 2; }

extern "C" __global__ void parent(int *out, int groups) {
    if (threadIdx.x < groups) child<<<1, 8>>>(out, threadIdx.x * 8);
}
