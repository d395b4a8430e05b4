#!/bin/sh
# Build one suite program unless it is newer than every input: build_one.sh <program>
# <input>... -- <compile command...>. (The fixture tests call it instead of `cmake --build`,
# so that they need no lock on the build tree; see CMakeLists.txt.)
set -u
bin=$1
shift
stale=0
[ -e "$bin" ] || stale=1
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    [ "$1" -nt "$bin" ] && stale=1
    shift
done
shift # --
[ $stale -eq 0 ] && exit 0
mkdir -p "$(dirname "$bin")" || exit 1
rm -f "$bin"
"$@"
