#!/usr/bin/env python3
"""npurun-selftest as CI and a bring-up engineer run it.

    check-selftest.py SELFTEST NPURUN WORKDIR

SELFTEST and NPURUN are the tool_cmd entries (qemu-wrapped scripts in the cross build). Checks:
  1. --list: one line per case, unique names; `npurun --selftest --list` prints the same.
  2. --device sim --json FILE: exit 0, one PASS line per case, the summary line, and a JSON report whose
     cases, runs (sim ran, max_diff <= tolerance, tiled cases split into tasks) and environment (kernel,
     the fake kernel's driver name and version) agree with the text.
  3. --device all without an NPU (CI): every line says "npu: not present" and the run still passes;
     --json - puts the report on stdout and the lines on stderr.
  4. A deliberately corrupted result (hidden --test-corrupt) fails the case and the run (exit 1).
  5. Bad flags: exit 2 with one line on stderr naming the problem.
Each failure prints one line; exit 1 if any.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from check_failures import fail, finish  # noqa: E402  (after the path it is found on)


def run(cmd, timeout=900):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def main():
    selftest, npurun, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(workdir, exist_ok=True)

    # 1. The case list.
    code, out, err = run([selftest, '--list'])
    if code != 0:
        fail(f'--list exits {code}: {err.strip()}')
        return
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    if len(names) < 40 or len(set(names)) != len(names):
        fail(f'--list: {len(names)} cases, {len(set(names))} unique names')
    code2, out2, _ = run([npurun, '--selftest', '--list'])
    if code2 != 0 or out2 != out:
        fail(f'npurun --selftest --list differs from npurun-selftest --list (exit {code2})')
    print(f'{len(names)} cases listed')

    # 2. Every case on the simulator, with the JSON report.
    report_path = os.path.join(workdir, 'selftest-sim.json')
    if os.path.exists(report_path):
        os.remove(report_path)
    code, out, err = run([selftest, '--device', 'sim', '--json', report_path])
    print(out, end='')
    if code != 0:
        fail(f'--device sim exits {code}: {err.strip()}')
    lines = out.splitlines()
    case_lines = {l.split()[0]: l for l in lines if l.split() and l.split()[0] in names}
    if sorted(case_lines) != sorted(names):
        fail(f'--device sim printed {len(case_lines)} case lines for {len(names)} cases')
    for name, line in case_lines.items():
        if ' PASS ' not in line:
            fail(f'case line not PASS: {line}')
    summary = [l for l in lines if l.startswith('summary: ')]
    expect = f'summary: {len(names)} cases, {len(names)} passed, 0 failed'
    if len(summary) != 1 or not summary[0].startswith(expect) or not summary[0].endswith('-> PASS'):
        fail(f'summary line: expected "{expect} ... -> PASS", got {summary}')
    try:
        report = json.load(open(report_path))
    except (OSError, ValueError) as e:
        fail(f'--json {report_path}: {e}')
        report = None
    if report:
        env = report['environment']
        if not env['kernel'] or not env['machine']:
            fail(f'JSON environment lacks kernel/machine: {env}')
        sim = env['sim']
        if sim['state'] != 'ok' or not sim['fake_kernel'] or sim['driver'] not in ('rknpu', 'rocket') \
                or not sim['driver_version'] or not sim['node']:
            fail(f'JSON environment.sim: {sim}')
        if env['npu']['selected']:
            fail('JSON: npu selected with --device sim')
        cases = report['cases']
        if [c['name'] for c in cases] != names:
            fail('JSON cases differ from --list')
        for c in cases:
            runs = [r for r in c['runs'] if r['device'] == 'sim']
            if c['result'] != 'pass' or len(runs) != 1 or not runs[0]['ran'] or not runs[0]['pass']:
                fail(f'JSON case {c["name"]}: {c}')
                continue
            r = runs[0]
            if r['max_diff'] is None or r['tolerance'] is None or r['max_diff'] > r['tolerance']:
                fail(f'JSON case {c["name"]}: max_diff {r["max_diff"]} tolerance {r["tolerance"]}')
            if r['tasks'] < 1 or (c['name'].startswith('tile-') and r['tasks'] < 2):
                fail(f'JSON case {c["name"]}: {r["tasks"]} NPU tasks')
            # Forced core counts: the job had that many lanes, and 1, 2 and 3 cores gave identical bytes.
            if c['cores'] > 1:
                sweep = c['core_sweep']
                if r['cores_requested'] != c['cores'] or r['cores_used'] != c['cores'] or not sweep \
                        or not sweep['identical'] or sweep['lanes'] != [1, 2, 3]:
                    fail(f'JSON case {c["name"]}: cores {c["cores"]}, run {r}, core_sweep {sweep}')
            elif c['core_sweep'] is not None or r['cores_used'] != 1:
                fail(f'JSON case {c["name"]}: single-core case with core_sweep {c["core_sweep"]}, {r["cores_used"]} cores')
            if c['precision'] in ('uint8', 'int8') and c['ops'].count('>') == 0 and r['tolerance'] != 1:
                fail(f'JSON case {c["name"]}: single-layer int8 tolerance {r["tolerance"]}, not 1')
        s = report['summary']
        if (s['cases'], s['passed'], s['failed'], s['result']) != (len(names), len(names), 0, 'pass'):
            fail(f'JSON summary: {s}')
        multi = sum(1 for c in cases if c['cores'] > 1)
        if multi < 5:
            fail(f'JSON: only {multi} multi-core cases')
        print(f'JSON report: {len(cases)} cases ({multi} multi-core), environment kernel "{env["kernel"]}", sim driver '
              f'{sim["driver"]} {sim["driver_version"]}')

    # 3. All devices: here (no board) the NPU is absent, which is reported per case and is not a failure.
    code, out, err = run([selftest, '--device', 'all', '--filter', 'fc-*', '--filter', 'add-u8', '--json', '-'])
    try:
        rep = json.loads(out)
    except ValueError as e:
        fail(f'--json - did not write JSON to stdout: {e}')
        rep = None
    if rep:
        npu = rep['environment']['npu']
        if npu['state'] == 'not present':
            if code != 0:
                fail(f'--device all without an NPU exits {code}')
            per_case = [l for l in err.splitlines() if l.split() and l.split()[0] in names]
            if not per_case or any('npu: not present' not in l for l in per_case):
                fail('--device all without an NPU: a case line lacks "npu: not present"')
            print(f'--device all: npu not present, reported on {len(per_case)} case lines, exit {code}')
        else:
            print(f'--device all: npu state {npu["state"]} (a board?); exit {code}')
    if rep and rep['environment']['npu']['state'] == 'not present':
        code, out, err = run([selftest, '--device', 'npu', '--filter', 'fc-u8'])
        line = [l for l in out.splitlines() if l.startswith('fc-u8')]
        if code != 0 or len(line) != 2 or any(' SKIP ' not in l or 'npu: not present' not in l for l in line) \
                or '2 skipped' not in out:
            fail(f'--device npu without an NPU: exit {code}, expected a SKIP line with "npu: not present": {out}')
    code, out, err = run([selftest, '--device', 'all', '--filter', 'fc-u8', '--require-npu'])
    if rep and rep['environment']['npu']['state'] == 'not present' and code != 1:
        fail(f'--require-npu without an NPU exits {code}, expected 1')

    # 4. A corrupted result must fail: on the simulator, and in the reference itself.
    for device in ('sim', 'cpu'):
        code, out, err = run([selftest, '--device', 'sim', '--filter', 'conv-u8-k3-p1', '--filter', 'fc-u8',
                              '--test-corrupt', device])
        bad = [l for l in out.splitlines() if ' FAIL ' in l]
        if code != 1 or len(bad) != 1 or not bad[0].startswith('conv-u8-k3-p1') \
                or 'differs from the CPU reference' not in bad[0] or '1 failed' not in out:
            fail(f'--test-corrupt {device}: exit {code}, FAIL lines {bad}')
        else:
            print(f'--test-corrupt {device}: exit 1, {bad[0].split(": ", 1)[1]}')

    # 5. Bad command lines: exit 2, one line on stderr.
    for args, text in ((['--device', 'gpu'], "unknown device 'gpu'"), (['--bogus'], "unknown option '--bogus'"),
                       (['--filter', 'no-such-case'], 'no case matches'), (['--json'], '--json needs a value'),
                       (['model.armnn'], 'unexpected argument'),
                       (['--json', os.path.join(workdir, 'no-such-dir', 'r.json')], 'cannot write --json file')):
        code, out, err = run([selftest] + args)
        if code != 2 or len(err.strip().splitlines()) != 1 or text not in err or out:
            fail(f'{args}: exit {code}, stderr {err.strip()!r}, stdout {out.strip()!r}')
    code, out, err = run([npurun, 'm.armnn', '--selftest'])
    if code != 2 or 'first argument' not in err:
        fail(f'npurun with --selftest not first: exit {code}, {err.strip()!r}')

    finish('npurun-selftest: all checks passed')


if __name__ == '__main__':
    main()
