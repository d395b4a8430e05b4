/* split.cu — work split across every device by one host thread, as the multi-GPU chapter
 * does it: each device gets a slice of the input, two streams of its own that overlap
 * copies and kernels chunk by chunk, and a partial reduction; the partial results are
 * gathered on device 0 with peer copies and reduced there. Checked against the host. */
#include "mgpu_test.h"

__global__ void saxpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

/* One block's sum of squares (rounded to integers so the result is exact). */
__global__ void partial_sums(const float *y, long long *out, int n) {
    __shared__ long long s[256];
    long long v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += (long long)y[i] * (long long)y[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void final_sum(const long long *in, int n, long long *out) {
    __shared__ long long s[256];
    long long v = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}

int main() {
    const int ngpu = mgpu_devices();
    const int N = 1 << 18, CHUNKS = 4, BLOCKS = 32;
    const int per = N / ngpu, chunk = per / CHUNKS;
    float *hx, *hy;
    OK(cudaMallocHost(&hx, N * sizeof(float)));
    OK(cudaMallocHost(&hy, N * sizeof(float)));
    for (int i = 0; i < N; i++) {
        hx[i] = (float)(i % 17);
        hy[i] = (float)(i % 5);
    }
    float *dx[8], *dy[8];
    long long *dpart[8], *gathered, *total;
    cudaStream_t st[8][2];
    for (int g = 0; g < ngpu; g++) {
        OK(cudaSetDevice(g));
        OK(cudaMalloc(&dx[g], per * sizeof(float)));
        OK(cudaMalloc(&dy[g], per * sizeof(float)));
        OK(cudaMalloc(&dpart[g], BLOCKS * sizeof(long long)));
        OK(cudaStreamCreate(&st[g][0]));
        OK(cudaStreamCreate(&st[g][1]));
    }
    OK(cudaSetDevice(0));
    OK(cudaMalloc(&gathered, ngpu * BLOCKS * sizeof(long long)));
    OK(cudaMalloc(&total, sizeof(long long)));

    /* every device works at once: issue everything before waiting for anything */
    for (int g = 0; g < ngpu; g++) {
        OK(cudaSetDevice(g));
        for (int c = 0; c < CHUNKS; c++) {
            cudaStream_t s = st[g][c % 2];
            size_t off = (size_t)c * chunk, gofs = (size_t)g * per + off;
            OK(cudaMemcpyAsync(dx[g] + off, hx + gofs, chunk * sizeof(float),
                               cudaMemcpyHostToDevice, s));
            OK(cudaMemcpyAsync(dy[g] + off, hy + gofs, chunk * sizeof(float),
                               cudaMemcpyHostToDevice, s));
            saxpy<<<(chunk + 255) / 256, 256, 0, s>>>(dy[g] + off, dx[g] + off, 2.0f, chunk);
            OK(cudaGetLastError());
            OK(cudaMemcpyAsync(hy + gofs, dy[g] + off, chunk * sizeof(float),
                               cudaMemcpyDeviceToHost, s));
        }
        /* the partial sums wait for both streams of the device */
        cudaEvent_t ev;
        OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
        OK(cudaEventRecord(ev, st[g][1]));
        OK(cudaStreamWaitEvent(st[g][0], ev, 0));
        partial_sums<<<BLOCKS, 256, 0, st[g][0]>>>(dy[g], dpart[g], per);
        OK(cudaGetLastError());
        OK(cudaEventDestroy(ev));
    }
    for (int g = 0; g < ngpu; g++) {
        OK(cudaSetDevice(g));
        OK(cudaDeviceSynchronize());
    }
    /* gather the partial sums on device 0 (peer copies), reduce there */
    OK(cudaSetDevice(0));
    for (int g = 0; g < ngpu; g++)
        OK(cudaMemcpyPeer(gathered + g * BLOCKS, 0, dpart[g], g, BLOCKS * sizeof(long long)));
    final_sum<<<1, 256>>>(gathered, ngpu * BLOCKS, total);
    OK(cudaGetLastError());
    long long got = 0;
    OK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));

    long long want = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float y = 2.0f * (float)(i % 17) + (float)(i % 5);
        if (hy[i] != y) bad++;
        want += (long long)y * (long long)y;
    }
    printf("devices used: %d, elements per device: %d, chunks per device: %d\n", ngpu, per,
           CHUNKS);
    printf("saxpy results wrong: %d\n", bad);
    printf("sum of squares on the devices: %lld, on the host: %lld, %s\n", got, want,
           got == want ? "equal" : "DIFFERENT");
    for (int g = 0; g < ngpu; g++) {
        long long part[32];
        OK(cudaMemcpy(part, dpart[g], sizeof part, cudaMemcpyDefault));
        long long s = 0;
        for (int b = 0; b < BLOCKS; b++) s += part[b];
        printf("device %d partial: %lld\n", g, s);
    }
    for (int g = 0; g < ngpu; g++) {
        OK(cudaSetDevice(g));
        OK(cudaStreamDestroy(st[g][0]));
        OK(cudaStreamDestroy(st[g][1]));
        OK(cudaFree(dx[g]));
        OK(cudaFree(dy[g]));
        OK(cudaFree(dpart[g]));
    }
    OK(cudaSetDevice(0));
    OK(cudaFree(gathered));
    OK(cudaFree(total));
    OK(cudaFreeHost(hx));
    OK(cudaFreeHost(hy));
    return 0;
}
