#!/usr/bin/env python3
"""tools/ci/check-layering.py on small trees written here: it must pass a clean tree and fail on each
kind of violation it exists for (an upward include, a cycle between runtime/ subfolders, a kernel that
sees the graph, a stale allowlist entry)."""
import os
import subprocess
import sys
import tempfile

CHECKER = sys.argv[1]


def run(files, allowlist=None):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), 'w') as f:
                f.write(text)
        args = [sys.executable, CHECKER, '--root', root, '--allowlist', os.path.join(root, 'allow.txt')]
        if allowlist is not None:
            with open(os.path.join(root, 'allow.txt'), 'w') as f:
                f.write(allowlist)
        p = subprocess.run(args, capture_output=True, text=True)
        return p.returncode, p.stdout


CLEAN = {
    'core/error.h': '#pragma once\n#include <string>\n',
    'ir/graph.h': '#include "core/error.h"\n',
    'ir/ops.h': '#include "core/error.h"\n',
    'kernels/k.cpp': '#include "ir/ops.h"\n#include "core/error.h"\n#include "generated_by_flatc.h"\n',
    'drv/device.h': '#include "core/error.h"\n',
    'runtime/exec/executor.h': '#include "ir/graph.h"\n#include "kernels/k.cpp"\n',
    'runtime/npu/backend.h': '#include "runtime/exec/executor.h"\n#include "drv/device.h"\n',
    'runtime/session/session.cpp': '#include "runtime/npu/backend.h"\n',
    'include/npurun/npurun.h': '#include <stddef.h>\n',
    'tools/t.cpp': '#include "runtime/session/session.cpp"\n',
    'tests/t.cpp': '#include "tools/t.cpp"\n',
}

failures = []
cases = 0


def expect(name, files, want_rc, want_text, allowlist=None):
    global cases
    cases += 1
    rc, out = run(files, allowlist)
    if rc != want_rc or want_text not in out:
        failures.append(f'{name}: exit {rc} (want {want_rc}), output lacks "{want_text}":\n{out}')


expect('clean tree passes', CLEAN, 0, '0 violation(s)')
expect('drv including runtime fails', {**CLEAN, 'drv/device.h': '#include "runtime/exec/executor.h"\n'},
       1, 'drv/device.h: includes "runtime/exec/executor.h": drv/ may not include runtime/')
expect('core including ir fails', {**CLEAN, 'core/error.h': '#include "ir/ops.h"\n'}, 1,
       'core/ may not include ir/')
expect('tools including tests fails', {**CLEAN, 'tools/t.cpp': '#include "tests/t.cpp"\n'}, 1,
       'tools/ may not include tests/')
expect('public header including the IR fails', {**CLEAN, 'include/npurun/npurun.h': '#include "ir/graph.h"\n'},
       1, 'include/ may not include ir/')
expect('public header including core beyond the API types fails',
       {**CLEAN, 'core/checked_math.h': '', 'include/npurun/npurun.h': '#include "core/checked_math.h"\n'}, 1,
       'a public header may include only the API')
expect('public header including the API types passes',
       {**CLEAN, 'core/types.h': '', 'include/npurun/npurun.h': '#include "core/types.h"\n'}, 0, '0 violation(s)')
expect('kernel seeing the graph fails', {**CLEAN, 'kernels/k.cpp': '#include "ir/graph.h"\n'}, 1,
       'kernels/ may see only the IR')
expect('runtime subfolder cycle fails',
       {**CLEAN, 'runtime/exec/executor.h': '#include "runtime/session/session.cpp"\n'}, 1,
       'cycle between runtime/ subfolders runtime/exec <-> runtime/npu <-> runtime/session')
expect('an include beside the file is resolved', {**CLEAN, 'drv/x.cpp': '#include "../runtime/npu/backend.h"\n'},
       1, 'drv/ may not include runtime/')
expect('allowlisted violation passes', {**CLEAN, 'kernels/k.cpp': '#include "ir/graph.h"\n'}, 0,
       'allowed for now (allowlist): kernels/k.cpp -> ir/graph.h', allowlist='kernels/k.cpp -> ir/graph.h\n')
expect('stale allowlist entry fails', CLEAN, 1, 'no longer occurs',
       allowlist='# comment\nkernels/k.cpp -> ir/graph.h\n')

for f in failures:
    print('FAIL', f)
print(f'check-layering self-test: {cases - len(failures)} of {cases} cases pass')
sys.exit(1 if failures else 0)
