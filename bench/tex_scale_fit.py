#!/usr/bin/env python3
"""Checks rules for how the texture unit scales a normalized gradient by a texture side
against texture_probe6's thresholds (tests/cuda/texture/h200/texture_probe6.out.xz, an
H200): for each side and length L = 2^e (1 + j/256) texels, the first float g at which
tex2DGrad's level of detail reaches the level of L. A rule fits a threshold when its
scaled length reaches L at that g and not at the float 2^14 units in the last place
below it (the level depends on g's top 10 significant bits alone).

Usage: bench/tex_scale_fit.py [path to texture_probe6.out.xz]
Prints, for each rule, how many of the thresholds it misses, side by side."""
import lzma
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, '..', 'tests', 'cuda', 'texture', 'h200', 'texture_probe6.out.xz')
TABLE_SRC = os.path.join(HERE, '..', 'exec', 'tex_sample.c')


def log2_table():
    """The unit's log2 fraction table, as exec/tex_sample.c holds it."""
    src = open(TABLE_SRC).read()
    body = src.split('tex_log2_frac[256] = {', 1)[1].split('};', 1)[0]
    t = [int(x) for x in body.replace('\n', ' ').split(',') if x.strip()]
    assert len(t) == 256
    return t


def b2f(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def mant10(bits):
    """A positive float's top 10 significant bits: (m, q) with g cut = m 2^q."""
    m, e = math.frexp(b2f(bits))
    return int(math.ldexp(m, 10)), e - 10


def thresholds(path):
    """(side, e, j, (m, q) at the threshold, (m, q) one 10-bit step below), one per scan
    that saw exactly the step the table puts there."""
    t = log2_table()
    seen, out = set(), []
    for line in lzma.open(path, 'rt'):
        p = line.split()
        if not p or p[0] != 'scan':
            continue
        w, h, ax, e, j = map(int, p[1:6])
        if (w, h, ax, e, j) in seen:
            continue
        seen.add((w, h, ax, e, j))
        g0 = int(p[6], 16)
        vlo, vhi, nch, first = map(int, p[7:11])
        if nch != 1 or j == 0 or vhi != 256 * e + t[j] or vlo != 256 * e + t[j - 1] or vlo == vhi:
            continue
        tb = g0 + first
        out.append((h if ax else w, e, j, mant10(tb), mant10(tb - 0x4000)))
    return out


def cut10(num, exp):
    """num 2^exp cut to 10 significant bits (num a positive integer)."""
    r = max(num.bit_length() - 10, 0)
    return (num >> r) << r, exp


def exact_cut(m, q, side):
    """g (10 bits) times the side, exactly, then cut to 10 bits."""
    return cut10(m * side, q)


def truncated(m, q, side, guard=3):
    """The rule exec/tex_sample.c keeps (scale_grad): m times the side's mantissa (cut to
    10 bits) in a multiplier that keeps the partial products' columns down to `guard`
    bits below U (the unit of m times the side's leading power of two), rounded up to a
    multiple of U, then cut to 10 bits."""
    so, p = side, 0
    while so % 2 == 0:
        so //= 2
        p += 1
    b = so.bit_length()
    if b > 10:
        so >>= b - 10
        p += b - 10
        b = 10
    t = 0
    for i in range(10):
        if (m >> i) & 1:
            for k in range(b):
                if (so >> k) & 1 and i + k >= b - 1 - guard:
                    t += 1 << (i + k)
    f = b - 1 - guard  # t is in units of U / 2^(b - 1); keep it in units of U / 2^guard
    tg = t >> f if f >= 0 else t << -f
    u = (tg + (1 << guard) - 1) >> guard  # rounded up to U
    return cut10(u, q + p + b - 1)


def reaches(v, e, j):
    num, exp = v
    a = e - 8 - exp  # compare num 2^exp with (256 + j) 2^(e - 8)
    return num >= (256 + j) << a if a >= 0 else (num << -a) >= 256 + j


def misses(rule, rows):
    return sum(1 for s, e, j, (m, q), (mp, qp) in rows
               if not (reaches(rule(m, q, s), e, j) and not reaches(rule(mp, qp, s), e, j)))


def main():
    rows = thresholds(sys.argv[1] if len(sys.argv) > 1 else DEFAULT)
    print('%d thresholds on %d sides' % (len(rows), len({r[0] for r in rows})))
    rules = [('exact product cut to 10 bits', exact_cut)]
    for g in range(0, 6):
        rules.append(('truncated multiplier, %d guard bits, rounded up' % g,
                      lambda m, q, s, g=g: truncated(m, q, s, g)))
    for name, rule in rules:
        print('%6d missed  %s' % (misses(rule, rows), name))


if __name__ == '__main__':
    main()
