#!/usr/bin/env python3
"""Fails on an #include that points up the layer stack, and on a cycle between runtime/ subfolders.

The layers (README.md, runtime/README.md) and what each may include, besides itself:
    core/                      nothing (the C++ standard library only)
    ir/                        core/
    kernels/                   core/, the IR's plain views (KERNEL_VISIBLE_IR)
    drv/                       core/
    runtime/, lib/             core/, ir/, kernels/, drv/ (and the public headers, which they implement)
    include/npurun/ (the API)  only the API's value types (API_CORE_HEADERS, installed with it by lib/)
    tools/                     everything but tests/
    tests/                     everything
Includes are spelled from the repository root ("ir/graph.h"); an include that names no file of the tree
(a generated header such as ArmnnSchema_generated.h, a system header in quotes) is not checked.

Within runtime/, the include graph between its subfolders (exec, npu, passes, ...) must have no cycle, so
each subfolder can be read, tested and changed knowing only the ones below it.

Known violations that another change removes are listed in an allowlist file (one `FILE -> INCLUDE` per
line, `#` comments): they are reported but do not fail, and an allowlist entry that no longer occurs fails,
so the list can only shrink.

Usage: check-layering.py [--root DIR] [--allowlist FILE] [--list]
  --list   print every include edge between layers and the runtime/ subfolder graph, then check
Exit 0 clean, 1 violations.
"""
import argparse
import os
import re
import sys

SOURCE_EXTENSIONS = ('.h', '.hpp', '.cpp', '.cc', '.c', '.inc')
SCANNED_TOPS = ('core', 'ir', 'kernels', 'drv', 'runtime', 'lib', 'include', 'tools', 'tests')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)

BELOW_RUNTIME = {'core', 'ir', 'kernels', 'drv'}
ALLOWED = {
    'core': set(),
    'ir': {'core'},
    'kernels': {'core', 'ir'},  # ir/ only through KERNEL_VISIBLE_IR, see layer_violation()
    'drv': {'core'},
    'runtime': BELOW_RUNTIME | {'include'},
    'lib': BELOW_RUNTIME | {'runtime', 'include'},
    'include': {'core'},  # only API_CORE_HEADERS, see layer_violation()
    'tools': BELOW_RUNTIME | {'runtime', 'lib', 'include'},
    'tests': None,  # anything
}
# The IR headers that are plain data a kernel may see (op attributes, tensor views); the graph itself
# (ir/graph.h: Node, Graph) and the op semantics (ir/ops/) are not.
# The core headers the public API header includes: its vocabulary (Error, DataType, Shape, Quantization,
# TensorInfo). lib/meson.build installs exactly these next to it; nothing else of the tree is public.
API_CORE_HEADERS = {'core/error.h', 'core/load_options.h', 'core/types.h'}
KERNEL_VISIBLE_IR = re.compile(r'^ir/(ops\.h|[a-z_]*view[a-z_]*\.h)$')


def layer_of(path):
    """'kernels' for kernels/ref/pad.cpp; 'include' for include/npurun/npurun.h."""
    return path.split('/', 1)[0]


def runtime_folder(path):
    """'npu' for runtime/npu/pad_layer.h; None outside runtime/ or for a file directly in runtime/."""
    parts = path.split('/')
    if parts[0] != 'runtime' or len(parts) < 3:
        return None
    return parts[1]


def source_files(root):
    for top in SCANNED_TOPS:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXTENSIONS):
                    yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, '/')


def resolve(root, including, spelled):
    """The repository path an include names: from the root, else next to the including file; None if
    it names no file of the tree (generated or system header)."""
    if os.path.isfile(os.path.join(root, spelled)):
        return os.path.normpath(spelled).replace(os.sep, '/')
    beside = os.path.normpath(os.path.join(os.path.dirname(including), spelled)).replace(os.sep, '/')
    if os.path.isfile(os.path.join(root, beside)):
        return beside
    return None


def layer_violation(src, dst):
    """Why src may not include dst, or None."""
    a, b = layer_of(src), layer_of(dst)
    if a == b:
        return None
    allowed = ALLOWED.get(a)
    if allowed is None:
        return None
    if b not in allowed:
        return f'{a}/ may not include {b}/'
    if a == 'include' and dst not in API_CORE_HEADERS:
        return 'a public header may include only the API\'s value types (' + ', '.join(sorted(API_CORE_HEADERS)) + ')'
    if a == 'kernels' and b == 'ir' and not KERNEL_VISIBLE_IR.match(dst):
        return 'kernels/ may see only the IR\'s plain views (ir/ops.h, ir/*view*.h), not the graph'
    return None


def find_cycles(edges):
    """Strongly connected components with more than one node (Tarjan), each sorted; sorted list."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = [0]
    nodes = sorted(set(edges) | {d for ds in edges.values() for d in ds})

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(result)


def read_allowlist(path):
    entries = set()
    if not path:
        return entries
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            if ' -> ' not in line:
                sys.exit(f'{path}: expected "FILE -> INCLUDE", got "{line}"')
            src, dst = (p.strip() for p in line.split(' -> ', 1))
            entries.add((src, dst))
    return entries


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', default=os.path.normpath(os.path.join(here, '..', '..')))
    parser.add_argument('--allowlist', default=os.path.join(here, 'layering-allowlist.txt'))
    parser.add_argument('--list', action='store_true')
    args = parser.parse_args()
    root = args.root
    allowlist = read_allowlist(args.allowlist if os.path.exists(args.allowlist) else None)

    violations, allowed_seen = [], set()
    folder_edges, folder_witness = {}, {}
    for src in source_files(root):
        with open(os.path.join(root, src), encoding='utf-8', errors='replace') as f:
            text = f.read()
        for spelled in INCLUDE_RE.findall(text):
            dst = resolve(root, src, spelled)
            if dst is None:
                continue
            if args.list and layer_of(src) != layer_of(dst):
                print(f'edge: {src} -> {dst}')
            why = layer_violation(src, dst)
            if why:
                if (src, dst) in allowlist:
                    allowed_seen.add((src, dst))
                else:
                    violations.append(f'{src}: includes "{spelled}": {why}')
            a, b = runtime_folder(src), runtime_folder(dst)
            if a and b and a != b:
                folder_edges.setdefault(a, set()).add(b)
                folder_witness.setdefault((a, b), src + ' -> ' + dst)

    if args.list:
        for a in sorted(folder_edges):
            print(f'runtime/{a} -> ' + ', '.join(f'runtime/{b}' for b in sorted(folder_edges[a])))

    for cycle in find_cycles(folder_edges):
        members = set(cycle)
        witnesses = [folder_witness[(a, b)] for a in cycle for b in sorted(folder_edges.get(a, ()))
                     if b in members]
        violations.append('cycle between runtime/ subfolders ' + ' <-> '.join(f'runtime/{c}' for c in cycle)
                          + ': ' + '; '.join(witnesses))

    for src, dst in sorted(allowlist - allowed_seen):
        violations.append(f'{args.allowlist}: "{src} -> {dst}" no longer occurs: remove it from the allowlist')

    for src, dst in sorted(allowed_seen):
        print(f'allowed for now (allowlist): {src} -> {dst}')
    for v in violations:
        print(f'layering: {v}')
    print(f'check-layering: {len(violations)} violation(s), {len(allowed_seen)} allowlisted')
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
