#!/bin/sh
# Run a program with CUDA_VISIBLE_DEVICES set and compare its stdout followed by its exit
# status with what the GPU gave (as gpu_capture.sh recorded it).
# Usage: visible.sh <expected file> <CUDA_VISIBLE_DEVICES> <program> [args...]
set -u
expected=$1 visible=$2 prog=$3
shift 3
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
CUDA_VISIBLE_DEVICES=$visible "$prog" "$@" > "$work/actual" 2> "$work/stderr"
echo $? >> "$work/actual"
if ! diff -u "$expected" "$work/actual"; then
    echo "--- stderr of $prog:" >&2
    head -20 "$work/stderr" >&2
    exit 1
fi
