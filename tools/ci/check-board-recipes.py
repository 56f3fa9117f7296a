#!/usr/bin/env python3
"""Checks board/buildroot and board/yocto for the variables and conventions each build system requires.

    check-board-recipes.py [SOURCE_ROOT]

Neither Buildroot nor bitbake is available where CI runs, so this is the substitute: it parses the files
the way those tools would read them (Kconfig lines, make assignments, BitBake assignments) and checks the
rules they enforce or their maintainers require (Buildroot's utils/check-package and manual, the Yocto
reference manual and QA checks), plus the facts that tie them to this repository: license checksum, meson
options that exist, files the recipes install, the project version. One line per failure; exit 1 if any.
What parsing cannot show (that a real build fetches, configures and links) is listed in board/KERNEL.md and
the READMEs as unverified.
"""
import hashlib
import os
import re
import sys

failures = []
checks = 0


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        failures.append(msg)
        print('FAIL: ' + msg)
    return cond


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


# ---------------------------------------------------------------------------------------------------------
# Facts about the repository the recipes must agree with

def meson_project(root):
    text = read(os.path.join(root, 'meson.build'))
    m = re.search(r"project\(\s*'([^']+)'.*?version\s*:\s*'([^']+)'.*?license\s*:\s*'([^']+)'", text, re.S)
    return {'name': m.group(1), 'version': m.group(2), 'license': m.group(3)}


def meson_options(root):
    """name -> (type, choices) from meson_options.txt (or meson.options)."""
    for name in ('meson.options', 'meson_options.txt'):
        path = os.path.join(root, name)
        if os.path.exists(path):
            break
    opts = {}
    for m in re.finditer(r"option\(\s*'([^']+)'\s*,\s*type\s*:\s*'([^']+)'(.*?)\)\s*$", read(path), re.M):
        choices = re.search(r"choices\s*:\s*\[([^\]]*)\]", m.group(3))
        opts[m.group(1)] = (m.group(2), re.findall(r"'([^']+)'", choices.group(1)) if choices else None)
    return opts


# Meson's own options a recipe may set (core and base options; not exhaustive, only those that make sense
# for a distribution build).
MESON_BUILTINS = {'werror', 'warning_level', 'default_library', 'buildtype', 'optimization', 'debug', 'strip',
                  'prefix', 'libdir', 'bindir', 'wrap_mode', 'auto_features', 'b_lto', 'b_pie', 'b_ndebug',
                  'b_sanitize', 'cpp_std'}


def check_meson_flags(where, flags, opts):
    """Every -Dname=value a recipe passes must be an option of this project with a valid value."""
    for name, value in re.findall(r'-D([A-Za-z0-9_.]+)=([^\s,]+)', flags):
        if name in MESON_BUILTINS:
            continue
        if not check(name in opts, f'{where}: -D{name} is not an option in meson_options.txt'):
            continue
        kind, choices = opts[name]
        if kind == 'boolean':
            check(value in ('true', 'false'), f'{where}: -D{name}={value}: boolean option wants true/false')
        elif kind == 'feature':
            check(value in ('enabled', 'disabled', 'auto'), f'{where}: -D{name}={value}: feature option wants '
                                                            'enabled/disabled/auto')
        elif kind == 'combo' and choices:
            check(value in choices, f'{where}: -D{name}={value}: not one of {choices}')


def license_kind(root):
    text = read(os.path.join(root, 'LICENSE'))
    if text.startswith('MIT License') and 'Permission is hereby granted, free of charge' in text:
        return 'MIT'
    return None


# ---------------------------------------------------------------------------------------------------------
# Buildroot

# The dependencies of the Buildroot packages npurun selects (package/<name>/Config.in upstream). Buildroot's
# rule: a package that selects another must repeat the selected package's "depends on", or the selection
# can produce an invalid configuration.
BR_SELECTED_DEPENDS = {
    'BR2_PACKAGE_LIBDRM': ['BR2_TOOLCHAIN_HAS_THREADS'],
    'BR2_PACKAGE_FLATBUFFERS': ['BR2_INSTALL_LIBSTDCPP'],
}
BR_HEADER = '#' * 80


def parse_make_assignments(text):
    """(name, op, value) of every top-level make assignment, with continuation lines joined."""
    out = []
    joined = re.sub(r'\\\n', ' ', text)
    in_define = False
    for line in joined.split('\n'):
        if re.match(r'^define\s', line):
            in_define = True
        elif line.startswith('endef'):
            in_define = False
        elif not in_define:
            m = re.match(r'^([A-Za-z0-9_]+)\s*(\+=|\?=|:=|=)\s*(.*)$', line)
            if m:
                out.append(m.groups())
    return out


def check_buildroot(root, opts, project):
    br = os.path.join(root, 'board', 'buildroot')
    desc = read(os.path.join(br, 'external.desc'))
    m = re.search(r'^name:\s*([A-Za-z0-9_]+)\s*$', desc, re.M)
    if not check(m, 'buildroot/external.desc: no "name: <NAME>" line ([A-Za-z0-9_]+)'):
        return
    name = m.group(1)
    path_var = f'BR2_EXTERNAL_{name}_PATH'
    check(re.search(r'^desc:\s*\S', desc, re.M), 'buildroot/external.desc: no "desc:" line')

    ext_mk = read(os.path.join(br, 'external.mk'))
    check(re.search(r'include\s+\$\(sort\s+\$\(wildcard\s+\$\(' + path_var + r'\)/package/\*/\*\.mk\)\)', ext_mk),
          f'buildroot/external.mk: must include $({path_var})/package/*/*.mk')

    top_config = read(os.path.join(br, 'Config.in'))
    sourced = re.findall(r'^source\s+"\$' + path_var + r'/package/([^/]+)/Config.in"', top_config, re.M)
    packages = sorted(d for d in os.listdir(os.path.join(br, 'package'))
                      if os.path.isdir(os.path.join(br, 'package', d)))
    check(sorted(sourced) == packages,
          f'buildroot/Config.in: sources {sorted(sourced)}, package/ has {packages} (each must be sourced via ${path_var})')
    check('npurun' in packages, 'buildroot/package/npurun is missing')

    pkg_dir = os.path.join(br, 'package', 'npurun')
    mk_text = read(os.path.join(pkg_dir, 'npurun.mk'))
    cfg_text = read(os.path.join(pkg_dir, 'Config.in'))
    where_mk, where_cfg = 'buildroot/package/npurun/npurun.mk', 'buildroot/package/npurun/Config.in'

    # --- npurun.mk -------------------------------------------------------------------------------------
    lines = mk_text.split('\n')
    check(lines[:5] == [BR_HEADER, '#', '# npurun', '#', BR_HEADER],
          f'{where_mk}: must start with the 5-line header block (80 #, "#", "# npurun", "#", 80 #)')
    for i, line in enumerate(lines, 1):
        check(line == line.rstrip(), f'{where_mk}:{i}: trailing whitespace')
    check(len(lines) > 5 and lines[5] == '', f'{where_mk}: line 6 (after the header block) must be blank')
    check_common_text_rules(where_mk, mk_text)
    backslash = False
    conditional = re.compile(r'^\s*(ifeq|ifneq|ifdef|ifndef|else|endif)\b')
    in_def = False
    for i, line in enumerate(lines, 1):
        if re.match(r'^\s*define\s', line):
            in_def, backslash = True, False
            continue
        if re.match(r'^\s*endef\b', line):
            in_def = False
            continue
        want_tab = (in_def or backslash) and not (not backslash and conditional.match(line))
        if line.strip() and not (in_def and line.lstrip().startswith('#')):
            if want_tab:
                check(line.startswith('\t'), f'{where_mk}:{i}: expected indent with a tab')
            else:
                check(not line.startswith('\t'), f'{where_mk}:{i}: unexpected indent with a tab')
        backslash = bool(re.match(r'^[^#].*\\$', line))
        check(not re.match(r'^.*(  |\t ?)\\$', line), f'{where_mk}:{i}: use one space before a backslash')
        check(not re.match(r'^[^#].*[^$]\$\{\w+\}', line), f'{where_mk}:{i}: use $() for make variables, not ${{}}')
    last = [ln for ln in lines if ln.strip()][-1]
    check(last == '$(eval $(meson-package))', f'{where_mk}: last line must be $(eval $(meson-package)), is "{last}"')
    in_define = False
    for i, line in enumerate(lines, 1):
        if line.startswith('define '):
            in_define = True
        elif line.startswith('endef'):
            in_define = False
        elif in_define and line.strip():
            check(line.startswith('\t'), f'{where_mk}:{i}: command lines inside define must start with a tab')
    assigns = parse_make_assignments(mk_text)
    values = {}
    for var, op, value in assigns:
        check(var.startswith('NPURUN_') or var.startswith('HOST_NPURUN_'),
              f'{where_mk}: variable {var} does not start with NPURUN_ (Buildroot: typo in package variable)')
        values[var] = (values.get(var, '') + ' ' + value).strip() if op == '+=' else value
    for var in ('NPURUN_VERSION', 'NPURUN_SITE', 'NPURUN_LICENSE', 'NPURUN_LICENSE_FILES'):
        check(var in values, f'{where_mk}: {var} is not set')
    check(values.get('NPURUN_VERSION') == project['version'],
          f'{where_mk}: NPURUN_VERSION {values.get("NPURUN_VERSION")} != meson project version {project["version"]}')
    check(values.get('NPURUN_LICENSE') == license_kind(root) == project['license'],
          f'{where_mk}: NPURUN_LICENSE {values.get("NPURUN_LICENSE")} does not match LICENSE '
          f'({license_kind(root)}) and meson.build ({project["license"]})')
    for f in values.get('NPURUN_LICENSE_FILES', '').split():
        check(os.path.isfile(os.path.join(root, f)), f'{where_mk}: license file {f} does not exist in the repository')
    check(values.get('NPURUN_INSTALL_STAGING') == 'YES',
          f'{where_mk}: NPURUN_INSTALL_STAGING = YES is needed (library, headers and npurun.pc for other packages)')
    deps = values.get('NPURUN_DEPENDENCIES', '').split()
    for dep in ('libdrm', 'flatbuffers', 'host-flatbuffers', 'host-pkgconf'):
        check(dep in deps, f'{where_mk}: NPURUN_DEPENDENCIES lacks {dep}')
    if values.get('NPURUN_SITE_METHOD') == 'local':
        site = values['NPURUN_SITE'].replace(f'$({path_var})', br)
        site = re.sub(r'^\$\(realpath\s+(.*)\)$', r'\1', site)
        site = os.path.normpath(site)
        check(site == os.path.normpath(root) and os.path.isfile(os.path.join(site, 'meson.build')),
              f'{where_mk}: NPURUN_SITE resolves to {site}, not the repository root {root}')
    else:
        check(re.match(r'^(https?|git)://', values.get('NPURUN_SITE', '')),
              f'{where_mk}: NPURUN_SITE must be a URL when NPURUN_SITE_METHOD is not local')
        check(os.path.isfile(os.path.join(pkg_dir, 'npurun.hash')), f'{where_mk}: a downloaded package needs npurun.hash')
    conf_opts = ' '.join(v for k, _op, v in assigns if k == 'NPURUN_CONF_OPTS')
    check_meson_flags(where_mk, conf_opts, opts)
    check('-Dtests=false' in conf_opts, f'{where_mk}: the target build must pass -Dtests=false (no GoogleTest on target)')
    for rel in re.findall(r'\$\(@D\)/(\S+)', mk_text):
        check(os.path.exists(os.path.join(root, rel)), f'{where_mk}: installs $(@D)/{rel}, which is not in the repository')

    # --- Config.in -------------------------------------------------------------------------------------
    symbols = re.findall(r'^config\s+(BR2_PACKAGE_NPURUN\w*)', cfg_text, re.M)
    check(symbols and symbols[0] == 'BR2_PACKAGE_NPURUN', f'{where_cfg}: first symbol must be BR2_PACKAGE_NPURUN')
    main_block = re.search(r'^config BR2_PACKAGE_NPURUN\n(.*?)(?=^\S)', cfg_text, re.M | re.S)
    main = main_block.group(1) if main_block else ''
    check(re.search(r'^\tbool "npurun"$', main, re.M), f'{where_cfg}: BR2_PACKAGE_NPURUN must be \'bool "npurun"\'')
    depends = set(re.findall(r'^\tdepends on (\S+)', main, re.M))
    selects = set(re.findall(r'^\tselect (\S+)', main, re.M))
    for sel in ('BR2_PACKAGE_LIBDRM', 'BR2_PACKAGE_FLATBUFFERS'):
        check(sel in selects, f'{where_cfg}: BR2_PACKAGE_NPURUN must select {sel}')
    for sel, needs in BR_SELECTED_DEPENDS.items():
        if sel in selects:
            for need in needs:
                check(need in depends, f'{where_cfg}: selects {sel}, so it must also "depends on {need}"')
    check('BR2_INSTALL_LIBSTDCPP' in depends, f'{where_cfg}: a C++ package must depend on BR2_INSTALL_LIBSTDCPP')
    check(any(d.startswith('BR2_TOOLCHAIN_GCC_AT_LEAST_') and int(d.rsplit('_', 1)[1]) >= 7 for d in depends),
          f'{where_cfg}: C++17 needs "depends on BR2_TOOLCHAIN_GCC_AT_LEAST_7" or later')
    comment = re.search(r'^comment "npurun needs a toolchain w/ ([^"]+)"\n((?:\t.*\n)+)', cfg_text, re.M)
    if check(comment, f'{where_cfg}: needs a \'comment "npurun needs a toolchain w/ ..."\' for the toolchain options'):
        body = comment.group(2).replace('\\\n', ' ')
        for need in ('BR2_INSTALL_LIBSTDCPP', 'BR2_TOOLCHAIN_HAS_THREADS'):
            check('!' + need in body, f'{where_cfg}: the toolchain comment must show when !{need}')
    check_common_text_rules(where_cfg, cfg_text)
    order = {'bool': 1, 'prompt': 1, 'string': 1, 'default': 2, 'depends': 3, 'select': 4, 'help': 5}
    state = 0
    for i, line in enumerate(cfg_text.split('\n'), 1):
        if not line.strip() or line.strip().startswith('#') or line.startswith('\t  '):
            continue
        word = line.split()[0]
        if word in ('config', 'comment', 'if', 'endif', 'menu', 'endmenu', 'choice', 'endchoice', 'source'):
            state = 0
        elif word in order:
            check(order[word] >= state, f'{where_cfg}:{i}: attribute order must be type, default, depends on, select, help')
            state = order[word]
        check(line.rstrip() != '\tdefault n', f'{where_cfg}:{i}: "default n" is redundant')
    for i, line in enumerate(cfg_text.split('\n'), 1):
        check(line == line.rstrip(), f'{where_cfg}:{i}: trailing whitespace')
        if line.startswith('\t  '):
            width = 8 + len(line) - 1
            check(width <= 72, f'{where_cfg}:{i}: help text is {width} columns wide (max 72, tab = 8)')
        elif line and not line.startswith(('config ', 'comment ', 'if ', 'endif', 'menu', 'endmenu', 'choice',
                                           'endchoice', 'source ', '#', '\t')):
            check(False, f'{where_cfg}:{i}: attribute lines must be indented with one tab: "{line}"')
    mk_symbols = set(re.findall(r'\b(BR2_PACKAGE_NPURUN_\w+)', mk_text))
    check(mk_symbols <= set(symbols), f'{where_cfg}: npurun.mk uses {sorted(mk_symbols - set(symbols))}, not defined here')
    check(set(symbols) - {'BR2_PACKAGE_NPURUN'} <= mk_symbols,
          f'{where_cfg}: options {sorted(set(symbols) - {"BR2_PACKAGE_NPURUN"} - mk_symbols)} are not used by npurun.mk')

    # --- defconfig fragments and kernel fragments --------------------------------------------------------
    configs = os.path.join(br, 'configs')
    fragments = sorted(f for f in os.listdir(configs)) if os.path.isdir(configs) else []
    check(fragments, 'buildroot/configs/: no defconfig fragment for an RK3588 board')
    for frag in fragments:
        where = f'buildroot/configs/{frag}'
        text = read(os.path.join(configs, frag))
        settings = assignments(text, where, r'^(BR2_[A-Za-z0-9_]+)=(y|"[^"]*"|[0-9]+)$', 'Kconfig')
        check(settings.get('BR2_PACKAGE_NPURUN') == 'y', f'{where}: must set BR2_PACKAGE_NPURUN=y')
        check(settings.get('BR2_aarch64') == 'y', f'{where}: RK3588 is aarch64: BR2_aarch64=y')
        for sym in settings:
            if sym.startswith('BR2_PACKAGE_NPURUN'):
                check(sym in symbols, f'{where}: sets {sym}, which package/npurun/Config.in does not define')
        for ref in re.findall(r'\$\(' + path_var + r'\)/(\S+?)["\s]', text):
            check(os.path.exists(os.path.join(br, ref)), f'{where}: refers to $({path_var})/{ref}, which does not exist')
            if ref.endswith('.fragment'):
                check_linux_fragment(os.path.join(br, ref), 'buildroot/' + ref)


def assignments(text, where, pattern, kind):
    """SYMBOL -> value of a config fragment (defconfig or kernel): every line not empty and not a comment must
    match `pattern` (groups: symbol, value); each other line is one failed check naming it as a `kind` line."""
    settings = {}
    for i, line in enumerate(text.split('\n'), 1):
        if not line or line.startswith('#'):
            continue
        m = re.match(pattern, line)
        if check(m, f'{where}:{i}: not a {kind} assignment: "{line}"'):
            settings[m.group(1)] = m.group(2)
    return settings


def check_common_text_rules(where, text):
    """Buildroot's rules for every file: ends with exactly one newline, no two empty lines in a row."""
    check(text.endswith('\n') and not text.endswith('\n\n'), f'{where}: must end with exactly one newline')
    check('\n\n\n' not in text, f'{where}: two consecutive empty lines')


def check_linux_fragment(path, where):
    text = read(path)
    settings = assignments(text, where, r'^(CONFIG_[A-Z0-9_]+)=(y|m|n|"[^"]*"|[0-9]+)$', 'kernel config')
    check(settings.get('CONFIG_ROCKCHIP_RKNPU') in ('y', 'm') or settings.get('CONFIG_DRM_ACCEL_ROCKET') in ('y', 'm'),
          f'{where}: enables neither CONFIG_ROCKCHIP_RKNPU nor CONFIG_DRM_ACCEL_ROCKET')


# ---------------------------------------------------------------------------------------------------------
# Yocto

YOCTO_SERIES = {'kirkstone', 'langdale', 'mickledore', 'nanbield', 'scarthgap', 'styhead', 'walnascar', 'whinlatter'}


def parse_bitbake(text):
    """name -> list of (op, value) for every top-level assignment, continuation lines joined."""
    out = {}
    joined = re.sub(r'\\\n', ' ', text)
    in_func = False
    for line in joined.split('\n'):
        if re.match(r'^[\w:${}.-]+\s*\(\)\s*\{', line) or re.match(r'^python\s', line):
            in_func = True
            continue
        if in_func:
            in_func = not line.startswith('}')
            continue
        m = re.match(r'^([A-Za-z0-9_:${}.\-\[\]]+)\s*(\?\?=|\?=|:=|\+=|=\+|\.=|=\.|=)\s*"(.*)"\s*$', line)
        if m:
            out.setdefault(m.group(1), []).append((m.group(2), m.group(3)))
    return out


def bb_value(assigns, name):
    vals = assigns.get(name)
    if not vals:
        return None
    value = ''
    for op, v in vals:
        if op in ('=', ':=', '?=', '??='):
            value = v if op in ('=', ':=') or not value else value
        elif op in ('+=', '.='):
            value = value + (' ' if op == '+=' else '') + v
        else:
            value = v + (' ' if op == '=+' else '') + value
    return ' '.join(value.split())


def check_yocto(root, opts, project):
    layer = os.path.join(root, 'board', 'yocto', 'meta-npurun')
    conf = parse_bitbake(read(os.path.join(layer, 'conf', 'layer.conf')))
    where = 'yocto/meta-npurun/conf/layer.conf'
    check(bb_value(conf, 'BBPATH') is not None and '${LAYERDIR}' in bb_value(conf, 'BBPATH'),
          f'{where}: BBPATH .= ":${{LAYERDIR}}" missing')
    bbfiles = bb_value(conf, 'BBFILES') or ''
    check('${LAYERDIR}/recipes-*/*/*.bb' in bbfiles, f'{where}: BBFILES must include ${{LAYERDIR}}/recipes-*/*/*.bb')
    collections = (bb_value(conf, 'BBFILE_COLLECTIONS') or '').split()
    if not check(len(collections) == 1, f'{where}: BBFILE_COLLECTIONS must name the layer once'):
        return
    coll = collections[0]
    check(bb_value(conf, f'BBFILE_PATTERN_{coll}') == '^${LAYERDIR}/', f'{where}: BBFILE_PATTERN_{coll} = "^${{LAYERDIR}}/"')
    check(re.fullmatch(r'\d+', bb_value(conf, f'BBFILE_PRIORITY_{coll}') or ''), f'{where}: BBFILE_PRIORITY_{coll} must be a number')
    series = (bb_value(conf, f'LAYERSERIES_COMPAT_{coll}') or '').split()
    check(series and set(series) <= YOCTO_SERIES, f'{where}: LAYERSERIES_COMPAT_{coll} = {series}: unknown or empty')
    layerdeps = (bb_value(conf, f'LAYERDEPENDS_{coll}') or '').split()
    check('core' in layerdeps, f'{where}: LAYERDEPENDS_{coll} must include core')
    check('openembedded-layer' in layerdeps, f'{where}: flatbuffers is in meta-oe: LAYERDEPENDS_{coll} needs openembedded-layer')

    recipes = []
    for dirpath, _dirs, files in os.walk(layer):
        recipes += [os.path.join(dirpath, f) for f in files if f.endswith('.bb')]
    check(len(recipes) == 1 and re.search(r'/recipes-[^/]+/npurun/npurun_[^/]+\.bb$', recipes[0]),
          f'yocto: expected one recipe recipes-*/npurun/npurun_<version|git>.bb, found {recipes}')
    for recipe in recipes:
        check_yocto_recipe(root, recipe, opts, project)


def check_yocto_recipe(root, recipe, opts, project):
    where = os.path.relpath(recipe, os.path.join(root, 'board'))
    text = read(recipe)
    a = parse_bitbake(text)
    pv_from_name = os.path.basename(recipe)[len('npurun_'):-len('.bb')]

    for var in ('SUMMARY', 'LICENSE', 'LIC_FILES_CHKSUM', 'SRC_URI', 'S', 'DEPENDS'):
        check(bb_value(a, var), f'{where}: {var} is not set')
    check(bb_value(a, 'LICENSE') == license_kind(root) == project['license'],
          f'{where}: LICENSE {bb_value(a, "LICENSE")} does not match the repository LICENSE ({license_kind(root)})')
    lic = bb_value(a, 'LIC_FILES_CHKSUM') or ''
    entries = re.findall(r'file://([^;\s]+)((?:;[^\s]+)?)', lic)
    check(entries, f'{where}: LIC_FILES_CHKSUM has no file:// entry')
    for path, params in entries:
        full = os.path.join(root, path)
        if not check(os.path.isfile(full), f'{where}: LIC_FILES_CHKSUM names {path}, not in the repository'):
            continue
        md5 = re.search(r';md5=([0-9a-f]{32})', params)
        content = open(full, 'rb').read()
        begin = re.search(r';beginline=(\d+)', params)
        end = re.search(r';endline=(\d+)', params)
        if begin or end:
            all_lines = content.split(b'\n')
            content = b'\n'.join(all_lines[int(begin.group(1)) - 1 if begin else 0:int(end.group(1)) if end else None]) + b'\n'
        actual = hashlib.md5(content).hexdigest()
        check(md5 and md5.group(1) == actual,
              f'{where}: LIC_FILES_CHKSUM md5 for {path} is {md5.group(1) if md5 else "missing"}, the file\'s md5 is {actual}')

    inherits = ' '.join(re.findall(r'^inherit\s+(.*)$', text, re.M)).split()
    for cls in ('meson', 'pkgconfig'):
        check(cls in inherits, f'{where}: must "inherit {cls}"')
    depends = (bb_value(a, 'DEPENDS') or '').split()
    for dep in ('libdrm', 'flatbuffers', 'flatbuffers-native'):
        check(dep in depends, f'{where}: DEPENDS lacks {dep}')

    src_uri = bb_value(a, 'SRC_URI') or ''
    s = bb_value(a, 'S') or ''
    uses_git = src_uri.startswith('git://') or '${NPURUN_GIT_URI}' in src_uri
    if uses_git:
        git_uri = bb_value(a, 'NPURUN_GIT_URI') or ''
        full_uri = src_uri.replace('${NPURUN_GIT_URI}', git_uri)
        check(full_uri.startswith('git://'), f'{where}: SRC_URI {full_uri} is not a git:// URL')
        check(';branch=' in full_uri, f'{where}: git SRC_URI needs ;branch= (bitbake refuses it without)')
        check(';protocol=' in full_uri, f'{where}: git SRC_URI should name ;protocol=')
        check(s == '${WORKDIR}/git', f'{where}: S must be "${{WORKDIR}}/git" for a git SRC_URI, is "{s}"')
        check(bb_value(a, 'SRCREV'), f'{where}: a git SRC_URI needs SRCREV')
        pv = bb_value(a, 'PV') or ''
        check(pv.startswith(project['version'] + '+git'),
              f'{where}: PV "{pv}" should be "{project["version"]}+git..." (meson project version)')
        if bb_value(a, 'SRCREV') == '${AUTOREV}':
            check('${SRCPV}' in pv, f'{where}: SRCREV = ${{AUTOREV}} needs ${{SRCPV}} in PV')
        check(pv_from_name == 'git', f'{where}: a git recipe is named npurun_git.bb')
        repo_dir = bb_value(a, 'NPURUN_REPO_DIR')
        if repo_dir and 'FILE_DIRNAME' in repo_dir:
            ups = re.findall(r"'\.\.'", repo_dir)
            resolved = os.path.normpath(os.path.join(os.path.dirname(recipe), *(['..'] * len(ups))))
            check(resolved == os.path.normpath(root),
                  f'{where}: NPURUN_REPO_DIR resolves to {resolved}, not the repository root {root}')
    else:
        check(pv_from_name == project['version'], f'{where}: recipe version {pv_from_name} != {project["version"]}')
        check(';sha256sum=' in src_uri or bb_value(a, 'SRC_URI[sha256sum]'), f'{where}: a tarball SRC_URI needs sha256sum')

    # Old override syntax (FILES_${PN}, RDEPENDS_${PN}, do_install_append) stopped parsing in kirkstone.
    for m in re.finditer(r'^((?:FILES|RDEPENDS|RRECOMMENDS|ALLOW_EMPTY|PACKAGECONFIG|SUMMARY|pkg_postinst)_\$\{PN\}'
                         r'|do_\w+_(?:append|prepend))', text, re.M):
        check(False, f'{where}: old override syntax "{m.group(1)}" (use ":")')

    packages = (bb_value(a, 'PACKAGES') or '') + ' ' + (bb_value(a, 'PACKAGE_BEFORE_PN') or '')
    check('${PN}-tests' in packages.split(), f'{where}: ${{PN}}-tests must be in PACKAGES / PACKAGE_BEFORE_PN')
    check(bb_value(a, 'FILES:${PN}-tests'), f'{where}: FILES:${{PN}}-tests is not set')
    check(bb_value(a, 'COMPATIBLE_HOST'), f'{where}: COMPATIBLE_HOST should restrict the recipe to aarch64')

    meson_flags = ' '.join([bb_value(a, 'EXTRA_OEMESON') or ''] +
                           [v for k in a if k.startswith('PACKAGECONFIG[') for _op, v in a[k]])
    check_meson_flags(where, meson_flags, opts)
    for k in a:
        if k.startswith('PACKAGECONFIG['):
            fields = bb_value(a, k).split(',')
            check(len(fields) >= 2, f'{where}: {k} needs at least "enable,disable" fields')
    for rel in re.findall(r'\$\{S\}/(\S+)', text):
        check(os.path.exists(os.path.join(root, rel)), f'{where}: uses ${{S}}/{rel}, which is not in the repository')


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..'))
    project = meson_project(root)
    opts = meson_options(root)
    check_buildroot(root, opts, project)
    check_yocto(root, opts, project)
    if failures:
        print(f'{len(failures)} of {checks} board recipe checks failed')
        return 1
    print(f'all {checks} board recipe checks passed (Buildroot external tree, Yocto layer)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
