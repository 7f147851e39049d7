#!/usr/bin/env bash
# Regenerates docs/screenshots/torus-*.png and generic2d-*.png: the app on the bundled run
# samples (sample-data/torus8, sample-data/mesh6, and `shoal convert`'s fat tree), in a real
# window under Xvfb (wgpu on Mesa lavapipe), captured with ImageMagick's `import`.
# Needs what scripts/lib/screenshot.sh says. The set-up of each shot is SHOAL_RUN_VIEW (see
# `shoal::gui::setup::Setup`; `SHOAL_RUN_VIEW` is read as `SHOAL_VIEW` is).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/screenshot.sh 96

# shot NAME PATH SETUP [X Y]: open PATH with that set-up, optionally hover at (X, Y), capture.
shot() {
  capture "$1" "${SHOAL_SCREENSHOT_WAIT:-8}" "${4:-1435}" "${5:-895}" "SHOAL_RUN_VIEW=$3" "$2"
}

torus=sample-data/torus8/torus8_meta.yaml
shot torus-3d "$torus" 'where:code_region = 2'
shot torus-compare "$torus" 'flat:z;compare:1,2;highlight:ranks 300;tab:highlight'
shot torus-2d "$torus" 'flat:z;where:code_region = 2' 578 421
shot generic2d-mesh sample-data/mesh6 'where:region = 2;log'
# A named folder: the view takes its title from it.
convert="$(mktemp -d)/tworail-samplesort-convert"
mkdir -p "$convert"
"$bin" convert sample-data/tworail/rail0 sample-data/tworail/rail1 \
  --profile sample-data/tworail/samplesort.ibprof.gz --out "$convert" >/dev/null 2>&1 || true
if [ -f "$convert/nodes.csv" ]; then
  shot generic2d-fat-tree "$convert" ''
fi
