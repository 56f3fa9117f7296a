#!/usr/bin/env python3
"""npurun-selftest --html rendered by headless Chromium: what a person sees is what the run found.

    check-html-report.py SELFTEST WORKDIR

Runs the simulator on a few cases with planted results (the hidden, test-only --test-corrupt sim:CASE
changes one output value after the simulator ran it) judged against lists written to WORKDIR: an unlisted
failure (FAIL), a listed failure (FAIL (expected)), a failing flake (FAIL (flaky)), a listed failure that
passes (PASS (unexpected)), a listed skip (SKIP) and plain passes. Writes --html and --json, then:
  1. the page is self-contained: no script, no link, no src=, no URL;
  2. chromium --headless --dump-dom: the DOM Chromium built has one row per case of the JSON report, in
     order, with the result label, the max difference / tolerance and devices the JSON gives, and for each
     failure the first differing element (output, index, expected, got) equal to the JSON's first_diff;
     the summary badges and the verdict;
  3. chromium --headless --screenshot: a PNG of the page (WORKDIR/selftest-report.png), not blank.
Skips (exit 77) with a message only when chromium is not installed (tools/ci/install-deps.sh test).
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from check_failures import fail, failures, finish  # noqa: E402  (after the path it is found on)


class Dom(html.parser.HTMLParser):
    """Rows of table.cases: (tr attributes, [cell text], [[texts of div.first-diff] per cell]); badges."""

    def __init__(self):
        super().__init__()
        self.rows, self.badges, self.stack = [], [], []
        self.in_cases = self.in_badge = False
        self.row = self.cell = self.diff = None
        self.title = ''
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get('class', '') or ''
        if tag == 'table' and 'cases' in cls.split():
            self.in_cases = True
        if tag == 'title':
            self.in_title = True
        if self.in_cases and tag == 'tr' and a.get('id', '').startswith('case-'):
            self.row = (a, [], [])
        if self.in_cases and tag == 'tr' and 'detail-row' in (a.get('class') or '').split():
            # The row under a case with its reasons: its last cell becomes the case's detail cell.
            self.row = self.rows.pop()
            self.row[1].pop()  # the empty detail cell added when the case row ended
            self.row[2].pop()
            if self.row[0]['id'] != 'case-' + a.get('data-case', ''):
                failures.append(f'detail row for {a.get("data-case")} follows {self.row[0]["id"]}')
            self.detail_row = True
        if self.row is not None and tag == 'td':
            if getattr(self, 'detail_row', False) and 'detail' not in (a.get('class') or '').split():
                self.cell = None  # the empty cell under the case name
                return
            self.cell = ''
            self.row[2].append([])
        if self.cell is not None and tag == 'div' and 'first-diff' in cls.split():
            self.diff = ''
        if tag == 'span' and 'badge' in cls.split() and not self.in_cases:
            self.in_badge = True
            self.badges.append(['', cls])

    def handle_endtag(self, tag):
        if tag == 'table':
            self.in_cases = False
        if tag == 'title':
            self.in_title = False
        if tag == 'div' and self.diff is not None:
            self.row[2][-1].append(self.diff.strip())
            self.diff = None
        if tag == 'td' and self.cell is not None:
            self.row[1].append(' '.join(self.cell.split()))
            self.cell = None
        if tag == 'tr' and self.row is not None:
            if len(self.row[1]) == 8:  # no detail row (yet): an empty detail cell
                self.row[1].append('')
                self.row[2].append([])
            self.rows.append(self.row)
            self.row = None
            self.detail_row = False
        if tag == 'span':
            self.in_badge = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += ' ' + data
        if self.diff is not None:
            self.diff += data
        if self.in_badge:
            self.badges[-1][0] += data
        if self.in_title:
            self.title += data


def chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    return None


def browser(exe, workdir, args, page):
    profile = os.path.join(workdir, 'chromium-profile')
    cmd = [exe, '--headless', '--no-sandbox', '--disable-gpu', '--user-data-dir=' + profile, '--no-first-run',
           '--disable-extensions', '--disable-background-networking'] + args + ['file://' + page]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=180)


def png_check(path):
    """(width, height, distinct byte values of the decoded image data): a blank page has very few."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        return None
    pos, idat, width, height = 8, b'', 0, 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height = struct.unpack('>II', body[:8])
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


VALUE = {'uint8': '%.0f', 'int8': '%.0f', 'fp16': '%.6g'}
LABEL = {'pass': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP', 'expected-fail': 'FAIL (expected)',
         'unexpected-pass': 'PASS (unexpected)', 'flake': 'FAIL (flaky)'}


def diff_text(v, precision):
    if v is None:
        return 'inf'
    return ('%.3g' if precision == 'fp16' else '%.0f') % v


def main():
    selftest, workdir = sys.argv[1], sys.argv[2]
    exe = chromium()
    if not exe:
        print('skipped: chromium is not installed (tools/ci/install-deps.sh test installs it); the HTML report '
              'was not rendered')
        sys.exit(77)
    os.makedirs(workdir, exist_ok=True)
    prefix = os.path.join(workdir, 'report')
    with open(prefix + '-fails.txt', 'w') as f:
        f.write('conv-u8-k1: planted expected failure\nfc-u8: listed, but passes\n')
    with open(prefix + '-flakes.txt', 'w') as f:
        f.write('dw-s8-perch: planted flake\n')
    with open(prefix + '-skips.txt', 'w') as f:
        f.write('mc-conv-u8-3cores: not run here\n')
    page, report = os.path.join(workdir, 'selftest-report.html'), os.path.join(workdir, 'selftest-report.json')
    cmd = [selftest, '--device', 'sim', '--expectations', prefix, '--html', page, '--json', report,
           '--test-corrupt', 'sim:conv-u8-k1', '--test-corrupt', 'sim:dw-s8-perch', '--test-corrupt', 'sim:conv-f16-k3-p1',
           '--test-corrupt', 'sim:sub-s8']
    for c in ('conv-u8-k1', 'conv-u8-k3-p1', 'fc-u8', 'dw-s8-perch', 'conv-f16-k3-p1', 'sub-s8', 'mc-conv-u8-3cores'):
        cmd += ['--filter', c]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    print(r.stdout, end='')
    if r.returncode != 1:
        fail(f'npurun-selftest exits {r.returncode} (expected 1: an unlisted failure and an unexpected pass): {r.stderr.strip()}')
    try:
        rep = json.load(open(report))
        raw = open(page, encoding='utf-8').read()
    except (OSError, ValueError) as e:
        fail(f'reports not written: {e}')
        sys.exit(1)

    # 1. Self-contained.
    for bad in ('<script', '<link', 'src=', 'http://', 'https://', '@import', 'url('):
        if bad in raw:
            fail(f'the page is not self-contained: it contains {bad!r}')

    # 2. What Chromium shows.
    d = browser(exe, workdir, ['--dump-dom'], page)
    if d.returncode != 0 or '<table class="cases">' not in d.stdout:
        fail(f'chromium --dump-dom exits {d.returncode}: {d.stderr.strip()[-500:]}')
        sys.exit(1)
    dom = Dom()
    dom.feed(d.stdout)
    cases = rep['cases']
    if [row[0]['id'] for row in dom.rows] != ['case-' + c['name'] for c in cases]:
        fail(f'rows {[row[0]["id"] for row in dom.rows]} differ from the JSON cases {[c["name"] for c in cases]}')
    outcomes = {c['name']: c['outcome'] for c in cases}
    want = {'conv-u8-k1': 'expected-fail', 'conv-u8-k3-p1': 'pass', 'fc-u8': 'unexpected-pass', 'dw-s8-perch': 'flake',
            'conv-f16-k3-p1': 'fail', 'sub-s8': 'fail', 'mc-conv-u8-3cores': 'skip'}
    for name, o in want.items():
        if outcomes.get(name) != o:
            fail(f'JSON outcome of {name}: {outcomes.get(name)}, expected {o}')
    header = ['case', 'precision', 'layers', 'shape', 'devices', 'diff', 'time', 'result', 'detail']
    shown = 0
    for (attrs, cells, diffs), c in zip(dom.rows, cases):
        if len(cells) != len(header):
            fail(f'{c["name"]}: {len(cells)} cells')
            continue
        cell = dict(zip(header, cells))
        if cell['case'] != c['name'] or cell['result'] != LABEL[c['outcome']] or attrs.get('data-outcome') != c['outcome']:
            fail(f'{c["name"]}: shows {cell["case"]!r} {cell["result"]!r}, JSON outcome {c["outcome"]}')
        if not cell['time'].endswith(' ms'):
            fail(f'{c["name"]}: time cell {cell["time"]!r}')
        for run in c['runs']:
            text = f'{run["device"]} {diff_text(run["max_diff"], c["precision"])} / {diff_text(run["tolerance"], c["precision"])}'
            if text not in cell['diff']:
                fail(f'{c["name"]}: max diff cell {cell["diff"]!r} lacks {text!r}')
            if f'{run["device"]}, {run["tasks"]} task' not in cell['devices']:
                fail(f'{c["name"]}: devices cell {cell["devices"]!r}')
            fd = run['first_diff']
            expect = None
            if fd:
                v = VALUE[c['precision']]
                expect = (f'{run["device"]} vs cpu: output {fd["output"]} element {fd["index"]}: expected '
                          f'{v % fd["expected"]}, got {v % fd["got"]}')
                if expect not in diffs[header.index('detail')]:
                    fail(f'{c["name"]}: first differing element {expect!r} not shown: {diffs[header.index("detail")]}')
                else:
                    shown += 1
            if (c['result'] == 'fail') != (fd is not None):
                fail(f'{c["name"]}: result {c["result"]} but first_diff {fd}')
        if c['outcome'] == 'skip' and cell['devices'] != 'not run':
            fail(f'{c["name"]}: a listed skip shows devices {cell["devices"]!r}')
        if c['outcome'] == 'unexpected-pass' and 'unexpected pass' not in cell['detail']:
            fail(f'{c["name"]}: detail {cell["detail"]!r}')
    s = rep['summary']
    badges = {t.strip() for t, _ in dom.badges}
    for t in ('FAIL', f'{s["passed"]} passed', f'{s["failed"]} failed', f'{s["expected_failures"]} expected failure',
              f'{s["flakes"]} flaky failure', f'{s["unexpected_passes"]} unexpected pass', f'{s["skipped"]} skipped'):
        if t not in badges:
            fail(f'summary badge {t!r} not shown: {sorted(badges)}')
    if not dom.title.startswith('npurun-selftest FAIL'):
        fail(f'title {dom.title!r}')
    print(f'chromium --dump-dom: {len(dom.rows)} case rows as in the JSON report, {shown} first differing elements '
          f'shown, badges {sorted(badges)}')

    # 3. A screenshot, for the eye.
    png = os.path.join(workdir, 'selftest-report.png')
    if os.path.exists(png):
        os.remove(png)
    sh = browser(exe, workdir, ['--window-size=1400,1100', '--hide-scrollbars', '--screenshot=' + png], page)
    info = png_check(png) if os.path.exists(png) else None
    if sh.returncode != 0 or not info:
        fail(f'chromium --screenshot exits {sh.returncode}, no PNG: {sh.stderr.strip()[-500:]}')
    else:
        w, h, distinct = info
        if (w, h) != (1400, 1100) or distinct < 16:
            fail(f'screenshot {w}x{h} with {distinct} distinct byte values: blank?')
        else:
            print(f'screenshot: {png} ({w}x{h})')

    finish('HTML report: all checks passed')


if __name__ == '__main__':
    main()
