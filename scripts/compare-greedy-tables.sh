#!/usr/bin/env bash
# Issue 23: a change to the greedy router must not change its tables. Routes a generated k = 16
# fat tree (1,000 ranks × 30 peers) and the two-rail sample's rail 0 with two shoal binaries,
# both objectives, and compares the written dumps byte for byte.
# Usage: scripts/compare-greedy-tables.sh OLD_SHOAL NEW_SHOAL [WORK_DIR]
set -euo pipefail
old=$1; new=$2; work=${3:-$(mktemp -d)}
[ -d "$work/gen" ] || "$old" gen --k 16 --rails 1 --ranks 1000 --peers 30 --out "$work/gen" > /dev/null
cases=("$work/gen/rail0 $work/gen/ranks1000-peers30.ibprof"
       "sample-data/tworail/rail0 sample-data/tworail/samplesort.ibprof.gz")
status=0
for c in "${cases[@]}"; do
  read -r rail profile <<<"$c"
  for engine in greedy greedy-sum; do
    for which in old new; do
      bin=$old; [ "$which" = new ] && bin=$new
      "$bin" route "$rail" --engine "$engine" --profile "$profile" --out "$work/$which-$engine" > /dev/null 2>&1
    done
    if cmp -s "$work/old-$engine/opensm.fdbs" "$work/new-$engine/opensm.fdbs"; then
      echo "same tables: $engine on $rail"
    else
      echo "DIFFERENT tables: $engine on $rail"; status=1
    fi
  done
done
exit $status
