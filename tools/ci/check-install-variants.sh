#!/usr/bin/env bash
# Builds npurun the way the embedded build systems do and checks each install (tests/install/check-install.py):
#   build-dist-buildroot: Buildroot's own meson invocation (package/pkg-meson.mk: --prefix=/usr --libdir=lib
#     --default-library=shared --buildtype=release -Db_pie=false) with the options board/buildroot passes
#     when the simulator is off: -Dtests=false -Dsimulator=false -Dstatic_stdlibcpp=true -Dwerror=false.
#     Shows that the build works without tests and without the simulator (no drv/sim source compiled) and
#     that the tools then need neither libstdc++ nor libgcc_s.
#   build-dist-yocto: what meta-npurun's default PACKAGECONFIG gives (prefix /usr, both library kinds,
#     simulator on, tests off).
# The native and aarch64 test builds run the same check as the meson test `install-staging`.
# .ci/run builds the Buildroot-like variant only: what the Yocto-like one adds over the native test build
# (prefix /usr, both library kinds, simulator on) is already installed and checked there by install-staging,
# and tests=false is the Buildroot variant's; leaving it out saves a whole release build in CI.
# Usage: tools/ci/check-install-variants.sh [buildroot|yocto|all]   (default all; from anywhere; builds under
#   the source root)
set -euo pipefail
cd "$(dirname "$0")/../.."

variant() {
    local dir=$1; shift
    if [[ ! -f $dir/build.ninja ]]; then
        meson setup "$dir" "$@" >/dev/null
    else
        meson configure "$dir" "$@" >/dev/null
    fi
    ninja -C "$dir" -j2 >/dev/null
    echo "== $dir ($*)"
    python3 tests/install/check-install.py --build-dir "$dir" --source-dir . --consumer tests/install/consumer.cpp --consumer tests/install/consumer.c
}

which=${1:-all}
case $which in
    buildroot|yocto|all) ;;
    *) echo "check-install-variants.sh: unknown variant '$which' (expected buildroot, yocto or all)" >&2; exit 2 ;;
esac

[[ $which == yocto ]] || variant build-dist-buildroot --prefix=/usr --libdir=lib --default-library=shared --buildtype=release \
    -Db_pie=false -Dtests=false -Dinstall_tests=false -Dsimulator=false -Dstatic_stdlibcpp=true \
    -Dconformance=disabled -Dwerror=false
[[ $which == buildroot ]] || variant build-dist-yocto --prefix=/usr --libdir=lib --buildtype=release -Dtests=false -Dsimulator=true \
    -Dconformance=disabled -Dwerror=false
