#!/usr/bin/env bash
# Executed instructions (valgrind callgrind, deterministic: the machine's load does not change them) that
# npurun spends in each phase of one run, for one or more npurun binaries side by side: model load
# (Model::load), session construction (the CPU kernels' prepare step, or NPU lowering: weight packing,
# regcmd), and one inference (Session::run). Used to show before/after of a change on the same model in one
# run: build the old commit's npurun in a worktree and pass both binaries.
#
#   tools/bench/session-instructions.sh MODEL INPUT DEVICE NPURUN...
#   e.g. tools/bench/session-instructions.sh ../shared/models/armnn/mobilenet_v1_0.25_128_quant.armnn in.bin sim \
#          /tmp/old/build/tools/npurun/npurun build/tools/npurun/npurun
set -euo pipefail
[[ $# -ge 4 ]] || { echo "usage: $0 MODEL INPUT DEVICE NPURUN..." >&2; exit 2; }
model=$1 input=$2 device=$3
shift 3
command -v valgrind >/dev/null || { echo "$0: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-60s %14s %14s %14s\n' "npurun ($device, --threads 1)" "load" "session" "inference"
for bin in "$@"; do
    row=()
    for fn in 'npurun::Model::load(*' 'npurun::Session::Session(std::shared_ptr*' 'npurun::Session::run()'; do
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" --toggle-collect="$fn" \
            "$bin" "$model" "$input" --device "$device" --threads 1 >"$work/log" 2>&1 ||
            { echo "$0: $bin failed:" >&2; tail -3 "$work/log" >&2; exit 1; }
        row+=("$(sed -n 's/^summary: //p' "$work/cg.out")")
    done
    printf '%-60s %14s %14s %14s\n' "$bin" "${row[@]}"
done
