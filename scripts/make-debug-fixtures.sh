#!/bin/bash
# Real "captured with debug output" fixtures (issue 16): site scripts run `ibnetdiscover -v ... 2>&1`,
# so a topology or `-p` ports list starts with hundreds of debug lines. (infiniband-diags 44's `-v`
# alone prints nothing more; `-d` prints the `DR path` and ibwarn lines, so `-d -v` is captured.) This re-runs ibsim + OpenSM
# on the testbed net file through scripts/ibsim_fabric.sh (VERBOSE_DIAGS=1), checks OpenSM wrote the
# committed dumps byte for byte (same fabric, same LIDs), and keeps
#   tests/fixtures/formats/testbed-verbose/ibnetdiscover-v.txt    `ibnetdiscover -d -v 2>&1`
#   tests/fixtures/formats/testbed-verbose/ibnetdiscover-v-p.txt  `ibnetdiscover -d -v -p 2>&1`
# Needs ibsim-utils, opensm, infiniband-diags. Uses its own ibsim socket, so another ibsim may run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=tests/fixtures/formats/testbed-verbose
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IBSIM_SOCKNAME=shoal-debug-$$ VERBOSE_DIAGS=1 DIAGS_DIR=$tmp/diags GZIP_OVER=999999999 \
	scripts/ibsim_fabric.sh sample-data/testbed/ibsim.net "$tmp/osm" minhop n0001 >/dev/null
for f in opensm-subnet.lst opensm.fdbs opensm-lfts.dump; do
	cmp -s "$tmp/osm/$f" "sample-data/testbed/$f" || { echo "sample-data/testbed/$f differs from this run's" >&2; exit 1; }
done
mkdir -p "$out"
cp "$tmp/diags/ibnetdiscover-v.txt" "$tmp/diags/ibnetdiscover-v-p.txt" "$out/"
wc -l "$out"/*.txt
