// Cache-hinted loads and stores, read-only loads, vector types.
extern "C" __global__ void cache_hints(const float *in, float *out, const float4 *in4, float4 *out4,
                                       const double2 *d2, double2 *o2, const int2 *i2, int2 *oi2) {
    int t = threadIdx.x;
    float a = __ldg(in + t) + __ldcg(in + t + 1) + __ldca(in + t + 2) + __ldcs(in + t + 3) +
              __ldlu(in + t + 4) + __ldcv(in + t + 5);
    __stcs(out + t, a);
    __stcg(out + t + 64, a * 2);
    __stwb(out + t + 128, a * 3);
    __stwt(out + t + 192, a * 4);
    float4 v = __ldg(in4 + t);
    float4 w = __ldcs(in4 + t + 32);
    __stcs(out4 + t, make_float4(v.x + w.x, v.y + w.y, v.z + w.z, v.w + w.w));
    double2 d = __ldg(d2 + t);
    o2[t] = make_double2(d.x * 2, d.y + 1);
    int2 q = __ldcg(i2 + t);
    __stcg(oi2 + t, make_int2(q.y, q.x));
}

extern "C" __global__ void vectors(float2 *f2, double2 *d2, float4 *f4, short2 *s2, char4 *c4,
                                   ulonglong2 *u2, uchar2 *uc2) {
    int t = threadIdx.x;
    float2 a = f2[t];
    f2[t] = make_float2(a.y, a.x);
    double2 b = d2[t];
    d2[t] = make_double2(b.x + b.y, b.x - b.y);
    float4 c = f4[t];
    f4[t] = make_float4(c.w, c.z, c.y, c.x);
    short2 s = s2[t];
    s2[t] = make_short2(s.x + 1, s.y - 1);
    char4 ch = c4[t];
    c4[t] = make_char4(ch.w, ch.z, ch.y, ch.x);
    ulonglong2 u = u2[t];
    u2[t] = make_ulonglong2(u.y, u.x);
    uchar2 x = uc2[t];
    uc2[t] = make_uchar2(x.x + x.y, x.x * x.y);
}
