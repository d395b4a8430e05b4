#!/bin/sh
# cc_reuse.sh FROM_TREE THIS_TREE VCUDA CC-ARGS...
#
# Builds a test program as `VCUDA cc CC-ARGS` would, unless another build tree already holds
# it up to date: then that tree's binary is copied. The sanitizer tree uses this (make
# test-sanitize configures it with VCUDA_REUSE_PROGRAMS_FROM=<the main tree>): its test
# programs are not instrumented (only libvcuda is, which the tests load through
# LD_LIBRARY_PATH), so nvcc's output is the same in both trees and compiling every program
# twice only cost CI time.
#
# "Up to date" is what make would decide in FROM_TREE: the binary there (the same path
# relative to the tree as -o names here) is newer than each of its sources, every header
# those include (nvcc -M lists them), and FROM_TREE's own vcuda command and libvcuda. When
# anything is older, missing or cannot be listed, the program is compiled here.
set -eu
from=$1 this=$2
shift 2
vcuda=$1

out= prev= sources= depflags=
for a in "$@"; do
    if [ "$prev" = "-o" ]; then
        out=$a
    else
        case $a in
            -I*|-D*|-U*|-std=*|-arch=*) depflags="$depflags $a" ;;
            -*) ;;
            *.cu|*.c|*.cpp|*.cc|*.cxx) [ -f "$a" ] && sources="$sources $a" ;;
        esac
    fi
    prev=$a
done

deps=
compile() {
    [ -z "$deps" ] || rm -f "$deps" "$deps.one"
    exec "$@"
}

case $out in
    "$this"/*) mirror=$from/${out#"$this"/} ;;
    *) compile "$@" ;;
esac
[ -n "$sources" ] && [ -x "$mirror" ] || compile "$@"

newer_than_all() {  # newer_than_all FILE DEP...: FILE is newer than every DEP
    f=$1
    shift
    for d in "$@"; do
        [ "$f" -nt "$d" ] || return 1
    done
}

nvcc_cmd=${VCUDA_NVCC:-${CUDA_HOME:+$CUDA_HOME/bin/nvcc}}
nvcc_cmd=${nvcc_cmd:-nvcc}
deps=$(mktemp)
for s in $sources; do
    # shellcheck disable=SC2086  # depflags is a list of words
    "$nvcc_cmd" -M $depflags "$s" -o "$deps.one" 2>/dev/null || compile "$@"
    # one dependency per word, the make rule's target and line continuations dropped
    sed -e 's/^[^:]*://' -e 's/\\$//' "$deps.one" | tr ' ' '\n' | sed '/^$/d' >> "$deps"
    rm -f "$deps.one"
done
# shellcheck disable=SC2046  # one dependency path per line, none with spaces
if newer_than_all "$mirror" $(cat "$deps") "$from/bin/vcuda" "$from/lib/libvcuda.so"; then
    mkdir -p "$(dirname "$out")"
    cp "$mirror" "$out"
    rm -f "$deps"
    echo "cc_reuse: $out copied from $mirror (up to date there)"
    exit 0
fi
compile "$@"
