#!/usr/bin/env bash
# Rewrites the include lines of the given files from the old layout to the layered one (issue 13):
# runtime/graph, runtime/util's pure arithmetic and drv/util/fp16 moved to core/ and ir/.
# Run it on files written against the old paths, e.g. after merging main:
#     tools/ci/rewrite-includes.sh $(git diff --name-only --diff-filter=A main...)
# Only `#include "..."` lines change; a file without an old path is left byte-identical.
# The mapping is the one table of old -> new paths; keep it in sync with the moves.
set -euo pipefail

MAPPING=(
    'runtime/graph/error.h=core/error.h'
    'runtime/graph/types.h=core/types.h'
    'runtime/util/checked_math.h=core/checked_math.h'
    'runtime/util/quantization.h=core/quantization.h'
    'drv/util/fp16.h=core/fp16.h'
    'runtime/graph/graph.h=ir/graph.h'
    'runtime/graph/ops.h=ir/ops.h'
    'runtime/ops/=ir/ops/'
)

if [[ $# -eq 0 ]]; then
    echo "usage: $0 FILE..." >&2
    exit 2
fi

script=()
for entry in "${MAPPING[@]}"; do
    old=${entry%%=*}
    new=${entry#*=}
    # Only inside the quotes of an include line; '.' in a path is escaped so it matches itself.
    old_re=${old//./\\.}
    script+=(-e "s|^\\([[:space:]]*#[[:space:]]*include[[:space:]]*\"\\)${old_re}|\\1${new}|")
done

for f in "$@"; do
    [[ -f $f ]] || continue
    if grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(runtime/graph/|runtime/util/(checked_math|quantization)\.h|drv/util/fp16\.h|runtime/ops/)' "$f"; then
        sed -i "${script[@]}" "$f"
    fi
done
