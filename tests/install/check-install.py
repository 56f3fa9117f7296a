#!/usr/bin/env python3
"""Installs a configured npurun build into a staging directory and checks what a distribution gets.

    check-install.py --build-dir BUILD --source-dir SRC [--staging DIR] [--consumer consumer.cpp]

What it checks, each failure one line naming the file:
  1. `meson install --destdir` succeeds and installs exactly the contract below, no more:
     libnpurun.so (+ soname and versioned names), libnpurun.a, npurun.pc, every header in include/npurun/
     (byte-identical), the core headers the public one includes (its value types), the man pages, and every tool that
     the build defines (npurun, npu-info, regcmd-dump, npurun-selftest, ...) in bindir. Internal libraries and test
     binaries must not be installed (unless -Dinstall_tests=true, then into libexecdir/npurun/tests).
  2. `pkg-config --modversion/--cflags/--libs [--static] npurun` against the staging dir
     (PKG_CONFIG_PATH + PKG_CONFIG_SYSROOT_DIR, as Buildroot and Yocto use it) names paths inside it.
  3. A consumer program compiles against the staged headers and links against the staged shared and
     static library; natively it is also run.
  4. Every installed ELF is for the host machine of the build, has no RPATH/RUNPATH, and its NEEDED
     entries are only libc, libm, libstdc++, libgcc_s, libdrm and the dynamic loader (plus the sanitizer
     runtimes in a sanitizer build). With -Dstatic_stdlibcpp=true the tools must not need libstdc++ or
     libgcc_s. libnpurun.so's SONAME is libnpurun.so.<soversion>.
  5. With -Dsimulator=false no source under drv/sim/ is compiled; with -Dtests=false nothing under tests/.
"""
import argparse
import ast
import configparser
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys

TOOLS = ['npurun', 'npu-info', 'regcmd-dump', 'npurun-selftest', 'face-detect']
MAN_PAGES = ['npurun.1', 'npu-info.1', 'regcmd-dump.1', 'npurun-selftest.1', 'face-detect.1']
API_CORE_HEADERS = ['core/error.h', 'core/load_options.h', 'core/types.h']  # the API's value types, included by npurun.hpp

ALLOWED_NEEDED = [
    r'libc\.so(\.\d+)?', r'libm\.so\.\d+', r'libstdc\+\+\.so\.\d+', r'libgcc_s\.so\.\d+',
    r'libdrm\.so\.\d+', r'ld-linux[-\w.]*\.so\.\d+',
]
SANITIZER_NEEDED = [r'libasan\.so\.\d+', r'libubsan\.so\.\d+', r'liblsan\.so\.\d+', r'libtsan\.so\.\d+']
ELF_MACHINE = {'x86_64': 'Advanced Micro Devices X86-64', 'aarch64': 'AArch64', 'arm': 'ARM'}

failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def note(msg):
    print('note: ' + msg)


def run(cmd, env=None, cwd=None):
    r = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def introspect(build, what):
    code, out = run(['meson', 'introspect', build, '--' + what])
    if code != 0:
        sys.exit(f'check-install: meson introspect --{what} failed:\n{out}')
    return json.loads(out)


class MesonStr(str):
    """A string with meson's path-join operator, for evaluating machine-file values."""
    def __truediv__(self, other):
        return MesonStr(os.path.join(self, other))

    def __add__(self, other):
        return MesonStr(str.__add__(self, other))


class _WrapStrings(ast.NodeTransformer):
    def visit_Constant(self, node):
        if isinstance(node.value, str):
            return ast.Call(func=ast.Name(id='_S', ctx=ast.Load()), args=[node], keywords=[])
        return node


def read_machine_files(paths):
    """The machine files (cross files) merged in order, each value evaluated the way meson does: Python-like
    literals, + and / on strings, and names from [constants] sections. Returns {section: {key: value}}."""
    merged, constants = {}, {}
    for path in paths:
        parser = configparser.ConfigParser(interpolation=None)
        parser.optionxform = str
        parser.read(path)
        for section in parser.sections():
            for key, raw in parser.items(section):
                # Wrap string literals as _S('...') so that `a / b` joins paths as in meson.
                tree = ast.fix_missing_locations(_WrapStrings().visit(ast.parse(raw.strip(), mode='eval')))
                value = eval(compile(tree, path, 'eval'), {'__builtins__': {}, '_S': MesonStr}, dict(constants))
                if isinstance(value, str):
                    value = MesonStr(value)
                if section == 'constants':
                    constants[key] = value
                merged.setdefault(section, {})[key] = value
    return merged


def host_machine(build):
    """(cpu_family, machine-file dict or None): meson 1.0 has no machines introspection, so read the cross
    files the build was configured with (meson-private/cmd_line.txt records them)."""
    cmd_line = configparser.ConfigParser(interpolation=None)
    cmd_line.read(os.path.join(build, 'meson-private', 'cmd_line.txt'))
    cross_files = cmd_line.get('properties', 'cross_file', fallback='')
    if not cross_files:
        return platform.machine(), None
    machine = read_machine_files(ast.literal_eval(cross_files))
    return machine['host_machine']['cpu_family'], machine


def cpp_compiler(targets):
    for t in targets:
        for group in t.get('target_sources', []):
            if group.get('language') == 'cpp':
                return group['compiler']
    sys.exit('check-install: no C++ target in the build to take the compiler from')


def rel(path):
    return path.lstrip('/')


def elf_facts(path):
    """(machine, needed list, soname, rpaths) of an ELF file, or None if it is not ELF."""
    with open(path, 'rb') as f:
        if f.read(4) != b'\x7fELF':
            return None
    code, header = run(['readelf', '-h', path])
    if code != 0:
        fail(f'{path}: readelf -h failed: {header.strip()}')
        return None
    machine = re.search(r'Machine:\s+(.*)', header).group(1).strip()
    code, dyn = run(['readelf', '-d', path])
    needed = re.findall(r'\(NEEDED\)\s+Shared library: \[(.*?)\]', dyn)
    soname = re.findall(r'\(SONAME\)\s+Library soname: \[(.*?)\]', dyn)
    rpaths = re.findall(r'\((?:RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[(.*?)\]', dyn)
    return machine, needed, soname[0] if soname else None, rpaths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build-dir', required=True)
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--staging', help='default: BUILD/install-staging (removed first)')
    ap.add_argument('--consumer', action='append', default=[],
                    help='a C++ (.cpp) or C (.c) program to build against the staged install (repeatable)')
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    src = os.path.abspath(args.source_dir)
    staging = os.path.abspath(args.staging or os.path.join(build, 'install-staging'))

    opts = {o['name']: o['value'] for o in introspect(build, 'buildoptions')}
    project = introspect(build, 'projectinfo')
    targets = introspect(build, 'targets')
    version = project['version']
    major, minor = version.split('.')[:2]
    soversion = f'0.{minor}' if major == '0' else major
    host_cpu, cross = host_machine(build)
    sanitized = opts.get('b_sanitize', 'none') != 'none'

    def under_prefix(d):
        return d if os.path.isabs(d) else os.path.join(opts['prefix'], d)

    bindir, libdir, includedir, mandir, libexecdir = (rel(under_prefix(opts[k])) for k in
                                                       ('bindir', 'libdir', 'includedir', 'mandir', 'libexecdir'))

    # 1. install -----------------------------------------------------------------------------------------
    shutil.rmtree(staging, ignore_errors=True)
    code, out = run(['meson', 'install', '-C', build, '--no-rebuild', '--quiet', '--destdir', staging])
    if code != 0:
        sys.exit(f'check-install: meson install failed:\n{out}')
    installed = set()
    for root, _dirs, files in os.walk(staging):
        for name in files:
            installed.add(os.path.relpath(os.path.join(root, name), staging))
    print(f'installed {len(installed)} files into {staging}')

    kind = opts.get('default_library', 'both')
    with_shared, with_static = kind in ('shared', 'both'), kind in ('static', 'both')
    expected = {f'{libdir}/pkgconfig/npurun.pc'}
    if with_shared:
        expected |= {f'{libdir}/libnpurun.so', f'{libdir}/libnpurun.so.{soversion}',
                     f'{libdir}/libnpurun.so.{version}'}
    if with_static:
        expected.add(f'{libdir}/libnpurun.a')
    expected |= {f'{mandir}/man1/{m}' for m in MAN_PAGES}
    expected |= {f'{includedir}/npurun/{h}' for h in API_CORE_HEADERS}
    public_dir = os.path.join(src, 'include', 'npurun')
    public_headers = sorted(h for h in os.listdir(public_dir) if h.endswith(('.h', '.hpp')))
    expected |= {f'{includedir}/npurun/{h}' for h in public_headers}

    exe_targets = {t['name']: t for t in targets if t['type'] == 'executable'}
    tools_installed = []
    for tool in TOOLS:
        t = exe_targets.get(tool)
        if t is None:
            note(f'tool {tool} is not defined in this build yet (nothing to install)')
            continue
        if not t['installed']:
            fail(f'tool {tool} ({t["defined_in"]}) is built but not installed: add install : true')
            continue
        expected.add(f'{bindir}/{tool}')
        tools_installed.append(tool)
    # Other installed executables (e.g. npurun-selftest) are allowed in bindir, tests in libexecdir.
    allowed_extra = set()
    for t in exe_targets.values():
        if t['installed']:
            for f in t['install_filename']:
                allowed_extra.add(rel(f))
    tests_dir = f'{libexecdir}/npurun/tests/'
    for f in sorted(allowed_extra):
        under_src = os.path.relpath(exe_targets_defined_in(targets, f), src)
        if under_src.startswith('tests' + os.sep) and not (opts.get('install_tests') and f.startswith(tests_dir)):
            fail(f'{f}: a test binary is installed outside {tests_dir} or without -Dinstall_tests=true')

    for f in sorted(expected - installed):
        fail(f'{f}: not installed')
    for f in sorted(installed - expected - allowed_extra):
        fail(f'{f}: installed but not part of the install contract (tests/install/check-install.py)')
    for h in public_headers:
        staged = os.path.join(staging, includedir, 'npurun', h)
        if os.path.exists(staged) and open(staged, 'rb').read() != open(os.path.join(public_dir, h), 'rb').read():
            fail(f'{includedir}/npurun/{h}: differs from include/npurun/{h}')
    so_link = os.path.join(staging, libdir, 'libnpurun.so')
    if os.path.exists(so_link) and not os.path.islink(so_link):
        fail(f'{libdir}/libnpurun.so: should be a symlink to the soname')

    # 2. pkg-config against the staging dir ------------------------------------------------------------
    env = dict(os.environ)
    env['PKG_CONFIG_SYSROOT_DIR'] = staging
    staged_pc = os.path.join(staging, libdir, 'pkgconfig')
    if cross:
        # As a cross build system does: only the target's .pc files (the staging dir and the cross file's
        # pkg_config_libdir, i.e. the target sysroot), never the build machine's.
        target_pc = cross.get('properties', {}).get('pkg_config_libdir', [])
        target_pc = [target_pc] if isinstance(target_pc, str) else list(target_pc)
        env['PKG_CONFIG_LIBDIR'] = os.pathsep.join([staged_pc] + target_pc)
        env.pop('PKG_CONFIG_PATH', None)
    else:
        env['PKG_CONFIG_PATH'] = staged_pc + (os.pathsep + env['PKG_CONFIG_PATH'] if env.get('PKG_CONFIG_PATH') else '')
    code, modversion = run(['pkg-config', '--modversion', 'npurun'], env=env)
    if code != 0 or modversion.strip() != version:
        fail(f'pkg-config --modversion npurun: got "{modversion.strip()}", want {version}')
    code, flags = run(['pkg-config', '--cflags', '--libs', 'npurun'], env=env)
    if code != 0:
        fail(f'pkg-config --cflags --libs npurun failed: {flags.strip()}')
        flags = ''
    code, static_flags = run(['pkg-config', '--static', '--cflags', '--libs', 'npurun'], env=env)
    if code != 0:
        fail(f'pkg-config --static --cflags --libs npurun failed: {static_flags.strip()}')
        static_flags = ''
    print('pkg-config --cflags --libs npurun: ' + flags.strip())
    print('pkg-config --static --cflags --libs npurun: ' + static_flags.strip())
    words = shlex.split(flags)
    if f'-I{staging}/{includedir}/npurun' not in words:
        fail(f'pkg-config --cflags npurun lacks -I{staging}/{includedir}/npurun')
    if '-lnpurun' not in words:
        fail('pkg-config --libs npurun lacks -lnpurun')
    if '-ldrm' not in shlex.split(static_flags):
        fail('pkg-config --static --libs npurun lacks -ldrm (libnpurun.a needs libdrm)')
    for w in words:
        if w.startswith(('-I', '-L')) and w[2:].startswith(staging) and not os.path.isdir(w[2:]):
            # Only npurun's own directories must exist; libdrm's come from the build machine's .pc file.
            if '/npurun' in w or w[2:] == os.path.join(staging, libdir):
                fail(f'pkg-config names {w}, which does not exist in the staging dir')

    # 3. a consumer built from the staged install ------------------------------------------------------
    if args.consumer and flags:
        # A sanitizer build's library carries sanitizer calls: the consumer is built the same way.
        cxx = cpp_compiler(targets) + ([f'-fsanitize={opts["b_sanitize"]}'] if sanitized else [])
        check_consumer(args.consumer, cxx, build, staging, libdir, words, static_flags,
                       soversion, with_shared, with_static, cross)

    # 4. ELF checks -------------------------------------------------------------------------------------
    allowed = ALLOWED_NEEDED + (SANITIZER_NEEDED if sanitized else [])
    want_machine = ELF_MACHINE.get(host_cpu)
    for f in sorted(installed):
        path = os.path.join(staging, f)
        if os.path.islink(path):
            continue
        facts = elf_facts(path)
        if facts is None:
            continue
        machine, needed, soname, rpaths = facts
        if want_machine and machine != want_machine:
            fail(f'{f}: ELF machine "{machine}", want "{want_machine}" (host {host_cpu})')
        if rpaths:
            fail(f'{f}: has RPATH/RUNPATH {rpaths}; installed files must not')
        for n in needed:
            if not any(re.fullmatch(p, n) for p in allowed):
                fail(f'{f}: needs {n}; only libc, libm, libstdc++, libgcc_s, libdrm and ld-linux are allowed')
        is_tool = f.startswith(bindir + '/')
        if is_tool and opts.get('static_stdlibcpp'):
            for n in needed:
                if n.startswith(('libstdc++', 'libgcc_s')):
                    fail(f'{f}: needs {n} although -Dstatic_stdlibcpp=true')
        if f == f'{libdir}/libnpurun.so.{version}' and soname != f'libnpurun.so.{soversion}':
            fail(f'{f}: SONAME {soname}, want libnpurun.so.{soversion}')
        print(f'{f}: {machine}; NEEDED {", ".join(needed) or "(none)"}')

    # 5. what the options leave out ---------------------------------------------------------------------
    for t in targets:
        for group in t.get('target_sources', []):
            for s in group.get('sources', []):
                r = os.path.relpath(s, src)
                # The fake kernel and the NPU simulator (drv/sim/fake_*, drv/sim/*sim*); the Hardware test
                # double drv/sim/recording_hardware.cpp is compiled in every build by design (drv/meson.build).
                base = os.path.basename(r)
                if (not opts.get('simulator', True) and r.startswith('drv' + os.sep + 'sim' + os.sep)
                        and (base.startswith('fake_') or 'sim' in base)):
                    fail(f'-Dsimulator=false but {r} is compiled (target {t["name"]})')
                if not opts.get('tests', True) and r.startswith('tests' + os.sep):
                    fail(f'-Dtests=false but {r} is compiled (target {t["name"]})')

    # Without the simulator, asking for it must be a clear error, not a crash or a silent fallback.
    npu_info = os.path.join(staging, bindir, 'npu-info')
    if not opts.get('simulator', True) and not cross and os.path.exists(npu_info):
        code, out = run([npu_info, '--device', 'sim'],
                        env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(staging, libdir)))
        if code == 0 or 'sim' not in out or len(out.strip().splitlines()) > 3:
            fail(f'-Dsimulator=false: npu-info --device sim should fail with a short message naming the '
                 f'simulator, got exit {code}: {out.strip()}')
        else:
            print(f'-Dsimulator=false: npu-info --device sim -> exit {code}: {out.strip()}')

    selftest = os.path.join(staging, bindir, 'npurun-selftest')
    if not opts.get('simulator', True) and not cross and os.path.exists(selftest):
        code, out = run([selftest, '--device', 'sim'],
                        env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(staging, libdir)))
        if code != 2 or 'simulator' not in out or len(out.strip().splitlines()) != 1:
            fail(f'-Dsimulator=false: npurun-selftest --device sim should exit 2 with one line naming the '
                 f'simulator, got exit {code}: {out.strip()}')
        else:
            print(f'-Dsimulator=false: npurun-selftest --device sim -> exit {code}: {out.strip()}')

    print(f'tools installed: {", ".join(tools_installed) or "(none defined yet)"}; '
          f'options: simulator={opts.get("simulator")} tests={opts.get("tests")} '
          f'static_stdlibcpp={opts.get("static_stdlibcpp")} host={host_cpu}{" (cross)" if cross else ""}')
    if failures:
        print(f'{len(failures)} install check(s) failed')
        return 1
    print('install checks passed')
    return 0


def c_compiler_for(cxx):
    """The C compiler that pairs with the project's C++ compiler (g++ -> gcc, clang++ -> clang, c++ -> cc)."""
    cc = list(cxx)
    # The compiler is the first word after a launcher (`ccache c++` when ccache is configured).
    i = next((k for k, w in enumerate(cc) if os.path.basename(w) not in ('ccache', 'sccache')), 0)
    cc[i] = re.sub(r'clang\+\+$|g\+\+$|c\+\+$',
                   lambda m: {'clang++': 'clang', 'g++': 'gcc', 'c++': 'cc'}[m.group(0)], cc[i])
    return cc


def check_consumer(sources, cxx, build, staging, libdir, words, static_flags, soversion,
                   with_shared, with_static, cross):
    """Builds each consumer (C++ and, once the C API header is installed, C) from the staged install only,
    links it against the staged shared and static library, runs it (natively or under the cross file's
    exe_wrapper) and checks what it needs."""
    work = os.path.join(build, 'install-consumer')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cflags = [w for w in words if not w.startswith(('-l', '-L'))]
    # A cross build's compiler needs the cross file's arguments (--sysroot) and its programs the exe wrapper.
    options = cross.get('built-in options', {}) if cross else {}
    wrapper = cross.get('binaries', {}).get('exe_wrapper', []) if cross else []
    wrapper = [wrapper] if isinstance(wrapper, str) else list(wrapper)
    if cross and not wrapper:
        note('cross build without an exe_wrapper: the consumers are compiled and linked, not run')
    c_header_installed = any(w.startswith('-I') and os.path.isfile(os.path.join(w[2:], 'npurun', 'npurun.h'))
                             for w in cflags)
    for source in sources:
        is_c = source.endswith('.c')
        if is_c and not c_header_installed:
            note('no C API header (include/npurun/npurun.h) installed: C consumer skipped')
            continue
        lang = 'c' if is_c else 'cpp'
        compiler = c_compiler_for(cxx) if is_c else list(cxx)
        std = ['-std=c99', '-Wpedantic'] if is_c else ['-std=c++17']
        compile_args = list(options.get(f'{lang}_args', options.get('cpp_args', [])))
        link_args = list(options.get(f'{lang}_link_args', options.get('cpp_link_args', [])))
        if is_c and 'clang' in os.path.basename(compiler[0]) and any(a.startswith('-fsanitize=') for a in cxx):
            # clang's C driver links only the C part of the UBSan runtime, but the library is C++ (vptr checks):
            # the C++ part of the runtime, and the libstdc++ it needs, are a sanitizer build's own link needs.
            link_args += ['-fsanitize-link-c++-runtime', '-lstdc++']
        tag = os.path.splitext(os.path.basename(source))[0] + ('-c' if is_c else '')
        obj = os.path.join(work, tag + '.o')
        code, out = run(compiler + compile_args + std + ['-Wall', '-Wextra', '-Werror', '-c', source, '-o', obj] + cflags)
        if code != 0:
            fail(f'{os.path.basename(source)} does not compile against the staged headers with {compiler[0]}:\n{out}')
            continue
        variants = []
        if with_shared:
            variants.append(('libnpurun.so', [w for w in words if w.startswith(('-l', '-L'))]))
        if with_static:
            variants.append(('libnpurun.a', [os.path.join(staging, libdir, 'libnpurun.a') if w == '-lnpurun' else w
                                             for w in shlex.split(static_flags)
                                             if w.startswith(('-l', '-L', '-pthread'))]))
        for lib, link_flags in variants:
            exe = os.path.join(work, f'{tag}-{lib.split(".")[-1]}')
            code, out = run(compiler + link_args + [obj, '-o', exe] + link_flags)
            if code != 0:
                fail(f'{os.path.basename(source)} does not link against the staged {lib} with {compiler[0]} '
                     f'and pkg-config\'s flags:\n{out}')
                continue
            if cross and not wrapper:
                continue
            # qemu-user hands the environment to the target's dynamic loader, so LD_LIBRARY_PATH works there too.
            code, out = run(wrapper + [exe], env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(staging, libdir)))
            if code != 0 or 'consumer ok' not in out:
                fail(f'{os.path.basename(source)} linked against {lib} failed to run'
                     f'{" under " + wrapper[0] if wrapper else ""}: {out.strip()}')
                continue
            needed = elf_facts(exe)[1]
            if lib.endswith('.so') and f'libnpurun.so.{soversion}' not in needed:
                fail(f'{os.path.basename(source)} linked against {lib}: NEEDED {needed} lacks libnpurun.so.{soversion}')
            if lib.endswith('.a') and any(n.startswith('libnpurun') for n in needed):
                fail(f'{os.path.basename(source)} linked against {lib} still needs {needed}')
            print(f'{os.path.basename(source)}: compiled with {os.path.basename(compiler[0])} against the staged '
                  f'headers, linked against {lib}, ran' + (f' under {" ".join(wrapper)}' if wrapper else ''))


def exe_targets_defined_in(targets, install_path):
    for t in targets:
        if any(rel(f) == install_path for f in t.get('install_filename') or []):
            return os.path.dirname(t['defined_in'])
    return ''


if __name__ == '__main__':
    sys.exit(main())
