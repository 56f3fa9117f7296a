#!/usr/bin/env python3
"""npurun-selftest --expectations as a board farm uses it, with failures planted on the simulator.

    check-expectations.py SELFTEST SOURCE_ROOT WORKDIR

SELFTEST is the tool_cmd entry. A failure is planted with the hidden, test-only --test-corrupt
sim:CASE (one output value of CASE changed after the simulator ran it: deterministic, the same bytes
every run). Lists written to WORKDIR name:
  fails   conv-u8-k1     (planted failure)         -> XFAIL, the run passes
  flakes  conv-u8-k3-p1  (planted failure)         -> FLAKE, the run passes
  flakes  add-u8         (passes)                  -> PASS
  skips   mc-conv-u8-3cores                        -> SKIP, not run
Checks:
  1. those four, with an unlisted passing case: exit 0; text lines, JSON outcomes, CSV lines, summary;
  2. the listed failure not planted: XPASS ("unexpected pass"), exit 1;
  3. an unlisted case planted: FAIL, exit 1;
  4. the same run without --expectations: every planted case FAIL, the skipped case runs, exit 1;
  5. bad lists (stale entry, a case in two lists, a directory, no file): exit 2, one line naming it;
  6. the committed board/ci/rk3588 lists are valid for the current case table.
One line per failure; exit 1 if any.
"""
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from check_failures import fail, finish  # noqa: E402  (after the path it is found on)


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


CASES = ['conv-u8-k1', 'conv-u8-k3-p1', 'add-u8', 'fc-u8-relu6', 'mc-conv-u8-3cores']


def case_lines(out):
    return {l.split()[0]: l for l in out.splitlines() if l.split() and l.split()[0] in CASES}


def outcome_word(line):
    """The RESULT column: the word after the maxdiff column, before the time."""
    for w in ('XFAIL', 'XPASS', 'FLAKE', 'PASS', 'FAIL', 'SKIP'):
        if f' {w} ' in line:
            return w
    return None


def selftest_run(selftest, prefix, corrupt, workdir, tag):
    json_path = os.path.join(workdir, tag + '.json')
    csv_path = os.path.join(workdir, tag + '.csv')
    cmd = [selftest, '--device', 'sim', '--json', json_path, '--csv', csv_path]
    for c in CASES:
        cmd += ['--filter', c]
    if prefix:
        cmd += ['--expectations', prefix]
    for c in corrupt:
        cmd += ['--test-corrupt', 'sim:' + c]
    code, out, err = run(cmd)
    report = rows = None
    try:
        report = json.load(open(json_path))
        rows = {r['name']: r for r in csv.DictReader(open(csv_path))}
    except (OSError, ValueError) as e:
        fail(f'{tag}: reports not written: {e}; stderr {err.strip()!r}')
    return code, out, report, rows


def expect_outcomes(tag, out, report, rows, want):
    """want: case -> (text word, json/csv outcome, json/csv result)."""
    lines = case_lines(out)
    for name, (word, outcome, result) in want.items():
        line = lines.get(name, '')
        if outcome_word(line) != word:
            fail(f'{tag}: {name}: expected {word}, line: {line!r}')
        if report:
            c = [c for c in report['cases'] if c['name'] == name]
            if len(c) != 1 or c[0]['outcome'] != outcome or c[0]['result'] != result:
                fail(f'{tag}: JSON {name}: expected outcome {outcome} result {result}, got {c}')
        if rows is not None:
            r = rows.get(name)
            if not r or r['outcome'] != outcome or r['result'] != result:
                fail(f'{tag}: CSV {name}: expected {result},{outcome}, got {r}')


def scenario(label, selftest, prefix, cases, workdir, tag, want_code, outcomes):
    """One planted run: its exit status and the named cases' outcomes as `label` expects; returns out, report."""
    code, out, report, rows = selftest_run(selftest, prefix, cases, workdir, tag)
    if code != want_code:
        fail(f'{label}: exit {code}, expected {want_code}')
    expect_outcomes(label, out, report, rows, outcomes)
    return out, report


def main():
    selftest, src, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(workdir, exist_ok=True)
    prefix = os.path.join(workdir, 'planted')
    write(prefix + '-fails.txt', '# planted: --test-corrupt makes it fail\nconv-u8-k1: planted failure\n')
    write(prefix + '-flakes.txt', 'conv-u8-k3-p1: planted flake (fails this run)\nadd-u8: flake that passes this run\n')
    write(prefix + '-skips.txt', 'mc-conv-u8-3cores: not run\n')

    # 1. Everything as the lists say: the run passes.
    out, report = scenario('as listed', selftest, prefix, ['conv-u8-k1', 'conv-u8-k3-p1'], workdir, 'as-listed', 0, {
        'conv-u8-k1': ('XFAIL', 'expected-fail', 'fail'),
        'conv-u8-k3-p1': ('FLAKE', 'flake', 'fail'),
        'add-u8': ('PASS', 'pass', 'pass'),
        'fc-u8-relu6': ('PASS', 'pass', 'pass'),
        'mc-conv-u8-3cores': ('SKIP', 'skip', 'skip'),
    })
    print(out, end='')
    lines = case_lines(out)
    if 'planted failure' not in lines.get('conv-u8-k1', '') or 'expected failure' not in lines.get('conv-u8-k1', ''):
        fail(f'as listed: the XFAIL line does not name the list entry: {lines.get("conv-u8-k1")!r}')
    if 'not run' not in lines.get('mc-conv-u8-3cores', '') or 'sim(' in lines.get('mc-conv-u8-3cores', ''):
        fail(f'as listed: the listed skip ran or does not say so: {lines.get("mc-conv-u8-3cores")!r}')
    if report:
        s = report['summary']
        got = (s['passed'], s['failed'], s['expected_failures'], s['flakes'], s['unexpected_passes'], s['skipped'], s['result'])
        if got != (3, 0, 1, 1, 0, 1, 'pass'):  # add-u8, fc-u8-relu6 and add-u8-relu (the filter is a substring)
            fail(f'as listed: JSON summary {s}')
        skip = [c for c in report['cases'] if c['name'] == 'mc-conv-u8-3cores']
        if skip and (skip[0]['runs'] or skip[0]['expectation']['kind'] != 'skip'):
            fail(f'as listed: the listed skip has runs or no expectation: {skip[0]}')
    if '1 expected failure, 1 flaky failure, 0 unexpected passes, 1 skipped' not in out or '-> PASS' not in out:
        fail('as listed: summary line does not count the expectations: ' +
             str([l for l in out.splitlines() if l.startswith('summary:')]))

    # 2. The listed failure now passes: an unexpected pass fails the run until the list is updated.
    out, _ = scenario('unexpected pass', selftest, prefix, ['conv-u8-k3-p1'], workdir, 'unexpected-pass', 1,
                      {'conv-u8-k1': ('XPASS', 'unexpected-pass', 'pass')})
    line = case_lines(out).get('conv-u8-k1', '')
    if 'unexpected pass' not in line or 'remove the entry' not in line:
        fail(f'unexpected pass: the line does not say so: {line!r}')
    print('unexpected pass: ' + line.split(': ', 1)[-1])

    # 3. A failure the lists do not name fails the run.
    out, _ = scenario('unlisted failure', selftest, prefix, ['conv-u8-k1', 'conv-u8-k3-p1', 'fc-u8-relu6'], workdir,
                      'unlisted', 1, {
        'fc-u8-relu6': ('FAIL', 'fail', 'fail'),
        'conv-u8-k1': ('XFAIL', 'expected-fail', 'fail'),
    })
    print('unlisted failure: ' + case_lines(out).get('fc-u8-relu6', '').split(': ', 1)[-1])

    # 4. Without the lists the same planted failures are plain failures and the skipped case runs.
    scenario('without lists', selftest, None, ['conv-u8-k1', 'conv-u8-k3-p1'], workdir, 'no-lists', 1, {
        'conv-u8-k1': ('FAIL', 'fail', 'fail'),
        'conv-u8-k3-p1': ('FAIL', 'fail', 'fail'),
        'mc-conv-u8-3cores': ('PASS', 'pass', 'pass'),
    })

    # 5. Lists that are wrong are command-line errors, before anything runs.
    bad = os.path.join(workdir, 'bad')
    cases = [('stale', {'fails': 'conv-u8-k1\nno-such-case: renamed\n'}, "bad-stale-fails.txt:2: 'no-such-case' matches no case"),
             ('twice', {'fails': 'conv-u8-k1\n', 'flakes': 'conv-u8-*\n'}, "'conv-u8-k1' is listed both as fail"),
             ('spaces', {'skips': 'conv u8\n'}, 'bad-spaces-skips.txt:1:'),
             ('none', {}, 'none of')]
    for tag, files, text in cases:
        p = f'{bad}-{tag}'
        for kind, body in files.items():
            write(f'{p}-{kind}.txt', body)
        code, out, err = run([selftest, '--device', 'sim', '--filter', 'fc-u8', '--expectations', p])
        if code != 2 or len(err.strip().splitlines()) != 1 or text not in err:
            fail(f'bad lists {tag}: exit {code}, stderr {err.strip()!r}')
    code, out, err = run([selftest, '--device', 'sim', '--filter', 'fc-u8', '--expectations', workdir])
    if code != 2 or 'takes a prefix' not in err:
        fail(f'--expectations DIR: exit {code}, stderr {err.strip()!r}')

    # 6. The board's own lists are valid for today's case table (a renamed case would make them stale).
    board = os.path.join(src, 'board', 'ci', 'rk3588')
    code, out, err = run([selftest, '--device', 'sim', '--filter', 'fc-u8', '--expectations', board])
    if code != 0 or 'expectations:' not in out:
        fail(f'board/ci/rk3588 lists: exit {code}, stderr {err.strip()!r}')
    else:
        print([l for l in out.splitlines() if l.startswith('expectations:')][0])

    finish('expectation lists: planted failure XFAIL, planted flake FLAKE, unexpected pass XPASS (exit 1), '
          'unlisted failure FAIL (exit 1), listed skip not run; all checks passed')


if __name__ == '__main__':
    main()
