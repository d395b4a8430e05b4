#!/usr/bin/env python3
"""Writes contract.ptx: the cases of ptxas's mul/add contraction (exec/contract.c).

Each case is a kernel NAME(in, out): thread t loads x0..x7 from in[8t..8t+7], runs the
case's body, and stores r0..r3 to out[4t..4t+3] (r registers start at 0). The body uses
temporaries %t0..%t9. tests/unit/test_exec_contract.c runs the kernels and says, per
case, what ptxas made of it.

With --sass, also assembles contract.ptx with `ptxas -arch=sm_90` and prints, per
kernel, the floating-point instructions of the SASS (opcode, then each source as the
input x<i> it was loaded from or the register it is): how contract_sass.txt was made.
"""
import os, struct, subprocess, sys, tempfile

F64, F32, F16 = 'f64', 'f32', 'f16'
CASES = [
    # name, type, body
    ('mul_add', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('add_mul_second', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %x2, %t0;'),
    ('sub_prod_first', F64, 'mul.T %t0, %x0, %x1; sub.T %r0, %t0, %x2;'),
    ('sub_prod_second', F64, 'mul.T %t0, %x0, %x1; sub.T %r0, %x2, %t0;'),
    ('sq_diff', F64, 'mul.T %t0, %x0, %x0; mul.T %t1, %x1, %x1; sub.T %r0, %t0, %t1;'),
    ('complex_mul', F64, 'mul.T %t0, %x0, %x2; mul.T %t1, %x1, %x3; sub.T %r0, %t0, %t1; '
                         'mul.T %t2, %x0, %x3; mul.T %t3, %x1, %x2; add.T %r1, %t2, %t3;'),
    ('first_stored', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; sub.T %r0, %t0, %t1; mov.T %r1, %t0;'),
    ('use_add_store', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; mov.T %r1, %t0;'),
    ('use_add_mul', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; mul.T %r1, %t0, %x3;'),
    ('use_add_fma', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; fma.rn.T %r1, %x3, %x4, %t0;'),
    ('use_add_setp', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; setp.gt.T %p1, %t0, %x3; selp.T %r1, %x4, %x5, %p1;'),
    ('two_adds', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; sub.T %r1, %x3, %t0;'),
    ('prod_plus_self', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %t0;'),
    ('self_via_mov', F64, 'mul.T %t0, %x0, %x1; mov.T %t1, %t0; add.T %r0, %t0, %t1;'),
    ('mul_rn', F64, 'mul.rn.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('add_rn', F64, 'mul.T %t0, %x0, %x1; add.rn.T %r0, %t0, %x2;'),
    ('sub_rz', F64, 'mul.T %t0, %x0, %x1; sub.rz.T %r0, %t0, %x2;'),
    ('neg_prod', F64, 'mul.T %t0, %x0, %x1; neg.T %t1, %t0; add.T %r0, %t1, %x2;'),
    ('neg_prod_sub', F64, 'mul.T %t0, %x0, %x1; neg.T %t1, %t0; sub.T %r0, %t1, %x2;'),
    ('neg_stored', F64, 'mul.T %t0, %x0, %x1; neg.T %t1, %t0; add.T %r0, %t1, %x2; mov.T %r1, %t1;'),
    ('neg_and_plain', F64, 'mul.T %t0, %x0, %x1; neg.T %t1, %t0; add.T %r0, %t1, %x2; add.T %r1, %t0, %x3;'),
    ('abs_prod', F64, 'mul.T %t0, %x0, %x1; abs.T %t1, %t0; add.T %r0, %t1, %x2;'),
    ('via_mov', F64, 'mul.T %t0, %x0, %x1; mov.T %t1, %t0; add.T %r0, %t1, %x2;'),
    ('chain', F64, 'mul.T %t0, %x0, %x1; add.T %t1, %t0, %x2; mul.T %t2, %t1, %x3; add.T %r0, %t2, %x4;'),
    ('mul_of_prod', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %t0, %x2; add.T %r0, %t1, %x3;'),
    ('imm_factor', F64, 'mul.T %t0, %x0, 0d3FB999999999999A; add.T %r0, %t0, %x2;'),
    ('imm_addend', F64, 'mul.T %t0, %x0, %x1; sub.T %r0, 0d3FF0000000000000, %t0;'),
    ('single_wins', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r1, %t0, %x4; add.T %r0, %t0, %t1;'),
    ('single_wins_second', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r1, %t1, %x4; add.T %r0, %t1, %t0;'),
    ('tie_first', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r1, %t0, %x4; add.T %r0, %t0, %t1; add.T %r2, %t1, %x5;'),
    ('tie_first_late', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r2, %t1, %x5; add.T %r0, %t0, %t1; add.T %r1, %t0, %x4;'),
    ('fewer_uses', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r0, %t0, %t1; add.T %r1, %t0, %x4; add.T %r2, %t0, %x5; add.T %r3, %t1, %x6;'),
    ('fewer_uses_late', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r1, %t0, %x4; add.T %r0, %t0, %t1; add.T %r2, %t0, %x5; add.T %r3, %t1, %x6;'),
    ('ring', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; mul.T %t2, %x4, %x5; add.T %r0, %t0, %t1; add.T %r1, %t1, %t2; add.T %r2, %t2, %t0;'),
    ('three_way', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; mul.T %t2, %x4, %x5; add.T %r1, %t1, %t2; add.T %r0, %t0, %t1; add.T %r2, %t2, %x6;'),
    ('neg_counts', F64, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; neg.T %t2, %t0; add.T %r1, %t2, %x4; add.T %r0, %t0, %t1;'),
    ('other_block', F64, 'mul.T %t0, %x0, %x1; setp.gt.T %p1, %x3, %x4; @%p1 bra L1; add.T %r0, %t0, %x2; L1:'),
    ('this_and_other_block', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; setp.gt.T %p1, %x3, %x4; @%p1 bra L1; add.T %r1, %t0, %x5; L1:'),
    ('loop', F64, 'mul.T %t0, %x0, %x1; mov.T %t1, %x2; mov.u32 %u1, 0; L1: add.T %t1, %t0, %t1; add.u32 %u1, %u1, 1; setp.lt.u32 %p1, %u1, %u2; @%p1 bra L1; mov.T %r0, %t1;'),
    ('label_between', F64, 'mov.u32 %u1, 0; mul.T %t0, %x0, %x1; L1: add.T %r0, %t0, %x2; add.u32 %u1, %u1, 1; setp.lt.u32 %p1, %u1, %u2; @%p1 bra L1;'),
    ('guarded_add', F64, 'mul.T %t0, %x0, %x1; setp.gt.T %p1, %x3, %x4; mov.T %r0, %x5; @%p1 add.T %r0, %t0, %x2;'),
    ('guarded_mul', F64, 'setp.gt.T %p1, %x3, %x4; mov.T %t0, %x5; @%p1 mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('bar_between', F64, 'mul.T %t0, %x0, %x1; bar.sync 0; add.T %r0, %t0, %x2;'),
    ('call_between', F64, 'mul.T %t0, %x0, %x1; { .param .b64 a; .param .b64 b; st.param.b64 [a], %rd1; call.uni (b), ident, (a); ld.param.b64 %rd1, [b]; } add.T %r0, %t0, %x2;'),
    ('product_rewritten', F64, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2; mul.T %t0, %x3, %x4; add.T %r1, %t0, %x5;'),
    ('mul_add', F32, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('sub_prod_second', F32, 'mul.T %t0, %x0, %x1; sub.T %r0, %x2, %t0;'),
    ('sq_diff', F32, 'mul.T %t0, %x0, %x0; mul.T %t1, %x1, %x1; sub.T %r0, %t0, %t1;'),
    ('fewer_uses_late', F32, 'mul.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; add.T %r1, %t0, %x4; add.T %r0, %t0, %t1; add.T %r2, %t0, %x5; add.T %r3, %t1, %x6;'),
    ('ftz_both', F32, 'mul.ftz.T %t0, %x0, %x1; add.ftz.T %r0, %t0, %x2;'),
    ('ftz_mul_only', F32, 'mul.ftz.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('ftz_add_only', F32, 'mul.T %t0, %x0, %x1; add.ftz.T %r0, %t0, %x2;'),
    ('ftz_pick', F32, 'mul.ftz.T %t0, %x0, %x1; mul.T %t1, %x2, %x3; sub.ftz.T %r0, %t1, %t0;'),
    ('ftz_neg', F32, 'mul.ftz.T %t0, %x0, %x1; neg.T %t1, %t0; add.ftz.T %r0, %t1, %x2;'),
    ('sat_add', F32, 'mul.T %t0, %x0, %x1; add.sat.T %r0, %t0, %x2;'),
    ('sat_mul', F32, 'mul.sat.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('mul_add', F16, 'mul.T %t0, %x0, %x1; add.T %r0, %t0, %x2;'),
    ('sub_prod_second', F16, 'mul.T %t0, %x0, %x1; sub.T %r0, %x2, %t0;'),
]

SIZE = {F64: 8, F32: 4, F16: 2}
ZERO = {F64: '0d0000000000000000', F32: '0f00000000', F16: '0x0000'}


def kernel_name(name, t):
    return f'{name}_{t}'


def kernel(name, t, body):
    sz = SIZE[t]
    mt = 'b16' if t == F16 else t  # f16 values move as b16
    lines = [f'.visible .entry {kernel_name(name, t)}(.param .u64 pin, .param .u64 pout)', '{',
             f'  .reg .{t} %x<8>; .reg .{t} %t<10>; .reg .{t} %r<4>;',
             '  .reg .b64 %rd<6>; .reg .pred %p<3>; .reg .u32 %u<4>;',
             '  ld.param.u64 %rd2, [pin]; ld.param.u64 %rd3, [pout];',
             '  mov.u32 %u3, %tid.x; and.b32 %u2, %u3, 3; add.u32 %u2, %u2, 1;',
             f'  mul.wide.u32 %rd4, %u3, {8 * sz}; add.u64 %rd2, %rd2, %rd4;',
             f'  mul.wide.u32 %rd4, %u3, {4 * sz}; add.u64 %rd3, %rd3, %rd4;']
    for i in range(8):
        lines.append(f'  ld.global.{mt} %x{i}, [%rd2+{i * sz}];')
    for r in range(4):
        lines.append(f'  mov.{mt} %r{r}, {ZERO[t]};')
    b = body.replace('.T', '.' + t)
    if t == F16:
        b = b.replace('mov.f16', 'mov.b16')
    for s in b.split(';'):
        s = s.strip()
        while s.startswith('L1:'):
            lines.append('L1:')
            s = s[3:].strip()
        if s.startswith('{'):
            lines.append('  ' + s + ';')  # a call block: "{ ...; } next" is split below
            continue
        if s:
            lines.append('  ' + s + ';')
    for r in range(4):
        lines.append(f'  st.global.{mt} [%rd3+{r * sz}], %r{r};')
    lines += ['  ret;', '}']
    return '\n'.join(lines)


def ptx_text():
    out = ['// tests/ptx/exec/contract.ptx, written by contract_gen.py (do not edit): the cases of',
           '// ptxas\'s mul/add contraction that tests/unit/test_exec_contract.c runs.',
           '.version 8.0', '.target sm_90', '.address_size 64', '',
           '.func (.param .b64 r) ident(.param .b64 a)', '{',
           '  .reg .b64 %v; ld.param.b64 %v, [a]; st.param.b64 [r], %v; ret;', '}', '']
    for name, t, body in CASES:
        # a call block keeps its braces: write it as one line
        if '{' in body:
            pre, rest = body.split('{', 1)
            blk, post = rest.split('}', 1)
            text = kernel(name, t, pre + ' CALLBLOCK; ' + post)
            text = text.replace('  CALLBLOCK;', '  {' + blk + '}')
            out.append(text)
        else:
            out.append(kernel(name, t, body))
        out.append('')
    return '\n'.join(out)


def sass_summary(ptx_path):
    """The FP instructions of each kernel's SASS (sm_90 encoding: opcode in bits 0-11,
    registers d, a, b in bits 16-39, c in bits 64-71; the negation bits 72 (product) and 75
    (addend)), each register named by the input x<i> it was loaded with (LDG offset)."""
    ops = {0x228: 'DMUL', 0x229: 'DADD', 0x22b: 'DFMA', 0x42b: 'DFMA(const)', 0xc2b: 'DFMA(ureg)', 0x220: 'FMUL',
           0x221: 'FADD', 0x223: 'FFMA', 0x823: 'FFMA(imm)', 0x231: 'HFMA2', 0x230: 'HADD2',
           0x232: 'HMUL2'}
    with tempfile.TemporaryDirectory() as d:
        cubin = os.path.join(d, 'c.cubin')
        subprocess.run(['ptxas', '-arch=sm_90', ptx_path, '-o', cubin], check=True)
        data = open(cubin, 'rb').read()
    shoff = struct.unpack_from('<Q', data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stroff = secs[shstrndx][4]
    res = {}
    for name, _, _, _, off, size in secs:
        n = data[stroff + name:data.index(b'\0', stroff + name)].decode()
        if not n.startswith('.text.'):
            continue
        t = n.rsplit('_', 1)[1]
        held = {}
        lines = []
        for i in range(0, size, 16):
            lo, hi = struct.unpack_from('<QQ', data, off + i)
            op = lo & 0xfff
            rd, ra, rb, rc = (lo >> 16) & 0xff, (lo >> 24) & 0xff, (lo >> 32) & 0xff, hi & 0xff
            if op == 0x981:  # LDG rd, [ra + offset in bits 40-63]
                held[rd] = 'x%d' % (((lo >> 40) & 0xffffff) // SIZE[t])
                continue
            if op not in ops:
                continue
            nm = lambda r: held.get(r, 'R%d' % r)
            m = ops[op]
            if m in ('DADD',):
                srcs = [nm(ra), nm(rc)]
            elif m.endswith('MUL') or m in ('FADD', 'HADD2', 'HMUL2'):
                srcs = [nm(ra), nm(rb)]
            elif '(' in m:
                srcs = [nm(ra), 'imm', nm(rc)]
            else:
                srcs = [nm(ra), nm(rb), nm(rc)]
            neg = []
            if m.startswith('H'):
                pass  # the half-precision forms keep their negations elsewhere
            elif (hi >> 8) & 1:
                neg.append('-product' if 'FMA' in m else '-a')
            if not m.startswith('H') and (hi >> 11) & 1:
                neg.append('-addend' if 'FMA' in m else '-b')
            lines.append(f'{m} R{rd} <- {", ".join(srcs)}' + (f' ({", ".join(neg)})' if neg else ''))
            held.pop(rd, None)
        res[n[6:]] = lines
    return res


if __name__ == '__main__':
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, 'contract.ptx')
    open(path, 'w').write(ptx_text())
    if '--sass' in sys.argv:
        print('# ptxas -arch=sm_90 (CUDA 13.0.88) of contract.ptx, per kernel its float arithmetic.')
        print('# (ptxas -O0, as nvcc -G runs it, fuses nothing: its only DFMA is use_add_fma\'s fma.rn.)')
        for k, lines in sass_summary(path).items():
            print(k + ':')
            for l in lines:
                print('  ' + l)
