#!/usr/bin/env python3
"""Lists the functions longer than a limit (default 150 lines), measured with Universal Ctags.

How it measures: `ctags --fields=+ne --output-format=json` gives every function definition's first line
(`line`, the line with its name) and last line (`end`, the closing brace); the length is end - line + 1,
comments and blank lines included. Lambdas are part of the function they are written in.

Data tables are not functions in the sense of the rule: a function is reported as a table (and not
counted) when at least 75% of its non-blank body lines are table rows, i.e. lines of the form
`{...},`, `X(...),` / `X(...)` (an X-macro or constructor call per row), `case ...: return ...;` or a
string or number literal list. Use --all to see them too.

Usage: function-lengths.py [--root DIR] [--limit N] [--all] [PATH...]
  PATH: files or folders below the root (default: the whole tree). Prints one line per function,
  longest first: `LINES  FILE:LINE  NAME`, then a summary line. Exit 0 always (a report, not a gate),
  unless --fail is given: then exit 1 when a non-table function is over the limit.
"""
import argparse
import json
import os
import re
import subprocess
import sys

SOURCE_EXTENSIONS = ('.h', '.hpp', '.cpp', '.cc', '.c')
SKIPPED_DIRS = {'build', '.git', 'subprojects'}
TABLE_ROW = re.compile(r'''^\s*(
      \{.*\}\s*,?                          # {a, b, c},
    | [A-Za-z_][\w:]*\s*\(.*\)\s*,?        # X(a, b), or Type(a, b),
    | case\s+[^:]+:\s*return\s+.*;         # case K: return V;
    | ("([^"\\]|\\.)*"\s*)+,?              # "literal",
    | [-+\w.']+(\s*,\s*[-+\w.']+)*\s*,?    # 1, 2, 3,
    )\s*(//.*)?$''', re.VERBOSE)


def source_files(root, paths):
    for p in paths:
        full = os.path.join(root, p)
        if os.path.isfile(full):
            yield p
            continue
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.startswith(('.', 'build')))
            for name in sorted(filenames):
                if name.endswith(SOURCE_EXTENSIONS):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def functions(root, files):
    """(file, line, end, name) of every function definition ctags finds."""
    if not files:
        return []
    cmd = ['ctags', '--fields=+ne', '-o', '-', '--output-format=json', '--languages=C,C++',
           '--kinds-C++=f', '--kinds-C=f', '--language-force=C++'] + files
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get('_type') != 'tag' or tag.get('kind') != 'function' or 'end' not in tag:
            continue
        name = tag['name']
        if tag.get('scope'):
            name = tag['scope'] + '::' + name
        name = re.sub(r'__anon[0-9a-f]+', '(anonymous)', name)  # ctags' names for anonymous namespaces
        result.append((tag['path'], tag['line'], tag['end'], name))
    return result


def is_table(lines):
    body = [l for l in lines[1:-1] if l.strip() and not l.strip().startswith('//')]
    if len(body) < 10:
        return False
    rows = sum(1 for l in body if TABLE_ROW.match(l))
    return rows >= 0.75 * len(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument('--root', default=os.path.normpath(os.path.join(here, '..', '..')))
    parser.add_argument('--limit', type=int, default=150)
    parser.add_argument('--all', action='store_true', help='also list data tables over the limit')
    parser.add_argument('--fail', action='store_true', help='exit 1 when a function is over the limit')
    parser.add_argument('paths', nargs='*')
    args = parser.parse_args()
    paths = args.paths or ['core', 'ir', 'kernels', 'drv', 'runtime', 'lib', 'include', 'tools', 'tests']
    paths = [p for p in paths if os.path.exists(os.path.join(args.root, p))]
    files = sorted(set(source_files(args.root, paths)))

    long_functions, tables = [], []
    cache = {}
    for path, first, last, name in functions(args.root, files):
        length = last - first + 1
        if length <= args.limit:
            continue
        if path not in cache:
            with open(os.path.join(args.root, path), encoding='utf-8', errors='replace') as f:
                cache[path] = f.read().split('\n')
        (tables if is_table(cache[path][first - 1:last]) else long_functions).append((length, path, first, name))

    for length, path, first, name in sorted(long_functions, key=lambda t: (-t[0], t[1], t[2])):
        print(f'{length:5d}  {path}:{first}  {name}')
    if args.all:
        for length, path, first, name in sorted(tables, key=lambda t: (-t[0], t[1], t[2])):
            print(f'{length:5d}  {path}:{first}  {name}  (data table)')
    print(f'function-lengths: {len(long_functions)} function(s) over {args.limit} lines in {len(files)} files'
          f' ({len(tables)} data table(s) not counted)')
    return 1 if args.fail and long_functions else 0


if __name__ == '__main__':
    sys.exit(main())
