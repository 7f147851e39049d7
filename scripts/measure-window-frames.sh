#!/bin/bash
# Issue 27: how the window keeps up under a software renderer, link painter by link painter.
# Runs the window under Xvfb with lavapipe (WGPU_BACKEND=vulkan) on the k = 36 data set (or the
# RAILs and options given after `--`) once per painter (SHOAL_LINK_PAINTER=gpu, then cpu), and
# for each reports, from SHOAL_FRAME_LOG's lines and /proc:
#   hover: 20 mouse moves over the plot, 0.3 s apart: frames drawn, and the renderer's
#          (llvmpipe threads') and shoal's CPU time per frame;
#   pan:   a 3 s drag across the plot: frames drawn and the CPU time of both.
#
#   scripts/measure-window-frames.sh [--shoal BIN] [--wait S] [-- RAIL... --profile P]
#
# Needs Xvfb and xdotool. `--wait` is how long the data set takes to open (default 15 s).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shoal=$root/target/release/shoal
wait=15
k36=$root/target/bench-data/k36
args=("$k36/rail0" "$k36/rail1" --profile "$k36/ranks10000-peers100.ibprof")
while [ $# -gt 0 ]; do
    case $1 in
        --shoal) shoal=$2; shift 2 ;;
        --wait) wait=$2; shift 2 ;;
        --) shift; args=("$@"); break ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
display=:96
Xvfb $display -screen 0 1440x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; wait $xvfb 2>/dev/null' EXIT
sleep 1
export DISPLAY=$display WAYLAND_DISPLAY= WGPU_BACKEND=vulkan SHOAL_FRAME_LOG=1

# CPU ticks (1/100 s) of the llvmpipe threads and of the others.
ticks() {
    for t in /proc/$1/task/*; do echo "$(cat "$t/comm") $(awk '{print $14 + $15}' "$t/stat")"; done |
        awk '/llvmpipe/ {r += $2} !/llvmpipe/ {s += $2} END {print r + 0, s + 0}'
}
frames() { grep -c '^frame ' "$1" || true; }
report() { # name log pid frames0 ticks0...
    local name=$1 log=$2 pid=$3 f0=$4 r0=$5 s0=$6 r1 s1 f1
    read -r r1 s1 < <(ticks "$pid")
    f1=$(frames "$log")
    local n=$((f1 - f0))
    printf '  %-5s %3d frames; renderer %5.2f s, shoal %5.2f s of CPU' "$name" "$n" \
        "$(echo "($r1 - $r0) / 100" | bc -l)" "$(echo "($s1 - $s0) / 100" | bc -l)"
    [ "$n" -gt 0 ] && printf '; %.0f ms renderer CPU a frame' "$(echo "($r1 - $r0) * 10 / $n" | bc -l)"
    echo
}
settle() { # wait until no frame came for 1 s
    local last=-1 n
    while n=$(frames "$1"); [ "$n" != "$last" ]; do last=$n; sleep 1; done
}

for painter in gpu cpu; do
    log=$(mktemp)
    XDG_CONFIG_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d) SHOAL_LINK_PAINTER=$painter \
        "$shoal" "${args[@]}" 2>"$log" &
    pid=$!
    sleep "$wait"
    settle "$log"
    echo "SHOAL_LINK_PAINTER=$painter"
    read -r r0 s0 < <(ticks $pid); f0=$(frames "$log")
    for i in $(seq 1 20); do xdotool mousemove $((400 + i * 7)) 300; sleep 0.3; done
    settle "$log"
    report hover "$log" $pid "$f0" "$r0" "$s0"
    read -r r0 s0 < <(ticks $pid); f0=$(frames "$log")
    xdotool mousemove 700 400 mousedown 1
    for i in $(seq 1 15); do xdotool mousemove $((700 + i * 10)) $((400 + i * 5)); sleep 0.2; done
    xdotool mouseup 1
    settle "$log"
    report pan "$log" $pid "$f0" "$r0" "$s0"
    kill $pid
    wait $pid 2>/dev/null || true
    rm -f "$log"
done
