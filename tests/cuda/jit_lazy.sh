#!/bin/sh
# tests/cuda/jit_lazy.sh — the compiled tier compiles a kernel when a launch first needs
# it, not every kernel of its module at load (tests/cuda/jit_lazy.cu: eleven template
# instances and a device function, each run launching the ones it names).
#
# The compiler is a wrapper that logs the function each compile is for (the first line
# of the generated C names it), and refuses the one named by $REFUSE (a kernel the
# compiler cannot take). In a fresh cache:
# 1. VCUDA_JIT=always launching step<3>: that kernel alone is compiled; the report counts
#    the other eleven units as not needed.
# 2. launching mixed<2>: it and the device function it calls, both before the launch.
# 3. launching step<3>, step<5> (refused) and step<6>: step<3> comes from the cache; the
#    launch of step<5> fails with cudaErrorInvalidPtx and a message naming it, the
#    compiler's words and the PTX instruction at the line they name; step<6> is compiled
#    and runs; nothing else is compiled.
# 4. the default, tiered mode, launching step<1>: no kernel but it is ever compiled.
# Every result printed is the interpreter's (VCUDA_JIT=0).
#
# Usage: jit_lazy.sh <jit_lazy program>
set -u
prog=$1
tmp=${TMPDIR:-/tmp}/jit_lazy.$$
mkdir -p "$tmp/cache" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
export VCUDA_CACHE_DIR="$tmp/cache"
real_cc=${VCUDA_JIT_CC:-cc}
cat > "$tmp/cc" <<WRAPPER || exit 2
#!/bin/sh
for a; do src=\$a; done
case "\$src" in
*.c)
    name=\$(head -1 "\$src" | sed -n 's|^/\* [a-z]* \([A-Za-z0-9_]*\) \*/\$|\1|p')
    echo "\$name" >> "$tmp/cc.log"
    if [ -n "\${REFUSE:-}" ] && [ "\$name" = "\$REFUSE" ]; then
        # (at the last instruction's label, as a C compiler names a line)
        at=\$(grep -n '^ *L[0-9]*:' "\$src" | tail -1 | cut -d: -f1)
        echo "\$src:\$at:3: error: this compiler refuses \$name" >&2
        exit 1
    fi ;;
esac
exec "$real_cc" "\$@"
WRAPPER
chmod +x "$tmp/cc" || exit 2
: > "$tmp/cc.log"
export VCUDA_JIT_CC="$tmp/cc"
fail=0
step1=_Z4stepILi1EEvPii
step3=_Z4stepILi3EEvPii
step5=_Z4stepILi5EEvPii
step6=_Z4stepILi6EEvPii
mixed2=_Z5mixedILi2EEvPii
mix=_Z3mixii
# the functions compiled since the last call, sorted, on one line
compiled() {
    sort "$tmp/cc.log" | tr '\n' ' '
    : > "$tmp/cc.log"
}
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }
expect() { # what, expected, got
    if [ "$2" != "$3" ]; then
        echo "$1: compiled [$3], expected [$2]"
        fail=1
    fi
}
same() { # run's name, then the program's arguments: it printed the interpreter's output
    name=$1
    shift
    VCUDA_JIT=0 "$prog" "$@" > "$tmp/interp.out" 2>/dev/null
    if ! cmp -s "$tmp/interp.out" "$tmp/$name.out"; then
        echo "$name: printed something else than the interpreter:"
        diff "$tmp/interp.out" "$tmp/$name.out"
        fail=1
    fi
}

VCUDA_JIT=always VCUDA_REPORT=1 "$prog" step3 > "$tmp/one.out" 2> "$tmp/one.err" ||
    { echo "run 1 failed"; fail=1; }
expect "run 1 (step<3>)" "$(sorted $step3)" "$(compiled)"
same one step3
if ! grep -q '^vcuda: compiled code: .*: 12 units: 0 found in the cache, 1 compiled in .*, 11 not needed by any launch yet' \
        "$tmp/one.err"; then
    echo "run 1: the report does not say 1 of 12 units compiled, 11 not needed:"
    grep '^vcuda: compiled code: ' "$tmp/one.err"
    fail=1
fi
if ! grep -q "^vcuda: tier: .*step.*: compiled\$" "$tmp/one.err"; then
    echo "run 1: step<3> did not run compiled:"
    grep '^vcuda: tier: ' "$tmp/one.err"
    fail=1
fi

VCUDA_JIT=always "$prog" mixed2 > "$tmp/two.out" 2>/dev/null || { echo "run 2 failed"; fail=1; }
expect "run 2 (mixed<2>, which calls mix)" "$(sorted $mix $mixed2)" "$(compiled)"
same two mixed2

REFUSE=$step5 VCUDA_JIT=always "$prog" step3 step5 step6 > "$tmp/three.out" \
    2> "$tmp/three.err" || { echo "run 3 failed"; fail=1; }
expect "run 3 (step<3> cached, step<5> refused, step<6>)" "$(sorted $step5 $step6)" \
    "$(compiled)"
if ! grep -q "^step5: launch failed: cudaErrorInvalidPtx\$" "$tmp/three.out"; then
    echo "run 3: the launch of step<5> did not fail with cudaErrorInvalidPtx:"
    cat "$tmp/three.out"
    fail=1
fi
if ! grep -q "cannot compile kernel $step5 (VCUDA_JIT=always): kernel $step5: the compiler failed: .*error: this compiler refuses $step5 (near instruction [0-9]*: [a-z]*, line [0-9]* of the PTX)" \
        "$tmp/three.err"; then
    echo "run 3: no message naming step<5>, the compiler's words and the instruction:"
    cat "$tmp/three.err"
    fail=1
fi
VCUDA_JIT=0 "$prog" step3 step6 > "$tmp/interp.out" 2>/dev/null
if [ "$(grep -v '^step5' "$tmp/three.out")" != "$(cat "$tmp/interp.out")" ]; then
    echo "run 3: step<3> and step<6> printed something else than the interpreter"
    fail=1
fi

rm -rf "$tmp/cache"
VCUDA_JIT=1 "$prog" step1 > "$tmp/four.out" 2>/dev/null || { echo "run 4 failed"; fail=1; }
got=$(compiled)
if [ -n "$got" ] && [ "$got" != "$(sorted $step1)" ]; then
    echo "run 4 (tiered, step<1>): compiled [$got], expected step<1> at most"
    fail=1
fi
same four step1
exit $fail
