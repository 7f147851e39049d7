#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png: the app on the bundled two-rail sample, in a real window
# under Xvfb (wgpu on Mesa lavapipe), captured with ImageMagick's `import`.
# Needs: xvfb, xdotool, mesa-vulkan-drivers, libgl1-mesa-dri, libxkbcommon-x11-0, imagemagick.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release
bin=target/release/shoal
out=docs/screenshots
mkdir -p "$out"
display=":${SHOAL_XVFB_DISPLAY:-97}"
Xvfb "$display" -screen 0 1440x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 1

# shot NAME SHOAL_VIEW: start the app with that set-up, wait for the sample to load, capture.
shot() {
  local name=$1 view=$2
  DISPLAY="$display" WAYLAND_DISPLAY= WGPU_BACKEND=vulkan SHOAL_VIEW="$view" \
    XDG_CONFIG_HOME="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)" "$bin" >/dev/null 2>&1 &
  local app=$!
  sleep "${SHOAL_SCREENSHOT_WAIT:-12}"
  # Park the pointer off the fabric so no tooltip covers it, and let a frame pass.
  DISPLAY="$display" xdotool mousemove 1435 895 || true
  sleep 1
  DISPLAY="$display" import -window root "$out/$name.png"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  echo "wrote $out/$name.png"
}

shot default none:
shot threshold threshold:50
shot compare 'compare:1,2;log'
shot diff diff:2,1
shot highlight highlight:n0042
