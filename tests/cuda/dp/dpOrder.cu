/* dpOrder — ordering and completion of device-side launches (CDP2).
 *
 * Every child grid takes a ticket from one global counter when it starts and another when
 * it ends, so the host can check the orders CUDA guarantees and nothing else:
 *   A  launches of a block into its NULL stream run one after another, in launch order;
 *   B  named streams of a block, ordered by an event (cudaEventRecord + cudaStreamWaitEvent),
 *      and a stream shared by two threads of the block;
 *   C  the tail launch stream: a tail grid starts after every block of the launching grid
 *      and every grid they launched has finished; a second tail grid of the same grid starts
 *      after the first one and everything it launched has finished;
 *   D  the fire-and-forget stream: such a grid finishes before the launching grid's tail
 *      launch starts;
 *   E  a parent grid is complete (for the host) only when its whole chain of descendants is.
 *
 * Build: nvcc -arch=sm_90 -rdc=true dpOrder.cu -lcudadevrt
 */
#include "../../../examples/common.h"

#define SLOTS 64
#define NONE 0xffffffffu

__device__ unsigned g_ticket;
__device__ unsigned g_start[SLOTS], g_end[SLOTS];
__device__ unsigned g_parentEnd[16];
__device__ int g_err;
__device__ int g_depthSeen[32];
__device__ int g_scratch[SLOTS * 256];

__device__ void noteError(cudaError_t e)
{
    if (e != cudaSuccess)
        atomicCAS(&g_err, 0, (int)e);
}

/* A child that does a little work between its two tickets. */
__global__ void stamp(int slot)
{
    if (threadIdx.x == 0)
        g_start[slot] = atomicAdd(&g_ticket, 1);
    int *s = g_scratch + slot * 256;
    for (int i = 0; i < 64; i++)
        s[threadIdx.x] += i * (int)threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        g_end[slot] = atomicAdd(&g_ticket, 1);
}

/* A: three launches into the block's NULL stream. */
__global__ void parentA()
{
    if (threadIdx.x == 0) {
        for (int k = 0; k < 3; k++) {
            stamp<<<1, 128>>>(blockIdx.x * 3 + k);
            noteError(cudaGetLastError());
        }
    }
}

/* B: X in s1, event e recorded after X, s2 waits for e, then Y in s2; a second thread
 * launches W into s1 after X (the stream belongs to the block). */
__global__ void parentB()
{
    __shared__ cudaStream_t s1, s2;
    if (threadIdx.x == 0) {
        noteError(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
        noteError(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
        cudaEvent_t e;
        noteError(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        stamp<<<1, 128, 0, s1>>>(0);   /* X */
        noteError(cudaGetLastError());
        noteError(cudaEventRecord(e, s1));
        noteError(cudaStreamWaitEvent(s2, e, 0));
        stamp<<<1, 128, 0, s2>>>(1);   /* Y */
        noteError(cudaGetLastError());
        noteError(cudaEventDestroy(e));
    }
    __syncthreads();
    if (threadIdx.x == 1) {
        stamp<<<1, 128, 0, s1>>>(2);   /* W */
        noteError(cudaGetLastError());
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        noteError(cudaStreamDestroy(s1));
        noteError(cudaStreamDestroy(s2));
    }
}

/* C's tail grids: take tickets; the first one also launches a child of its own. */
__global__ void tailGrid(int slot, int childSlot)
{
    if (threadIdx.x == 0) {
        g_start[slot] = atomicAdd(&g_ticket, 1);
        if (childSlot >= 0) {
            stamp<<<1, 64>>>(childSlot);
            noteError(cudaGetLastError());
        }
        g_end[slot] = atomicAdd(&g_ticket, 1);
    }
}

/* C: 8 blocks, each launching a child; blocks 0 and 3 also put a grid in the tail stream. */
__global__ void parentC()
{
    if (threadIdx.x == 0) {
        stamp<<<1, 128>>>(blockIdx.x);
        noteError(cudaGetLastError());
        if (blockIdx.x == 0) {
            tailGrid<<<1, 32, 0, cudaStreamTailLaunch>>>(8, 10);
            noteError(cudaGetLastError());
        }
        if (blockIdx.x == 3) {
            tailGrid<<<1, 32, 0, cudaStreamTailLaunch>>>(9, -1);
            noteError(cudaGetLastError());
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        g_parentEnd[blockIdx.x] = atomicAdd(&g_ticket, 1);
}

/* D: a fire-and-forget child and a tail grid. */
__global__ void parentD()
{
    if (threadIdx.x == 0) {
        stamp<<<1, 128, 0, cudaStreamFireAndForget>>>(0);
        noteError(cudaGetLastError());
        tailGrid<<<1, 32, 0, cudaStreamTailLaunch>>>(1, -1);
        noteError(cudaGetLastError());
    }
}

/* E: a chain of nested grids, each writing its depth. */
__global__ void chain(int depth, int last)
{
    for (int i = 0; i < 1000; i++)
        if (threadIdx.x == 0 && i == 999)
            g_depthSeen[depth] = depth + 1;
    if (blockIdx.x == 0 && threadIdx.x == 0 && depth < last) {
        chain<<<2, 32>>>(depth + 1, last);
        noteError(cudaGetLastError());
    }
}

struct Stamps {
    unsigned start[SLOTS], end[SLOTS], parentEnd[16];
    int err;
};

static void reset()
{
    static unsigned zeros[SLOTS * 256];
    unsigned none[SLOTS];
    for (int i = 0; i < SLOTS; i++)
        none[i] = NONE;
    unsigned zero = 0;
    CHECK(cudaMemcpyToSymbol(g_ticket, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_start, none, sizeof none));
    CHECK(cudaMemcpyToSymbol(g_end, none, sizeof none));
    CHECK(cudaMemcpyToSymbol(g_parentEnd, none, sizeof(unsigned) * 16));
    CHECK(cudaMemcpyToSymbol(g_err, &zero, sizeof zero));
    CHECK(cudaMemcpyToSymbol(g_scratch, zeros, sizeof zeros));
}

static Stamps fetch()
{
    Stamps s;
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpyFromSymbol(s.start, g_start, sizeof s.start));
    CHECK(cudaMemcpyFromSymbol(s.end, g_end, sizeof s.end));
    CHECK(cudaMemcpyFromSymbol(s.parentEnd, g_parentEnd, sizeof s.parentEnd));
    CHECK(cudaMemcpyFromSymbol(&s.err, g_err, sizeof s.err));
    if (s.err)
        printf("  device-side error: %s\n", cudaGetErrorName((cudaError_t)s.err));
    return s;
}

static bool ran(const Stamps &s, int slot)
{
    return s.start[slot] != NONE && s.end[slot] != NONE && s.start[slot] < s.end[slot];
}

static const char *verdict(bool ok) { return ok ? "ok" : "FAILED"; }

int main()
{
    bool all = true;

    reset();
    parentA<<<4, 32>>>();
    CHECK(cudaGetLastError());
    Stamps a = fetch();
    bool ok = a.err == 0;
    for (int b = 0; b < 4; b++)
        for (int k = 0; k < 3; k++) {
            int slot = b * 3 + k;
            ok &= ran(a, slot);
            if (k > 0)
                ok &= a.start[slot] > a.end[slot - 1];
        }
    printf("A  NULL stream of a block runs its 3 launches in order (4 blocks): %s\n", verdict(ok));
    all &= ok;

    reset();
    parentB<<<1, 64>>>();
    CHECK(cudaGetLastError());
    Stamps b = fetch();
    ok = b.err == 0 && ran(b, 0) && ran(b, 1) && ran(b, 2);
    bool eventOrder = ok && b.start[1] > b.end[0];
    bool sharedStream = ok && b.start[2] > b.end[0];
    printf("B  stream s2 waits for event recorded after X in s1: %s\n", verdict(eventOrder));
    printf("B  second thread's launch into the block's stream s1 runs after X: %s\n",
           verdict(sharedStream));
    all &= eventOrder && sharedStream;

    reset();
    parentC<<<8, 32>>>();
    CHECK(cudaGetLastError());
    Stamps c = fetch();
    ok = c.err == 0 && ran(c, 8) && ran(c, 9) && ran(c, 10);
    bool tailAfterAll = ok;
    for (int i = 0; i < 8 && ok; i++) {
        tailAfterAll &= ran(c, i) && c.parentEnd[i] != NONE;
        tailAfterAll &= c.start[8] > c.end[i] && c.start[9] > c.end[i];
        tailAfterAll &= c.start[8] > c.parentEnd[i] && c.start[9] > c.parentEnd[i];
    }
    /* whichever tail grid ran first, the second starts after it and its child ended */
    bool firstIs8 = c.start[8] < c.start[9];
    bool tailSequence = ok && (firstIs8 ? c.start[9] > c.end[10] && c.start[9] > c.end[8]
                                        : c.start[8] > c.end[9]);
    printf("C  tail grids start after all 8 parent blocks and their children: %s\n",
           verdict(tailAfterAll));
    printf("C  the second tail grid starts after the first and its child: %s\n",
           verdict(tailSequence));
    all &= tailAfterAll && tailSequence;

    reset();
    parentD<<<1, 32>>>();
    CHECK(cudaGetLastError());
    Stamps d = fetch();
    ok = d.err == 0 && ran(d, 0) && ran(d, 1) && d.start[1] > d.end[0];
    printf("D  fire-and-forget child ends before the tail grid starts: %s\n", verdict(ok));
    all &= ok;

    int zeros[32] = {0};
    CHECK(cudaMemcpyToSymbol(g_depthSeen, zeros, sizeof zeros));
    unsigned zero = 0;
    CHECK(cudaMemcpyToSymbol(g_err, &zero, sizeof zero));
    cudaEvent_t done;
    CHECK(cudaEventCreate(&done));
    chain<<<2, 32>>>(0, 15);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done));
    CHECK(cudaEventSynchronize(done));
    int seen[32];
    CHECK(cudaMemcpyFromSymbol(seen, g_depthSeen, sizeof seen));
    int err = 0;
    CHECK(cudaMemcpyFromSymbol(&err, g_err, sizeof err));
    int deepest = 0;
    while (deepest < 32 && seen[deepest] == deepest + 1)
        deepest++;
    ok = err == 0 && deepest == 16;
    printf("E  host sees all %d levels of a nested chain complete after the parent: %s\n", deepest,
           verdict(ok));
    all &= ok;
    CHECK(cudaEventDestroy(done));

    CHECK(cudaDeviceReset());
    printf("%s\n", all ? "Test passed" : "Test failed!");
    return all ? EXIT_SUCCESS : EXIT_FAILURE;
}
