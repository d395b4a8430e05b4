#!/bin/sh
# tests/install/install_test.sh BUILD_DIR — `make install` and what users build with it:
#   1. install the build into a temporary prefix (what `make install PREFIX=...` runs);
#   2. tests/cmake_project, a CMake CUDA project that knows nothing of vcuda (a static and a
#      shared library of kernels, relocatable device code with device-side launches,
#      -cudart static and shared, an sm_80 machine-code-only target, a "native" one),
#      configured with only the toolchain file added, built, and its own ctest run on the
#      virtual GPU;
#   3. find_package(vcuda) (vcuda::cudart, VCUDA_EXECUTABLE) and pkg-config's vcuda.pc, each
#      building a C program that asks the runtime for the device;
#   4. `vcuda cc` from the prefix builds a program that runs against the installed library;
#   5. uninstall (tools/uninstall.sh) leaves nothing behind.
set -eu
# A sanitizer build preloads its runtimes for the CUDA programs (libvcuda is instrumented,
# they are not): the programs get them, cmake, the compilers and nvcc do not.
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
run() { LD_PRELOAD=$preload "$@"; }
build=$(cd "${1:?usage: install_test.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
step() { echo "== $*"; }

step "install into $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
for f in bin/vcuda lib/libvcuda.so lib/cmake/vcuda/vcudaConfig.cmake \
         lib/cmake/vcuda/vcudaConfigVersion.cmake lib/cmake/vcuda/vcuda-toolchain.cmake \
         lib/pkgconfig/vcuda.pc; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done

step "CMake CUDA project with the toolchain file only"
cmake -S "$src/tests/cmake_project" -B "$tmp/project" \
      -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/vcuda/vcuda-toolchain.cmake" >"$tmp/configure.log" \
    || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/project" -j 2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
(cd "$tmp/project" && run ctest --output-on-failure)
# every program runs on libvcuda from the prefix, none on NVIDIA's runtime
for exe in vecdemo treedemo; do
    libs=$(ldd "$tmp/project/$exe")
    echo "$libs" | grep -q "libvcuda.so => $prefix/lib/libvcuda.so" \
        || { echo "FAIL: $exe does not load $prefix/lib/libvcuda.so"; echo "$libs"; exit 1; }
    if echo "$libs" | grep -q libcudart; then echo "FAIL: $exe loads libcudart"; exit 1; fi
done

step "find_package(vcuda) and pkg-config"
cat >"$tmp/devname.c" <<'CEOF'
#include <stdio.h>
#include <cuda_runtime_api.h>
int main(void) {
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 1;
    printf("device: %s, sm_%d%d\n", p.name, p.major, p.minor);
    return 0;
}
CEOF
mkdir -p "$tmp/pkg"
cat >"$tmp/pkg/CMakeLists.txt" <<CEOF
cmake_minimum_required(VERSION 3.20)
project(devname C)
find_package(vcuda 0.1 REQUIRED)
add_executable(devname $tmp/devname.c)
target_link_libraries(devname PRIVATE vcuda::cudart)
file(WRITE \${CMAKE_BINARY_DIR}/vcuda_exe.txt "\${VCUDA_EXECUTABLE}")
CEOF
cmake -S "$tmp/pkg" -B "$tmp/pkg/build" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/pkg.log" \
    || { cat "$tmp/pkg.log"; exit 1; }
cmake --build "$tmp/pkg/build" >>"$tmp/pkg.log" 2>&1 || { cat "$tmp/pkg.log"; exit 1; }
[ "$(cat "$tmp/pkg/build/vcuda_exe.txt")" = "$prefix/bin/vcuda" ] \
    || { echo "FAIL: VCUDA_EXECUTABLE is $(cat "$tmp/pkg/build/vcuda_exe.txt")"; exit 1; }
run env VCUDA_DEVICE=a100 "$tmp/pkg/build/devname" | grep -q "sm_80" || { echo "FAIL: find_package program"; exit 1; }
if command -v pkg-config >/dev/null; then
    # shellcheck disable=SC2046
    cc -o "$tmp/devname_pc" "$tmp/devname.c" \
        $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs vcuda)
    run env VCUDA_DEVICE=h100 "$tmp/devname_pc" | grep -q "sm_90" || { echo "FAIL: pkg-config program"; exit 1; }
else
    echo "pkg-config not installed: vcuda.pc not tried"
fi

step "vcuda cc from the prefix"
cat >"$tmp/hello.cu" <<'CEOF'
#include <cstdio>
__global__ void hello() { printf("hello from block %d\n", blockIdx.x); }
int main() { hello<<<2, 1>>>(); cudaDeviceSynchronize(); return 0; }
CEOF
"$prefix/bin/vcuda" cc -arch=sm_90 -o "$tmp/hello" "$tmp/hello.cu"
ldd "$tmp/hello" | grep -q "libvcuda.so => $prefix/lib/libvcuda.so" \
    || { echo "FAIL: vcuda cc from the prefix links elsewhere"; ldd "$tmp/hello"; exit 1; }
[ "$(run "$tmp/hello" | sort | tr '\n' ' ')" = "hello from block 0 hello from block 1 " ] \
    || { echo "FAIL: hello"; exit 1; }

step "uninstall"
"$src/tools/uninstall.sh" "$build/install_manifest.txt" >/dev/null
left=$(find "$prefix" -type f)
[ -z "$left" ] || { echo "FAIL: left after uninstall:"; echo "$left"; exit 1; }
echo "install test: PASSED"
