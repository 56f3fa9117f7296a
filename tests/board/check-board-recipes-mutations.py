#!/usr/bin/env python3
"""Shows that tools/ci/check-board-recipes.py catches what it claims to: copies the files it reads into a
scratch tree, applies one mistake at a time (each a mistake a real recipe could make), and expects the
checker to fail naming it. The unmodified copy must pass.

    check-board-recipes-mutations.py SOURCE_ROOT CHECKER SCRATCH_DIR
"""
import os
import shutil
import subprocess
import sys

BR_MK = 'board/buildroot/package/npurun/npurun.mk'
BR_CFG = 'board/buildroot/package/npurun/Config.in'
BR_FRAG = 'board/buildroot/configs/rock5b_npurun.fragment'
BB = 'board/yocto/meta-npurun/recipes-support/npurun/npurun_git.bb'
LAYER = 'board/yocto/meta-npurun/conf/layer.conf'

# (file, text to replace, replacement, words the failure message must contain)
MUTATIONS = [
    ('LICENSE', 'Copyright (c) 2026', 'Copyright (c) 2025', 'LIC_FILES_CHKSUM md5'),
    (BB, 'LICENSE = "MIT"', 'LICENSE = "GPL-2.0-only"', 'LICENSE GPL-2.0-only'),
    (BB, 'inherit meson pkgconfig', 'inherit cmake pkgconfig', 'inherit meson'),
    (BB, 'DEPENDS = "libdrm flatbuffers flatbuffers-native"', 'DEPENDS = "libdrm flatbuffers flatc-native"',
     'DEPENDS lacks flatbuffers-native'),
    (BB, ';branch=main', '', 'branch='),
    (BB, 'S = "${WORKDIR}/git"', 'S = "${WORKDIR}/npurun"', 'S must be'),
    (BB, '-Dsimulator=true,', '-Dsimulatr=true,', '-Dsimulatr'),
    (BB, 'FILES:${PN}-tests', 'FILES_${PN}-tests', 'old override syntax'),
    (BB, 'PV = "0.1.0+git${SRCPV}"', 'PV = "0.1.0+git"', 'SRCPV'),
    (LAYER, 'core openembedded-layer', 'core', 'openembedded-layer'),
    (LAYER, 'kirkstone scarthgap', 'kirkstone dunfell2', 'LAYERSERIES_COMPAT'),
    (BR_MK, ' host-flatbuffers', '', 'lacks host-flatbuffers'),
    (BR_MK, 'NPURUN_LICENSE = MIT', 'NPURUN_LICENSE = BSD-3-Clause', 'NPURUN_LICENSE'),
    (BR_MK, 'NPURUN_VERSION = 0.1.0', 'NPURUN_VERSION = 0.2.0', 'NPURUN_VERSION'),
    (BR_MK, '$(eval $(meson-package))', '$(eval $(cmake-package))', 'meson-package'),
    (BR_MK, '\t-Dwerror=false\n', '\t-Dwerror=false -Dno_such_option=true\n', 'no_such_option'),
    (BR_MK, 'NPURUN_INSTALL_STAGING = YES', 'NPURUN_INSTAL_STAGING = YES', 'NPURUN_INSTALL_STAGING'),
    (BR_MK, 'board/udev/99-npurun.rules', 'board/udev/98-npurun.rules', '98-npurun.rules'),
    (BR_MK, '\t-Dtests=false \\\n', '\t-Dtests=false  \\\n', 'one space before a backslash'),
    (BR_MK, '\t$(INSTALL) -D', '    $(INSTALL) -D', 'expected indent with a tab'),
    (BR_MK, '$(TARGET_DIR)/lib/udev', '${TARGET_DIR}/lib/udev', 'not ${}'),
    (BR_CFG, '\tdepends on BR2_aarch64\n\tdepends on BR2_INSTALL_LIBSTDCPP\n',
     '\tdepends on BR2_aarch64\n\tselect BR2_PACKAGE_LIBDRM\n\tdepends on BR2_INSTALL_LIBSTDCPP\n', 'attribute order'),
    (BR_CFG, '\tdepends on BR2_TOOLCHAIN_HAS_THREADS # libdrm\n', '', 'BR2_TOOLCHAIN_HAS_THREADS'),
    (BR_CFG, '\tselect BR2_PACKAGE_LIBDRM\n', '', 'select BR2_PACKAGE_LIBDRM'),
    (BR_CFG, 'driver, and on the CPU for the layers the NPU cannot run.',
     'driver, and on the CPU for the layers the NPU cannot run, a line that is much too long.', 'columns wide'),
    (BR_FRAG, 'BR2_PACKAGE_NPURUN_SIMULATOR=y', 'BR2_PACKAGE_NPURUN_SIMULATR=y', 'SIMULATR'),
    ('board/buildroot/board/rk3588/linux-npu.fragment', 'CONFIG_ROCKCHIP_RKNPU=y', 'CONFIG_ROCKCHIP_RKNPU=x',
     'not a kernel config assignment'),
]


def copy_tree(src, dst):
    shutil.rmtree(dst, ignore_errors=True)
    for f in ('LICENSE', 'meson.build', 'meson_options.txt'):
        os.makedirs(dst, exist_ok=True)
        shutil.copy(os.path.join(src, f), dst)
    shutil.copytree(os.path.join(src, 'board'), os.path.join(dst, 'board'))


def run(checker, root):
    r = subprocess.run([sys.executable, checker, root], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def main():
    src, checker, scratch = (os.path.abspath(p) for p in sys.argv[1:4])
    bad = 0
    copy_tree(src, scratch)
    code, out = run(checker, scratch)
    if code != 0:
        print('the unmodified copy fails:\n' + out)
        return 1
    for path, old, new, expect in MUTATIONS:
        copy_tree(src, scratch)
        full = os.path.join(scratch, path)
        text = open(full).read()
        if old not in text:
            print(f'mutation target "{old}" not found in {path} (update this test)')
            bad += 1
            continue
        with open(full, 'w') as f:
            f.write(text.replace(old, new, 1))
        code, out = run(checker, scratch)
        if code == 0 or expect not in out:
            print(f'NOT CAUGHT: {path}: "{old}" -> "{new}" (exit {code}, wanted a failure mentioning "{expect}")\n{out}')
            bad += 1
        else:
            print(f'caught: {path}: {[ln for ln in out.splitlines() if expect in ln][0]}')
    shutil.rmtree(scratch, ignore_errors=True)
    print(f'{len(MUTATIONS) - bad} of {len(MUTATIONS)} mutations caught')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
