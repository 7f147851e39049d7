#!/bin/bash
# Real fixtures for the formats admins keep besides OpenSM's dumps (issue 5): what
# infiniband-diags print when run against the SAME simulated fabric, routed by the SAME OpenSM run,
# as the committed .lst/.fdbs pair and ibtracert fixtures.
#
# Usage: scripts/make-format-fixtures.sh [testbed|lmc1|tworail|tsubame|ibdiagnet2|all]...
#
# Each step re-runs ibsim + OpenSM through scripts/ibsim_fabric.sh with DIAGS_DIR set, so
# ibnetdiscover, `ibnetdiscover -p`, dump_fts and ibroute (one per switch) run while that ibsim is
# alive, then checks that OpenSM wrote byte for byte the dumps already committed (same fabric,
# same LIDs, same tables) before keeping anything. Outputs:
#
#   testbed  tests/fixtures/formats/testbed/    ibnetdiscover.txt, ibnetdiscover-p.txt,
#            dump_fts.txt, ibroute/lid-N.txt (a folder of per-switch dumps)
#   lmc1     tests/fixtures/formats/lmc1/       the same files for the LMC 1 testbed
#   tworail  tests/fixtures/formats/tworail-rail0/  the same, gzipped, with the 80 ibroute dumps
#            concatenated into ibroute-all.txt.gz (as `cat lid-*.txt` would)
#   tsubame  benches/data/tsubame/rail0/        ibnetdiscover.txt.gz, ibnetdiscover-p.txt.gz,
#            dump_fts.txt.gz (benchmark inputs; 1,296 hosts, 180 switches)
#   ibdiagnet2  ibdiagnet2/ibdiagnet2.lst/.db_csv/.fdbs beside testbed, tworail rail 0 and tsubame rail 0,
#            WRITTEN by scripts/make-ibdiagnet2.py from the real dumps above (ibdiagnet2 is not
#            in Debian, so it cannot be run here; see tests/fixtures/formats/README.md).
#
# The `# Topology file: generated on <date>` line of ibnetdiscover changes on every run; all other
# bytes are reproducible. Needs ibsim-utils, opensm, infiniband-diags, python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fx=tests/fixtures/formats

# same_dumps NEW_DIR OLD_DIR: every OpenSM dump committed in OLD_DIR (maybe .gz) equals NEW_DIR's.
same_dumps() {
	local f found=0
	for f in opensm-subnet.lst opensm.fdbs opensm-lfts.dump; do
		if [ -e "$2/$f" ]; then
			cmp -s "$1/$f" "$2/$f" || { echo "$2/$f differs from this run's" >&2; return 1; }
			found=$((found + 1))
		elif [ -e "$2/$f.gz" ]; then
			cmp -s "$1/$f" <(zcat "$2/$f.gz") || { echo "$2/$f.gz differs from this run's" >&2; return 1; }
			found=$((found + 1))
		fi
	done
	[ "$found" -gt 0 ] || { echo "no committed OpenSM dump in $2" >&2; return 1; }
}

# diags NET COMMITTED_DIR ENGINE -> prints a temp dir holding osm/ and diags/
diags() {
	local tmp net=$1
	tmp=$(mktemp -d)
	if [[ $net == *.gz ]]; then
		zcat "$net" >"$tmp/ibsim.net"
		net=$tmp/ibsim.net
	fi
	GZIP_OVER=999999999 DIAGS_DIR=$tmp/diags scripts/ibsim_fabric.sh "$net" "$tmp/osm" "$3" n0001 >/dev/null
	same_dumps "$tmp/osm" "$2"
	echo "$tmp"
}

testbed() {
	local t
	t=$(diags sample-data/testbed/ibsim.net sample-data/testbed minhop)
	rm -rf $fx/testbed/ibroute
	mkdir -p $fx/testbed
	cp -r "$t"/diags/. $fx/testbed/
	rm -rf "$t"
}

lmc1() {
	local t
	t=$(OSM_EXTRA="-l 1" diags tests/fixtures/lmc1/ibsim.net tests/fixtures/lmc1 minhop)
	rm -rf $fx/lmc1/ibroute
	mkdir -p $fx/lmc1
	cp -r "$t"/diags/. $fx/lmc1/
	rm -rf "$t"
}

tworail() {
	local t d=$fx/tworail-rail0
	t=$(diags sample-data/tworail/rail0/ibsim.net sample-data/tworail/rail0 ftree)
	mkdir -p $d
	for f in ibnetdiscover ibnetdiscover-p dump_fts; do
		gzip -9n <"$t/diags/$f.txt" >$d/$f.txt.gz
	done
	# Concatenated in switch-LID order, as an admin's `for lid in …; do ibroute $lid; done`.
	ls "$t"/diags/ibroute | sort -t- -k2n | sed "s|^|$t/diags/ibroute/|" | xargs cat | gzip -9n >$d/ibroute-all.txt.gz
	rm -rf "$t"
}

tsubame() {
	local t d=benches/data/tsubame/rail0
	t=$(diags $d/ibsim.net.gz $d ftree)
	for f in ibnetdiscover ibnetdiscover-p dump_fts; do
		gzip -9n <"$t/diags/$f.txt" >$d/$f.txt.gz
	done
	rm -rf "$t"
}

ibdiagnet2() {
	python3 scripts/make-ibdiagnet2.py $fx/testbed/ibnetdiscover.txt sample-data/testbed/opensm.fdbs $fx/testbed/ibdiagnet2
	python3 scripts/make-ibdiagnet2.py $fx/tworail-rail0/ibnetdiscover.txt.gz sample-data/tworail/rail0/opensm.fdbs.gz \
		$fx/tworail-rail0/ibdiagnet2 --gzip
	python3 scripts/make-ibdiagnet2.py benches/data/tsubame/rail0/ibnetdiscover.txt.gz benches/data/tsubame/rail0/opensm.fdbs.gz \
		benches/data/tsubame/rail0/ibdiagnet2 --gzip
}

steps=("$@")
[ ${#steps[@]} = 0 ] && steps=(all)
for s in "${steps[@]}"; do
	case $s in
	testbed | lmc1 | tworail | tsubame | ibdiagnet2) $s ;;
	all) testbed && lmc1 && tworail && tsubame && ibdiagnet2 ;;
	*)
		echo "unknown step $s" >&2
		exit 2
		;;
	esac
done
