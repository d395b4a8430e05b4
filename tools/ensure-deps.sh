#!/usr/bin/env bash
# tools/ensure-deps.sh — make a fresh Debian machine ready to build and test vcuda.
#
# `make run`, `make test` and .ci/run call this first. It installs, through apt-get (as
# root, or through sudo), the Debian packages a build needs and the machine lacks, saying
# in one line what it installs; it does nothing when everything is there. The CUDA toolkit
# is not a Debian package here: it is looked for on PATH and in /usr/local/cuda (or
# $CUDA_HOME), and its absence is one sentence and a failure.
set -euo pipefail

missing=()
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ]; }
have_cmd() { command -v "$1" >/dev/null 2>&1; }

have_header zstd.h || missing+=(libzstd-dev)
have_cmd cmake || missing+=(cmake)
have_cmd make || missing+=(make)
have_cmd gcc || missing+=(gcc)
have_cmd g++ || missing+=(g++)   # nvcc compiles the host side of .cu files with it
have_cmd python3 || missing+=(python3)

if [ ${#missing[@]} -gt 0 ]; then
  echo "vcuda: installing missing Debian packages: ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
  elif have_cmd sudo; then
    SUDO=(sudo env DEBIAN_FRONTEND=noninteractive)
  else
    echo "vcuda: cannot install ${missing[*]}: not root and no sudo; install them and run again" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # A machine that has never run `apt-get update` knows no packages: update first. apt's
  # chatter is kept in a log that is shown only when something fails.
  log=$(mktemp)
  if ! { "${SUDO[@]}" apt-get update -qq &&
         "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$log"
    echo "vcuda: installing ${missing[*]} failed (apt-get's output above)" >&2
    exit 1
  fi
  rm -f "$log"
fi

cuda_bin=""
for dir in "${CUDA_HOME:-}/bin" /usr/local/cuda/bin; do
  [ -x "$dir/nvcc" ] && { cuda_bin=$dir; break; }
done
if ! have_cmd nvcc && [ -z "$cuda_bin" ]; then
  echo "vcuda: the CUDA toolkit was not found (no nvcc on PATH, in \$CUDA_HOME/bin or in /usr/local/cuda/bin): install it, or set CUDA_HOME to where it is" >&2
  exit 1
fi
