#!/usr/bin/env bash
# Builds the aarch64 Arm NN side of the qemu instruction-count benchmark: an arm64 sysroot holding Debian's
# Arm NN 20.08 with the CpuAcc (Arm Compute Library NEON) and CpuRef backends, and armnn-bench
# cross-compiled against it.
#
# The sysroot is separate from the one of `make cross` (tools/cross/make-sysroot.sh, same method: apt-get
# download + dpkg -x, never dpkg --add-architecture) so that the project's cross build never sees Arm NN:
# its meson files would otherwise pick Arm NN up for the conformance generator.
# armnn-bench is never linked with npurun (both carry FlatBuffers code in namespace armnnSerializer).
#
# Usage: build-armnn-aarch64.sh ARMNN_SYSROOT OUT_DIR     (result: OUT_DIR/armnn-bench)
set -euo pipefail
sysroot=${1:?usage: build-armnn-aarch64.sh ARMNN_SYSROOT OUT_DIR}
out=${2:?usage: build-armnn-aarch64.sh ARMNN_SYSROOT OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)

# Debian bookworm arm64: libarmnn22 (also holds libarmnnSerializer with the deserializer), the -dev
# package for headers and link symlinks, the two backends (dynamic backends in <libdir>/armnn22) and what
# they need beyond libc/libstdc++ (libarmnnaclcommon22, libarm-compute20).
"$here/../cross/make-sysroot.sh" "$sysroot" libarmnn22 libarmnn-dev libarmnn-cpuacc-backend22 \
    libarmnn-cpuref-backend22 libarmnnaclcommon22 libarm-compute20
sysroot=$(cd "$sysroot" && pwd)

# Arm Compute Library sizes its thread pool from /proc/cpuinfo's "CPU part" lines, else from
# std::thread::hardware_concurrency(), which glibc reads from /sys/devices/system/cpu/online. Under
# `qemu-aarch64 -L SYSROOT` that path is looked up inside SYSROOT first: this file makes CpuAcc run on
# one thread, like npurun --threads 1 in the same count (a thread pool would add its synchronization
# instructions to the total, not a property of the kernels).
mkdir -p "$sysroot/sys/devices/system/cpu"
echo 0 > "$sysroot/sys/devices/system/cpu/online"

mkdir -p "$out"
src="$here/armnn_bench.cpp"
if [[ ! -x $out/armnn-bench || $src -nt $out/armnn-bench ]]; then
    echo "build-armnn-aarch64: aarch64-linux-gnu-g++ armnn_bench.cpp against $sysroot"
    aarch64-linux-gnu-g++ -std=c++17 -O2 -Wall -Wextra -Wpedantic -Werror --sysroot="$sysroot" \
        "$src" -o "$out/armnn-bench" -larmnnSerializer -larmnn
fi
