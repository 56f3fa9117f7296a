#!/usr/bin/env python3
"""Renders an `npurun --trace` file (Chrome traceEvents JSON) as a self-contained HTML page with an SVG
timeline: one row per track (thread), one box per complete ("X") event, nested events stacked inside
their parent, a time axis, and each event's name, duration and args as a tooltip. No network needed
(Perfetto UI and chrome://tracing are not available offline).

    trace_to_html.py TRACE.json OUT.html [--title TEXT]
"""
import argparse
import html
import json
import sys

COLOURS = {'cpu': '#4e79a7', 'npu segment': '#b07aa1', 'convert': '#f28e2b', 'submit': '#e15759',
           'wait': '#76b7b2', 'npu task': '#59a14f'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('out')
    ap.add_argument('--title', default=None)
    a = ap.parse_args()
    try:
        d = json.load(open(a.trace))
        events = d['traceEvents']
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f'trace_to_html: error: {a.trace}: not a Chrome trace ({e})', file=sys.stderr)
        return 2
    names, title = {}, a.title
    for e in events:
        if e.get('ph') == 'M' and e.get('name') == 'thread_name':
            names[e['tid']] = e['args']['name']
        if e.get('ph') == 'M' and e.get('name') == 'process_name' and title is None:
            title = e['args']['name']
    spans = [e for e in events if e.get('ph') == 'X']
    if not spans:
        print(f'trace_to_html: error: {a.trace}: no complete ("X") events', file=sys.stderr)
        return 2
    tids = sorted({e['tid'] for e in spans})
    t0 = min(e['ts'] for e in spans)
    t1 = max(e['ts'] + e['dur'] for e in spans)
    total = max(t1 - t0, 1e-3)
    left, width, row_h, lane_h = 230, 1120, 0, 22
    # Depth of each event within its row: nested events sit one lane below their parent.
    rows = []
    for tid in tids:
        evs = sorted((e for e in spans if e['tid'] == tid), key=lambda e: (e['ts'], -e['dur']))
        stack, placed = [], []
        for e in evs:
            while stack and stack[-1]['ts'] + stack[-1]['dur'] <= e['ts'] + 0.01:  # the JSON rounds to 1 ns
                stack.pop()
            placed.append((e, len(stack)))
            stack.append(e)
        depth = 1 + max(dd for _, dd in placed)
        rows.append((tid, placed, depth))
    y = 60
    svg = []
    for index, (tid, placed, depth) in enumerate(rows):
        h = depth * lane_h + 10
        svg.append(f'<rect x="0" y="{y}" width="{left + width + 20}" height="{h}" fill="{"#f3f3f3" if index % 2 else "#ffffff"}"/>')
        svg.append(f'<text x="8" y="{y + 16}" class="row">{html.escape(names.get(tid, str(tid)))}</text>')
        for e, dd in placed:
            x = left + (e['ts'] - t0) / total * width
            w = max(e['dur'] / total * width, 0.8)
            colour = COLOURS.get(e.get('cat', ''), '#bab0ac')
            tip = f"{e['name']} ({e.get('cat', '')}): {e['dur']:.1f} us at {e['ts'] - t0:.1f} us"
            for k, v in (e.get('args') or {}).items():
                tip += f"\n{k}: {v}"
            ey = y + 4 + dd * lane_h
            svg.append(f'<g><title>{html.escape(tip)}</title><rect x="{x:.2f}" y="{ey}" width="{w:.2f}" height="{lane_h - 3}" '
                       f'fill="{colour}" stroke="#333" stroke-width="0.3"/>')
            if w > 7 * len(e['name']) * 0.75:
                svg.append(f'<text x="{x + 3:.2f}" y="{ey + 14}" class="box">{html.escape(e["name"])}</text>')
            svg.append('</g>')
        y += h
    # Time axis: 10 ticks.
    axis = [f'<line x1="{left}" y1="50" x2="{left + width}" y2="50" stroke="#333"/>']
    for i in range(11):
        x = left + i * width / 10
        axis.append(f'<line x1="{x:.1f}" y1="45" x2="{x:.1f}" y2="{y}" stroke="#ccc" stroke-width="0.5"/>')
        axis.append(f'<text x="{x:.1f}" y="40" class="tick">{total * i / 10 / 1000:.2f} ms</text>')
    legend = ''.join(f'<span class="key" style="background:{c}"></span>{html.escape(k)} ' for k, c in COLOURS.items())
    note = html.escape((d.get('otherData') or {}).get('note', ''))
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(title or a.trace)}</title>
<style>body{{font-family:sans-serif;margin:12px}} .row{{font-size:13px}} .box{{font-size:11px;fill:#fff}}
.tick{{font-size:11px;text-anchor:middle}} .key{{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}}
p{{font-size:12px;color:#444;margin:4px 0}}</style></head><body>
<h3 style="margin:4px 0">{html.escape(title or a.trace)}: {len(spans)} spans, {total / 1000:.3f} ms</h3>
<p>{legend}</p><p>{note}</p>
<svg width="{left + width + 20}" height="{y + 10}" xmlns="http://www.w3.org/2000/svg">{''.join(axis)}{''.join(svg)}</svg>
</body></html>
"""
    with open(a.out, 'w') as f:
        f.write(page)
    return 0


if __name__ == '__main__':
    sys.exit(main())
