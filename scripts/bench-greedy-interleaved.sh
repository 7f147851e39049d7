#!/usr/bin/env bash
# Issue 23: route_greedy of several route bench binaries (e.g. main's and a branch's, built with
# `cargo bench --bench route --no-run`), interleaved so that the shared machine's load falls on
# each alike: ROUNDS rounds, one run of SAMPLES samples per binary, with the load average before
# each and the whole process's wall, CPU and peak RSS (set-up included) from /usr/bin/time.
# Usage: scripts/bench-greedy-interleaved.sh ROUNDS SAMPLES BENCH_BINARY...
set -euo pipefail
rounds=$1; samples=$2; shift 2
for r in $(seq "$rounds"); do
  for b in "$@"; do
    echo "== $(basename "$b") round $r | $(uptime | sed 's/.*load/load/')"
    /usr/bin/time -f "   process: wall %e s, user %U s, sys %S s, max RSS %M KB" \
      "$b" --bench route_greedy --sample-count "$samples" 2>&1 | grep -E "route_greedy|process:"
  done
done
