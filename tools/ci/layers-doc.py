#!/usr/bin/env python3
"""Keeps docs/layers.md equal to what `npurun --list-layers` prints, so the README's layer table cannot
drift from the code. `layers-doc.py NPURUN DOC` checks (exit 1 on a difference); add --write to regenerate."""
import subprocess
import sys

HEADER = """# Supported layers and data types

Generated from `npurun --list-layers` (regenerate: `python3 tools/ci/layers-doc.py build/tools/npurun/npurun
docs/layers.md --write`; the test `layers-doc` fails when this file and the binary disagree). The table comes
from the op semantics and each CPU kernel's own check, not from a hand-kept list. `cpu`: the reference
kernels run it (NEON kernels take over where they cover it). `npu`: which layers go to the NPU is decided per
model by `npurun --explain` (the RKNN2 constraints depend on shapes and attributes, not only on the type).
`mnn`: some MNN op type maps to the layer type; the MNN op types, with what each becomes or why it is refused,
follow the table.

```
"""

def main():
    args = [a for a in sys.argv[1:] if a != '--write']
    if len(args) != 2:
        sys.exit('usage: layers-doc.py NPURUN DOC [--write]')
    out = subprocess.run([args[0], '--list-layers'], check=True, capture_output=True, text=True).stdout
    text = HEADER + out + "```\n"
    if '--write' in sys.argv:
        open(args[1], 'w').write(text)
        return
    try:
        have = open(args[1]).read()
    except OSError as e:
        sys.exit(f'layers-doc: {e}')
    if have != text:
        sys.exit(f'layers-doc: {args[1]} differs from `npurun --list-layers`; regenerate it with --write')
    print(f'layers-doc: {args[1]} matches npurun --list-layers')

main()
