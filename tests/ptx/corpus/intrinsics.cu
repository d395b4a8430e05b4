// Integer and bit intrinsics, 64-bit and 128-bit integers.
extern "C" __global__ void int_intrinsics(unsigned *u, unsigned long long *ul, int *s, long long *sl) {
    int t = threadIdx.x;
    unsigned a = u[t], b = u[t + 32];
    u[t] = __brev(a) + __clz(a) + __ffs(a) + __popc(a) + __byte_perm(a, b, 0x5140) +
           __funnelshift_l(a, b, t) + __funnelshift_rc(a, b, t) + __umulhi(a, b) + __umul24(a, b) +
           __sad(a, b, 3) + __usad(a, b, 7) + __uhadd(a, b) + __urhadd(a, b) + __dp4a(a, b, 5u) +
           __dp2a_lo(a, b, 1u) + __dp2a_hi((int)a, (int)b, 1) + __fns(a, 3, 2) + __vabs2(a) +
           __vabsss4(b);
    unsigned long long x = ul[t], y = ul[t + 32];
    ul[t] = __brevll(x) + __clzll(x) + __ffsll(x) + __popcll(x) + __umul64hi(x, y) + x / (y | 1) +
            x % (y | 1) + (x << (t % 64)) + (y >> (t % 64));
    int i = s[t], j = s[t + 32];
    s[t] = __mulhi(i, j) + __mul24(i, j) + __hadd(i, j) + __rhadd(i, j) + abs(i) + min(i, j) +
           max(i, j) + i / (j | 1) + i % (j | 1);
    long long p = sl[t], q = sl[t + 32];
    __int128 w = (__int128)p * q;
    unsigned __int128 z = (unsigned __int128)(unsigned long long)p * (unsigned long long)q;
    sl[t] = __mul64hi(p, q) + llabs(p) + llmin(p, q) + (long long)(w >> 64) + (long long)(z >> 3) +
            (long long)(w / 7) + (long long)(z % 1000003);
}
