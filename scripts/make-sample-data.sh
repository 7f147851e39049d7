#!/bin/bash
# Regenerate shoal's sample data and routing fixtures from real OpenSM runs on ibsim fabrics.
#
# Usage: scripts/make-sample-data.sh [testbed|tworail|lmc1|tsubame|railopt|profiles|all]...   (default: all)
#
# Needs Debian's ibsim-utils, opensm and infiniband-diags (apt-get install -y ibsim-utils opensm
# infiniband-diags) and python3. Only one ibsim can run at a time on a machine. Every step is
# deterministic: same tools, same bytes (see sample-data/README.md).
#
#   testbed  sample-data/testbed/                thesis Fig. 4.3: 2 switches, 42 hosts, 15 ISLs
#            tests/fixtures/ibtracert/testbed/rail0/
#   tworail  sample-data/tworail/rail0, rail1/   two-rail 3-level fat tree, storage on rail 0
#            tests/fixtures/ibtracert/tworail/rail0, rail1/
#   lmc1     tests/fixtures/lmc1/                the testbed routed with LMC 1, plus its traces
#   tsubame  benches/data/tsubame/rail0, rail1/  benchmark rails: 1,296 hosts, 180 switches each
#            tests/fixtures/ibtracert/tsubame/rail0, rail1/  (20 sanity pairs each)
#   railopt  sample-data/railopt/                a rail-optimized GPU cluster in one subnet: 32 hosts
#            with 8 HCAs each (mlx5_0..7), 2 SUs, 8 planes of leaves, 4 spines; its profile
#   profiles the synthetic ibprof profiles (scripts/make-profiles.py), after the dumps exist
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gen=scripts/gen_fattree_net.py
run=scripts/ibsim_fabric.sh
fix=tests/fixtures/ibtracert

# GUID bases: each fabric and rail gets its own range, so GUIDs are unique across rails.
#   testbed   CA 0x0002c90300010000  SW 0x0002c90200010000
#   tworail   CA 0x0002c903000a0000  SW 0x0002c902000a0000   (rail 0)
#             CA 0x0002c903000b0000  SW 0x0002c902000b0000   (rail 1)
#   railopt   CA 0x0002c90300e00000  SW 0x0002c90200e00000
#   tsubame   CA 0x0002c903000c0000  SW 0x0002c902000c0000   (rail 0)
#             CA 0x0002c903000d0000  SW 0x0002c902000d0000   (rail 1)

testbed_net() {
	python3 $gen --levels 1 --radix 36 --down 21 --isl 15 --sw-tag tb \
		--ca-guid 0x0002c90300010000 --sw-guid 0x0002c90200010000
}

testbed() {
	local d=sample-data/testbed
	mkdir -p $d
	testbed_net >$d/ibsim.net
	# ftree refuses this fabric (two switches that both carry hosts: "ERR AB2B: Found more than
	# one root on fabric with maximum rank 0") and OpenSM falls back to minhop; we ask for minhop.
	TRACE_DIR=$fix/testbed/rail0 TRACE_N=30 $run $d/ibsim.net $d minhop n0001
}

lmc1() {
	local d=tests/fixtures/lmc1
	mkdir -p $d
	testbed_net >$d/ibsim.net
	OSM_EXTRA="-l 1" TRACE_DIR=$d TRACE_N=30 TRACE_ARGS="--lmc 1" $run $d/ibsim.net $d minhop n0001
}

tworail() {
	for r in 0 1; do
		local d=sample-data/tworail/rail$r
		mkdir -p $d
		local sw_guid ca_guid storage=0 trace_args=""
		ca_guid=$(printf '0x0002c903000%x0000' $((10 + r)))
		sw_guid=$(printf '0x0002c902000%x0000' $((10 + r)))
		if [ $r = 0 ]; then
			storage=6
			trace_args="--storage 12"
		fi
		python3 $gen --levels 3 --radix 16 --pods 4 --cores 16 --down 7 --extra $storage --sw-tag r$r \
			--hca-desc HCA-$((r + 1)) --ca-guid "$ca_guid" --sw-guid "$sw_guid" >$d/ibsim.net
		TRACE_DIR=$fix/tworail/rail$r TRACE_N=130 TRACE_ARGS="$trace_args" $run $d/ibsim.net $d ftree n0001
	done
}

tsubame() {
	for r in 0 1; do
		local d=benches/data/tsubame/rail$r
		mkdir -p $d
		local sw_guid ca_guid
		ca_guid=$(printf '0x0002c903000%x0000' $((12 + r)))
		sw_guid=$(printf '0x0002c902000%x0000' $((12 + r)))
		python3 $gen --levels 3 --radix 36 --pods 4 --cores 36 --sw-tag t$r \
			--hca-desc HCA-$((r + 1)) --ca-guid "$ca_guid" --sw-guid "$sw_guid" >$d/ibsim.net
		TRACE_DIR=$fix/tsubame/rail$r TRACE_N=20 $run $d/ibsim.net $d ftree n0001
		# opensm-lfts.dump holds the same tables as opensm.fdbs but gzips to 2.3 MB here: drop it.
		rm -f $d/opensm-lfts.dump.gz
		gzip -9nf $d/ibsim.net
	done
}

railopt() {
	local d=sample-data/railopt
	mkdir -p $d
	python3 scripts/gen_rail_optimized_net.py --sus 2 --su-hosts 16 --planes 8 --spines 4 \
		--links-per-spine 4 --ca-guid 0x0002c90300e00000 --sw-guid 0x0002c90200e00000 >$d/ibsim.net
	# The SM runs on gpu01's mlx5_0 (ibsim names each HCA node "<host>-mlx5_K").
	TRACE_DIR=$fix/railopt/rail0 TRACE_N=60 $run $d/ibsim.net $d ftree gpu01-mlx5_0
	python3 scripts/make-profiles.py railopt
}

profiles() {
	python3 scripts/make-profiles.py
}

steps=("$@")
[ ${#steps[@]} = 0 ] && steps=(all)
for s in "${steps[@]}"; do
	case $s in
	testbed | tworail | lmc1 | tsubame | railopt | profiles) $s ;;
	all) testbed && tworail && lmc1 && tsubame && railopt && profiles ;;
	*)
		echo "unknown step $s" >&2
		exit 2
		;;
	esac
done
