// Matrix transpose three ways (the CUDA-samples progression): naive (coalesced reads,
// strided writes), through a 32x32 shared tile, and through a padded 32x33 tile that
// avoids bank conflicts; TILE_DIM 32 with BLOCK_ROWS 8 so each thread moves four
// elements. Square and non-square matrices whose sizes are not multiples of the tile.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *out, const float *in, int rows, int cols)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows) out[x * rows + (y + j)] = in[(y + j) * cols + x];
}

template <int PAD>
__global__ void transposeTiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;   // transposed block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

static int check(const float *out, const float *in, int rows, int cols)
{
    int bad = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (out[c * rows + r] != in[r * cols + c]) bad++;
    return bad;
}

int main()
{
    int bad = 0;
    const int shapes[3][2] = {{256, 256}, {1000, 333}, {45, 1029}};
    for (int s = 0; s < 3; s++) {
        int rows = shapes[s][0], cols = shapes[s][1];
        size_t bytes = (size_t)rows * cols * sizeof(float);
        float *h = (float *)malloc(bytes), *o = (float *)malloc(bytes);
        for (int i = 0; i < rows * cols; i++) h[i] = (float)(i % 100003) * 0.5f;
        float *din, *dout;
        CHECK(cudaMalloc(&din, bytes)); CHECK(cudaMalloc(&dout, bytes));
        CHECK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
        dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
        const char *names[3] = {"naive", "shared", "padded"};
        for (int v = 0; v < 3; v++) {
            CHECK(cudaMemset(dout, 0, bytes));
            if (v == 0) transposeNaive<<<grid, block>>>(dout, din, rows, cols);
            else if (v == 1) transposeTiled<0><<<grid, block>>>(dout, din, rows, cols);
            else transposeTiled<1><<<grid, block>>>(dout, din, rows, cols);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpy(o, dout, bytes, cudaMemcpyDeviceToHost));
            int b = check(o, h, rows, cols);
            double sum = 0;
            for (int i = 0; i < rows * cols; i++) sum += o[i] * (double)(i % 7);
            printf("%dx%d %-7s grid %ux%u: out[1]=%g out[last]=%g weighted=%.1f %s\n", rows, cols, names[v], grid.x, grid.y,
                   o[1], o[rows * cols - 1], sum, b ? "WRONG" : "ok");
            bad += b;
        }
        cudaFree(din); cudaFree(dout); free(h); free(o);
    }
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
