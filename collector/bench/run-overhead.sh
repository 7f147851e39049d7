#!/usr/bin/env bash
# libibprof's overhead on MPI_Alltoall and MPI_Bcast (a benchmark, not a test).
#
# 1. Latency, OSU-style (osu_coll.c), interleaved round by round in three modes:
#      none      no preload
#      preload   libibprof preloaded, counting everything
#      filtered  libibprof preloaded, the measured collective filtered out (IBPROF=<the other>)
#      insitu    libibprof preloaded and tracing in situ (IBPROF_RAILS on the two-rail sample,
#                ranks placed by a host map, IBPROF_TOPK=8, a loads file written at finalize)
#    Reported: the median and the minimum latency per size over the rounds, and the overhead
#    summed over the sizes >= 1 KiB ((sum_mode - sum_none) / sum_none) for both. On a shared
#    machine the minimum is the steadier estimate; ranks are bound to cores.
# 2. Instructions per call under valgrind --tool=callgrind, on 1 rank (deterministic: no
#    waiting for peers), from the difference between two iteration counts, which cancels the
#    fixed cost of MPI_Init/MPI_Finalize; and what libibprof adds as a % of the whole call's
#    instructions without it.
#
# 3. Wall-clock cost per call: the same benchmark on 1 rank (1 KiB, 200,000 calls; nothing to
#    wait for, so the difference between modes is the collector's own time), the minimum of
#    `rounds` interleaved runs; and from it the estimated overhead summed over sizes >= 1 KiB
#    (cost × number of sizes / sum of the minimum latencies without preload, from part 1).
# 4. The overhead at 1 KiB on `ranks` ranks, paired within each process (paired_coll.c): blocks
#    of 1000 calls through MPI_* (the wrapper) alternate with blocks through PMPI_* (MPI
#    itself), 300 pairs a launch, `rounds` launches per mode (none, preload, filtered),
#    interleaved. Reported per mode: the median over all pairs of (MPI - PMPI) / PMPI, the
#    median difference in ns, and the range of the launches' own medians. Both blocks of a pair
#    share the process, its memory placement and the machine's noise of that moment, which
#    the run-to-run spread of part 1 (tens of %) drowns; `none` (both blocks are MPI's own
#    code) shows the method's resolution.
#
# Usage: collector/bench/run-overhead.sh [openmpi|mpich] [rounds] [ranks]
# IBPROF_BENCH_PARTS=latency,callgrind,cost,paired (default: the first three) selects parts.
# IBPROF_BENCH_LIB=path/to/libibprof.so measures that build instead of building this checkout's
# (to compare two builds, run the script once with each, interleaving runs yourself).
# Needs openmpi-bin libopenmpi-dev / mpich, valgrind, python3.
set -euo pipefail
mpi=${1:-openmpi}
rounds=${2:-7}
ranks=${3:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${IBPROF_BENCH_DIR:-$root/target/ibprof-bench}/$mpi
mkdir -p "$out"
parts=${IBPROF_BENCH_PARTS:-latency,callgrind,cost}
has() { [[ ",$parts," == *",$1,"* ]]; }

if [ -n "${IBPROF_BENCH_LIB:-}" ]; then
    lib=$(realpath "$IBPROF_BENCH_LIB")
else
    cargo build --release -q -p ibprof --manifest-path "$root/Cargo.toml"
    lib=$root/target/release/libibprof.so
fi
mpicc.$mpi -O2 "$root/collector/bench/osu_coll.c" -o "$out/osu_coll"
mpicc.$mpi -O2 "$root/collector/bench/paired_coll.c" -o "$out/paired_coll"

# launch NP MODE OTHER -- program args…: runs the benchmark with MODE's environment.
launch() {
    local np=$1 mode=$2 other=$3
    shift 4
    local env=()
    if [ "$mode" != none ]; then env+=(LD_PRELOAD "$lib" IBPROF_OUT "$out/bench.ibprof"); fi
    if [ "$mode" = filtered ]; then env+=(IBPROF "$other"); fi
    if [ "$mode" = insitu ]; then
        env+=(IBPROF_RAILS "$root/sample-data/tworail/rail0;$root/sample-data/tworail/rail1"
            IBPROF_HOSTMAP "$out/bench.hostmap" IBPROF_LOADS "$out/bench.loads.csv" IBPROF_TOPK 8)
    fi
    if [ "$mpi" = openmpi ]; then
        local args=(-np "$np" --oversubscribe --allow-run-as-root --bind-to core --map-by core
            --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
        for ((i = 0; i < ${#env[@]}; i += 2)); do args+=(-x "${env[i]}=${env[i + 1]}"); done
        mpirun.openmpi "${args[@]}" "$@"
    else
        local args=(-n "$np" -bind-to core)
        for ((i = 0; i < ${#env[@]}; i += 2)); do args+=(-genv "${env[i]}" "${env[i + 1]}"); done
        mpiexec.mpich "${args[@]}" "$@"
    fi
}

# Ranks on hosts of different pods of the two-rail sample, for the in-situ mode.
for r in $(seq 0 $((ranks > 1 ? ranks - 1 : 1))); do echo "rank $r n$(printf %04d $((1 + r * 29)))"; done >"$out/bench.hostmap"

# interleave NP PREFIX PROGRAM ARGS…: every round, for each collective, runs PROGRAM COLL ARGS…
# once in each mode of ${round_modes[@]} (rotated by the round, so that no mode always runs
# first), appending its lines, each led by the round, to PREFIX-COLL-MODE.txt.
interleave() {
    local np=$1 prefix=$2 program=$3
    shift 3
    local n=${#round_modes[@]} round coll other k mode
    for round in $(seq "$rounds"); do
        for coll in alltoall bcast; do
            other=$([ "$coll" = alltoall ] && echo BCAST || echo ALLTOALL)
            for ((k = 0; k < n; k++)); do
                mode=${round_modes[$(((k + round) % n))]}
                launch "$np" "$mode" "$other" -- "$program" "$coll" "$@" 2>/dev/null \
                    | sed "s/^/$round /" >>"$prefix-$coll-$mode.txt"
            done
        done
        echo "  round $round done"
    done
}

modes=(none preload filtered insitu)
if has latency; then
rm -f "$out"/lat-*.txt
echo "== latency: $mpi, $ranks ranks, $rounds interleaved rounds"
round_modes=("${modes[@]}")
interleave "$ranks" "$out/lat" "$out/osu_coll" 1 1048576 1000

python3 - "$out" <<'PY'
import statistics, sys, collections
out = sys.argv[1]
for coll in ("alltoall", "bcast"):
    stat = {}
    for mode in ("none", "preload", "filtered", "insitu"):
        per = collections.defaultdict(list)
        for line in open(f"{out}/lat-{coll}-{mode}.txt"):
            _, size, us = line.split()
            per[int(size)].append(float(us))
        stat[mode] = {s: (statistics.median(v), min(v)) for s, v in per.items()}
    print(f"\n{coll}: latency (us) per size, median / minimum over the rounds")
    print(f"{'size':>8} {'none':>17} {'preload':>17} {'filtered':>17} {'insitu':>17}")
    for s in sorted(stat["none"]):
        cells = " ".join(f"{stat[m][s][0]:>8.2f}/{stat[m][s][1]:<8.2f}" for m in ("none", "preload", "filtered", "insitu"))
        print(f"{s:>8} {cells}")
    big = [s for s in stat["none"] if s >= 1024]
    for k, what in ((0, "median"), (1, "minimum")):
        base = sum(stat["none"][s][k] for s in big)
        for mode in ("preload", "filtered", "insitu"):
            tot = sum(stat[mode][s][k] for s in big)
            print(f"{coll} {mode}: {100 * (tot - base) / base:+.2f} % summed over sizes >= 1 KiB ({what})")
PY
fi

if has callgrind; then
echo
echo "== instructions per call (callgrind, 1 rank, 1 KiB)"
# ir MODE COLL ITERS → "total own": all instructions, and those executed in libibprof's code.
ir() {
    local f="$out/cg.$1.$2.$3" other
    other=$([ "$2" = alltoall ] && echo BCAST || echo ALLTOALL)
    launch 1 "$1" "$other" -- valgrind --tool=callgrind --callgrind-out-file="$f" \
        "$out/osu_coll" "$2" 1024 1024 "$3" >/dev/null 2>&1
    local total own
    total=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
    own=$(callgrind_annotate --auto=no --inclusive=no --threshold=100 "$f" 2>/dev/null |
        awk '/collector\/src|\/rustc\/|libibprof/ {gsub(",", "", $1); s += $1} END {print s + 0}')
    echo "$total $own"
}
calls() { local w=$(($1 / 10)); [ "$w" -lt 2 ] && w=2; echo $(($1 + w)); }
for coll in alltoall bcast; do
    n1=2000 n2=6000
    d=$(($(calls $n2) - $(calls $n1)))
    read -r a1 _ < <(ir none "$coll" $n1)
    read -r a2 _ < <(ir none "$coll" $n2)
    read -r b1 o1 < <(ir preload "$coll" $n1)
    read -r b2 o2 < <(ir preload "$coll" $n2)
    read -r c1 p1 < <(ir filtered "$coll" $n1)
    read -r c2 p2 < <(ir filtered "$coll" $n2)
    read -r e1 q1 < <(ir insitu "$coll" $n1)
    read -r e2 q2 < <(ir insitu "$coll" $n2)
    base=$(((a2 - a1) / d))
    # share ADDED: ADDED instructions as a percentage of the whole call without libibprof.
    share() { awk -v a="$1" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? 100 * a / b : 0) }'; }
    echo "$coll: MPI alone $base instr/call"
    added=$((((b2 - b1) - (a2 - a1)) / d))
    echo "  counting: +$added instr/call in total ($(share $added) % of the call), $(((o2 - o1) / d)) of them in libibprof's code"
    added=$((((c2 - c1) - (a2 - a1)) / d))
    echo "  filtered: +$added instr/call in total ($(share $added) % of the call), $(((p2 - p1) / d)) of them in libibprof's code"
    added=$((((e2 - e1) - (a2 - a1)) / d))
    echo "  in situ:  +$added instr/call in total ($(share $added) % of the call), $(((q2 - q1) / d)) of them in libibprof's code"
done
fi

if has cost; then
echo
echo "== wall-clock cost per call: 1 rank, 1 KiB, minimum of $rounds interleaved runs"
rm -f "$out"/cost-*.txt
round_modes=("${modes[@]}")
interleave 1 "$out/cost" "$out/osu_coll" 1024 1024 200000
python3 - "$out" <<'PY'
import collections, os, sys
out = sys.argv[1]
for coll in ("alltoall", "bcast"):
    best = {}
    for mode in ("none", "preload", "filtered", "insitu"):
        for line in open(f"{out}/cost-{coll}-{mode}.txt"):
            _, _, us = line.split()
            best[mode] = min(best.get(mode, 1e9), float(us))
    cost = {m: 1000 * (best[m] - best["none"]) for m in ("preload", "filtered", "insitu")}
    print(f"{coll}: MPI alone {1000 * best['none']:.0f} ns/call; libibprof adds {cost['preload']:.0f} ns "
          f"(counting), {cost['filtered']:.0f} ns (filtered out), {cost['insitu']:.0f} ns (in situ)")
    lat = f"{out}/lat-{coll}-none.txt"
    if os.path.exists(lat):
        per = collections.defaultdict(list)
        for line in open(lat):
            _, size, us = line.split()
            per[int(size)].append(float(us))
        big = [min(v) for s, v in per.items() if s >= 1024]
        est = 100 * cost["preload"] / 1000 * len(big) / sum(big)
        print(f"  estimated overhead summed over the {len(big)} sizes >= 1 KiB: {est:.2f} % "
              f"(at 1 KiB alone: {100 * cost['preload'] / 1000 / min(per[1024]):.1f} %)")
PY
fi

if has paired; then
echo
echo "== overhead at 1 KiB, $ranks ranks, paired blocks within each process: $rounds launches per mode"
rm -f "$out"/paired-*.txt
round_modes=(none preload filtered)
interleave "$ranks" "$out/paired" "$out/paired_coll" 1024 1000 300
python3 - "$out" <<'PY'
import collections, statistics, sys
out = sys.argv[1]
for coll in ("alltoall", "bcast"):
    for mode in ("none", "preload", "filtered"):
        launches = collections.defaultdict(list)
        for line in open(f"{out}/paired-{coll}-{mode}.txt"):
            run, wrapped, pmpi = line.split()
            launches[run].append((float(wrapped), float(pmpi)))
        pairs = [p for ps in launches.values() for p in ps]
        rel = lambda ps: statistics.median((w - p) / p for w, p in ps)
        per_launch = sorted(100 * rel(ps) for ps in launches.values())
        diff = 1000 * statistics.median(w - p for w, p in pairs)
        lat = 1000 * statistics.median(p for _, p in pairs)
        print(f"{coll} {mode}: {100 * rel(pairs):+.2f} % at 1 KiB ({diff:+.1f} ns of {lat:.0f} ns; "
              f"median of {len(pairs)} pairs, launches {per_launch[0]:+.2f} .. {per_launch[-1]:+.2f} %)")
PY
fi
