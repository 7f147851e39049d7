#!/bin/bash
# Usage: ibsim_fabric.sh NETFILE OUTDIR [ROUTING_ENGINE] [SM_HOST]
#
# Starts the ibsim fabric simulator on NETFILE, lets a real OpenSM route it once
# (`opensm -o -R ENGINE` under the umad2sim preload), and copies OpenSM's dumps into OUTDIR:
#   opensm-subnet.lst  (the ibdiagnet.lst link-list format)
#   opensm.fdbs        (the ibdiagnet.fdbs forwarding-table format)
#   opensm-lfts.dump   (OpenSM's own LFT dump)
# OpenSM's log is kept in OUTDIR only on failure (as osm.log) to keep the data small.
#
# Environment:
#   OSM_EXTRA="-l 1"      extra OpenSM arguments (here: LMC 1)
#   TRACE_DIR=DIR         also write ground truth: DIR/pairs.txt ("SRC DST" decimal LIDs,
#                         picked by pick_pairs.py) and DIR/ibtracert.txt (their ibtracert paths,
#                         each preceded by "== SRC DST"). ibtracert must run while this same
#                         ibsim is alive: a fresh ibsim has no LIDs and no forwarding tables.
#   TRACE_N=120           number of pairs; TRACE_ARGS: more pick_pairs.py options.
#   GZIP_OVER=204800      gzip (-n, reproducible) every dump larger than this many bytes.
#   DIAGS_DIR=DIR         also run infiniband-diags against the same live fabric, as an admin
#                         would, and keep what they print (stdout and stderr, as on a terminal):
#                         DIR/ibnetdiscover.txt, DIR/ibnetdiscover-p.txt, DIR/dump_fts.txt and
#                         DIR/ibroute/lid-<decimal LID>.txt for every switch.
#   VERBOSE_DIAGS=1       with DIAGS_DIR, also `ibnetdiscover -d -v` and `ibnetdiscover -d -v -p`
#                         (DIR/ibnetdiscover-v.txt, DIR/ibnetdiscover-v-p.txt), debug lines and all.
#   IBSIM_SOCKNAME=NAME   ibsim's socket name (read by ibsim and the umad2sim preload): a unique
#                         name lets this run beside another ibsim on the same machine.
#
# Needs Debian's ibsim-utils, opensm, infiniband-diags. Only one ibsim may run at a time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
net=$(realpath "$1")
out=$2
engine=${3:-ftree}
smhost=${4:-$(awk -F'"' '/^Hca/{print $2; exit}' "$net")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "${TRACE_DIR:-}" ]; then
	mkdir -p "$TRACE_DIR"
	TRACE_DIR=$(cd "$TRACE_DIR" && pwd)
fi
sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
[ -r "$sim" ] || { echo "missing $sim: apt-get install ibsim-utils" >&2; exit 1; }

work=$(mktemp -d)
simpid=
cleanup() {
	if [ -n "$simpid" ]; then
		kill "$simpid" 2>/dev/null || true
		wait "$simpid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

ibsim -s "$net" </dev/null >ibsim.log 2>&1 &
simpid=$!
for _ in $(seq 150); do
	grep -q 'sim>' ibsim.log 2>/dev/null && break
	kill -0 "$simpid" 2>/dev/null || break
	sleep 0.2
done
if ! grep -q 'sim>' ibsim.log; then
	cat ibsim.log >&2
	echo 'ibsim did not start (a leftover ibsim? kill it by its pid)' >&2
	exit 1
fi

mkdir dumps
export SIM_HOST=$smhost OSM_TMP_DIR=$work/dumps OSM_CACHE_DIR=$work/dumps
# shellcheck disable=SC2086
if ! timeout 600 env LD_PRELOAD=$sim opensm -o -R "$engine" ${OSM_EXTRA:-} -D 0x43 \
	-f "$work/osm.log" --dump_files_dir "$work/dumps" >osm.out 2>&1; then
	cp osm.log "$out/osm.log" 2>/dev/null || true
	echo "opensm failed, see $out/osm.log" >&2
	exit 1
fi
for f in opensm-subnet.lst opensm.fdbs opensm-lfts.dump; do
	[ -s "dumps/$f" ] || { cp osm.log "$out/osm.log"; echo "opensm wrote no $f" >&2; exit 1; }
done
# What OpenSM said about routing (engine used, fallbacks, errors) goes to stderr for the record.
grep -iE 'ERR|tables configured|fallback|failed|UNREACH' osm.log | sed 's/^[^]]*\] //' | sort | uniq -c | head -20 >&2 || true

if [ -n "${TRACE_DIR:-}" ]; then
	mkdir -p "$TRACE_DIR"
	# shellcheck disable=SC2086
	python3 "$here/pick_pairs.py" dumps/opensm-subnet.lst "${TRACE_N:-120}" ${TRACE_ARGS:-} >"$TRACE_DIR/pairs.txt"
	: >"$TRACE_DIR/ibtracert.txt"
	while read -r s d; do
		echo "== $s $d" >>"$TRACE_DIR/ibtracert.txt"
		timeout 60 env LD_PRELOAD=$sim ibtracert "$s" "$d" >>"$TRACE_DIR/ibtracert.txt" 2>&1 || true
	done <"$TRACE_DIR/pairs.txt"
	if grep -q 'mad_rpc.*failed\|ibwarn' "$TRACE_DIR/ibtracert.txt"; then
		echo "ibtracert failed for some pairs: see $TRACE_DIR/ibtracert.txt" >&2
		exit 1
	fi
fi

if [ -n "${DIAGS_DIR:-}" ]; then
	mkdir -p "$DIAGS_DIR/ibroute"
	diag() { timeout 300 env LD_PRELOAD=$sim "$@"; }
	diag ibnetdiscover >"$DIAGS_DIR/ibnetdiscover.txt" 2>&1
	diag ibnetdiscover -p >"$DIAGS_DIR/ibnetdiscover-p.txt" 2>&1
	diag dump_fts >"$DIAGS_DIR/dump_fts.txt" 2>&1
	if [ -n "${VERBOSE_DIAGS:-}" ]; then
		# As site scripts capture them: debug output mixed in by 2>&1. infiniband-diags 44's `-v`
		# alone adds nothing; `-d` adds the `DR path` lines (hundreds) and ibwarn traces.
		diag ibnetdiscover -d -v >"$DIAGS_DIR/ibnetdiscover-v.txt" 2>&1
		diag ibnetdiscover -d -v -p >"$DIAGS_DIR/ibnetdiscover-v-p.txt" 2>&1
	fi
	rm -f "$DIAGS_DIR"/ibroute/lid-*.txt
	# Switch LIDs from the ports list: `SW <lid> <port> 0x<guid> ...` (decimal LIDs).
	awk '$1 == "SW" {print $2}' "$DIAGS_DIR/ibnetdiscover-p.txt" | sort -un | while read -r lid; do
		diag ibroute "$lid" >"$DIAGS_DIR/ibroute/lid-$lid.txt" 2>&1
	done
fi

for f in opensm-subnet.lst opensm.fdbs opensm-lfts.dump; do
	rm -f "$out/$f" "$out/$f.gz"
	if [ "$(stat -c %s "dumps/$f")" -gt "${GZIP_OVER:-204800}" ]; then
		gzip -9n <"dumps/$f" >"$out/$f.gz"
	else
		cp "dumps/$f" "$out/$f"
	fi
done
[ -n "${KEEP_LOG:-}" ] && cp osm.log "$out/osm.log" || rm -f "$out/osm.log"
echo "$out"
