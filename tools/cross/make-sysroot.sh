#!/usr/bin/env bash
# Builds an arm64 sysroot from Debian packages without adding arm64 to dpkg.
#
# Why not `dpkg --add-architecture arm64`: on these machines it breaks `apt-get update` for the host.
# Instead apt is pointed at private state (lists, cache, an empty dpkg status, our own sources file) and
# told its architecture is arm64; it then only downloads .debs, which `dpkg -x` unpacks into the sysroot.
# The host's apt and dpkg state is never touched.
#
# Usage: make-sysroot.sh SYSROOT [extra arm64 package...]
# Result: SYSROOT/usr/{include,lib/aarch64-linux-gnu} with libc, libstdc++, libdrm, flatbuffers, gtest,
# libjpeg-turbo, libpng and zlib (static libraries included: the tools link those three statically),
# usable both for linking (meson cross file, pkg-config sys_root) and for `qemu-aarch64 -L SYSROOT`.
# Idempotent: a finished sysroot carries a stamp listing its packages and is not rebuilt.
set -euo pipefail

sysroot=${1:?usage: make-sysroot.sh SYSROOT [package...]}
shift
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=${DEBIAN_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")}

# Runtime libraries for qemu (-L) plus the -dev packages the build links against. Versions come from the
# same Debian release as the host, so the cross g++ (same GCC) matches libstdc++6.
packages=(libc6 libc6-dev libstdc++6 libgcc-s1 libdrm2 libdrm-common libdrm-dev
          libflatbuffers2 libflatbuffers-dev libgtest-dev
          libjpeg62-turbo libjpeg62-turbo-dev libpng16-16 libpng-dev zlib1g zlib1g-dev "$@")

stamp="$sysroot/.npurun-sysroot"
if [[ -f $stamp ]] && [[ "$(cat "$stamp")" == "${packages[*]}" ]]; then
    exit 0
fi

for tool in apt-get dpkg; do
    command -v "$tool" >/dev/null || { echo "make-sysroot: '$tool' not found (Debian host needed)" >&2; exit 1; }
done

sysroot=$(mkdir -p "$sysroot" && cd "$sysroot" && pwd)
state="$sysroot.apt"   # private apt state next to the sysroot (not inside it: qemu -L would see it)
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/debs" "$state/etc/preferences.d"
: > "$state/status"
cat > "$state/etc/sources.list" <<EOF
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite-updates main
EOF

apt_opts=(
    -o APT::Architecture=arm64 -o APT::Architectures=arm64
    -o Dir::State::Lists="$state/lists"
    -o Dir::State::status="$state/status"
    -o Dir::Cache="$state/cache"
    -o Dir::Etc::SourceList="$state/etc/sources.list"
    -o Dir::Etc::SourceParts=/nonexistent
    -o Dir::Etc::Preferences="$state/etc/preferences"
    -o Dir::Etc::PreferencesParts="$state/etc/preferences.d"
    -o Debug::NoLocking=1
    -o APT::Sandbox::User=root
    -qq
)

echo "make-sysroot: fetching arm64 package lists ($suite) into $state"
apt-get "${apt_opts[@]}" update

echo "make-sysroot: downloading ${packages[*]}"
(cd "$state/debs" && rm -f ./*.deb && apt-get "${apt_opts[@]}" download "${packages[@]}")

for deb in "$state/debs"/*.deb; do
    dpkg -x "$deb" "$sysroot"
done

# Debian's -dev symlinks are relative except for a few absolute ones (e.g. /lib/...): re-point absolute
# symlinks into the sysroot so the cross linker does not pick up the host's x86 files.
while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    if [[ $target == /* ]]; then
        ln -sfn "$sysroot$target" "$link"
    fi
done < <(find "$sysroot" -type l -print0)

# Debian merged /usr: the dynamic loader is looked up as /lib/ld-linux-aarch64.so.1.
if [[ ! -e "$sysroot/lib" ]]; then ln -s usr/lib "$sysroot/lib"; fi

# The libc linker scripts name absolute paths (/usr/lib/aarch64-linux-gnu/libc.so.6); the cross linker
# resolves them inside --sysroot, so they are left as they are.
echo "${packages[*]}" > "$stamp"
echo "make-sysroot: arm64 sysroot ready in $sysroot"
