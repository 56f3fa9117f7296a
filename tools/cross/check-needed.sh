#!/usr/bin/env bash
# Checks that the board binaries (executables under BUILD/tools) depend on no shared library beyond
# the ones every RK3588 Linux image has: libc, libm, libstdc++, libgcc, libdrm (and the dynamic loader).
# A new dependency would make `npurun` fail to start on a board, so it is a build failure here.
# Usage: check-needed.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: check-needed.sh BUILD_DIR}
readelf=$(command -v aarch64-linux-gnu-readelf || command -v readelf)
allowed='^(libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libdrm\.so\.2|ld-linux-aarch64\.so\.1)$'

status=0 count=0
while IFS= read -r -d '' exe; do
    # Only ELF executables (skip scripts, object files and meson's private directories).
    head -c 4 "$exe" | grep -q $'\x7fELF' || continue
    count=$((count + 1))
    needed=$("$readelf" -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    bad=$(grep -Ev "$allowed" <<<"$needed" || true)
    echo "check-needed: ${exe#"$build"/}: $(tr '\n' ' ' <<<"$needed")"
    if [[ -n $bad ]]; then
        echo "check-needed: ${exe#"$build"/} needs a library the board may not have: $(tr '\n' ' ' <<<"$bad")" >&2
        status=1
    fi
done < <(find "$build/tools" -type f -perm -u+x -not -path '*.p/*' -print0 2>/dev/null)
echo "check-needed: $count board binaries checked"
exit $status
