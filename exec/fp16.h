/* exec/fp16.h — conversions between binary32 and the 16-bit float formats (IEEE half,
 * bfloat16), round-to-nearest-even, used for immediates and f16/bf16 atomics. */
#ifndef VCUDA_EXEC_FP16_H
#define VCUDA_EXEC_FP16_H

#include <stdint.h>
#include <string.h>

static inline uint32_t exec_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float exec_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t exec_f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double exec_bits_f64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

static inline uint16_t exec_f32_to_f16(float f) {
    uint32_t x = exec_f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xffu) /* inf / nan (keep a quiet nan) */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 0x1f) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) { /* subnormal half or zero */
        if (e < -10) return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t half = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u))) half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) half++; /* may carry into inf */
    return (uint16_t)(sign | half);
}

static inline float exec_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t x;
    if (exp == 0x1fu) x = sign | 0x7f800000u | (man << 13);
    else if (exp != 0) x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    else if (man == 0) x = sign;
    else { /* subnormal: normalise */
        int e = -1;
        do { man <<= 1; e++; } while (!(man & 0x400u));
        x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    return exec_bits_f32(x);
}

static inline uint16_t exec_f32_to_bf16(float f) {
    uint32_t x = exec_f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* nan */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

static inline float exec_bf16_to_f32(uint16_t h) { return exec_bits_f32((uint32_t)h << 16); }

#endif
