#!/usr/bin/env bash
# tests/setup/fresh_machine.sh — the fresh-machine test of the README's two commands.
#
# Without arguments: removes the Debian packages that tools/ensure-deps.sh installs and a
# machine of this kind may lack (libzstd-dev), so that the next `make run` / `make test`
# must install them with no manual step. Only as root and only in CI (CI=true) or when
# VCUDA_FRESH_MACHINE=1, since it changes the machine.
# With --check-installed: fails unless those packages are present again (the commands
# that ran since did install them).
set -euo pipefail
pkgs=(libzstd-dev)

if [ "${1:-}" = --check-installed ]; then
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || {
      echo "fresh_machine: $p is still missing: the README's commands did not install it" >&2
      exit 1
    }
  done
  echo "fresh_machine: ${pkgs[*]} installed by the README's commands"
  exit 0
fi

if [ "${CI:-}" != true ] && [ "${VCUDA_FRESH_MACHINE:-}" != 1 ]; then
  echo "fresh_machine: not in CI (set VCUDA_FRESH_MACHINE=1 to remove ${pkgs[*]} here)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "fresh_machine: not root, packages left as they are"
  exit 0
fi
to_remove=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && to_remove+=("$p")
done
if [ ${#to_remove[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq "${to_remove[@]}" >/dev/null
fi
[ ! -f /usr/include/zstd.h ] || { echo "fresh_machine: zstd.h still present" >&2; exit 1; }
echo "fresh_machine: removed ${pkgs[*]}; the README's commands must install it"
