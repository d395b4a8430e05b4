/* cluster_graph — thread block clusters in graph kernel nodes: the cluster dimension set
 * with cudaGraphKernelNodeSetAttribute is given back by the getter and the node's launches
 * run with that cluster shape, as cudaLaunchKernelEx with the attribute does (each block
 * reads its cluster's shape, its rank, and its neighbour's shared memory through
 * map_shared_rank after a cluster barrier); a shape that does not tile the grid is
 * cudaErrorInvalidClusterSize.
 *
 * Build: nvcc -arch=sm_90 cluster_graph.cu
 */
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define OK(call)                                                                         \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            printf("FAILED line %d: %s: %s\n", __LINE__, #call, cudaGetErrorName(e_));   \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* per block: cluster size, rank in it, and the neighbour's block index read from its
 * shared memory */
__global__ void clusterInfo(int *out) {
    __shared__ int mine;
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) mine = blockIdx.x;
    cl.sync();
    if (threadIdx.x == 0) {
        unsigned rank = cl.block_rank();
        unsigned next = (rank + 1) % cl.num_blocks();
        int *theirs = cl.map_shared_rank(&mine, next);
        out[3 * blockIdx.x] = (int)cl.num_blocks();
        out[3 * blockIdx.x + 1] = (int)rank;
        out[3 * blockIdx.x + 2] = *theirs;
    }
    cl.sync(); /* the neighbour's shared memory stays until it has been read */
}

int main() {
    const int blocks = 8;
    int *d;
    OK(cudaMalloc(&d, 3 * blocks * sizeof(int)));
    OK(cudaMemset(d, 0xff, 3 * blocks * sizeof(int)));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));

    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaKernelNodeParams k;
    memset(&k, 0, sizeof k);
    k.func = (void *)clusterInfo;
    k.gridDim = dim3(blocks);
    k.blockDim = dim3(64);
    void *args[] = {&d};
    k.kernelParams = args;
    cudaGraphNode_t n;
    OK(cudaGraphAddKernelNode(&n, g, NULL, 0, &k));

    cudaLaunchAttributeValue v;
    memset(&v, 0, sizeof v);
    OK(cudaGraphKernelNodeGetAttribute(n, cudaLaunchAttributeClusterDimension, &v));
    printf("before: cluster %u x %u x %u\n", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);
    memset(&v, 0, sizeof v);
    v.clusterDim.x = 4;
    v.clusterDim.y = 1;
    v.clusterDim.z = 1;
    OK(cudaGraphKernelNodeSetAttribute(n, cudaLaunchAttributeClusterDimension, &v));
    memset(&v, 0, sizeof v);
    OK(cudaGraphKernelNodeGetAttribute(n, cudaLaunchAttributeClusterDimension, &v));
    printf("set: cluster %u x %u x %u\n", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);

    cudaGraphExec_t x;
    OK(cudaGraphInstantiate(&x, g, 0));
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    int h[3 * blocks];
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        printf("block %d: cluster of %d, rank %d, neighbour %d\n", b, h[3 * b], h[3 * b + 1],
               h[3 * b + 2]);

    /* a shape that does not tile the grid of 8 blocks: refused when set, or else at
     * instantiation or launch */
    cudaGraph_t g2;
    OK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t n2;
    OK(cudaGraphAddKernelNode(&n2, g2, NULL, 0, &k));
    memset(&v, 0, sizeof v);
    v.clusterDim.x = 3;
    v.clusterDim.y = 1;
    v.clusterDim.z = 1;
    cudaError_t e = cudaGraphKernelNodeSetAttribute(n2, cudaLaunchAttributeClusterDimension, &v);
    cudaGraphExec_t x2;
    if (e == cudaSuccess) e = cudaGraphInstantiate(&x2, g2, 0);
    if (e == cudaSuccess) e = cudaGraphLaunch(x2, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    printf("3 x 1 x 1 over 8 blocks: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    printf("done\n");
    return 0;
}
