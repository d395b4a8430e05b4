/* tests/unit/test_runtime_userobj.c — user objects: the destructor runs once, when the
 * last reference goes, whoever holds it: the caller, a graph (until it is destroyed), a
 * clone, an executable graph instantiated from the graph (until it is destroyed). */
#include "test_runtime_common.h"

static int destroyed;
static void CUDART_CB on_destroy(void *p) { destroyed += *(int *)p; }

int main(void) {
    int one = 1;
    cudaUserObject_t o = NULL;
    CHECK_ERR(cudaUserObjectCreate(&o, &one, on_destroy, 2, 0), cudaErrorInvalidValue);
    CHECK_ERR(cudaUserObjectCreate(&o, &one, on_destroy, 2, cudaUserObjectNoDestructorSync),
              cudaSuccess);
    CHECK_ERR(cudaUserObjectRetain(o, 1), cudaSuccess);        /* 3 */
    CHECK_ERR(cudaUserObjectRelease(o, 2), cudaSuccess);       /* 1 */
    CHECK(destroyed == 0);

    cudaGraph_t g, clone;
    CHECK_ERR(cudaGraphCreate(&g, 0), cudaSuccess);
    /* the graph takes the caller's last reference (move) */
    CHECK_ERR(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove), cudaSuccess);
    CHECK_ERR(cudaGraphRetainUserObject(g, o, 1, 0), cudaSuccess); /* 2, both the graph's */
    CHECK_ERR(cudaGraphReleaseUserObject(g, o, 1), cudaSuccess);   /* 1 */
    CHECK_ERR(cudaGraphReleaseUserObject(g, o, 5), cudaErrorInvalidValue);
    cudaGraphNode_t empty;
    CHECK_ERR(cudaGraphAddEmptyNode(&empty, g, NULL, 0), cudaSuccess);
    CHECK_ERR(cudaGraphClone(&clone, g), cudaSuccess);              /* 2 */
    cudaGraphExec_t x;
    CHECK_ERR(cudaGraphInstantiate(&x, g, 0), cudaSuccess);        /* 3 */
    CHECK_ERR(cudaGraphDestroy(g), cudaSuccess);                   /* 2 */
    CHECK_ERR(cudaGraphDestroy(clone), cudaSuccess);               /* 1 */
    CHECK(destroyed == 0);
    CHECK_ERR(cudaGraphLaunch(x, 0), cudaSuccess);
    CHECK_ERR(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_ERR(cudaGraphExecDestroy(x), cudaSuccess);               /* 0 */
    CHECK(destroyed == 1);
    CHECK_ERR(cudaUserObjectRelease(o, 1), cudaErrorInvalidValue); /* gone */
    return test_finish("test_runtime_userobj");
}
