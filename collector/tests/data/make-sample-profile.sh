#!/usr/bin/env bash
# Regenerates samplesort-8.ibprof: a real collector profile of tests/mpi/samplesort.c on 8 ranks
# of one host (Open MPI, shared memory), with three regions. Host names are this machine's; map
# them onto a fabric's hosts with shoal's --host-map.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cargo build --release -q -p ibprof --manifest-path "$root/Cargo.toml"
tmp=$(mktemp -d)
mpicc.openmpi -O2 -I "$root/collector/include" "$root/collector/tests/mpi/samplesort.c" -o "$tmp/samplesort"
mpirun.openmpi -np 8 --oversubscribe --allow-run-as-root --mca btl self,vader \
    --mca btl_vader_single_copy_mechanism none \
    -x LD_PRELOAD="$root/target/release/libibprof.so" -x IBPROF_OUT="$here/samplesort-8.ibprof" "$tmp/samplesort"
rm -rf "$tmp"
