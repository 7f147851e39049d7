#!/usr/bin/env bash
# Writes the two small job profiles of sample-data/tworail/jobs/ that the README's jobs examples
# use: synthetic patterns from `shoal pattern`, given recorded hosts so that both fit the
# two-rail sample (230 hosts) side by side, on hosts of their own:
#   md.ibprof.gz   64-rank all-to-all (256 KiB per peer), ranks on n0001..n0064
#   ior.ibprof.gz  48-rank I/O pattern (8 servers, 4 stripes, 16 MiB per client), on n0101..n0148
# Usage: scripts/make-job-samples.sh [SHOAL]   (default: target/debug/shoal)
set -euo pipefail
cd "$(dirname "$0")/.."
shoal=${1:-target/debug/shoal}
out=sample-data/tworail/jobs
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# place PROFILE FIRST_HOST: rank r gets host n(FIRST_HOST + r), zero-padded as the sample names them.
place() {
    awk -v first="$2" '/^rank [0-9]+ host ""/ { sub(/host ""/, sprintf("host n%04d", first + $2)) } { print }' "$1"
}
"$shoal" pattern alltoall --ranks 64 --bytes 256KiB --out "$tmp/md.ibprof"
"$shoal" pattern io --ranks 48 --servers 8 --stripes 4 --bytes 16MiB --out "$tmp/ior.ibprof"
place "$tmp/md.ibprof" 1 | gzip -9n > "$out/md.ibprof.gz"
place "$tmp/ior.ibprof" 101 | gzip -9n > "$out/ior.ibprof.gz"
ls -l "$out"
