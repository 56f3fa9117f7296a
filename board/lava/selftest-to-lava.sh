#!/bin/sh
# The step of board/lava/npurun-selftest.yaml: runs npu-info and npurun-selftest on the board and
# reports every self-test case to LAVA with its helpers (lava-test-case, lava-test-set,
# lava-test-reference), so that the farm's dashboards show each case.
#
#   selftest-to-lava.sh DEVICE REQUIRE_NPU EXPECTATIONS RESULTS_DIR [UPLOAD_URL]
#
# DEVICE npu|sim, REQUIRE_NPU true|false, EXPECTATIONS a list prefix or "" (see the definition's params).
# POSIX sh only (busybox ash on Buildroot images, dash, bash), no python on the board. Exits 0 when it
# could report (the verdict is the npurun-selftest test case), 2 on a bad argument or a missing helper.
set -u

device=${1:-npu}
require_npu=${2:-true}
expectations=${3:-}
results=${4:-/tmp/npurun-selftest}
upload=${5:-}

case $device in
    npu | sim) ;;
    *) echo "selftest-to-lava.sh: DEVICE must be npu or sim, not '$device'" >&2; exit 2 ;;
esac
case $require_npu in
    true | false) ;;
    *) echo "selftest-to-lava.sh: REQUIRE_NPU must be true or false, not '$require_npu'" >&2; exit 2 ;;
esac
for helper in lava-test-case lava-test-set npu-info npurun-selftest; do
    command -v "$helper" >/dev/null 2>&1 || { echo "selftest-to-lava.sh: $helper is not on PATH" >&2; exit 2; }
done
mkdir -p "$results" || exit 2

# 1. The NPU node, its driver and a buffer smoke test: the first thing to read when anything fails.
if npu-info --device "$device" >"$results/npu-info.txt" 2>&1; then info=pass; else info=fail; fi
cat "$results/npu-info.txt"
lava-test-case npu-info --result "$info"

# 2. The self-test. Its case lines go to the log as they run; the reports to $results.
rm -f "$results/selftest.csv" "$results/selftest.json" "$results/selftest.html"
set -- --device "$device" --json "$results/selftest.json" --html "$results/selftest.html" --csv "$results/selftest.csv"
[ "$require_npu" = true ] && set -- "$@" --require-npu
[ -n "$expectations" ] && set -- "$@" --expectations "$expectations"
echo "+ npurun-selftest $*"
npurun-selftest "$@"
status=$?

# 3. Every case as a LAVA test case. selftest.csv: a header, then NAME,RESULT,OUTCOME,MS per case
# (npurun-selftest --csv). The case's own result goes into the set of its device; the judgement of the
# cases the lists name goes into the set "expectations" (a known failure is still reported as failing
# in the first set: the dashboards show what the board does, the verdict what changed).
if [ -s "$results/selftest.csv" ]; then
    lava-test-set start "selftest-$device"
    while IFS=, read -r name result outcome ms; do
        [ "$name" = name ] && continue
        lava-test-case "$name" --result "$result" --measurement "$ms" --units ms
    done <"$results/selftest.csv"
    lava-test-set stop

    lava-test-set start expectations
    while IFS=, read -r name result outcome ms; do
        case $outcome in
            expected-fail | flake) lava-test-case "$name" --result pass ;;
            unexpected-pass) lava-test-case "$name" --result fail ;;
        esac
    done <"$results/selftest.csv"
    lava-test-set stop
else
    echo "selftest-to-lava.sh: npurun-selftest wrote no per-case results (exit status $status)"
fi

# 4. The verdict: 0 = every case passed or failed as listed; 1 = a change (unlisted failure, unexpected
# pass) or no NPU with --require-npu; 2 = bad command line or expectation list.
if [ "$status" -eq 0 ]; then verdict=pass; else verdict=fail; fi
lava-test-case npurun-selftest --result "$verdict" --measurement "$status" --units exit-status

# 5. The reports, for a person to read: uploaded when the job names a place.
if [ -n "$upload" ]; then
    uploaded=pass
    if command -v curl >/dev/null 2>&1; then
        for f in selftest.html selftest.json selftest.csv npu-info.txt; do
            [ -f "$results/$f" ] || continue
            curl -sS -f -T "$results/$f" "$upload/$f" || uploaded=fail
        done
    else
        echo "selftest-to-lava.sh: curl is not on the image; reports not uploaded"
        uploaded=fail
    fi
    lava-test-case selftest-report-upload --result "$uploaded"
    if [ "$uploaded" = pass ] && command -v lava-test-reference >/dev/null 2>&1; then
        lava-test-reference selftest-report --result pass --reference "$upload/selftest.html"
    fi
fi
exit 0
