#!/usr/bin/env bash
# Builds and runs every libFuzzer target of a fuzz build directory (make fuzz).
#   tests/fuzz/run-fuzz.sh BUILD_DIR [SECONDS_PER_TARGET]     (default 60)
# Targets run side by side, FUZZ_PARALLEL at a time (default: the number of CPUs), one libFuzzer process
# each: the budget is per target, so CI's 2 cores fuzz two targets at once in the same wall time. Where
# the cores share caches and memory bandwidth, each target then executes less (on the 2-core CI-like
# machine: 0.5-0.8x its executions alone); FUZZ_PARALLEL=1 gives every target the whole machine.
# Corpora live in BUILD_DIR/fuzz-work/corpus-<target> (kept between runs, so longer runs build on shorter
# ones); seeds: tests/fuzz/regressions/<target>, ../shared models and captures, generated models and regcmd.
# A finding (crash, sanitizer report, timeout, out-of-memory, escaping exception) is written to
# BUILD_DIR/fuzz-work/findings-<target>/; the script prints executions and findings per target and
# exits 1 when there is any finding.
set -uo pipefail
build=${1:?usage: run-fuzz.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
parallel=${FUZZ_PARALLEL:-$(nproc)}
[[ $parallel =~ ^[1-9][0-9]*$ ]] || { echo "run-fuzz: FUZZ_PARALLEL must be a positive integer, not '$parallel'" >&2; exit 2; }
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${NPURUN_SHARED:-$src/../shared}
work=$build/fuzz-work
mkdir -p "$work"

targets=$(ninja -C "$build" -t targets all | sed -n 's|^\(tests/fuzz/fuzz-[a-z0-9-]*\): .*|\1|p' | grep -v -e '-replay$' -e 'write-seeds$' | sort -u)
[[ -n "$targets" ]] || { echo "run-fuzz: no fuzz targets in $build (needs clang with libFuzzer)" >&2; exit 1; }
ninja -C "$build" -j2 $targets tests/fuzz/fuzz-write-seeds > "$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }

rm -rf "$work/generated"
"$build/tests/fuzz/fuzz-write-seeds" "$work/generated" || exit 1

# Capture files with the reader's selector byte in front (0 JSON, 1 log, 2 raw).
prefixed_captures() {
  local out=$1
  mkdir -p "$out"
  local f
  for f in "$shared"/captures/rk3588-vendor-conv/*.json; do [[ -f $f ]] && { printf '\0'; cat "$f"; } > "$out/json-$(basename "$f")"; done
  for f in "$shared"/captures/rk3588-vendor-raw/*.log; do [[ -f $f ]] && { printf '\1'; cat "$f"; } > "$out/log-$(basename "$f")"; done
  for f in "$work"/generated/regcmd-*/*.regcmd; do [[ -f $f ]] && { printf '\2'; cat "$f"; } > "$out/raw-$(basename "$(dirname "$f")")"; done
}

# One target: fuzzes it and writes its summary line to $work/NAME.summary and its number of findings to
# $work/NAME.found (read after every target has finished: no exit status crosses the background job).
run_target() {
  local t=$1
  local exe=$build/$t name corpus seeds findings extra log before rc execs found
  name=${t##*/fuzz-}
  corpus=$work/corpus-$name
  seeds=$work/seeds-$name
  findings=$work/findings-$name
  rm -rf "$seeds"
  mkdir -p "$corpus" "$seeds" "$findings"
  [[ -d $src/tests/fuzz/regressions/$name ]] && cp -r "$src/tests/fuzz/regressions/$name/." "$seeds/"
  case $name in
    armnn-loader)
      cp "$shared"/models/armnn/*.armnn "$shared"/models/armnn/legacy/*.armnn "$seeds/" 2>/dev/null
      cp "$work"/generated/models/*.armnn "$seeds/" ;;
    pipeline)
      # Small models only: libFuzzer's input length follows the largest seed, and a 500 kB MobileNet makes
      # every mutation a full CPU + simulator run of it (a handful of executions a minute).
      find "$shared/models/armnn" -name '*.armnn' -size -64k -exec cp {} "$seeds/" \; 2>/dev/null
      cp "$work"/generated/models/*.armnn "$seeds/" ;;
    mnn-loader)
      find "$shared/models/mnn" -name '*.mnn' -size -4M -exec cp {} "$seeds/" \; 2>/dev/null ;;
    regcmd-decoder)
      cp "$work"/generated/regcmd-*/*.regcmd "$seeds/" 2>/dev/null
      i=0; for f in "$work"/generated/regcmd-*/*.regcmd; do cp "$f" "$seeds/regcmd-$i"; i=$((i + 1)); done ;;
    capture-reader)
      prefixed_captures "$seeds" ;;
  esac
  extra=()
  # The gdb-log reader runs a std::regex per line: whole 90 kB logs make a run take ~50 ms. 16 kB inputs
  # keep the structure (tables, descriptors, qwords) and allow 10x the executions.
  [[ $name == capture-reader ]] && extra=(-max_len=16384)
  log=$work/$name.log
  before=$(ls "$findings" | wc -l)
  # -rss_limit_mb: the targets' own budgets keep them far below; above this is a finding (memory blow-up).
  "$exe" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" \
    -artifact_prefix="$findings/" "$corpus" "$seeds" > "$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(( $(ls "$findings" | wc -l) - before ))
  [[ $rc -ne 0 && $found -eq 0 ]] && found=1   # a failure libFuzzer could not save (e.g. in startup)
  printf '%-16s %10s executions  %2d finding(s)  corpus %5d  (%s s)\n' "$name" "${execs:-?}" "$found" \
    "$(ls "$corpus" | wc -l)" "$seconds" > "$work/$name.summary"
  echo "$found" > "$work/$name.found"
  if [[ $found -ne 0 ]]; then
    echo "run-fuzz: $name: finding(s) in $findings, log $log:" >&2
    grep -m5 -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" >&2
  fi
}

for t in $targets; do
  rm -f "$work/${t##*/fuzz-}.summary" "$work/${t##*/fuzz-}.found"
  run_target "$t" &
  while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
done
wait
status=0
echo "fuzz summary (${seconds}s per target, $parallel at a time):"
for t in $targets; do
  name=${t##*/fuzz-}
  found=$(cat "$work/$name.found" 2>/dev/null)
  if [[ -f $work/$name.summary && $found =~ ^[0-9]+$ ]]; then
    sed 's/^/  /' "$work/$name.summary"
    [[ $found -eq 0 ]] || status=1
  else
    echo "  $name: no result (its run did not finish)"
    status=1
  fi
done
exit $status
