// Video shifts with .sat and a secondary operation (.add, .min, .max with c): vshl and vshr
// .sat.clamp in the four .dtype.atype pairings of u32 and s32, over 2048 operand triples (a
// at the edges of each range, b shift counts from 0 to 2^32-1, c alternating 0x5a5a5a5a and
// 0xa5a5a5a5). Each form prints a hash of its 2048 results and eight of them.
// expected/video_shift_op2.out holds what an H200 computed for these forms and operands
// (expected/environment.txt names the card), in this program's format.
// nvcc-flags: -arch=sm_90
#include "video_report.h"
#define N 24
#define T 2048
__global__ void k(const uint32_t *in, uint32_t *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2], r[N];
    asm("vshl.u32.u32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.u32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.u32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.s32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.s32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.s32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.s32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.s32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.s32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.u32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.u32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[10]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.s32.u32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[11]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.u32.u32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[12]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.u32.u32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[13]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.u32.u32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[14]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.s32.s32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[15]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.s32.s32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[16]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.s32.s32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[17]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.u32.s32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[18]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.u32.s32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[19]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.u32.s32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[20]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.s32.u32.u32.sat.clamp.add %0, %1, %2, %3;" : "=r"(r[21]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.s32.u32.u32.sat.clamp.min %0, %1, %2, %3;" : "=r"(r[22]) : "r"(a), "r"(b), "r"(c));
    asm("vshr.s32.u32.u32.sat.clamp.max %0, %1, %2, %3;" : "=r"(r[23]) : "r"(a), "r"(b), "r"(c));
    for (int i = 0; i < N; i++) out[t * N + i] = r[i];
}
static const char *forms[N] = {
    "vshl.u32.u32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshl.u32.u32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshl.u32.u32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshl.s32.s32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshl.s32.s32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshl.s32.s32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshl.u32.s32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshl.u32.s32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshl.u32.s32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshl.s32.u32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshl.s32.u32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshl.s32.u32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshr.u32.u32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshr.u32.u32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshr.u32.u32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshr.s32.s32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshr.s32.s32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshr.s32.s32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshr.u32.s32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshr.u32.s32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshr.u32.s32.u32.sat.clamp.max %0, %1, %2, %3;",
    "vshr.s32.u32.u32.sat.clamp.add %0, %1, %2, %3;",
    "vshr.s32.u32.u32.sat.clamp.min %0, %1, %2, %3;",
    "vshr.s32.u32.u32.sat.clamp.max %0, %1, %2, %3;"
};
int main() {
    static const uint32_t av[] = {0, 1, 2, 3, 5, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x100, 0x17f, 0x180,
        0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x10000, 0x10001, 0x17fff, 0x18000, 0x7f0000,
        0x800000, 0xff0000, 0x1000000, 0x3fffffff, 0x40000000, 0x7fffffff, 0x80000000, 0x80000001,
        0xffffffff, 0xfffffffe, 0xffffff81, 0xffffff80, 0xffffff7f, 0xffff8001, 0xffff8000, 0xffff7fff,
        0xffff0000, 0xfeffffff, 0x12345678, 0x9abcdef0, 0x00ff00ff, 0xff00ff00, 0xc0000000, 0x3f, 0x40,
        0xbf, 0xc0, 0x3fff, 0x4000, 0xbfff, 0xc000, 0xffffffc0, 0xffffc000, 0x55, 0xaa, 0x5555, 0xaaaa,
        0xdeadbeef, 0x0000ff00};
    static const uint32_t bv[] = {0, 1, 2, 3, 4, 7, 8, 9, 14, 15, 16, 17, 23, 24, 25, 30, 31, 32, 33, 34,
        40, 48, 63, 64, 65, 127, 255, 256, 0x10001, 0x7fffffff, 0x80000000, 0xffffffff};
    static uint32_t in[3 * T];
    for (int t = 0; t < T; t++) {
        in[3 * t] = av[t / 32]; in[3 * t + 1] = bv[t % 32]; in[3 * t + 2] = t & 1 ? 0xa5a5a5a5u : 0x5a5a5a5au;
    }
    static const int show[8] = {79, 1379, 5, 260, 1000, 1500, 2047, 33};
    return video_run_and_report(k, in, T, 128, forms, N, show);
}
