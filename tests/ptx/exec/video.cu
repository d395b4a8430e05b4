// Kernels for tests/unit/test_exec_video.c: the SIMD video instructions, as the CUDA
// SIMD intrinsics emit them and in the other type/.sat/.add forms, applied to the pairs
// (a[i], b[i]) with c[i] as merge/accumulate operand; 24 results per thread.
// PTX: nvcc -arch=sm_90 -ptx video.cu -o video.ptx

#define V(op, out)                                                                      \
    asm(op " %0, %1, %2, %3;" : "=r"(out) : "r"(x), "r"(y), "r"(z))

extern "C" __global__ void video(const unsigned *a, const unsigned *b, const unsigned *c,
                                 unsigned *out) {
    unsigned i = threadIdx.x, x = a[i], y = b[i], z = c[i];
    unsigned *o = out + i * 24;
    V("vabsdiff4.u32.u32.u32", o[0]);
    V("vabsdiff4.u32.u32.u32.add", o[1]);
    V("vabsdiff2.s32.s32.s32.add", o[2]);
    V("vabsdiff2.u32.u32.u32", o[3]);
    V("vadd4.u32.u32.u32.sat", o[4]);
    V("vadd4.s32.s32.s32.sat", o[5]);
    V("vadd2.u32.u32.u32", o[6]);
    V("vadd2.s32.s32.s32.sat", o[7]);
    V("vsub4.u32.u32.u32.sat", o[8]);
    V("vsub4.s32.s32.s32.sat", o[9]);
    V("vsub2.s32.u32.u32.sat", o[10]);
    V("vsub2.u32.s32.s32", o[11]);
    V("vavrg4.u32.u32.u32", o[12]);
    V("vavrg4.s32.s32.s32", o[13]);
    V("vavrg2.s32.s32.s32", o[14]);
    V("vavrg2.u32.u32.u32", o[15]);
    V("vmin4.u32.u32.u32", o[16]);
    V("vmin4.s32.s32.s32", o[17]);
    V("vmax2.s32.s32.s32", o[18]);
    V("vmax2.u32.u32.u32.add", o[19]);
    V("vmin2.s32.s32.s32.add", o[20]);
    V("vadd4.s32.s32.s32.add", o[21]);
    V("vsub4.u32.s32.u32", o[22]);
    V("vmax4.s32.u32.s32.sat", o[23]);
}
