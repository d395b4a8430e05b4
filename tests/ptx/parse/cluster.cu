// Thread block clusters (distributed shared memory) and an mbarrier-based cuda::barrier.
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2,1,1) cl(int *p)
{
    __shared__ int s[32];
    cg::cluster_group c = cg::this_cluster();
    unsigned r = c.block_rank();
    s[threadIdx.x] = r;
    c.sync();
    int *other = c.map_shared_rank(s, r ^ 1);
    p[blockIdx.x * 32 + threadIdx.x] = other[threadIdx.x] + c.num_blocks() + c.dim_blocks().x + c.block_index().x;
}
__global__ void bar(int *p)
{
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> b;
    if (threadIdx.x == 0) init(&b, blockDim.x);
    __syncthreads();
    p[threadIdx.x] = 1;
    b.arrive_and_wait();
    p[threadIdx.x] += 1;
}
