// Inlined device functions in -lineinfo output produce ".loc ... inlined_at".
__device__ __forceinline__ float twice(float v)
{
    return v * 2.0f;
}
__device__ __forceinline__ float work(float v)
{
    float r = twice(v) + 1.0f;
    return r * r;
}
__global__ void inl(float *p)
{
    p[threadIdx.x] = work(p[threadIdx.x]);
}
