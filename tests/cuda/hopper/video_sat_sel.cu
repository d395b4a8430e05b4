// Video instructions with .sat and a destination selector (and the forms beside them):
// vadd/vsub in the four .dtype.atype.btype pairings of u32 and s32 into each byte and half
// of c and into the whole word, the byte and half operand selectors, .h1 without .sat,
// vmax/vmin/vabsdiff with .sat into a field and vshl .sat.wrap into a byte, over 256 pairs
// of operands at the edges of each range (c alternating 0x5a5a5a5a and 0xa5a5a5a5). Each
// form prints a hash of its 256 results and eight of them. expected/video_sat_sel.out was
// printed by an H200.
// nvcc-flags: -arch=sm_90
#include "video_report.h"
#define N 64
__global__ void k(const uint32_t *in, uint32_t *out) {
    int t = threadIdx.x;
    uint32_t a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2], r[N];
    asm("vadd.u32.u32.u32.sat %0.b0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.b1, %1, %2, %3;" : "=r"(r[1]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.b2, %1, %2, %3;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.b3, %1, %2, %3;" : "=r"(r[3]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.h0, %1, %2, %3;" : "=r"(r[4]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.h1, %1, %2, %3;" : "=r"(r[5]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0, %1, %2;" : "=r"(r[6]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0.b0, %1, %2, %3;" : "=r"(r[7]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0.b1, %1, %2, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0.b2, %1, %2, %3;" : "=r"(r[9]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0.b3, %1, %2, %3;" : "=r"(r[10]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0.h0, %1, %2, %3;" : "=r"(r[11]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0.h1, %1, %2, %3;" : "=r"(r[12]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.s32.s32.sat %0, %1, %2;" : "=r"(r[13]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0.b0, %1, %2, %3;" : "=r"(r[14]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0.b1, %1, %2, %3;" : "=r"(r[15]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0.b2, %1, %2, %3;" : "=r"(r[16]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0.b3, %1, %2, %3;" : "=r"(r[17]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0.h0, %1, %2, %3;" : "=r"(r[18]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0.h1, %1, %2, %3;" : "=r"(r[19]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.s32.s32.sat %0, %1, %2;" : "=r"(r[20]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0.b0, %1, %2, %3;" : "=r"(r[21]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0.b1, %1, %2, %3;" : "=r"(r[22]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0.b2, %1, %2, %3;" : "=r"(r[23]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0.b3, %1, %2, %3;" : "=r"(r[24]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0.h0, %1, %2, %3;" : "=r"(r[25]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0.h1, %1, %2, %3;" : "=r"(r[26]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.s32.u32.u32.sat %0, %1, %2;" : "=r"(r[27]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0.b0, %1, %2, %3;" : "=r"(r[28]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0.b1, %1, %2, %3;" : "=r"(r[29]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0.b2, %1, %2, %3;" : "=r"(r[30]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0.b3, %1, %2, %3;" : "=r"(r[31]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0.h0, %1, %2, %3;" : "=r"(r[32]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0.h1, %1, %2, %3;" : "=r"(r[33]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.u32.u32.sat %0, %1, %2;" : "=r"(r[34]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.b0, %1, %2, %3;" : "=r"(r[35]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.b1, %1, %2, %3;" : "=r"(r[36]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.b2, %1, %2, %3;" : "=r"(r[37]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.b3, %1, %2, %3;" : "=r"(r[38]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.h0, %1, %2, %3;" : "=r"(r[39]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.h1, %1, %2, %3;" : "=r"(r[40]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0, %1, %2;" : "=r"(r[41]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0.b0, %1, %2, %3;" : "=r"(r[42]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0.b1, %1, %2, %3;" : "=r"(r[43]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0.b2, %1, %2, %3;" : "=r"(r[44]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0.b3, %1, %2, %3;" : "=r"(r[45]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0.h0, %1, %2, %3;" : "=r"(r[46]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0.h1, %1, %2, %3;" : "=r"(r[47]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.u32.s32.s32.sat %0, %1, %2;" : "=r"(r[48]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0.b0, %1, %2, %3;" : "=r"(r[49]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0.b1, %1, %2, %3;" : "=r"(r[50]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0.b2, %1, %2, %3;" : "=r"(r[51]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0.b3, %1, %2, %3;" : "=r"(r[52]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0.h0, %1, %2, %3;" : "=r"(r[53]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0.h1, %1, %2, %3;" : "=r"(r[54]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.u32.u32.sat %0, %1, %2;" : "=r"(r[55]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32.sat %0.h1, %1.b0, %2.b2, %3;" : "=r"(r[56]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32.sat %0.b2, %1.h1, %2.h0, %3;" : "=r"(r[57]) : "r"(a), "r"(b), "r"(c));
    asm("vadd.u32.u32.u32 %0.h1, %1, %2, %3;" : "=r"(r[58]) : "r"(a), "r"(b), "r"(c));
    asm("vsub.s32.s32.s32 %0.b2, %1, %2, %3;" : "=r"(r[59]) : "r"(a), "r"(b), "r"(c));
    asm("vmax.s32.s32.s32.sat %0.h0, %1, %2, %3;" : "=r"(r[60]) : "r"(a), "r"(b), "r"(c));
    asm("vabsdiff.u32.u32.u32.sat %0.b1, %1, %2, %3;" : "=r"(r[61]) : "r"(a), "r"(b), "r"(c));
    asm("vshl.u32.u32.u32.sat.wrap %0.b0, %1, %2, %3;" : "=r"(r[62]) : "r"(a), "r"(b), "r"(c));
    asm("vmin.s32.s32.s32.sat %0.b3, %1, %2, %3;" : "=r"(r[63]) : "r"(a), "r"(b), "r"(c));
    for (int i = 0; i < N; i++) out[t * N + i] = r[i];
}
static const char *forms[N] = {
    "vadd.u32.u32.u32.sat %0.b0, %1, %2, %3;",
    "vadd.u32.u32.u32.sat %0.b1, %1, %2, %3;",
    "vadd.u32.u32.u32.sat %0.b2, %1, %2, %3;",
    "vadd.u32.u32.u32.sat %0.b3, %1, %2, %3;",
    "vadd.u32.u32.u32.sat %0.h0, %1, %2, %3;",
    "vadd.u32.u32.u32.sat %0.h1, %1, %2, %3;",
    "vadd.u32.u32.u32.sat %0, %1, %2;",
    "vadd.s32.s32.s32.sat %0.b0, %1, %2, %3;",
    "vadd.s32.s32.s32.sat %0.b1, %1, %2, %3;",
    "vadd.s32.s32.s32.sat %0.b2, %1, %2, %3;",
    "vadd.s32.s32.s32.sat %0.b3, %1, %2, %3;",
    "vadd.s32.s32.s32.sat %0.h0, %1, %2, %3;",
    "vadd.s32.s32.s32.sat %0.h1, %1, %2, %3;",
    "vadd.s32.s32.s32.sat %0, %1, %2;",
    "vadd.u32.s32.s32.sat %0.b0, %1, %2, %3;",
    "vadd.u32.s32.s32.sat %0.b1, %1, %2, %3;",
    "vadd.u32.s32.s32.sat %0.b2, %1, %2, %3;",
    "vadd.u32.s32.s32.sat %0.b3, %1, %2, %3;",
    "vadd.u32.s32.s32.sat %0.h0, %1, %2, %3;",
    "vadd.u32.s32.s32.sat %0.h1, %1, %2, %3;",
    "vadd.u32.s32.s32.sat %0, %1, %2;",
    "vadd.s32.u32.u32.sat %0.b0, %1, %2, %3;",
    "vadd.s32.u32.u32.sat %0.b1, %1, %2, %3;",
    "vadd.s32.u32.u32.sat %0.b2, %1, %2, %3;",
    "vadd.s32.u32.u32.sat %0.b3, %1, %2, %3;",
    "vadd.s32.u32.u32.sat %0.h0, %1, %2, %3;",
    "vadd.s32.u32.u32.sat %0.h1, %1, %2, %3;",
    "vadd.s32.u32.u32.sat %0, %1, %2;",
    "vsub.u32.u32.u32.sat %0.b0, %1, %2, %3;",
    "vsub.u32.u32.u32.sat %0.b1, %1, %2, %3;",
    "vsub.u32.u32.u32.sat %0.b2, %1, %2, %3;",
    "vsub.u32.u32.u32.sat %0.b3, %1, %2, %3;",
    "vsub.u32.u32.u32.sat %0.h0, %1, %2, %3;",
    "vsub.u32.u32.u32.sat %0.h1, %1, %2, %3;",
    "vsub.u32.u32.u32.sat %0, %1, %2;",
    "vsub.s32.s32.s32.sat %0.b0, %1, %2, %3;",
    "vsub.s32.s32.s32.sat %0.b1, %1, %2, %3;",
    "vsub.s32.s32.s32.sat %0.b2, %1, %2, %3;",
    "vsub.s32.s32.s32.sat %0.b3, %1, %2, %3;",
    "vsub.s32.s32.s32.sat %0.h0, %1, %2, %3;",
    "vsub.s32.s32.s32.sat %0.h1, %1, %2, %3;",
    "vsub.s32.s32.s32.sat %0, %1, %2;",
    "vsub.u32.s32.s32.sat %0.b0, %1, %2, %3;",
    "vsub.u32.s32.s32.sat %0.b1, %1, %2, %3;",
    "vsub.u32.s32.s32.sat %0.b2, %1, %2, %3;",
    "vsub.u32.s32.s32.sat %0.b3, %1, %2, %3;",
    "vsub.u32.s32.s32.sat %0.h0, %1, %2, %3;",
    "vsub.u32.s32.s32.sat %0.h1, %1, %2, %3;",
    "vsub.u32.s32.s32.sat %0, %1, %2;",
    "vsub.s32.u32.u32.sat %0.b0, %1, %2, %3;",
    "vsub.s32.u32.u32.sat %0.b1, %1, %2, %3;",
    "vsub.s32.u32.u32.sat %0.b2, %1, %2, %3;",
    "vsub.s32.u32.u32.sat %0.b3, %1, %2, %3;",
    "vsub.s32.u32.u32.sat %0.h0, %1, %2, %3;",
    "vsub.s32.u32.u32.sat %0.h1, %1, %2, %3;",
    "vsub.s32.u32.u32.sat %0, %1, %2;",
    "vadd.u32.u32.u32.sat %0.h1, %1.b0, %2.b2, %3;",
    "vsub.s32.s32.s32.sat %0.b2, %1.h1, %2.h0, %3;",
    "vadd.u32.u32.u32 %0.h1, %1, %2, %3;",
    "vsub.s32.s32.s32 %0.b2, %1, %2, %3;",
    "vmax.s32.s32.s32.sat %0.h0, %1, %2, %3;",
    "vabsdiff.u32.u32.u32.sat %0.b1, %1, %2, %3;",
    "vshl.u32.u32.u32.sat.wrap %0.b0, %1, %2, %3;",
    "vmin.s32.s32.s32.sat %0.b3, %1, %2, %3;"
};
int main() {
    static const uint32_t vals[] = {0, 1, 2, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x100, 0x101, 0x17f, 0x180, 0x1ff,
        0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x10000, 0x10001, 0x17fff, 0x18000, 0x7f0000, 0x800000, 0xff0000,
        0x1000000, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0xffffff81, 0xffffff80, 0xffffff7f,
        0xffff8001, 0xffff8000, 0xffff7fff, 0xffff0000, 0xfeffffff, 0x12345678, 0x9abcdef0, 0x00ff00ff, 0xff00ff00, 0x40000000,
        0xc0000000, 0x3f, 0x40, 0xbf, 0xc0, 0x3fff, 0x4000, 0xbfff, 0xc000, 0xffffffc0, 0xffffc000, 0x55, 0xaa, 0x5555, 0xaaaa,
        0xdeadbeef, 0x00010000, 0x0000ff00};
    const int NV = sizeof vals / sizeof vals[0];
    static uint32_t in[3 * 256];
    int T = 0;
    for (int i = 0; i < NV && T < 256; i++) {
        uint32_t bs[4] = {0, 1, 0x7fffffff, 0xffffffff};
        for (int j = 0; j < 4 && T < 256; j++) {
            in[3 * T] = vals[i]; in[3 * T + 1] = bs[j]; in[3 * T + 2] = T & 1 ? 0xa5a5a5a5u : 0x5a5a5a5au; T++;
        }
    }
    static const int show[8] = {1, 7, 19, 23, 116, 122, 127, 141};
    return video_run_and_report(k, in, T, T, forms, N, show);
}
