#!/usr/bin/env bash
# The profile writers compared: through rank 0 against MPI-IO (writers per block of ranks), on
# a samplesort job oversubscribed on this machine (a benchmark, not a test).
#
# Runs are interleaved round by round (rank0, mpiio, …) so both see the same machine load; the
# time is what rank 0 prints (`ibprof: wrote … (N ranks, …, T ms)`), from its arrival at the
# writer to the file closed. Reported: each writer's times, median and minimum.
#
# Usage: collector/bench/run-writers.sh [openmpi|mpich] [rounds] [ranks] [extra env VAR=VALUE…]
set -euo pipefail
mpi=${1:-openmpi}
rounds=${2:-9}
ranks=${3:-64}
shift $(($# < 3 ? $# : 3))
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${IBPROF_BENCH_DIR:-$root/target/ibprof-bench}/writers-$mpi
mkdir -p "$out"
cargo build --release -q -p ibprof --manifest-path "$root/Cargo.toml"
lib=$root/target/release/libibprof.so
mpicc.$mpi -O2 -I"$root/collector/include" "$root/collector/tests/mpi/samplesort.c" -o "$out/samplesort"

run() {
    local env=(LD_PRELOAD "$lib" IBPROF_OUT "$out/run.ibprof" IBPROF_WRITER "$1")
    for kv in "${@:2}"; do env+=("${kv%%=*}" "${kv#*=}"); done
    if [ "$mpi" = openmpi ]; then
        local args=(-np "$ranks" --oversubscribe --allow-run-as-root --mca btl self,vader
            --mca btl_vader_single_copy_mechanism none)
        for ((i = 0; i < ${#env[@]}; i += 2)); do args+=(-x "${env[i]}=${env[i + 1]}"); done
        timeout 300 mpirun.openmpi "${args[@]}" "$out/samplesort"
    else
        local args=(-n "$ranks")
        for ((i = 0; i < ${#env[@]}; i += 2)); do args+=(-genv "${env[i]}" "${env[i + 1]}"); done
        timeout 300 mpiexec.mpich "${args[@]}" "$out/samplesort"
    fi 2>&1 | sed -n 's/^ibprof: wrote .*, \([0-9.]*\) ms)$/\1/p'
}

rm -f "$out"/times-*.txt
for round in $(seq "$rounds"); do
    for writer in rank0 mpiio; do
        run "$writer" "$@" >>"$out/times-$writer.txt"
    done
done
echo "== $mpi, $ranks ranks, $rounds interleaved rounds, profile $(stat -c %s "$out/run.ibprof") bytes"
python3 - "$out" <<'PY'
import statistics, sys
for writer in ("rank0", "mpiio"):
    t = [float(x) for x in open(f"{sys.argv[1]}/times-{writer}.txt")]
    print(f"{writer:>6}: median {statistics.median(t):8.1f} ms, minimum {min(t):8.1f} ms  ({', '.join(f'{x:.0f}' for x in t)})")
PY
