#!/usr/bin/env python3
"""npurun --trace: the file is valid Chrome trace JSON with the spans it promises.

    trace_test.py NPURUN NPURUN_MAKE_EXAMPLE TRACE_TO_HTML SHARED_DIR

On the bundled example under --device sim --fp16 (CPU layers between two NPU segments) and, when the
shared models are present, mobilenet_v1_0.25_128_quant under --device sim: every event well-formed, one
thread row per track, the categories cpu / npu segment / convert / submit / wait / npu task present, every
span of a segment inside the segment's own span, tasks back to back inside submit..wait; the HTML renderer
accepts it. Error cases: --trace into a missing directory or onto a directory: exit 2, one line, no file.
"""
import json
import os
import subprocess
import sys
import tempfile


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)


def check_trace(path, want_cats):
    problems = []
    d = json.load(open(path))  # raises on invalid JSON: a failure
    ev = d.get('traceEvents')
    if not isinstance(ev, list) or not ev:
        return ['no traceEvents list']
    names = {e['tid']: e['args']['name'] for e in ev if e.get('ph') == 'M' and e.get('name') == 'thread_name'}
    spans = [e for e in ev if e.get('ph') == 'X']
    for e in spans:
        for k, t in (('name', str), ('cat', str), ('ts', (int, float)), ('dur', (int, float)), ('pid', int), ('tid', int),
                     ('args', dict)):
            if not isinstance(e.get(k), t):
                problems.append(f'event {e.get("name")!r}: field {k} missing or of the wrong type')
        if e.get('dur', -1) < 0 or e.get('ts', -1) < 0:
            problems.append(f'event {e.get("name")!r}: negative time')
        if e.get('tid') not in names:
            problems.append(f'event {e.get("name")!r}: thread {e.get("tid")} has no thread_name')
    cats = {e['cat'] for e in spans}
    for c in want_cats:
        if c not in cats:
            problems.append(f'no {c!r} span (categories: {sorted(cats)})')
    # Nesting: each segment's conversions, submit and wait lie inside its span (1 ns rounding allowed).
    for seg in (e for e in spans if e['cat'] == 'npu segment'):
        inside = [e for e in spans if e['tid'] == seg['tid'] and e is not seg]
        for e in inside:
            if e['ts'] < seg['ts'] - 0.002 or e['ts'] + e['dur'] > seg['ts'] + seg['dur'] + 0.002:
                problems.append(f'{e["name"]} lies outside {seg["name"]}')
        track = names[seg['tid']]
        tasks = [e for e in spans if names.get(e['tid'], '').startswith(track + ' tasks')]
        submit = [e for e in inside if e['cat'] == 'submit']
        wait = [e for e in inside if e['cat'] == 'wait']
        if len(submit) != 1 or len(wait) != 1 or not tasks:
            problems.append(f'{track}: {len(submit)} submit, {len(wait)} wait, {len(tasks)} tasks')
            continue
        end = wait[0]['ts'] + wait[0]['dur']
        for t in tasks:
            if t['ts'] < submit[0]['ts'] - 0.002 or t['ts'] + t['dur'] > end + 0.002:
                problems.append(f'{track}: {t["name"]} outside submit..wait')
            if 'estimated' not in t['args'].get('timing', ''):
                problems.append(f'{track}: {t["name"]} does not say its time is an estimate')
    return problems


def main():
    npurun, make_example, to_html, shared = sys.argv[1:5]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        r = run([make_example, tmp])
        if r.returncode != 0:
            print(f'FAIL npurun-make-example: {r.stderr}')
            return 1
        cases = [('example --fp16', ['--device', 'sim', '--fp16', os.path.join(tmp, 'edges.armnn'), os.path.join(tmp, 'image.bin')],
                  ['cpu', 'npu segment', 'convert', 'submit', 'wait', 'npu task']),
                 ('example cpu', ['--device', 'cpu', os.path.join(tmp, 'edges.armnn'), os.path.join(tmp, 'image.bin')], ['cpu'])]
        mobilenet = os.path.join(shared, 'models', 'armnn', 'mobilenet_v1_0.25_128_quant.armnn')
        photo = os.path.join(shared, 'models', 'mnn', 'reference', 'ultraface', '1.jpg')
        if os.path.exists(mobilenet) and os.path.exists(photo):
            cases.append(('mobilenet sim', ['--device', 'sim', mobilenet, photo], ['cpu', 'npu segment', 'convert', 'submit', 'wait', 'npu task']))
        else:
            print(f'note: {mobilenet} absent, mobilenet trace not checked')
        for name, args, cats in cases:
            out = os.path.join(tmp, 'trace.json')
            if os.path.exists(out):
                os.unlink(out)
            r = run([npurun] + args + ['--trace', out])
            problems = [f'exit {r.returncode}: {r.stderr.strip()}'] if r.returncode != 0 else check_trace(out, cats)
            if not problems:
                h = run([sys.executable, to_html, out, os.path.join(tmp, 'trace.html')])
                if h.returncode != 0 or '<svg' not in open(os.path.join(tmp, 'trace.html')).read():
                    problems.append(f'trace_to_html failed: {h.stderr.strip()}')
            print(('ok   ' if not problems else 'FAIL ') + f'{name}: ' + ('; '.join(problems[:5]) or 'valid trace'))
            failures += bool(problems)
        for name, target, needle in (('missing directory', os.path.join(tmp, 'no', 't.json'), 'does not exist'),
                                     ('a directory', tmp, 'is a directory')):
            r = run([npurun, '--device', 'cpu', os.path.join(tmp, 'edges.armnn'), os.path.join(tmp, 'image.bin'), '--trace', target])
            ok = r.returncode == 2 and r.stdout == '' and len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr \
                and not os.path.exists(os.path.join(tmp, 'no'))
            print(('ok   ' if ok else 'FAIL ') + f'--trace into {name}: exit {r.returncode}: {r.stderr.strip()}')
            failures += not ok
        r = run([sys.executable, to_html, os.path.join(tmp, 'image.bin'), os.path.join(tmp, 'x.html')])
        ok = r.returncode == 2 and 'not a Chrome trace' in r.stderr
        print(('ok   ' if ok else 'FAIL ') + f'trace_to_html on a non-trace: exit {r.returncode}')
        failures += not ok
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
