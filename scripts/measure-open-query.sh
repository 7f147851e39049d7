#!/usr/bin/env bash
# Issue 23 (lazy pairs domain): what `shoal query --domain links` costs on the two-rail sample,
# as medians of N runs of /usr/bin/time -v (wall seconds, user+sys CPU seconds, max RSS).
# Usage: scripts/measure-open-query.sh SHOAL_BINARY [N] [extra query args…]
set -euo pipefail
bin=$1; n=${2:-5}; shift $(( $# >= 2 ? 2 : 1 ))
args=(query sample-data/tworail/rail0 sample-data/tworail/rail1
      --profile sample-data/tworail/samplesort.ibprof.gz --domain links --attr bytes "$@")
walls=(); cpus=(); rss=()
for _ in $(seq "$n"); do
  out=$( { /usr/bin/time -v "$bin" "${args[@]}" > /dev/null; } 2>&1 )
  w=$(grep "Elapsed (wall clock)" <<<"$out" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  u=$(grep "User time" <<<"$out" | awk '{print $NF}'); s=$(grep "System time" <<<"$out" | awk '{print $NF}')
  walls+=("$w"); cpus+=("$(echo "$u + $s" | bc)"); rss+=("$(grep "Maximum resident" <<<"$out" | awk '{print $NF}')")
done
median() { printf "%s\n" "$@" | sort -g | awk "{a[NR]=\$1} END {printf \"%.2f\", a[int((NR+1)/2)]}"; }
echo "$bin: wall $(median "${walls[@]}") s, CPU $(median "${cpus[@]}") s, max RSS $(median "${rss[@]}") KB (medians of $n; load: $(cut -d' ' -f1-3 /proc/loadavg))"
echo "  wall: ${walls[*]}; CPU: ${cpus[*]}"
