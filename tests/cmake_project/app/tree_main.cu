// Launches the tree walk: with depth 3 and fanout 3 the device visits 1+3+9+27 = 40 nodes.
#include <cstdio>

#include "tree.h"

int main() {
    unsigned long long *visits, host = 0;
    cudaMalloc(&visits, sizeof *visits);
    cudaMemset(visits, 0, sizeof *visits);
    walk<<<1, 1>>>(3, 3, visits);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&host, visits, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(visits);
    bool ok = e == cudaSuccess && host == 40;
    std::printf("treedemo: %llu nodes visited (%s): %s\n", host, cudaGetErrorString(e),
                ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
