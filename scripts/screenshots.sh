#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png: the app on the bundled two-rail sample, in a real window
# under Xvfb (wgpu on Mesa lavapipe), captured with ImageMagick's `import`.
# Needs what scripts/lib/screenshot.sh says.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/screenshot.sh 97

# shot NAME SHOAL_VIEW: the bundled sample with that set-up, the pointer parked off the fabric.
shot() {
  capture "$1" "${SHOAL_SCREENSHOT_WAIT:-12}" 1435 895 "SHOAL_VIEW=$2"
}

shot default none:
shot threshold threshold:50
shot compare 'compare:1,2;log'
shot diff diff:2,1
shot highlight highlight:n0042
# One link group, two modules: the fat tree and the same fabric at its positions in generic 2D.
shot mixed-modules 'add:generic2d;highlight:n0042;tab:linking'
# The traffic matrix beside the fat tree: a highlighted host outlines the cells of the pairs
# whose routes cross its link ends; the hop key sits under the map in a tall view.
shot matrix-window 'add:traffic matrix;highlight:n0005;tab:highlight'
"$bin" render sample-data/tworail/rail0 sample-data/tworail/rail1 \
  --profile sample-data/tworail/samplesort.ibprof.gz --module matrix --matrix-by host --region 2 \
  --width 1440 --height 900 --out "$out/matrix-render.png"
"$bin" render sample-data/tworail/rail0 sample-data/tworail/rail1 \
  --profile sample-data/tworail/samplesort.ibprof.gz --module matrix --matrix-by host --matrix-show bars \
  --region 2 --width 1440 --height 900 --out "$out/matrix-bars.png"
# The What-if tab: the sample's traffic on rail 0 under every routing engine (computed in the
# background; the wait covers it).
shot what-if 'tab:what-if'
# The static/AR switch on the rail-optimized sample with its synthetic ibdiagnet2.far: region 1, AR − static.
capture ar-switch 30 1435 895 'SHOAL_VIEW=window:1,1;routing:ar-static' \
  sample-data/railopt,tests/fixtures/ar/railopt/ibdiagnet2.far --profile sample-data/railopt/nccl.ibprof.gz
# The k = 36 fat tree on two rails with 10,000 ranks × 100 peers (what `cargo bench --bench
# view_model_memory` opens): busier link ends drawn over idle ones, in the window as in
# render's PNG (big-fabric-render.png) and SVG (15 MB, so written to $TMPDIR, not docs/).
k36=${SHOAL_K36:-target/bench-data/k36}
if [ ! -e "$k36/ranks10000-peers100.ibprof" ]; then
  "$bin" gen --k 36 --rails 2 --ranks 10000 --peers 100 --out "$k36"
fi
capture big-fabric "${SHOAL_K36_WAIT:-150}" 1435 895 'SHOAL_VIEW=none:' \
  "$k36/rail0" "$k36/rail1" --profile "$k36/ranks10000-peers100.ibprof"
for file in "$out/big-fabric-render.png" "${TMPDIR:-/tmp}/big-fabric-render.svg"; do
  "$bin" render "$k36/rail0" "$k36/rail1" --profile "$k36/ranks10000-peers100.ibprof" --out "$file"
done
# The rail-optimized sample with gpu07 highlighted: its eight CAs lit across the eight planes.
capture planes-highlight 20 1435 895 'SHOAL_VIEW=highlight:gpu07' \
  sample-data/railopt --profile sample-data/railopt/nccl.ibprof.gz
# The two jobs of sample-data/tworail/jobs, io placed random-switch, coloured by contention.
capture contention 15 1435 895 'SHOAL_VIEW=job:contention' sample-data/tworail/rail0 sample-data/tworail/rail1 \
  --job md=sample-data/tworail/jobs/md.ibprof.gz --job io=sample-data/tworail/jobs/ior.ibprof.gz \
  --place io=random-switch:7
# The testbed with three perfquery -x captures (before, after, after a reset): the time strip
# of the two counter intervals beside the fat tree (counters alone: no profile).
capture time-strip-counters 15 1435 895 'SHOAL_VIEW=add:timestrip' sample-data/testbed \
  --counters tests/fixtures/counters/testbed/perfquery-x-before.txt \
  --counters tests/fixtures/counters/testbed/perfquery-x-after.txt \
  --counters tests/fixtures/counters/testbed/perfquery-x-reset.txt
# Predicted against observed on the testbed (perfquery -x before/after around its all-to-all):
# the Plots tab colouring by the residual, then the outlier brushed (a clause on observed).
testbed=(sample-data/testbed --profile sample-data/testbed/alltoall.ibprof
  --counters tests/fixtures/counters/testbed/perfquery-x-before.txt
  --counters tests/fixtures/counters/testbed/perfquery-x-after.txt)
capture counters-residual 15 1435 895 'SHOAL_VIEW=tab:plots;colour:residual' "${testbed[@]}"
capture counters-brush 15 1435 895 'SHOAL_VIEW=colour:residual;where:observed >= 10000000000;tab:plots' \
  "${testbed[@]}"
# PFProf's rank files on the testbed: the Plots tab with the message-size histogram (issue 23).
capture message-sizes 25 1435 895 'SHOAL_VIEW=tab:plots' sample-data/testbed --profile tests/fixtures/pfprof
# A 300-step time loop (written by `cargo bench --bench time_strip`): the strip's brush over
# steps 150-260, the fat tree showing that window summed.
steps=target/many-regions/steps300-ranks4.ibprof
if [ -e "$steps" ]; then
  capture time-strip 20 1435 895 'SHOAL_VIEW=add:timestrip;window:150,260' \
    sample-data/tworail/rail0 sample-data/tworail/rail1 --profile "$steps"
fi
# The stall series of tests/fixtures/stall-series (five perfquery captures of ibsim's health
# fabric, dated one second apart here: perfquery prints no times) with a shift job placed on the
# hosts in order: the Congestion tab (regions over time, CCDFs, why was my job slow).
series=$(mktemp -d)
for i in 0 1 2 3 4; do
  cp "tests/fixtures/stall-series/snapshot-$i.txt" "$series/"
  touch -d "2027-01-15 08:00:0$i" "$series/snapshot-$i.txt"
done
"$bin" pattern shift --ranks 4 --bytes 1GiB --out "$series/shift.ibprof" >/dev/null
capture congestion 20 1435 895 'SHOAL_VIEW=tab:congestion' tests/fixtures/health \
  --job "shift=$series/shift.ibprof" --place shift=linear \
  $(for i in 0 1 2 3 4; do echo --counters "$series/snapshot-$i.txt"; done)
# The same intervals headless: the time strip by each row's worst stall, and the fat tree by stall.
"$bin" render tests/fixtures/health $(for i in 0 1 2 3 4; do echo --counters "$series/snapshot-$i.txt"; done) \
  --module time-strip --strip-measure stall --width 1440 --height 500 --out "$out/time-strip-stall.png"
"$bin" render tests/fixtures/health $(for i in 0 1 2 3 4; do echo --counters "$series/snapshot-$i.txt"; done) \
  --colour-by stall --width 1440 --height 900 --out "$out/stall-colour.png"
# The time cursor on interval 4 of the same series: the fat tree coloured by that second's stall,
# its title naming the interval, the strip below outlining the column.
capture time-cursor-fat-tree 20 1435 895 'SHOAL_VIEW=colour:stall;add:timestrip;cursor:4' tests/fixtures/health \
  $(for i in 0 1 2 3 4; do echo --counters "$series/snapshot-$i.txt"; done)
