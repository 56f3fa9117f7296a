#!/usr/bin/env bash
# make bench: per-kernel rates (ours vs kernels/ref vs XNNPACK), whole-model latency on this machine
# (npurun NEON, npurun ref, Arm NN 20.08 CpuRef; same .armnn, same input), and executed aarch64
# instructions per inference under qemu (npurun vs Arm NN 20.08 CpuAcc = Arm Compute Library NEON, the
# headline figure for the CPU path on the board). Prints ratios; asserts nothing (never run by make test).
#
# Usage: run-bench.sh BUILD CROSS_BUILD SYSROOT ARMNN_SYSROOT ARMNN_CROSS_DIR
# Env: THREADS (default 1) for the timed runs; ITER (default 20) timed runs per model; COUNT_N (default 3)
#      inferences of the long qemu count; QEMU_CPUREF=1 also counts Arm NN CpuRef under qemu (slow: about
#      a billion instructions per inference, tens of minutes of logging on a 2-core machine).
set -euo pipefail
build=$1 cross=$2 sysroot=$3 armnn_sysroot=$4 armnn_cross=$5
threads=${THREADS:-1} iter=${ITER:-20} count_n=${COUNT_N:-3}
here=$(cd "$(dirname "$0")" && pwd)
shared="$here/../../../shared"
quant_model="$shared/models/armnn/mobilenet_v1_0.25_128_quant.armnn"
data="$build/benchdata"
mkdir -p "$data"
# A fixed pseudo-random 1x128x128x3 uint8 image (same bytes every run).
python3 -c "
import random; random.seed(5)
open('$data/mnv1_input.bin','wb').write(bytes(random.randrange(256) for _ in range(128*128*3)))"
# The float model and its input, written by Arm NN 20.08's own serializer (make_float_mobilenet.cpp).
float_model="$data/mobilenet_v1_0.25_128_float.armnn"
"$build/tools/bench/make-float-mobilenet" "$float_model" "$data/mnv1_float_input.bin"
# The MobileNetV2-1.0-224-shaped int8 network (tools/modelwriter), twice: in the current schema (ElementwiseBinary
# layers, which Arm NN 20.08 cannot read) for the threads table, and in Arm NN 20.08's encoding (Addition layers,
# legacy depthwise layout, a per-tensor classifier) for the qemu count, where npurun and CpuAcc run the same file.
mnv2_model="$data/mobilenet_v2_1.0_224_int8_shaped.armnn"
"$build/tools/bench/make-mobilenet-v2" "$mnv2_model" "$data/mnv2_input.bin"
mnv2_old="$data/mobilenet_v2_1.0_224_int8_shaped.armnn2008.armnn"
"$build/tools/bench/make-mobilenet-v2" --armnn-20.08 "$mnv2_old" "$data/mnv2_input.bin"
# The float SSD-style network (MobileNet-v3-style backbone with hard-swish and SE, SSD heads), 320x320.
ssd_model="$data/ssd_mobilenet_v3_style_320_float.armnn"
"$build/tools/bench/make-ssd-v3" "$ssd_model" "$data/ssd_input.bin" 320

# Index of the largest element of a raw output file (DTYPE: B = uint8, f = float32).
top1() { python3 -c "
import struct,sys; b=open(sys.argv[1],'rb').read(); v=struct.unpack('<%d$2' % (len(b)//struct.calcsize('$2')), b)
print(max(range(len(v)), key=lambda i: (v[i], -i)))" "$1"; }
median_ms() { sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' | tail -1; }

echo "== per-kernel (threads=$threads) =="
"$build/tools/bench/npurun-kernel-bench" --threads "$threads"

# whole_model NAME MODEL INPUT DTYPE
whole_model() {
    local name=$1 model=$2 input=$3 dtype=$4 neon ref armnn out
    echo "== whole model: $name, median of $iter runs, threads=$threads (x86; NEON kernels through SIMDe) =="
    out=$("$build/tools/npurun/npurun" "$model" "$input" --device cpu --threads "$threads" --iterations "$iter" -o "$data/$name.out.bin")
    neon=$(median_ms <<<"$out")
    ref=$(NPURUN_KERNELS=ref "$build/tools/npurun/npurun" "$model" "$input" --device cpu --threads 1 --iterations "$iter" | median_ms)
    echo "npurun NEON kernels: $neon ms; npurun kernels/ref: $ref ms; npurun top-1 index $(top1 "$data/$name.out.bin" "$dtype")"
    out=$("$build/tools/bench/armnn-bench" "$model" "$input" "$iter" CpuRef)
    echo "$out"
    armnn=$(median_ms <<<"$out")
    python3 -c "print('ratio Arm NN CpuRef / npurun NEON = %.2fx, CpuRef / npurun ref = %.2fx' % ($armnn/$neon, $armnn/$ref))"
}
if [[ -f $quant_model ]]; then
    whole_model mobilenet_v1_0.25_128_quant "$quant_model" "$data/mnv1_input.bin" B
else
    echo "(skipped mobilenet_v1_0.25_128_quant: $quant_model absent)"
fi
whole_model mobilenet_v1_0.25_128_float "$float_model" "$data/mnv1_float_input.bin" f

# --threads 1 / 2 / 4 side by side on every real model and the float MobileNet (more threads should never be
# slower than one beyond the printed spread).
"$here/threads-bench.sh" "$build" "$data" "$float_model" "$data/mnv1_float_input.bin" "$mnv2_model" "$data/mnv2_input.bin" \
    "$ssd_model" "$data/ssd_input.bin"

# Executed guest instructions per inference: (count(N runs) - count(1 run)) / (N - 1), so model loading,
# one-time weight packing (Arm Compute Library's prepare() runs on the first inference) and process start
# cancel out. Everything single-threaded (npurun --threads 1; CpuAcc via build-armnn-aarch64.sh).
count() { python3 "$here/qemu-insn-count.py" "$@" | tail -1; }
# per_inference LABEL QEMU_ROOT ITER_FLAG_STYLE PROGRAM ARGS... (the iteration count is appended/inserted)
declare -A per
per_inference() {
    local label=$1 root=$2 c1 cn
    shift 2
    c1=$(count "$root" "${@//@N@/1}")
    cn=$(count "$root" "${@//@N@/$count_n}")
    per[$label]=$(( (cn - c1) / (count_n - 1) ))
    echo "$label: ${per[$label]} instructions per inference (1 run: $c1, $count_n runs: $cn)"
}
if [[ -x $cross/tools/npurun/npurun && -f $quant_model ]] && command -v qemu-aarch64 >/dev/null; then
    echo "== qemu-aarch64: executed instructions per inference, mobilenet_v1_0.25_128_quant, 1 thread =="
    per_inference "npurun NEON" "$sysroot" "$cross/tools/npurun/npurun" "$quant_model" "$data/mnv1_input.bin" \
        --threads 1 --iterations @N@
    # qemu-aarch64's default CPU ("max") has FEAT_I8MM, so "npurun NEON" takes the i8mm GEMM micro-kernel; this
    # line is the same run on the dot-product one (the board's A76/A55 have no i8mm).
    per_inference "npurun NEON, i8mm off" "$sysroot" -E NPURUN_KERNELS=no-i8mm "$cross/tools/npurun/npurun" "$quant_model" \
        "$data/mnv1_input.bin" --threads 1 --iterations @N@
    per_inference "npurun kernels/ref" "$sysroot" -E NPURUN_KERNELS=ref "$cross/tools/npurun/npurun" "$quant_model" \
        "$data/mnv1_input.bin" --device cpu --threads 1 --iterations @N@
    if [[ -x $armnn_cross/armnn-bench ]]; then
        per_inference "Arm NN 20.08 CpuAcc" "$armnn_sysroot" "$armnn_cross/armnn-bench" "$quant_model" \
            "$data/mnv1_input.bin" @N@ CpuAcc
        python3 -c "print('HEADLINE ratio npurun NEON / Arm NN CpuAcc = %.3f (instructions per inference; < 1: npurun executes fewer)' % (${per[npurun NEON]}/${per[Arm NN 20.08 CpuAcc]}))"
        if [[ ${QEMU_CPUREF:-0} == 1 ]]; then
            per_inference "Arm NN 20.08 CpuRef" "$armnn_sysroot" "$armnn_cross/armnn-bench" "$quant_model" \
                "$data/mnv1_input.bin" @N@ CpuRef
            python3 -c "print('ratio npurun NEON / Arm NN CpuRef = %.3f' % (${per[npurun NEON]}/${per[Arm NN 20.08 CpuRef]}))"
        else
            echo "(Arm NN CpuRef under qemu skipped: QEMU_CPUREF=1 counts it, slowly)"
        fi
    else
        echo "(skipped Arm NN CpuAcc count: $armnn_cross/armnn-bench missing; tools/bench/build-armnn-aarch64.sh makes it)"
    fi
    echo "== qemu-aarch64: executed instructions per inference, MobileNetV2-1.0-224-shaped int8 (Arm NN 20.08 encoding), 1 thread =="
    count_n=2 per_inference "npurun NEON (MobileNetV2 int8)" "$sysroot" "$cross/tools/npurun/npurun" "$mnv2_old" \
        "$data/mnv2_input.bin" --threads 1 --iterations @N@
    count_n=2 per_inference "npurun NEON, i8mm off (MobileNetV2 int8)" "$sysroot" -E NPURUN_KERNELS=no-i8mm \
        "$cross/tools/npurun/npurun" "$mnv2_old" "$data/mnv2_input.bin" --threads 1 --iterations @N@
    if [[ -x $armnn_cross/armnn-bench ]]; then
        count_n=2 per_inference "Arm NN 20.08 CpuAcc (MobileNetV2 int8)" "$armnn_sysroot" "$armnn_cross/armnn-bench" \
            "$mnv2_old" "$data/mnv2_input.bin" @N@ CpuAcc
        python3 -c "print('ratio npurun NEON / Arm NN CpuAcc, MobileNetV2 int8 = %.3f' % (${per[npurun NEON (MobileNetV2 int8)]}/${per[Arm NN 20.08 CpuAcc (MobileNetV2 int8)]}))"
    fi
    # The optional fp16-arithmetic path (--cpu-fp16: FMLA on 8 half lanes for Float32 convolutions and fully
    # connected layers) against the Float32 NEON kernels, on the float MobileNet.
    echo "== qemu-aarch64: executed instructions per inference, mobilenet_v1_0.25_128_float, 1 thread =="
    per_inference "npurun NEON fp32 (float MobileNet)" "$sysroot" "$cross/tools/npurun/npurun" "$float_model" \
        "$data/mnv1_float_input.bin" --device cpu --threads 1 --iterations @N@
    per_inference "npurun NEON --cpu-fp16 (float MobileNet)" "$sysroot" "$cross/tools/npurun/npurun" "$float_model" \
        "$data/mnv1_float_input.bin" --device cpu --cpu-fp16 --threads 1 --iterations @N@
    python3 -c "print('ratio npurun --cpu-fp16 / npurun fp32, float MobileNet = %.3f' % (${per[npurun NEON --cpu-fp16 (float MobileNet)]}/${per[npurun NEON fp32 (float MobileNet)]}))"
else
    echo "(skipped qemu instruction counts: needs the cross build's npurun, the model and qemu-aarch64)"
fi
