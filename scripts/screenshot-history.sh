#!/usr/bin/env bash
# docs/screenshots/history-dialog.png, history-footprint.png and time-strip-jobs.png: the
# window's File → The fabric as it ran… dialog; the Jobs tab with a scheduler job's footprint
# highlighted and the time strip's job bands; and `render --module time-strip` with the jobs, over
# the testbed opened with counters from a real Prometheus (the testbed's exporter scrapes
# backfilled at 2023-11-14T22:13:20Z and a minute later with promtool, served on 127.0.0.1)
# and the jobs of tests/fixtures/slurm/testbed-sacct.txt (offered as ranges by the job picker); the time
# strip beside the fat tree shows the two one-minute steps the server gave.
# Needs: prometheus, xvfb, xdotool, imagemagick, mesa-vulkan-drivers (see scripts/lib/screenshot.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
nice -n 10 cargo build
bin=target/debug/shoal
out=${SHOAL_SCREENSHOT_OUT:-docs/screenshots}
work=$(mktemp -d)
fixtures=tests/fixtures/counters/testbed
python3 - "$fixtures" "$work/history.om" <<'PY'
import re, sys
fixtures, out = sys.argv[1], sys.argv[2]
def samples(name):
    for line in open(f"{fixtures}/{name}"):
        m = re.match(r"([a-z_]+)(\{.*\})\s+(\S+)", line.strip())
        if m and not line.startswith("#"):
            yield m.groups()
series = {}
for at, name in [(1700000000, "infiniband_exporter-before.prom"), (1700000060, "infiniband_exporter-after.prom"),
                 (1700000120, "infiniband_exporter-after.prom")]:
    for metric, labels, value in samples(name):
        series.setdefault((metric, labels), []).append((at, value))
with open(out, "w") as f:
    family = None
    for (metric, labels), points in sorted(series.items()):
        if metric[:-6] != family:
            family = metric[:-6]
            f.write(f"# TYPE {family} counter\n")
        for at, value in points:
            f.write(f"{metric}{labels} {value} {at}\n")
    f.write("# EOF\n")
PY
promtool tsdb create-blocks-from openmetrics "$work/history.om" "$work/data" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus --config.file=/dev/null --storage.tsdb.path="$work/data" --storage.tsdb.retention.time=100y \
  --web.listen-address="127.0.0.1:$port" >"$work/prometheus.log" 2>&1 &
prom=$!
display=":${SHOAL_XVFB_DISPLAY:-97}"
Xvfb "$display" -screen 0 1440x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$prom" "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
until curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null; do sleep 0.2; done
# run VIEW: shoal on the testbed with the server's counters and the jobs, view set-up VIEW.
run() {
  env DISPLAY="$display" WAYLAND_DISPLAY= WGPU_BACKEND=vulkan SHOAL_VIEW="$1" XDG_CONFIG_HOME="$work/config" \
    XDG_DATA_HOME="$work/data-home" "$bin" sample-data/testbed \
    --prometheus "http://127.0.0.1:$port" --from 2023-11-14T22:13:20Z --to 2023-11-14T22:15:20Z \
    --jobs-from tests/fixtures/slurm/testbed-sacct.txt >/dev/null 2>&1 &
  app=$!
  sleep "${SHOAL_WAIT:-12}"
}
x() { DISPLAY="$display" xdotool "$@"; }
# The debug build draws slowly under Xvfb and a click can fall between frames: the item is
# clicked twice (once the dialog is open, the second lands on an inert label of the left panel).
press() { x mousemove "$1" "$2"; sleep 0.7; x click 1; sleep 1.5; }
mkdir -p "$out"

# The dialog: File menu, then its "The fabric as it ran" item.
run add:timestrip
press 22 12
press 90 108
press 90 108
DISPLAY="$display" import -window root "$out/history-dialog.png"
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true
echo "wrote $out/history-dialog.png"

# The Jobs tab (the jobs with their ranges), job 7101's footprint highlighted, the fat tree
# coloured by the counters' observed bytes, and the time strip with the jobs' bands.
run 'add:timestrip;highlight:job 7101;tab:jobs'
x mousemove 1435 895; sleep 2
DISPLAY="$display" import -window root "$out/history-footprint.png"
kill "$app" 2>/dev/null || true
echo "wrote $out/history-footprint.png"

# The time strip as render draws it: one column per one-minute step, the jobs in lanes under it.
"$bin" render sample-data/testbed --module time-strip --width 1200 --height 420 \
  --prometheus "http://127.0.0.1:$port" --from 2023-11-14T22:13:20Z --to 2023-11-14T22:15:20Z \
  --jobs-from tests/fixtures/slurm/testbed-sacct.txt --out "$out/time-strip-jobs.png"
echo "wrote $out/time-strip-jobs.png"
