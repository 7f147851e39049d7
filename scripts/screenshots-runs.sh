#!/usr/bin/env bash
# Regenerates docs/screenshots/torus-*.png and generic2d-*.png: the app on the bundled run
# samples (sample-data/torus8, sample-data/mesh6, and `shoal convert`'s fat tree), in a real
# window under Xvfb (wgpu on Mesa lavapipe), captured with ImageMagick's `import`.
# Needs what scripts/screenshots.sh needs. The set-up of each shot is SHOAL_RUN_VIEW (see
# `shoal::gui::run_app::apply_setup`).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release
bin=target/release/shoal
out=docs/screenshots
mkdir -p "$out"
display=":${SHOAL_XVFB_DISPLAY:-96}"
Xvfb "$display" -screen 0 1440x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 1

# shot NAME PATH SETUP [X Y]: open PATH with that set-up, optionally hover at (X, Y), capture.
shot() {
  local name=$1 path=$2 view=$3 x=${4:-1435} y=${5:-895}
  DISPLAY="$display" WAYLAND_DISPLAY= WGPU_BACKEND=vulkan SHOAL_RUN_VIEW="$view" \
    XDG_CONFIG_HOME="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)" "$bin" "$path" >/dev/null 2>&1 &
  local app=$!
  sleep "${SHOAL_SCREENSHOT_WAIT:-8}"
  DISPLAY="$display" xdotool mousemove "$x" "$y" || true
  sleep 2
  DISPLAY="$display" import -window root "$out/$name.png"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  echo "wrote $out/$name.png"
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
