#!/usr/bin/env bash
# make bench: per-kernel rates (ours vs kernels/ref vs XNNPACK), whole-model latency (npurun NEON, npurun
# ref, Arm NN 20.08 CpuRef), and executed aarch64 instructions per inference under qemu. Prints ratios;
# asserts nothing (benchmarks never run in `make test`).
# Usage: run-bench.sh BUILD CROSS_BUILD SYSROOT   (env: THREADS=1, ITER=20)
set -euo pipefail
build=$1 cross=$2 sysroot=$3
threads=${THREADS:-1} iter=${ITER:-20}
shared="$(cd "$(dirname "$0")/../.." && pwd)/../shared"
model="$shared/models/armnn/mobilenet_v1_0.25_128_quant.armnn"
tflite="$shared/models/tflite/mobilenet_v1_0.25_128_quant.tflite"
data="$build/benchdata"
mkdir -p "$data"
# A fixed pseudo-random 1x128x128x3 uint8 image (same bytes every run).
python3 -c "
import random; random.seed(5)
open('$data/mnv1_input.bin','wb').write(bytes(random.randrange(256) for _ in range(128*128*3)))"

echo "== per-kernel (threads=$threads) =="
"$build/tools/bench/npurun-kernel-bench" --threads "$threads"

median_ms() { sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | tail -1; }
if [[ -f $model ]]; then
    echo "== whole model: mobilenet_v1_0.25_128_quant, median of $iter runs, threads=$threads =="
    neon=$("$build/tools/npurun/npurun" "$model" "$data/mnv1_input.bin" --threads "$threads" --iterations "$iter" 2>&1 | median_ms)
    ref=$(NPURUN_KERNELS=ref "$build/tools/npurun/npurun" "$model" "$data/mnv1_input.bin" --iterations "$iter" 2>&1 | median_ms)
    echo "npurun NEON kernels: $neon ms; npurun kernels/ref: $ref ms"
    if [[ -x $build/tools/bench/armnn-cpuref-bench && -f $tflite ]]; then
        armnn=$("$build/tools/bench/armnn-cpuref-bench" "$tflite" "$data/mnv1_input.bin" "$iter" CpuRef | median_ms)
        echo "Arm NN 20.08 CpuRef (same network from its .tflite source): $armnn ms"
        python3 -c "print('ratio CpuRef/npurun-NEON = %.1fx, CpuRef/npurun-ref = %.1fx' % ($armnn/$neon, $armnn/$ref))"
    fi
else
    echo "(skipped whole-model timing: $model absent)"
fi

if [[ -x $cross/tools/npurun/npurun && -f $model ]] && command -v qemu-aarch64 >/dev/null; then
    echo "== qemu-aarch64: executed instructions per inference (count(3 runs) - count(1 run)) / 2 =="
    for kernels in neon ref; do
        env_arg=()
        [[ $kernels == ref ]] && env_arg=(-E NPURUN_KERNELS=ref)
        c1=$(python3 "$(dirname "$0")/qemu-insn-count.py" "$sysroot" "${env_arg[@]}" "$cross/tools/npurun/npurun" "$model" "$data/mnv1_input.bin" --iterations 1 | tail -1)
        c3=$(python3 "$(dirname "$0")/qemu-insn-count.py" "$sysroot" "${env_arg[@]}" "$cross/tools/npurun/npurun" "$model" "$data/mnv1_input.bin" --iterations 3 | tail -1)
        echo "npurun $kernels: $(( (c3 - c1) / 2 )) instructions per inference (1 run: $c1, 3 runs: $c3)"
    done
else
    echo "(skipped qemu instruction counts: run make cross first)"
fi
