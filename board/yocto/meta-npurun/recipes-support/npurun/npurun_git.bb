SUMMARY = "Userspace driver and runtime for the Rockchip RK3588 NPU"
DESCRIPTION = "Runs Arm NN serialized models (.armnn) on the RK3588 NPU through the \
vendor rknpu or the mainline rocket kernel driver, and on the CPU for the layers the \
NPU cannot run. Tools: npurun, npu-info, regcmd-dump; the bring-up self-test \
npurun-selftest is in npurun-tests (npurun --selftest runs the same)."
SECTION = "libs"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://LICENSE;md5=373926f6dad1bd8bc2a121ebd30738a6"

# The layer lives inside the npurun repository (board/yocto/meta-npurun), so by default
# the recipe builds that repository's main branch. Point NPURUN_GIT_URI (and SRCREV) at
# the public repository for a release build, or use devtool / externalsrc for a working copy.
NPURUN_REPO_DIR ?= "${@os.path.abspath(os.path.join(d.getVar('FILE_DIRNAME'), '..', '..', '..', '..', '..'))}"
NPURUN_GIT_URI ?= "git://${NPURUN_REPO_DIR};protocol=file"
SRC_URI = "${NPURUN_GIT_URI};branch=main"
SRCREV ?= "${AUTOREV}"
PV = "0.1.0+git${SRCPV}"
S = "${WORKDIR}/git"

# flatc (flatbuffers-native) generates the Arm NN schema reader at build time; the generated
# code is compiled against the target flatbuffers headers of the same version.
DEPENDS = "libdrm flatbuffers flatbuffers-native"
# The tools decode JPEG and PNG image inputs (linked statically when the static libraries exist).
DEPENDS += "jpeg libpng zlib"

inherit meson pkgconfig useradd

# 99-npurun.rules gives the render group access to the NPU nodes; create the group when the
# image does not have it yet (useradd skips an existing group).
USERADD_PACKAGES = "${PN}"
GROUPADD_PARAM:${PN} = "--system render"

# The NPU exists only on RK3588 (aarch64).
COMPATIBLE_HOST = "aarch64.*-linux"

# -Dwerror=false: the project's -Werror is for its own CI, not for every compiler a
# distribution brings.
EXTRA_OEMESON = "-Dwerror=false -Dconformance=disabled"

PACKAGECONFIG ??= "simulator"
PACKAGECONFIG[simulator] = "-Dsimulator=true,-Dsimulator=false"
PACKAGECONFIG[tests] = "-Dtests=true -Dinstall_tests=true,-Dtests=false -Dinstall_tests=false,googletest"
PACKAGECONFIG[static-libstdcpp] = "-Dstatic_stdlibcpp=true,-Dstatic_stdlibcpp=false"

do_install:append() {
    install -D -m 0644 ${S}/board/udev/99-npurun.rules \
        ${D}${nonarch_base_libdir}/udev/rules.d/99-npurun.rules
}

# npurun: the tools, libnpurun.so.*, the udev rule. npurun-dev (headers, libnpurun.so,
# npurun.pc), npurun-staticdev (libnpurun.a), npurun-doc (man pages) come from the default
# split. npurun-tests: the test binaries (PACKAGECONFIG "tests") and the bring-up self-test.
PACKAGE_BEFORE_PN = "${PN}-tests"
FILES:${PN}-tests = "${libexecdir}/npurun/tests ${bindir}/npurun-selftest"
FILES:${PN} += "${nonarch_base_libdir}/udev/rules.d/99-npurun.rules"
# The end-to-end tests and the self-test run the installed tools.
RDEPENDS:${PN}-tests = "${PN}"
ALLOW_EMPTY:${PN}-tests = "1"
