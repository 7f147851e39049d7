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
