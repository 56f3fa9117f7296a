#!/usr/bin/env bash
# Time per inference on the CPU with --threads 1, 2 and 4, side by side, for every real model in ../shared/models
# (.armnn and .mnn; inputs that are images get a fixed pseudo-random PPM, other inputs are skipped) and any extra
# models given. Each cell: the median of ITER runs, and in brackets the spread (p90 / median - 1) that tells noise
# from a real difference. Asserts nothing (the machine's load decides the noise); the last columns are
#   verdict: "ok" when the 2- and 4-thread medians are at most the 1-thread median plus its spread, else "SLOWER";
#   split:   layers split across threads at --threads 4 / layers with a parallel loop, from --profile. This one is
#            deterministic (the work-size policy, kernels/neon/thread_pool.h), the same on any machine.
# Run it on a quiet machine with at least 4 cores (on fewer, --threads 4 oversubscribes and cannot win):
#   make bench-threads            (or: ITER=50 make bench-threads)
#
# Usage: threads-bench.sh BUILD DATA_DIR [MODEL INPUT]...
set -euo pipefail
build=$1 data=$2
shift 2
iter=${ITER:-20}
here=$(cd "$(dirname "$0")" && pwd)
shared="$here/../../../shared"
img="$data/threads_input.ppm"
python3 -c "
import random; random.seed(7); w = h = 160
open('$img', 'wb').write(b'P6 %d %d 255\n' % (w, h) + bytes(random.randrange(256) for _ in range(w * h * 3)))"

# cell MODEL INPUT THREADS -> "median ms (+spread%)" or "-"
cell() {
    local out med p90
    out=$("$build/tools/npurun/npurun" "$1" "$2" --device cpu --threads "$3" --iterations "$iter" 2>/dev/null) || { echo "-"; return; }
    # "median 7.412 ms, p90 9.406 ms" (or us): both in microseconds.
    python3 - "$out" <<'PY'
import re, sys
def us(key):
    m = re.findall(key + r' ([0-9.]+) (ms|us)', sys.argv[1])
    v, unit = m[-1]
    return float(v) * (1000.0 if unit == 'ms' else 1.0)
med, p90 = us('median'), us('p90')
print('%.1f us (+%.0f%%)' % (med, 100.0 * (p90 / med - 1.0) if med > 0 else 0.0))
PY
}
# split MODEL INPUT -> "K/N" from the --profile footer at --threads 4
split() {
    "$build/tools/npurun/npurun" "$1" "$2" --device cpu --threads 4 --profile -o "$data/threads_profile_out/" 2>/dev/null |
        sed -n 's/.*; \([0-9]*\) of \([0-9]*\) CPU layers split.*/\1\/\2/p'
}
# verdict T1 T2 T4 (cells as printed)
verdict() {
    python3 - "$@" <<'PY'
import re, sys
def parse(c):
    m = re.match(r'([0-9.]+) us \(\+([0-9]+)%\)', c)
    return (float(m.group(1)), float(m.group(2)) / 100.0) if m else None
t = [parse(c) for c in sys.argv[1:]]
if any(x is None for x in t):
    print('-')
else:
    limit = t[0][0] * (1.0 + t[0][1])
    print('ok' if all(x[0] <= limit for x in t[1:]) else 'SLOWER')
PY
}
row() {
    local t1 t2 t4
    t1=$(cell "$2" "$3" 1)
    [[ $t1 == - ]] && { printf '%-40s (input not an image: skipped)\n' "$1"; return; }
    t2=$(cell "$2" "$3" 2)
    t4=$(cell "$2" "$3" 4)
    printf '%-40s %-20s %-20s %-20s %-7s %s\n' "$1" "$t1" "$t2" "$t4" "$(verdict "$t1" "$t2" "$t4")" "$(split "$2" "$3")"
}
echo "== CPU time per inference by thread count, median of $iter runs (+ p90 spread), $(nproc) CPUs here =="
mkdir -p "$data/threads_profile_out"
printf '%-40s %-20s %-20s %-20s %-7s %s\n' model "--threads 1" "--threads 2" "--threads 4" verdict "split(t4)"
# hello_world_float takes one float (the sine model's x), not an image.
python3 -c "import struct; open('$data/hello_world_input.bin', 'wb').write(struct.pack('<f', 1.25))"
for m in "$shared"/models/armnn/*.armnn "$shared"/models/mnn/*.mnn; do
    [[ -f $m ]] || continue
    input=$img
    [[ $(basename "$m") == hello_world_float.armnn ]] && input="$data/hello_world_input.bin"
    row "$(basename "$m")" "$m" "$input"
done
while [[ $# -ge 2 ]]; do
    row "$(basename "$1")" "$1" "$2"
    shift 2
done
