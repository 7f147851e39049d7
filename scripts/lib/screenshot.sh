# Shared by scripts/screenshots*.sh (sourced, with the default X display number as $1): builds
# shoal, starts Xvfb, and defines `capture`. Needs: xvfb, xdotool, mesa-vulkan-drivers,
# libgl1-mesa-dri, libxkbcommon-x11-0, imagemagick. SHOAL_SCREENSHOT_OUT writes elsewhere than
# docs/screenshots (to try a change without touching the committed pictures).

# SHOAL_BIN takes a binary already built (a debug one, on a machine where release builds are
# not wanted) instead of building the release one.
if [ -z "${SHOAL_BIN:-}" ]; then cargo build --release; fi
bin=${SHOAL_BIN:-target/release/shoal}
out=${SHOAL_SCREENSHOT_OUT:-docs/screenshots}
mkdir -p "$out"
display=":${SHOAL_XVFB_DISPLAY:-$1}"
Xvfb "$display" -screen 0 1440x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 1

# capture NAME WAIT X Y VAR=SETUP [ARGS...]: start `shoal ARGS` with its scripted set-up in VAR,
# wait WAIT seconds for the data, put the pointer at (X, Y) (off the picture, or on a glyph to
# show its tooltip), let a frame pass, and capture the screen as $out/NAME.png.
capture() {
  local name=$1 wait=$2 x=$3 y=$4 setup=$5
  shift 5
  env DISPLAY="$display" WAYLAND_DISPLAY= WGPU_BACKEND=vulkan "$setup" \
    XDG_CONFIG_HOME="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)" "$bin" "$@" >/dev/null 2>&1 &
  local app=$!
  sleep "$wait"
  DISPLAY="$display" xdotool mousemove "$x" "$y" || true
  sleep 2
  DISPLAY="$display" import -window root "$out/$name.png"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  echo "wrote $out/$name.png"
}
