#!/bin/bash
# How often shoal's routing engines agree with the real OpenSM's, on the sample fabrics.
#
# Usage: scripts/compare-opensm-routing.sh [OUT_CSV [LOG]]
#        (defaults: docs/routing-engines.csv, /tmp/compare-opensm-routing.log)
#
# For every sample fabric (the ibsim net files the sample data was made from) and every OpenSM
# engine (ftree, minhop, updn): a real OpenSM routes the fabric once under ibsim
# (scripts/ibsim_fabric.sh, as scripts/make-sample-data.sh does); then `shoal route` routes the
# same topology (OpenSM's own opensm-subnet.lst of that run, so the LIDs are the same) with each
# of its engines (dmodk, minhop, updn), and scripts/compare_routing.py compares the two entry by
# entry, by path length and by all-to-all link loads. One CSV row per (fabric, shoal engine,
# OpenSM engine); OpenSM's own remarks (fallbacks, errors) and shoal's output go to LOG.
#
# Needs Debian's ibsim-utils, opensm, infiniband-diags, python3, and a built shoal
# (cargo build; SHOAL=path overrides). Each ibsim runs in its own network namespace
# (`unshare -n`, root), so another ibsim or a stray OpenSM on the machine cannot meet it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-docs/routing-engines.csv}
log=${2:-/tmp/compare-opensm-routing.log}
shoal=${SHOAL:-target/debug/shoal}
[ -x "$shoal" ] || { echo "build shoal first (cargo build) or set SHOAL" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -f "$out" "$log"

# name | net file | extra OpenSM options
fabrics=(
	"testbed|sample-data/testbed/ibsim.net|"
	"lmc1|tests/fixtures/lmc1/ibsim.net|-l 1"
	"tworail-rail0|sample-data/tworail/rail0/ibsim.net|"
	"tworail-rail1|sample-data/tworail/rail1/ibsim.net|"
	"tsubame-rail0|benches/data/tsubame/rail0/ibsim.net.gz|"
)

for entry in "${fabrics[@]}"; do
	IFS='|' read -r name net extra <<<"$entry"
	if [[ $net == *.gz ]]; then
		gunzip -c "$net" >"$work/$name.net"
		net=$work/$name.net
	fi
	for osm in ftree minhop updn; do
		dir=$work/$name/opensm-$osm
		echo "== $name: OpenSM $osm" | tee -a "$log" >&2
		OSM_EXTRA="$extra" unshare -n scripts/ibsim_fabric.sh "$net" "$dir" "$osm" n0001 2>>"$log"
		for engine in dmodk minhop updn; do
			routed=$work/$name/shoal-$engine-from-$osm
			if ! "$shoal" route "$dir" --engine "$engine" --out "$routed" >>"$log" 2>&1; then
				echo "$name,$engine,$osm: shoal route refused (see $log)" >&2
				echo "$name $engine vs $osm: refused" >>"$log"
				continue
			fi
			python3 scripts/compare_routing.py "$dir" "$routed" --label "$name $engine vs $osm" --csv "$out"
		done
	done
done
echo "results: $out (OpenSM's remarks: $log)" >&2
