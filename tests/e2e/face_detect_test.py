#!/usr/bin/env python3
"""face-detect's decoder against the reference decoding of the real MNN runtime's outputs.

    face_detect_test.py FACE_DETECT SHARED_DIR

For every model with reference outputs (mnn-runtime/<model>/{scores_1,boxes_1}.bin) and every decoding in
its faces_1.json (threshold 0.70 / 0.65, blending / hard NMS): `face-detect --scores --boxes --json` must
find the same number of candidates and the same faces, in the same order, every coordinate within 1 pixel
and the score within 1e-4. Also the error cases of the raw-output form. Exit 77 (skipped) without ../shared.
"""
import json
import os
import subprocess
import sys
import tempfile


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)


def main():
    exe, shared = sys.argv[1], sys.argv[2]
    ref = os.path.join(shared, 'models', 'mnn', 'reference', 'ultraface')
    if not os.path.isdir(ref):
        print(f'skipped: {ref} is absent (the shared models folder is not next to the project)')
        return 77
    image = os.path.join(ref, '1.jpg')
    failures = 0
    checked = 0
    for producer in ('mnn-runtime', 'opencv-onnx'):
        base = os.path.join(ref, producer)
        for model in sorted(os.listdir(base)):
            d = os.path.join(base, model)
            expected = json.load(open(os.path.join(d, 'faces_1.json')))
            for key, want in expected.items():
                if not key.endswith('_nms'):
                    continue
                thr = key[3:7]
                nms = 'blending' if 'blending' in key else 'hard'
                r = run([exe, '--scores', os.path.join(d, 'scores_1.bin'), '--boxes', os.path.join(d, 'boxes_1.bin'),
                         '--threshold', thr, '--nms', nms, '--json', image])
                if r.returncode != 0:
                    print(f'FAIL {producer}/{model} {key}: exit {r.returncode}: {r.stderr.strip()}')
                    failures += 1
                    continue
                got = json.loads(r.stdout)
                cand = expected.get(f'thr{thr}_num_candidates')
                problems = []
                if cand is not None and got['num_candidates'] != cand:
                    problems.append(f'{got["num_candidates"]} candidates, reference {cand}')
                if 'image_wh' in expected and got['image_wh'] != expected['image_wh']:
                    problems.append(f'image size {got["image_wh"]}, reference {expected["image_wh"]}')
                faces = got['faces']
                if len(faces) != len(want):
                    problems.append(f'{len(faces)} faces, reference {len(want)}')
                worst = 0.0
                for i, (g, w) in enumerate(zip(faces, want)):
                    for k in ('x1', 'y1', 'x2', 'y2'):
                        worst = max(worst, abs(g[k] - w[k]))
                        if abs(g[k] - w[k]) > 1.0:
                            problems.append(f'face {i} {k} {g[k]:.3f}, reference {w[k]:.3f}')
                    if abs(g['score'] - w['score']) > 1e-4:
                        problems.append(f'face {i} score {g["score"]:.6f}, reference {w["score"]:.6f}')
                    if g['merged'] != w['merged']:
                        problems.append(f'face {i} merged {g["merged"]}, reference {w["merged"]}')
                    if 'anchor' in w and g['anchor'] != w['anchor']:
                        problems.append(f'face {i} anchor {g["anchor"]}, reference {w["anchor"]}')
                checked += 1
                if problems:
                    failures += 1
                    print(f'FAIL {producer}/{model} {key}: ' + '; '.join(problems[:5]))
                else:
                    print(f'ok   {producer}/{model} {key}: {len(faces)} faces, largest coordinate difference {worst:.2e} px')

    # The whole example on the real .mnn models: the reference input tensor through npurun and the decoder must
    # give the reference faces (1 px), on the CPU and on the simulated NPU. Skipped, by name, while this build
    # cannot load .mnn files (the MNN loader is a separate piece of work); any other failure is a failure.
    models_dir = os.path.join(shared, 'models', 'mnn')
    for model in ('slim-320', 'RFB-320'):
        for device in ('cpu', 'sim'):
            r = run([exe, '--model', os.path.join(models_dir, model + '.mnn'), '--device', device, '--input-tensor',
                     os.path.join(ref, 'input_1.bin'), '--json', image])
            if r.returncode != 0 and 'not supported yet' in r.stderr:
                print(f'skipped {model}.mnn on {device}: {r.stderr.strip()}')
                continue
            want = json.load(open(os.path.join(ref, 'mnn-runtime', model, 'faces_1.json')))['thr0.70_blending_nms']
            problems = [f'exit {r.returncode}: {r.stderr.strip()}'] if r.returncode != 0 else []
            if not problems:
                faces = json.loads(r.stdout)['faces']
                if len(faces) != len(want):
                    problems.append(f'{len(faces)} faces, reference {len(want)}')
                for i, (g, w) in enumerate(zip(faces, want)):
                    if max(abs(g[k] - w[k]) for k in ('x1', 'y1', 'x2', 'y2')) > 1.0:
                        problems.append(f'face {i} ({g["x1"]:.1f},{g["y1"]:.1f}) vs ({w["x1"]:.1f},{w["y1"]:.1f})')
            checked += 1
            failures += bool(problems)
            print(('ok   ' if not problems else 'FAIL ') + f'face-detect --model {model}.mnn --device {device}: ' +
                  ('; '.join(problems[:5]) or f'{len(want)} faces as the reference'))

    # Error cases: each a one-line message and exit 2, nothing written.
    s = os.path.join(ref, 'mnn-runtime', 'slim-320', 'scores_1.bin')
    b = os.path.join(ref, 'mnn-runtime', 'slim-320', 'boxes_1.bin')
    with tempfile.TemporaryDirectory() as tmp:
        short = os.path.join(tmp, 'short.bin')
        open(short, 'wb').write(open(s, 'rb').read()[:-8])
        out = os.path.join(tmp, 'out.png')
        cases = [
            ('swapped scores and boxes', [exe, '--scores', b, '--boxes', s, image, '-o', out], 'priors'),
            ('short scores file', [exe, '--scores', short, '--boxes', b, image, '-o', out], 'priors'),
            ('scores without boxes', [exe, '--scores', s, image], '--scores and --boxes go together'),
            ('no image', [exe, '--scores', s, '--boxes', b], 'no image given'),
            ('missing image', [exe, '--scores', s, '--boxes', b, os.path.join(tmp, 'none.jpg')], 'cannot open'),
            ('bad threshold', [exe, '--scores', s, '--boxes', b, '--threshold', '2', image], '--threshold'),
            ('output not png', [exe, '--scores', s, '--boxes', b, image, '-o', os.path.join(tmp, 'x.jpg')], 'PNG'),
            ('wrong input size', [exe, '--scores', s, '--boxes', b, '--input-size', '640x480', image], 'priors'),
            ('--input-tensor with raw outputs', [exe, '--scores', s, '--boxes', b, '--input-tensor', s, image], 'for --model'),
            ('model without scores/boxes', [exe, '--model', os.path.join(shared, 'models', 'armnn', 'mnist_uint8.armnn'), image],
             'has no scores [1,N,2] and boxes [1,N,4] outputs'),
        ]
        for name, cmd, needle in cases:
            r = run(cmd)
            ok = (r.returncode == 2 and r.stdout == '' and len(r.stderr.strip().splitlines()) == 1
                  and needle in r.stderr and not os.path.exists(out))
            print(('ok   ' if ok else 'FAIL ') + f'error case {name}: exit {r.returncode}: {r.stderr.strip()}')
            failures += 0 if ok else 1
        # The annotated picture: a PNG of the photograph's size.
        r = run([exe, '--scores', s, '--boxes', b, image, '-o', out])
        png = open(out, 'rb').read() if os.path.exists(out) else b''
        ok = r.returncode == 0 and png[:8] == b'\x89PNG\r\n\x1a\n' and int.from_bytes(png[16:20], 'big') == 720 \
            and int.from_bytes(png[20:24], 'big') == 478 and 'wrote' in r.stdout
        print(('ok   ' if ok else 'FAIL ') + 'annotated PNG written (720x478)')
        failures += 0 if ok else 1
    print(f'{checked} reference decodings compared, {failures} failures')
    return 1 if failures or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
