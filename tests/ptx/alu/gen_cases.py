#!/usr/bin/env python3
"""Generates the ALU conformance cases: alu_cases.cu (a CUDA program that runs every case
on a GPU through inline PTX and prints the results) and alu_cases.txt (the inputs).

Run on a machine with a GPU, the program's output is the expected data
(alu_cases.expected); test_alu_e2e.c runs the PTX that nvcc makes of alu_cases.cu through
vcuda with the same inputs and compares.

    python3 gen_cases.py                       # writes alu_cases.cu, alu_cases.txt
    nvcc -arch=sm_90 -O2 -o alu_cases alu_cases.cu
    nvcc -arch=sm_90 -O2 -ptx -o alu_cases.ptx alu_cases.cu
    ./alu_cases alu_cases.txt > alu_cases.expected   # on an H100

Scalar cases: one thread per input vector, 32 vectors (one warp) at a time per case.
Operand kinds: 16/32/64 (registers of that width), 'p' (a predicate: as a destination
it is returned as 0/1, as a source it is input != 0), 'pq' (a p|q destination: p | q<<1),
'64p'/'32p' (a d|p destination: d | p << 32 (32) or the pair in two outputs (64)).
Warp cases: one warp per case, per-lane inputs a and b, and a mask of the lanes that run
the instruction (the others branch around it).
"""
import random
import struct

random.seed(20240601)

def f32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]

def f64(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]

# ---- input sets ----
F32_EDGE = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x00000001,
            0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000,
            0x7fc00000, 0x7fc12345, 0x7f812345, 0xffc00000, 0x3eaaaaab, 0x40490fdb,
            0x3f7fffff, 0x501502f9, 0xc0200000, 0x3f000000, 0x4b800001, 0xcf000000]
F32_EDGE_SMALL = [0x00000000, 0x80000000, 0x3f800000, 0xc0200000, 0x00000003, 0x807fffff,
                  0x7f7fffff, 0xff800000, 0x7fc12345]
F64_EDGE = [0, 1 << 63, f64(1.0), f64(-1.0), f64(1.5), 1, (1 << 63) | 1, 0x000fffffffffffff,
            0x0010000000000000, 0x7fefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
            0x7ff8000000000000, 0x7ff8000000012345, 0x7ff0000000012345, 0xfff8000000000000,
            f64(1 / 3), f64(3.141592653589793), f64(1e300), f64(-2.5), f64(0.5), f64(2**53 + 1)]
F64_EDGE_SMALL = [0, 1 << 63, f64(1.0), f64(-2.5), 3, 0x800fffffffffffff, 0x7fefffffffffffff,
                  0xfff0000000000000, 0x7ff8000000012345]
I32_EDGE = [0, 1, 2, 3, 7, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff9, 0x12345678,
            0x80000001, 31, 32, 33, 0xffff, 0x10000]
I32_EDGE_SMALL = [0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff9, 0x12345678, 32, 33]
I64_EDGE = [0, 1, 7, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff,
            0xfffffffffffffff9, 0x123456789abcdef0, 0x00000000ffffffff, 0x100000000, 63, 64]
I16_EDGE = [0, 1, 7, 0x7fff, 0x8000, 0xffff, 0xfff9, 0x1234]
H16_EDGE = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x3e00, 0x0001, 0x8001, 0x03ff, 0x0400,
            0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7e01, 0x7c01, 0xfe00, 0x3555, 0x4248, 0x3bff,
            0x5640, 0xc100, 0x3800]
BF16_EDGE = [0x0000, 0x8000, 0x3f80, 0xbf80, 0x3fc0, 0x0001, 0x8001, 0x007f, 0x0080,
             0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7fc1, 0x7f81, 0xffc0, 0x3eab, 0x4049]

def rand_f32(normal_only=False):
    while True:
        e = random.choice([random.randint(100, 154), random.randint(1, 254), 0]
                          if not normal_only else [random.randint(110, 144)])
        v = (random.getrandbits(1) << 31) | (e << 23) | random.getrandbits(23)
        return v

def rand_f64():
    e = random.choice([random.randint(1000, 1046), random.randint(1, 2046), 0])
    return (random.getrandbits(1) << 63) | (e << 52) | random.getrandbits(52)

def rand_bits(n):
    return random.getrandbits(n)

def rand_h16():
    return random.choice([random.randint(0, 0x7bff), random.randint(0x8000, 0xfbff),
                          (random.getrandbits(1) << 15) | (random.randint(8, 22) << 10) |
                          random.getrandbits(10)])

def rand_bf16():
    return (random.getrandbits(1) << 15) | (random.randint(100, 150) << 7) | random.getrandbits(7)

def unary(edge, rnd, n=40):
    return [(x, 0, 0) for x in edge] + [(rnd(), 0, 0) for _ in range(n)]

def binary(edge, rnd, n=48):
    return [(x, y, 0) for x in edge for y in edge] + [(rnd(), rnd(), 0) for _ in range(n)]

def ternary(edge, rnd, n=96):
    out = [(x, y, z) for x in edge[:5] for y in edge[:5] for z in edge[:5]]
    return out + [(rnd(), rnd(), rnd()) for _ in range(n)]

def with_imm(vectors, imms):
    return [(a, b, c) for (a, b, _) in vectors for c in imms]

# ---- scalar cases: (asm text with {d} {a} {b} {c}, dst kind, src kinds, vectors) ----
CASES = []

def case(text, d, srcs, vectors, cap=64):
    # keep the first vectors (edge cases come first), then a spread of the rest
    seen, out = set(), []
    for v in vectors:
        if v not in seen:
            seen.add(v)
            out.append(v)
    if len(out) > cap:
        head = out[:cap * 3 // 4]
        rest = out[cap * 3 // 4:]
        step = len(rest) / (cap - len(head))
        out = head + [rest[int(i * step)] for i in range(cap - len(head))]
    CASES.append((text, d, srcs, out))

f32u = lambda: rand_f32()
f32n = lambda: rand_f32(True)
i32 = lambda: rand_bits(32)
i64 = lambda: rand_bits(64)
i16 = lambda: rand_bits(16)

# integer arithmetic
B32 = binary(I32_EDGE_SMALL, i32)
B64 = binary(I64_EDGE, i64)
B16 = binary(I16_EDGE, i16)
for t in ['add.s32', 'add.sat.s32', 'sub.sat.s32', 'sub.u32', 'mul.lo.s32', 'mul.hi.s32',
          'mul.hi.u32', 'mul24.lo.s32', 'mul24.hi.s32', 'mul24.hi.u32', 'mul24.lo.u32',
          'div.s32', 'div.u32', 'rem.s32', 'rem.u32', 'min.s32', 'max.s32', 'min.u32',
          'max.u32', 'and.b32', 'or.b32', 'xor.b32', 'shl.b32', 'shr.u32', 'shr.s32',
          'bmsk.clamp.b32', 'bmsk.wrap.b32', 'szext.clamp.s32', 'szext.wrap.s32',
          'szext.clamp.u32', 'min.relu.s32', 'max.relu.s32', 'min.s16x2', 'max.u16x2',
          'max.relu.s16x2', 'add.s16x2', 'copysign.f32']:
    case(t + ' {d}, {a}, {b};', 32, [32, 32], B32)
for t in ['add.s64', 'sub.s64', 'mul.lo.s64', 'mul.hi.s64', 'mul.hi.u64', 'div.s64', 'div.u64',
          'rem.s64', 'rem.u64', 'min.s64', 'max.u64', 'copysign.f64']:
    case(t + ' {d}, {a}, {b};', 64, [64, 64], B64)
for t in ['shl.b64', 'shr.s64', 'shr.u64']:
    case(t + ' {d}, {a}, {b};', 64, [64, 32],
         [(a, b, 0) for a in I64_EDGE[:6] for b in [0, 1, 31, 32, 63, 64, 65, 1000]])
for t in ['add.u16', 'sub.s16', 'mul.lo.s16', 'mul.hi.s16', 'mul.hi.u16', 'div.s16',
          'rem.s16', 'div.u16', 'rem.u16', 'min.s16', 'max.u16']:
    case(t + ' {d}, {a}, {b};', 16, [16, 16], B16)
for t in ['shl.b16', 'shr.s16', 'shr.u16']:
    case(t + ' {d}, {a}, {b};', 16, [16, 32],
         [(a, b, 0) for a in I16_EDGE for b in [0, 1, 15, 16, 17, 100]])
case('mul.wide.s32 {d}, {a}, {b};', 64, [32, 32], B32)
case('mul.wide.u32 {d}, {a}, {b};', 64, [32, 32], B32)
case('mul.wide.s16 {d}, {a}, {b};', 32, [16, 16], B16)
case('mul.wide.u16 {d}, {a}, {b};', 32, [16, 16], B16)
T32 = ternary(I32_EDGE_SMALL, i32)
for t in ['mad.lo.s32', 'mad.hi.s32', 'mad.hi.u32', 'mad.hi.sat.s32', 'mad24.lo.s32',
          'mad24.hi.s32', 'mad24.hi.u32', 'mad24.hi.sat.s32', 'sad.s32', 'sad.u32',
          'dp4a.s32.s32', 'dp4a.u32.u32', 'dp4a.u32.s32', 'dp4a.s32.u32', 'dp2a.lo.s32.s32',
          'dp2a.hi.u32.s32', 'dp2a.lo.u32.u32', 'shf.l.wrap.b32', 'shf.l.clamp.b32',
          'shf.r.wrap.b32', 'shf.r.clamp.b32', 'prmt.b32', 'prmt.b32.f4e', 'prmt.b32.b4e',
          'prmt.b32.rc8', 'prmt.b32.ecl', 'prmt.b32.ecr', 'prmt.b32.rc16', 'fns.b32']:
    vec = T32
    if t.startswith('shf') or t.startswith('prmt') or t.startswith('fns'):
        vec = [(a, b, c) for (a, b, _) in B32[:40]
               for c in [0, 1, 2, 3, 7, 31, 32, 33, 0x3210, 0x7531, 0x8c4e, 0xfedc, 0xffffffff]]
        if t.startswith('fns'):
            vec = [(a, b, c) for a in [0xaaaaaaaa, 0x80000001, 0, 0xffffffff, 0x00f0f000]
                   for b in [0, 1, 2, 3, 17, 31] for c in [0, 1, 2, 3, 5, 0xffffffff, 0xfffffffe,
                                                             0xfffffffb, 40, 0x80000000]]
    case(t + ' {d}, {a}, {b}, {c};', 32, [32, 32, 32], vec)
T64 = ternary(I64_EDGE, i64)
case('mad.lo.s64 {d}, {a}, {b}, {c};', 64, [64, 64, 64], T64)
case('mad.hi.s64 {d}, {a}, {b}, {c};', 64, [64, 64, 64], T64)
case('mad.hi.u64 {d}, {a}, {b}, {c};', 64, [64, 64, 64], T64)
case('mad.wide.s32 {d}, {a}, {b}, {c};', 64, [32, 32, 64],
     [(a, b, c) for a, b, _ in B32[:60] for c in [0, 1 << 63, 0xffffffffffffffff]])
case('mad.wide.u16 {d}, {a}, {b}, {c};', 32, [16, 16, 32],
     [(a, b, c) for a, b, _ in B16[:60] for c in [0, 0xffffffff]])
for t in ['abs.s32', 'neg.s32', 'not.b32', 'cnot.b32', 'popc.b32', 'clz.b32', 'bfind.u32',
          'bfind.s32', 'bfind.shiftamt.u32', 'bfind.shiftamt.s32', 'brev.b32']:
    case(t + ' {d}, {a};', 32, [32], unary(I32_EDGE, i32))
for t in ['abs.s64', 'neg.s64', 'not.b64', 'brev.b64']:
    case(t + ' {d}, {a};', 64, [64], unary(I64_EDGE, i64))
for t in ['popc.b64', 'clz.b64', 'bfind.u64', 'bfind.s64', 'bfind.shiftamt.s64']:
    case(t + ' {d}, {a};', 32, [64], unary(I64_EDGE, i64))
for t in ['abs.s16', 'neg.s16', 'not.b16', 'cnot.b16']:
    case(t + ' {d}, {a};', 16, [16], unary(I16_EDGE, i16))
BFE = [(a, b, c) for a in [0x12345678, 0x87654321, 0xffffffff, 0x80000000, 0x7fffffff]
       for b in [0, 1, 4, 28, 31, 32, 40, 255, 256 + 4] for c in [0, 1, 4, 8, 31, 32, 33, 255]]
case('bfe.u32 {d}, {a}, {b}, {c};', 32, [32, 32, 32], BFE)
case('bfe.s32 {d}, {a}, {b}, {c};', 32, [32, 32, 32], BFE)
BFE64 = [(a, b, c) for a in [0x123456789abcdef0, 0x8765432187654321, 0xffffffffffffffff]
         for b in [0, 4, 60, 63, 64, 70] for c in [0, 4, 8, 63, 64, 65]]
case('bfe.u64 {d}, {a}, {b}, {c};', 64, [64, 32, 32], BFE64)
case('bfe.s64 {d}, {a}, {b}, {c};', 64, [64, 32, 32], BFE64)
BFI = [(a, b, c) for a in [0x12345678, 0xffffffff] for b in [0x87654321, 0]
       for c in [(p << 8) | l for p in [0, 4, 28, 31, 32, 40] for l in [0, 1, 4, 8, 32, 40]]]
case('{{ .reg .b32 %%p, %%l; and.b32 %%p, {c}, 255; shr.b32 %%l, {c}, 8; '
     'bfi.b32 {d}, {a}, {b}, %%l, %%p; }}', 32, [32, 32, 32], BFI)
case('{{ .reg .b32 %%p, %%l; and.b32 %%p, {c}, 255; shr.b32 %%l, {c}, 8; '
     'bfi.b64 {d}, {a}, {b}, %%l, %%p; }}', 64, [64, 64, 32],
     [(a | (a << 32), b | (b << 13), c) for a, b, c in BFI] +
     [(0xffffffffffffffff, 0, (p << 8) | l) for p in [0, 30, 60, 63, 64] for l in [4, 40, 64]])
for lut in [0x96, 0xe8, 0x01, 0xfe, 0xb4, 0x80, 0x3c]:
    case('lop3.b32 {d}, {a}, {b}, {c}, %d;' % lut, 32, [32, 32, 32], T32[:60])
# carry chains: d = c + carry-out of a + b, and friends
CARRY = [(a, b, c) for a in [0, 1, 0xffffffff, 0x80000000] for b in [0, 1, 0xffffffff]
         for c in [0, 5]]
case('{{ .reg .u32 %%t; add.cc.u32 %%t, {a}, {b}; addc.u32 {d}, {c}, 0; }}', 32,
     [32, 32, 32], CARRY)
case('{{ .reg .u32 %%t; add.cc.u32 %%t, {a}, {b}; addc.cc.u32 %%t, {c}, 0xffffffff; '
     'addc.u32 {d}, 0, 0; }}', 32, [32, 32, 32], CARRY)
case('{{ .reg .u32 %%t; sub.cc.u32 %%t, {a}, {b}; subc.u32 {d}, {c}, 0; }}', 32,
     [32, 32, 32], CARRY)
case('{{ .reg .u32 %%t; sub.cc.u32 %%t, {a}, {b}; subc.cc.u32 %%t, {c}, 6; '
     'subc.u32 {d}, 100, 0; }}', 32, [32, 32, 32], CARRY)
case('{{ .reg .u32 %%t; mad.lo.cc.u32 %%t, {a}, {b}, {c}; madc.hi.u32 {d}, {a}, {b}, 0; }}',
     32, [32, 32, 32], CARRY + T32[:30])
case('{{ .reg .u64 %%t; add.cc.u64 %%t, {a}, {b}; addc.u64 {d}, {c}, 0; }}', 64,
     [64, 64, 64], [(a | (a << 32), b | (b << 32), c) for a, b, c in CARRY])
case('{{ .reg .u64 %%t; sub.cc.u64 %%t, {a}, {b}; subc.u64 {d}, {c}, 0; }}', 64,
     [64, 64, 64], [(a, b << 32, c) for a, b, c in CARRY])
case('{{ .reg .u64 %%t; mad.lo.cc.u64 %%t, {a}, {b}, {c}; madc.hi.s64 {d}, {a}, {b}, 3; }}',
     64, [64, 64, 64], T64[:50])

# f32 arithmetic
F32B = binary(F32_EDGE_SMALL, f32u, 40) + [(f32n(), f32n(), 0) for _ in range(80)]
F32U = unary(F32_EDGE, f32u, 60)
F32T = ternary(F32_EDGE_SMALL, f32u, 60) + [(f32n(), f32n(), f32n()) for _ in range(100)]
for op in ['add', 'sub', 'mul']:
    for m in ['', '.rn', '.rz', '.rm', '.rp', '.ftz', '.sat', '.rz.ftz', '.rp.ftz.sat']:
        case('%s%s.f32 {d}, {a}, {b};' % (op, m), 32, [32, 32], F32B, 128)
for m in ['.rn', '.rz', '.rm', '.rp', '.rn.ftz', '.rn.sat', '.rm.ftz.sat']:
    case('fma%s.f32 {d}, {a}, {b}, {c};' % m, 32, [32, 32, 32], F32T, 128)
case('mad.rn.f32 {d}, {a}, {b}, {c};', 32, [32, 32, 32], F32T[:80])
for m in ['.rn', '.rz', '.rm', '.rp', '.rn.ftz']:
    case('div%s.f32 {d}, {a}, {b};' % m, 32, [32, 32], F32B, 128)
    case('sqrt%s.f32 {d}, {a};' % m, 32, [32], F32U)
    case('rcp%s.f32 {d}, {a};' % m, 32, [32], F32U)
for t in ['min.f32', 'max.f32', 'min.ftz.f32', 'max.ftz.f32', 'min.NaN.f32', 'max.NaN.f32',
          'min.xorsign.abs.f32', 'max.xorsign.abs.f32']:
    case(t + ' {d}, {a}, {b};', 32, [32, 32], binary(F32_EDGE_SMALL, f32u, 20))
for t in ['abs.f32', 'abs.ftz.f32', 'neg.f32', 'neg.ftz.f32']:
    case(t + ' {d}, {a};', 32, [32], F32U)
# approximations: compared with tolerances
APPROX = ['sin.approx.f32', 'cos.approx.f32', 'lg2.approx.f32', 'ex2.approx.f32',
          'ex2.approx.ftz.f32', 'tanh.approx.f32', 'rsqrt.approx.f32', 'rcp.approx.f32',
          'rcp.approx.ftz.f32', 'sqrt.approx.f32', 'sin.approx.ftz.f32', 'lg2.approx.ftz.f32']
for t in APPROX:
    case(t + ' {d}, {a};', 32, [32], F32U)
case('div.full.f32 {d}, {a}, {b};', 32, [32, 32], F32B)
case('div.approx.f32 {d}, {a}, {b};', 32, [32, 32], F32B + [(f32(1.0), 0x7f000000, 0),
                                                           (0x7f800000, 0x7f000000, 0)])
case('div.approx.ftz.f32 {d}, {a}, {b};', 32, [32, 32], F32B)
# f64
F64B = binary(F64_EDGE_SMALL, rand_f64, 40)
F64U = unary(F64_EDGE, rand_f64, 40)
F64T = ternary(F64_EDGE_SMALL, rand_f64, 100)
for op in ['add', 'sub', 'mul', 'div']:
    for m in ['.rn', '.rz', '.rm', '.rp']:
        case('%s%s.f64 {d}, {a}, {b};' % (op, m), 64, [64, 64], F64B, 128)
for m in ['.rn', '.rz', '.rm', '.rp']:
    case('fma%s.f64 {d}, {a}, {b}, {c};' % m, 64, [64, 64, 64], F64T, 128)
    case('sqrt%s.f64 {d}, {a};' % m, 64, [64], F64U)
    case('rcp%s.f64 {d}, {a};' % m, 64, [64], F64U)
for t in ['min.f64', 'max.f64']:
    case(t + ' {d}, {a}, {b};', 64, [64, 64], F64B)
for t in ['abs.f64', 'neg.f64', 'rcp.approx.ftz.f64', 'rsqrt.approx.f64',
          'rsqrt.approx.ftz.f64']:
    case(t + ' {d}, {a};', 64, [64], F64U)

# comparisons
CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num',
        'nan']
for c in CMPS:
    case('setp.%s.f32 {d}, {a}, {b};' % c, 'p', [32, 32], binary(F32_EDGE_SMALL, f32u, 8))
    case('setp.%s.f64 {d}, {a}, {b};' % c, 'p', [64, 64], binary(F64_EDGE_SMALL, rand_f64, 8))
for c in ['lt', 'equ', 'ge']:
    case('setp.%s.ftz.f32 {d}, {a}, {b};' % c, 'p', [32, 32], binary(F32_EDGE_SMALL, f32u, 8))
for c in ['eq', 'ne', 'lt', 'le', 'gt', 'ge']:
    case('setp.%s.s32 {d}, {a}, {b};' % c, 'p', [32, 32], B32)
    case('setp.%s.u64 {d}, {a}, {b};' % c, 'p', [64, 64], B64)
    case('setp.%s.s16 {d}, {a}, {b};' % c, 'p', [16, 16], B16)
for c in ['lo', 'ls', 'hi', 'hs']:
    case('setp.%s.u32 {d}, {a}, {b};' % c, 'p', [32, 32], B32)
case('setp.eq.b32 {d}, {a}, {b};', 'p', [32, 32], B32)
case('setp.lt.s32 {d}, {a}, {b};', 'pq', [32, 32], B32)
case('setp.lt.and.s32 {d}, {a}, {b}, {c};', 'pq', [32, 32, 'p'], with_imm(B32[:40], [0, 1]))
case('setp.ge.or.f32 {d}, {a}, {b}, !{c};', 'pq', [32, 32, 'p'],
     with_imm(binary(F32_EDGE_SMALL, f32u, 0)[:60], [0, 1]))
case('setp.neu.xor.f64 {d}, {a}, {b}, {c};', 'p', [64, 64, 'p'],
     with_imm(binary(F64_EDGE_SMALL, rand_f64, 0)[:60], [0, 1]))
case('set.lt.u32.f32 {d}, {a}, {b};', 32, [32, 32], binary(F32_EDGE_SMALL, f32u, 8))
case('set.gtu.f32.f32 {d}, {a}, {b};', 32, [32, 32], binary(F32_EDGE_SMALL, f32u, 8))
case('set.eq.and.s32.s32 {d}, {a}, {b}, {c};', 32, [32, 32, 'p'], with_imm(B32[:40], [0, 1]))
case('set.ne.f32.u64 {d}, {a}, {b};', 32, [64, 64], B64)
case('selp.b32 {d}, {a}, {b}, {c};', 32, [32, 32, 'p'], with_imm(B32[:20], [0, 1]))
case('selp.f64 {d}, {a}, {b}, {c};', 64, [64, 64, 'p'], with_imm(B64[:20], [0, 1]))
case('slct.u32.s32 {d}, {a}, {b}, {c};', 32, [32, 32, 32],
     with_imm(B32[:10], [0, 1, 0x80000000, 0xffffffff, 0x7fffffff]))
case('slct.s32.f32 {d}, {a}, {b}, {c};', 32, [32, 32, 32],
     with_imm(B32[:10], F32_EDGE_SMALL))
case('slct.ftz.s32.f32 {d}, {a}, {b}, {c};', 32, [32, 32, 32],
     with_imm(B32[:10], F32_EDGE_SMALL))
for c in ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal']:
    case('testp.%s.f32 {d}, {a};' % c, 'p', [32], unary(F32_EDGE, f32u, 4))
    case('testp.%s.f64 {d}, {a};' % c, 'p', [64], unary(F64_EDGE, rand_f64, 4))

# conversions
F32CVT = unary(F32_EDGE + [f32(2.5), f32(-2.5), f32(3.5), f32(-0.5), f32(0.5), f32(1e20),
                           f32(-1e20), f32(4294967296.0), f32(2147483648.0), f32(-2147483904.0),
                           f32(65535.5), f32(-129.0), f32(255.5), f32(127.5)], f32u, 40)
F64CVT = unary(F64_EDGE + [f64(2.5), f64(-2.5), f64(-0.5), f64(2147483647.5),
                           f64(-2147483648.5), f64(4294967295.5), f64(1.8446744073709552e19),
                           f64(9.223372036854776e18), f64(-9.223372036854776e18),
                           f64(255.5), f64(-128.5)], rand_f64, 40)
for d, w in [('s32', 32), ('u32', 32), ('s64', 64), ('u64', 64), ('s16', 16), ('u16', 16),
             ('s8', 16), ('u8', 16)]:
    for r in ['rni', 'rzi', 'rmi', 'rpi']:
        case('cvt.%s.%s.f32 {d}, {a};' % (r, d), w, [32], F32CVT)
        case('cvt.%s.%s.f64 {d}, {a};' % (r, d), w, [64], F64CVT)
case('cvt.rzi.ftz.s32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.rpi.ftz.s32.f32 {d}, {a};', 32, [32], F32CVT)
I32CVT = unary(I32_EDGE + [0x01000001, 0x7fffff81, 0x00ffffff, 0xfeffffff], i32)
I64CVT = unary(I64_EDGE + [0x0020000000000001, 0x7ffffffffffffdff, 0x8000000000000401,
                           0x00ffffff00000001], i64)
for r in ['rn', 'rz', 'rm', 'rp']:
    for s, w, v in [('s32', 32, I32CVT), ('u32', 32, I32CVT), ('s64', 64, I64CVT),
                    ('u64', 64, I64CVT), ('s16', 16, unary(I16_EDGE, i16))]:
        case('cvt.%s.f32.%s {d}, {a};' % (r, s), 32, [w], v)
        case('cvt.%s.f64.%s {d}, {a};' % (r, s), 64, [w], v)
        case('cvt.%s.f16.%s {d}, {a};' % (r, s), 16, [w], v)
    case('cvt.%s.f32.f64 {d}, {a};' % r, 32, [64], F64CVT + unary(
        [0x36a0000000000000, 0x36a0000000000001, 0x3690000000000000, 0x47efffffe0000000,
         0x47efffffefffffff, 0x380fffffffffffff], rand_f64, 0))
    case('cvt.%s.f16.f32 {d}, {a};' % r, 16, [32], F32CVT + unary(
        [f32(65519.0), f32(65520.0), f32(-65520.0), 0x33000000, 0x33000001, 0x387fc000,
         0x38800000, 0x3f801000, 0x3f803000], f32u, 0))
    case('cvt.%s.f16.f64 {d}, {a};' % r, 16, [64], F64CVT)
    case('cvt.%s.bf16.f32 {d}, {a};' % r, 16, [32], F32CVT)
    case('cvt.%s.bf16.f64 {d}, {a};' % r, 16, [64], F64CVT)
    case('cvt.%s.bf16.f16 {d}, {a};' % r, 16, [16], unary(H16_EDGE, rand_h16))
    case('cvt.%s.f16.bf16 {d}, {a};' % r, 16, [16], unary(BF16_EDGE, rand_bf16))
case('cvt.rn.ftz.f32.f64 {d}, {a};', 32, [64], F64CVT)
case('cvt.rn.sat.f32.f64 {d}, {a};', 32, [64], F64CVT)
case('cvt.f64.f32 {d}, {a};', 64, [32], F32CVT)
case('cvt.ftz.f64.f32 {d}, {a};', 64, [32], F32CVT)
case('cvt.f32.f16 {d}, {a};', 32, [16], unary(H16_EDGE, rand_h16))
case('cvt.f64.f16 {d}, {a};', 64, [16], unary(H16_EDGE, rand_h16))
case('cvt.f32.bf16 {d}, {a};', 32, [16], unary(BF16_EDGE, rand_bf16))
case('cvt.f64.bf16 {d}, {a};', 64, [16], unary(BF16_EDGE, rand_bf16))
for r in ['rni', 'rzi', 'rmi', 'rpi']:
    case('cvt.%s.f32.f32 {d}, {a};' % r, 32, [32], F32CVT)
    case('cvt.%s.f64.f64 {d}, {a};' % r, 64, [64], F64CVT)
    case('cvt.%s.f16.f16 {d}, {a};' % r, 16, [16], unary(H16_EDGE, rand_h16))
    case('cvt.%s.s32.f16 {d}, {a};' % r, 32, [16], unary(H16_EDGE, rand_h16))
case('cvt.rni.ftz.f32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.sat.f32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.ftz.f32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.ftz.sat.f32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.f32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.rn.relu.f16.f32 {d}, {a};', 16, [32], F32CVT)
case('cvt.rn.satfinite.f16.f32 {d}, {a};', 16, [32], F32CVT)
case('cvt.rz.relu.satfinite.bf16.f32 {d}, {a};', 16, [32], F32CVT)
case('cvt.rn.f16x2.f32 {d}, {a}, {b};', 32, [32, 32], binary(F32_EDGE_SMALL, f32u, 20))
case('cvt.rz.relu.f16x2.f32 {d}, {a}, {b};', 32, [32, 32], binary(F32_EDGE_SMALL, f32u, 20))
case('cvt.rn.bf16x2.f32 {d}, {a}, {b};', 32, [32, 32], binary(F32_EDGE_SMALL, f32u, 20))
case('cvt.rna.tf32.f32 {d}, {a};', 32, [32], F32CVT)
case('cvt.rn.satfinite.e4m3x2.f32 {d}, {a}, {b};', 16, [32, 32],
     binary(F32_EDGE_SMALL, f32u, 40) + [(f32(448.0), f32(464.0), 0), (f32(-480), f32(0.001953125), 0)])
case('cvt.rn.satfinite.e5m2x2.f32 {d}, {a}, {b};', 16, [32, 32],
     binary(F32_EDGE_SMALL, f32u, 40) + [(f32(57344.0), f32(61440.0), 0)])
case('cvt.rn.f16x2.e4m3x2 {d}, {a};', 32, [16], [(x | (y << 8), 0, 0) for x in range(0, 256, 5)
                                                for y in [0, 0x7f, 0x80, 0xff, 0x38]])
case('cvt.rn.f16x2.e5m2x2 {d}, {a};', 32, [16], [(x | (y << 8), 0, 0) for x in range(0, 256, 5)
                                                for y in [0, 0x7c, 0x7f, 0xfc]])
case('cvt.rn.satfinite.e4m3x2.f16x2 {d}, {a};', 16, [32],
     [(x | (y << 16), 0, 0) for x in H16_EDGE for y in H16_EDGE[:6]])
I2I = unary(I64_EDGE + I32_EDGE + [0x80, 0x7f, 0xff, 0x8000, 0x7fff, 0x17f, 0xffffff80], i64)
INTS = [('s8', 16), ('u8', 16), ('s16', 16), ('u16', 16), ('s32', 32), ('u32', 32),
        ('s64', 64), ('u64', 64)]
for di, (d, dw) in enumerate(INTS):
    for si, (s, sw) in enumerate(INTS):
        if d == s or (di + si) % 3 != 0:
            continue
        mask = (1 << sw) - 1
        vec = [(a & mask, 0, 0) for a, _, _ in I2I]
        case('cvt.%s.%s {d}, {a};' % (d, s), dw, [sw], vec)
        dbits, sbits = int(d[1:]), int(s[1:])
        superset = (d[0] == s[0] and dbits >= sbits) or (d[0] == 's' and dbits > sbits)
        if not superset:
            case('cvt.sat.%s.%s {d}, {a};' % (d, s), dw, [sw], vec)
# a narrow signed result in a wider register: sign-extended into it
case('cvt.s8.s32 {d}, {a};', 32, [32], unary(I32_EDGE + [0x80, 0x7f, 0x17f], i32))
case('cvt.s16.s64 {d}, {a};', 64, [64], unary(I64_EDGE, i64))
case('cvt.u8.s32 {d}, {a};', 32, [32], unary(I32_EDGE + [0x80, 0x7f, 0x17f], i32))

# half precision
H16B = binary(H16_EDGE[:12], rand_h16, 60)
H16T = ternary(H16_EDGE, rand_h16, 120)
for t in ['add.f16', 'add.ftz.f16', 'add.sat.f16', 'sub.f16', 'mul.f16', 'mul.rn.f16',
          'mul.ftz.sat.f16', 'min.f16', 'max.f16', 'min.NaN.f16', 'max.ftz.f16']:
    case(t + ' {d}, {a}, {b};', 16, [16, 16], H16B)
for t in ['fma.rn.f16', 'fma.rn.ftz.f16', 'fma.rn.sat.f16', 'fma.rn.relu.f16']:
    case(t + ' {d}, {a}, {b}, {c};', 16, [16, 16, 16], H16T)
for t in ['neg.f16', 'abs.f16', 'neg.ftz.f16', 'ex2.approx.f16', 'tanh.approx.f16']:
    case(t + ' {d}, {a};', 16, [16], unary(H16_EDGE, rand_h16))
H2B = [(a | (b << 16), c | (d << 16), 0) for (a, b, _), (c, d, _) in zip(H16B, reversed(H16B))]
H2T = [(a | (b << 16), c | (d << 16), e | (f << 16))
       for (a, c, e), (b, d, f) in zip(H16T, reversed(H16T))]
for t in ['add.f16x2', 'sub.ftz.f16x2', 'mul.f16x2', 'min.f16x2', 'max.NaN.f16x2']:
    case(t + ' {d}, {a}, {b};', 32, [32, 32], H2B)
case('fma.rn.f16x2 {d}, {a}, {b}, {c};', 32, [32, 32, 32], H2T)
case('fma.rn.relu.f16x2 {d}, {a}, {b}, {c};', 32, [32, 32, 32], H2T)
case('neg.f16x2 {d}, {a};', 32, [32], H2B)
case('abs.f16x2 {d}, {a};', 32, [32], H2B)
BF16B = binary(BF16_EDGE[:12], rand_bf16, 60)
BF16T = ternary(BF16_EDGE, rand_bf16, 120)
for t in ['add.rn.bf16', 'sub.rn.bf16', 'mul.rn.bf16', 'min.bf16', 'max.NaN.bf16']:
    case(t + ' {d}, {a}, {b};', 16, [16, 16], BF16B)
for t in ['fma.rn.bf16', 'fma.rn.relu.bf16']:
    case(t + ' {d}, {a}, {b}, {c};', 16, [16, 16, 16], BF16T)
case('neg.bf16 {d}, {a};', 16, [16], unary(BF16_EDGE, rand_bf16))
case('abs.bf16 {d}, {a};', 16, [16], unary(BF16_EDGE, rand_bf16))
BF2B = [(a | (b << 16), c | (d << 16), 0) for (a, b, _), (c, d, _) in zip(BF16B, reversed(BF16B))]
case('add.rn.bf16x2 {d}, {a}, {b};', 32, [32, 32], BF2B)
case('fma.rn.bf16x2 {d}, {a}, {b}, {c};', 32, [32, 32, 32],
     [(a, b, (a * 7) & 0xffffffff) for a, b, _ in BF2B])
for c in ['lt', 'equ', 'ne', 'nan']:
    case('setp.%s.f16 {d}, {a}, {b};' % c, 'p', [16, 16], H16B)
    case('setp.%s.bf16 {d}, {a}, {b};' % c, 'p', [16, 16], BF16B)
    case('setp.%s.f16x2 {d}, {a}, {b};' % c, 'pq', [32, 32], H2B)
case('setp.lt.ftz.f16 {d}, {a}, {b};', 'p', [16, 16], H16B)
case('set.le.u32.f16x2 {d}, {a}, {b};', 32, [32, 32], H2B)
case('set.ltu.f16x2.f16x2 {d}, {a}, {b};', 32, [32, 32], H2B)
case('set.gt.f16.f32 {d}, {a}, {b};', 16, [32, 32], binary(F32_EDGE_SMALL, f32u, 8))

# mov forms
case('mov.b64 {d}, {{{a}, {b}}};', 64, [32, 32], B32[:40])
case('{{ .reg .b32 %%lo, %%hi; mov.b64 {{%%lo, %%hi}}, {a}; sub.u32 {d}, %%hi, %%lo; }}', 32,
     [64], unary(I64_EDGE, i64))
case('mov.b32 {d}, {{{a}, {b}}};', 32, [16, 16], B16[:40])
case('{{ .reg .b16 %%lo, %%hi; mov.b32 {{%%lo, %%hi}}, {a}; sub.u16 {d}, %%hi, %%lo; }}', 16,
     [32], unary(I32_EDGE, i32))
case('{{ .reg .b8 %%x, %%y, %%z, %%w; .reg .b32 %%t; mov.b32 {{%%x, %%y, %%z, %%w}}, {a}; '
     'mov.b32 %%t, {{%%w, %%z, %%y, %%x}}; mov.b32 {d}, %%t; }}', 32, [32], unary(I32_EDGE, i32))

# ---- warp cases: (asm, dst kind, (a kind, b kind), active mask, per-lane a, per-lane b) ----
WCASES = []

def wcase(text, d, srcs, active, a, b=None):
    WCASES.append((text, d, srcs, active, a, b if b is not None else [0] * 32))

lanes = list(range(32))
vals = [(l * 0x01010101 + 17) & 0xffffffff for l in lanes]
for mode, bs, cs in [('idx', [0, 5, 31, 32, 45], [0x1f, 0x1c1f, 0x181f, 0x0]),
                     ('up', [1, 2, 16, 33], [0x0, 0x1c00, 0x1800]),
                     ('down', [1, 3, 16, 31], [0x1f, 0x1c1f, 0x181f, 0x0]),
                     ('bfly', [1, 2, 16, 31], [0x1f, 0x1c1f, 0x181f, 0x0])]:
    for bval in bs:
        for cval in cs:
            for active in [0xffffffff, 0x0000ffff, 0x55555555]:
                wcase('shfl.sync.%s.b32 {d}, {a}, %d, %d, {m};' % (mode, bval, cval), '32p',
                      [32], active, vals)
wcase('shfl.sync.idx.b32 {d}, {a}, {b}, 0x1f, {m};', '32p', [32, 32], 0xffffffff, vals,
      [(l * 7) % 32 for l in lanes])
wcase('shfl.sync.bfly.b32 {d}, {a}, {b}, 0x1f, {m};', '32p', [32, 32], 0xffffffff, vals,
      [l % 4 for l in lanes])
preds = [[(l * 3) % 5 == 0 for l in lanes], [True] * 32, [False] * 32, [l != 7 for l in lanes]]
for p in preds:
    pv = [int(x) for x in p]
    for active in [0xffffffff, 0x0fff0000, 0x00000080]:
        for m in ['all', 'any', 'uni']:
            wcase('vote.sync.%s.pred {d}, {a}, {m};' % m, 'p', ['p'], active, pv)
        wcase('vote.sync.ballot.b32 {d}, {a}, {m};', 32, ['p'], active, pv)
        wcase('vote.sync.all.pred {d}, !{a}, {m};', 'p', ['p'], active, pv)
mvals = [[l % 3 for l in lanes], [5] * 32, [l for l in lanes], [(l // 8) * 0x100000001 for l in lanes]]
for v in mvals:
    for active in [0xffffffff, 0xf0f0f0f0, 0x00000100]:
        wcase('match.any.sync.b32 {d}, {a}, {m};', 32, [32], active, v)
        wcase('match.all.sync.b32 {d}, {a}, {m};', '32p', [32], active, v)
        wcase('match.any.sync.b64 {d}, {a}, {m};', 32, [64], active, v)
        wcase('match.all.sync.b64 {d}, {a}, {m};', '32p', [64], active, v)
rvals = [[(l * 0x9e3779b9) & 0xffffffff for l in lanes], [0xffffffff - l for l in lanes],
         [l - 16 & 0xffffffff for l in lanes]]
for v in rvals:
    for active in [0xffffffff, 0x80000001, 0x00ff0000]:
        for op in ['add.s32', 'add.u32', 'min.s32', 'max.s32', 'min.u32', 'max.u32', 'and.b32',
                   'or.b32', 'xor.b32']:
            wcase('redux.sync.%s {d}, {a}, {m};' % op, 32, [32], active, v)
for active in [0xffffffff, 0x0000fff0, 0x80000000]:
    wcase('elect.sync {d}, {m};', '32p', [], active, [0] * 32)
    wcase('activemask.b32 {d};', 32, [], active, [0] * 32)


# ---- emit ----
CT = {16: ('unsigned short', 'h'), 32: ('unsigned int', 'r'), 64: ('unsigned long long', 'l')}

def scalar_body(text, d, srcs):
    """C statements computing r from a, b, c for one case."""
    decl, ins, pre = [], [], []
    names = ['a', 'b', 'c']
    args = {}
    opnd = 1
    outs = []
    if d in (16, 32, 64):
        decl.append('%s d_;' % CT[d][0])
        outs.append('"=%s"(d_)' % CT[d][1])
        args['d'] = '%0'
    elif d == 'p':
        decl.append('unsigned int d_;')
        outs.append('"=r"(d_)')
        args['d'] = '%%q0'
        pre.append('.reg .pred %%q0;')
    elif d == 'pq':
        decl.append('unsigned int d_, e_;')
        outs += ['"=r"(d_)', '"=r"(e_)']
        args['d'] = '%%q0|%%q1'
        pre.append('.reg .pred %%q0, %%q1;')
        opnd = 2
    for i, k in enumerate(srcs):
        n = names[i]
        if k == 'p':
            decl.append('unsigned int %s_ = (unsigned int)(%s != 0);' % (n, n))
            pre.append('.reg .pred %%%%s%d; setp.ne.u32 %%%%s%d, %%%d, 0;' % (i, i, opnd + len(ins)))
            args[n] = '%%%%s%d' % i
            ins.append('"r"(%s_)' % n)
        else:
            decl.append('%s %s_ = (%s)%s;' % (CT[k][0], n, CT[k][0], n))
            args[n] = '%%%d' % (opnd + len(ins))
            ins.append('"%s"(%s_)' % (CT[k][1], n))
    body = text.format(**args)
    post = ''
    if d == 'p':
        post = ' selp.u32 %0, 1, 0, %%q0;'
    elif d == 'pq':
        post = ' selp.u32 %0, 1, 0, %%q0; selp.u32 %1, 1, 0, %%q1;'
    asm = '{ ' + ' '.join(pre) + ' ' + body + post + ' }'
    s = ' '.join(decl)
    s += ' asm volatile("%s" : %s : %s);' % (asm, ', '.join(outs), ', '.join(ins) or '')
    if d == 'pq':
        s += ' r = d_ | (e_ << 1);'
    else:
        s += ' r = d_;'
    return s

def warp_body(text, d, srcs):
    decl, ins, pre, outs = [], [], [], []
    args = {}
    if d in (32, 64):
        decl.append('%s d_;' % CT[d][0])
        outs.append('"=%s"(d_)' % CT[d][1])
        args['d'] = '%0'
        first = 1
    elif d == 'p':
        decl.append('unsigned int d_;')
        outs.append('"=r"(d_)')
        args['d'] = '%%q0'
        pre.append('.reg .pred %%q0;')
        first = 1
    elif d == '32p':
        decl.append('unsigned int d_, e_;')
        outs += ['"=r"(d_)', '"=r"(e_)']
        args['d'] = '%0|%%q0'
        pre.append('.reg .pred %%q0;')
        first = 2
    names = ['a', 'b']
    for i, k in enumerate(srcs):
        n = names[i]
        if k == 'p':
            decl.append('unsigned int %s_ = (unsigned int)(%s != 0);' % (n, n))
            pre.append('.reg .pred %%%%s%d; setp.ne.u32 %%%%s%d, %%%d, 0;' % (i, i, first + len(ins)))
            args[n] = '%%%%s%d' % i
            ins.append('"r"(%s_)' % n)
        else:
            decl.append('%s %s_ = (%s)%s;' % (CT[k][0], n, CT[k][0], n))
            args[n] = '%%%d' % (first + len(ins))
            ins.append('"%s"(%s_)' % (CT[k][1], n))
    args['m'] = '%%%d' % (first + len(ins))
    ins.append('"r"(active)')
    body = text.format(**args)
    post = ''
    if d == 'p':
        post = ' selp.u32 %0, 1, 0, %%q0;'
    elif d == '32p':
        post = ' selp.u32 %1, 1, 0, %%q0;'
    asm = '{ ' + ' '.join(pre) + ' ' + body + post + ' }'
    s = ' '.join(decl) + ' asm volatile("%s" : %s : %s);' % (asm, ', '.join(outs), ', '.join(ins))
    s += ' r = (unsigned long long)d_ | ((unsigned long long)e_ << 32);' if d == '32p' else ' r = d_;'
    return s

def main():
    with open('alu_cases.txt', 'w') as f:
        f.write('# scalar cases: "S id name" then lines "a b c" (hex); warp cases: "W id name '
                'active" then 32 lines "a b"\n')
        for i, (text, d, srcs, vecs) in enumerate(CASES):
            name = text.replace('%%', '%')
            f.write('S %d %s\n' % (i, name))
            pad = vecs + vecs[:(-len(vecs)) % 32]
            for a, b, c in pad:
                f.write('%x %x %x\n' % (a, b, c))
        for i, (text, d, srcs, active, a, b) in enumerate(WCASES):
            f.write('W %d %s %x\n' % (i, text.replace('%%', '%'), active))
            for x, y in zip(a, b):
                f.write('%x %x\n' % (x, y))
    with open('alu_cases.cu', 'w') as f:
        f.write(CU_HEAD)
        f.write('__global__ void alu_scalar_cases(const unsigned long long *in, '
                'unsigned long long *out, int n) {\n'
                '    int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
                '    if (i >= n) return;\n'
                '    unsigned long long id = in[4 * i], a = in[4 * i + 1], b = in[4 * i + 2],'
                ' c = in[4 * i + 3], r = 0;\n'
                '    (void)a; (void)b; (void)c;\n'
                '    switch (id) {\n')
        for i, (text, d, srcs, vecs) in enumerate(CASES):
            f.write('    case %d: { %s } break;\n' % (i, scalar_body(text, d, srcs)))
        f.write('    }\n    out[i] = r;\n}\n\n')
        f.write('__global__ void alu_warp_cases(const unsigned long long *in, '
                'unsigned long long *out) {\n'
                '    const unsigned long long *w = in + blockIdx.x * 66;\n'
                '    unsigned int lane = threadIdx.x, active = (unsigned int)w[1];\n'
                '    unsigned long long id = w[0], a = w[2 + lane], b = w[34 + lane], '
                'r = 0xdeadbeefdeadbeefull;\n'
                '    (void)a; (void)b;\n'
                '    if ((active >> lane) & 1u) {\n'
                '    switch (id) {\n')
        for i, (text, d, srcs, active, a, b) in enumerate(WCASES):
            f.write('    case %d: { %s } break;\n' % (i, warp_body(text, d, srcs)))
        f.write('    }\n    }\n    out[blockIdx.x * 32 + lane] = r;\n}\n')
        f.write(CU_MAIN)

CU_HEAD = r'''// Generated by gen_cases.py: every ALU conformance case as inline PTX.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

'''

CU_MAIN = r'''
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

int main(int argc, char **argv) {
    FILE *f = fopen(argc > 1 ? argv[1] : "alu_cases.txt", "r");
    if (!f) { perror("alu_cases.txt"); return 1; }
    static char line[512];
    size_t ns = 0, nw = 0, caps = 1 << 16, capw = 1 << 12;
    unsigned long long *s = (unsigned long long *)malloc(caps * 4 * 8);
    unsigned long long *wv = (unsigned long long *)malloc(capw * 66 * 8);
    int mode = 0; long id = 0; int wl = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (line[0] == 'S') { mode = 1; sscanf(line + 2, "%ld", &id); continue; }
        if (line[0] == 'W') {
            mode = 2; sscanf(line + 2, "%ld", &id);
            char *sp = strrchr(line, ' ');
            if (nw == capw) { capw *= 2; wv = (unsigned long long *)realloc(wv, capw * 66 * 8); }
            wv[nw * 66] = id; wv[nw * 66 + 1] = strtoull(sp + 1, 0, 16); nw++; wl = 0;
            continue;
        }
        unsigned long long a, b, c = 0;
        if (mode == 1) {
            sscanf(line, "%llx %llx %llx", &a, &b, &c);
            if (ns == caps) { caps *= 2; s = (unsigned long long *)realloc(s, caps * 4 * 8); }
            s[ns * 4] = id; s[ns * 4 + 1] = a; s[ns * 4 + 2] = b; s[ns * 4 + 3] = c; ns++;
        } else if (mode == 2) {
            sscanf(line, "%llx %llx", &a, &b);
            wv[(nw - 1) * 66 + 2 + wl] = a; wv[(nw - 1) * 66 + 34 + wl] = b; wl++;
        }
    }
    fclose(f);
    unsigned long long *din, *dout, *win, *wout;
    CK(cudaMalloc(&din, ns * 32)); CK(cudaMalloc(&dout, ns * 8));
    CK(cudaMemcpy(din, s, ns * 32, cudaMemcpyHostToDevice));
    alu_scalar_cases<<<(unsigned)((ns + 127) / 128), 128>>>(din, dout, (int)ns);
    CK(cudaGetLastError());
    unsigned long long *res = (unsigned long long *)malloc(ns * 8);
    CK(cudaMemcpy(res, dout, ns * 8, cudaMemcpyDeviceToHost));
    CK(cudaMalloc(&win, nw * 66 * 8)); CK(cudaMalloc(&wout, nw * 32 * 8));
    CK(cudaMemcpy(win, wv, nw * 66 * 8, cudaMemcpyHostToDevice));
    alu_warp_cases<<<(unsigned)nw, 32>>>(win, wout);
    CK(cudaGetLastError());
    unsigned long long *wres = (unsigned long long *)malloc(nw * 32 * 8);
    CK(cudaMemcpy(wres, wout, nw * 32 * 8, cudaMemcpyDeviceToHost));
    printf("# results: scalar cases one per input line, then warp cases 32 per case\n");
    for (size_t i = 0; i < ns; i++) printf("%llx\n", res[i]);
    for (size_t i = 0; i < nw * 32; i++) printf("%llx\n", wres[i]);
    return 0;
}
'''

if __name__ == '__main__':
    main()
