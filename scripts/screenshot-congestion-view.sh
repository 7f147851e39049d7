#!/usr/bin/env bash
# The congestion-regions view (issue 22, item 6) in the window, beside the fat tree, on the stall
# series of tests/fixtures/stall-series (five perfquery captures of ibsim's health fabric, dated
# one second apart here: perfquery prints no times), and the same regions headless
# (`render --module congestion`). Writes docs/screenshots/congestion-view.png and
# congestion-render.png, and the window's time strip by stall (time-strip-stall-window.png).
# SHOAL_BIN=target/debug/shoal uses a debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/screenshot.sh 98
series=$(mktemp -d)
for i in 0 1 2 3 4; do
  cp "tests/fixtures/stall-series/snapshot-$i.txt" "$series/"
  touch -d "2027-01-15 08:00:0$i" "$series/snapshot-$i.txt"
done
counters=$(for i in 0 1 2 3 4; do echo --counters "$series/snapshot-$i.txt"; done)
# shellcheck disable=SC2086
capture congestion-view 20 1435 895 'SHOAL_VIEW=colour:stall;add:congestionregions' tests/fixtures/health $counters
# shellcheck disable=SC2086
"$bin" render tests/fixtures/health $counters --module congestion --region 4 \
  --width 1440 --height 700 --out "$out/congestion-render.png"
# The window's time strip of the same intervals by each row's worst stall (its measure menu).
# shellcheck disable=SC2086
capture time-strip-stall-window 20 1435 895 'SHOAL_VIEW=add:timestrip;measure:stall' tests/fixtures/health $counters
