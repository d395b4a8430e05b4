#!/bin/sh
# tools/uninstall.sh MANIFEST — `make uninstall`: remove the files a `make install` wrote
# (listed in MANIFEST, one path a line), then vcuda's own folders left empty.
set -eu
manifest=${1:?usage: uninstall.sh MANIFEST}
if [ ! -f "$manifest" ]; then
    echo "make uninstall: nothing installed from this build tree ($manifest missing)"
    exit 0
fi
n=0
while IFS= read -r f || [ -n "$f" ]; do
    [ -n "$f" ] || continue
    if [ -e "$f" ] || [ -L "$f" ]; then
        rm -f -- "$f"
        n=$((n + 1))
    fi
    case "$f" in
    */lib/cmake/vcuda/*) rmdir -- "${f%/*}" 2>/dev/null || true ;;
    esac
done < "$manifest"
rm -f -- "$manifest"
echo "make uninstall: removed $n files"
