#!/usr/bin/env python3
"""bench/gen_big_ptx.py — a PTX kernel of a chosen number of lines, to measure what the
compiled tier's compile costs for a large kernel (issue: 5,000 PTX lines in under 2 s).

The kernel is what large generated kernels look like: each thread loads a few values by
its global index, then runs a long body of integer and float arithmetic with a
data-dependent (divergent) if/else every few statements and a store now and then, and
writes its result. Deterministic: the same arguments give the same text.

Usage: bench/gen_big_ptx.py [lines] > big.ptx        (default 5000)
Then:  build/bench/exec_bench --jit big.ptx compile   (VCUDA_CACHE_DIR=<fresh dir>)
"""
import sys


def main():
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    head = [
        ".version 8.0",
        ".target sm_90",
        ".address_size 64",
        "",
        ".visible .entry bigKernel(",
        "\t.param .u64 bigKernel_param_0,",
        "\t.param .u64 bigKernel_param_1,",
        "\t.param .u32 bigKernel_param_2",
        ")",
        "{",
        "\t.reg .pred %p<8>;",
        "\t.reg .b32 %r<64>;",
        "\t.reg .f32 %f<64>;",
        "\t.reg .b64 %rd<16>;",
        "",
        "\tld.param.u64 %rd1, [bigKernel_param_0];",
        "\tld.param.u64 %rd2, [bigKernel_param_1];",
        "\tld.param.u32 %r1, [bigKernel_param_2];",
        "\tcvta.to.global.u64 %rd3, %rd1;",
        "\tcvta.to.global.u64 %rd4, %rd2;",
        "\tmov.u32 %r2, %ctaid.x;",
        "\tmov.u32 %r3, %ntid.x;",
        "\tmov.u32 %r4, %tid.x;",
        "\tmad.lo.s32 %r5, %r2, %r3, %r4;",
        "\tsetp.ge.s32 %p1, %r5, %r1;",
        "\t@%p1 bra $L__exit;",
        "\tmul.wide.s32 %rd5, %r5, 4;",
        "\tadd.s64 %rd6, %rd3, %rd5;",
        "\tadd.s64 %rd7, %rd4, %rd5;",
        "\tld.global.u32 %r6, [%rd6];",
        "\tld.global.f32 %f1, [%rd6];",
        "\tmov.u32 %r7, %r5;",
        "\tmov.f32 %f2, 0f3F800000;",
    ]
    tail = [
        "\tst.global.u32 [%rd7], %r7;",
        "$L__exit:",
        "\tret;",
        "}",
    ]
    body = []
    k = 0
    # each round: 12-16 lines of arithmetic, a divergent diamond every round
    while len(head) + len(body) + len(tail) + 16 <= target:
        a = 8 + (k % 40)
        b = 8 + ((k * 7 + 3) % 40)
        c = 8 + ((k * 13 + 5) % 40)
        body += [
            f"\tadd.s32 %r{a}, %r7, {k * 2654435761 % 1000 + 1};",
            f"\txor.b32 %r{b}, %r{a}, %r6;",
            f"\tshl.b32 %r{c}, %r{b}, {k % 7 + 1};",
            f"\tmad.lo.s32 %r7, %r{c}, 3, %r{a};",
            f"\tcvt.rn.f32.s32 %f{a}, %r{b};",
            f"\tfma.rn.f32 %f2, %f{a}, 0f3DCCCCCD, %f2;",
            f"\tmul.f32 %f{b}, %f2, %f1;",
            f"\tand.b32 %r{a}, %r7, {1 << (k % 5)};",
            f"\tsetp.eq.s32 %p2, %r{a}, 0;",
            f"\t@%p2 bra $L__else{k};",
            f"\tsub.s32 %r7, %r7, %r{c};",
            f"\tadd.f32 %f2, %f2, %f{b};",
            f"\tbra.uni $L__join{k};",
            f"$L__else{k}:",
            f"\tadd.s32 %r7, %r7, %r{b};",
            f"$L__join{k}:",
        ]
        if k % 8 == 7:
            body += [
                "\tcvt.rzi.s32.f32 %r8, %f2;",
                "\txor.b32 %r7, %r7, %r8;",
                "\tst.global.u32 [%rd7], %r7;",
            ]
        k += 1
    sys.stdout.write("\n".join(head + body + tail) + "\n")


if __name__ == "__main__":
    main()
