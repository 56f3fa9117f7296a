#!/usr/bin/env bash
# Installs the Debian packages a build needs, only those that are missing.
# Usage: install-deps.sh GROUP...   (groups: build, test, cross, bench, fuzz)
# As root it runs apt-get; otherwise it prints the exact command to run and fails.
set -euo pipefail

declare -A GROUPS_PKGS=(
  [build]="meson ninja-build g++ lld pkg-config flatbuffers-compiler libflatbuffers-dev libdrm-dev libsimde-dev python3 libjpeg62-turbo-dev libpng-dev zlib1g-dev"
  [test]="libgtest-dev libarmnn-dev libarmnntfliteparser-dev libarmnn-cpuref-backend22 libsimde-dev python3-yaml chromium busybox libopencv-dev"
  [cross]="crossbuild-essential-arm64 qemu-user debian-archive-keyring"
  [bench]="libxnnpack-dev libpthreadpool-dev libbenchmark-dev"
  [fuzz]="clang libfuzzer-14-dev"
)

want=()
for g in "$@"; do
  [[ -n "${GROUPS_PKGS[$g]+x}" ]] || { echo "install-deps: unknown group '$g'" >&2; exit 2; }
  for p in ${GROUPS_PKGS[$g]}; do want+=("$p"); done
done

missing=()
for p in "${want[@]}"; do
  # A virtual or unknown package is simply reported as missing and left to apt-get to resolve.
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "missing Debian packages; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# apt lists may be absent or stale on a fresh machine: update once, then install.
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
