#!/usr/bin/env python3
"""Keeps man/*.1 true to the tools.

    check-man-pages.py --build-dir BUILD --source-dir SRC

1. Every man page renders without groff warnings (groff -man -ww -z).
2. For every tool with a man page that this build defines (npurun, npu-info, regcmd-dump, npurun-selftest), the long
   options its --help prints and the long options its man page documents are the same set: an option
   missing from the page is undocumented, one missing from --help is stale. Cross builds skip this part
   (the tools cannot run here without the exe wrapper).
Exit 0 on success, 1 on a mismatch, 77 (meson: skipped) when no tool is built yet and part 1 passed.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def long_options(text):
    return set(re.findall(r'(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)', text))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build-dir', required=True)
    ap.add_argument('--source-dir', required=True)
    args = ap.parse_args()
    man_dir = os.path.join(args.source_dir, 'man')
    pages = sorted(f for f in os.listdir(man_dir) if f.endswith('.1'))
    failures = 0

    for page in pages:
        r = subprocess.run(['groff', '-man', '-ww', '-z', os.path.join(man_dir, page)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0 or r.stdout.strip():
            print(f'FAIL: man/{page}: groff warnings:\n{r.stdout}')
            failures += 1

    targets = json.loads(subprocess.run(['meson', 'introspect', args.build_dir, '--targets'],
                                        stdout=subprocess.PIPE, check=True, text=True).stdout)
    cross = 'cross_file' in open(os.path.join(args.build_dir, 'meson-private', 'cmd_line.txt')).read()
    exes = {t['name']: t['filename'][0] for t in targets if t['type'] == 'executable'}
    compared = 0
    for page in pages:
        tool = page[:-2]
        if tool not in exes:
            print(f'note: {tool} is not built yet; man/{page} not compared with its --help')
            continue
        if cross:
            print(f'note: cross build; man/{page} not compared with {tool} --help')
            continue
        r = subprocess.run([exes[tool], '--help'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=30)
        if r.returncode != 0:
            print(f'FAIL: {tool} --help exits {r.returncode}')
            failures += 1
            continue
        help_opts = long_options(r.stdout)
        man_text = open(os.path.join(man_dir, page)).read().replace('\\-', '-').replace('\\fB', '').replace('\\fR', '')
        man_opts = long_options(man_text)
        compared += 1
        if help_opts - man_opts:
            print(f'FAIL: man/{page} does not document {sorted(help_opts - man_opts)} ({tool} --help has them)')
            failures += 1
        if man_opts - help_opts:
            print(f'FAIL: man/{page} documents {sorted(man_opts - help_opts)}, which {tool} --help does not list')
            failures += 1
        if help_opts == man_opts:
            print(f'{tool}: --help and man/{page} list the same {len(help_opts)} long options')
    if failures:
        return 1
    if compared == 0:
        print(f'{len(pages)} man pages render cleanly; no tool built yet to compare with (skipped)')
        return 77
    return 0


if __name__ == '__main__':
    sys.exit(main())
