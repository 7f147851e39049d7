#!/usr/bin/env python3
"""Issue 27's timed commands, each the median of N runs with the page cache warm:

- `tsubame`: `shoal render` of the TSUBAME-sized two rails (benches/data/tsubame) with a
  1,296-rank all-to-all, against `cat` of the same input files;
- `k36`: `shoal render` of the k = 36 two rails with 10,000 ranks x 100 peers, against `cat`,
  and its peak resident memory;
- `window`: the window's first frame with the k = 36 data set (SHOAL_FIRST_FRAME=1), under Xvfb
  with lavapipe (WGPU_BACKEND=vulkan), and its resident memory then;
- `boxfish`: `shoal query` on Boxfish's bgpc and collex examples (load + a node filter onto
  the links) against Boxfish's own data layer (scripts/boxfish_data_layer.py, Python 2).

    scripts/measure-peers.py [--runs N] [--shoal BIN] [--boxfish CHECKOUT] [CASE...]

Inputs: the TSUBAME profile is target/bench-data/tsubame-alltoall.ibprof (written by
`cargo bench --bench pipeline_tsubame`), the k = 36 folder target/bench-data/k36 (written by
`cargo bench --bench view_model_memory`, or `shoal gen --k 36 --rails 2 --ranks 10000 --peers 100
--out target/bench-data/k36`). Boxfish's checkout: `git clone https://github.com/LLNL/boxfish`.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def files_under(*paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                out.extend(os.path.join(d, n) for n in sorted(names))
        else:
            out.append(p)
    return out


CPU = {}


def timed(cmd, env=None, runs=5):
    """Median wall seconds and median peak RSS (MB) of `cmd` over `runs` runs (one warm-up); the
    median user + system CPU seconds go to CPU[cmd[0]] (on a shared machine the wall clock
    waits for other work, the CPU time does not)."""
    walls, rss, cpus, errs = [], [], [], ""
    for i in range(runs + 1):
        full = ["/usr/bin/time", "-f", "%U %S %M"] + cmd
        t = time.perf_counter()
        p = subprocess.run(full, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t
        if p.returncode != 0:
            sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
        errs = p.stderr
        if i == 0:
            continue  # the warm-up fills the page cache
        user, system, peak = p.stderr.strip().splitlines()[-1].split()
        walls.append(wall)
        rss.append(int(peak) / 1024)
        cpus.append(float(user) + float(system))
    CPU[cmd[0]] = statistics.median(cpus)
    return statistics.median(walls), statistics.median(rss), errs


def cat_seconds(files, runs):
    wall, _, _ = timed(["cat"] + files, runs=runs)
    return wall


def render_case(name, rails, profile, runs, shoal):
    files = files_under(*rails, profile)
    size = sum(os.path.getsize(f) for f in files) / 1e6
    cat = cat_seconds(files, runs)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [shoal, "render", *rails, "--profile", profile, "--out", os.path.join(tmp, "view.png")]
        wall, rss, _ = timed(cmd, runs=runs)
    print(f"{name}: render {wall:.3f} s (CPU {CPU[shoal]:.3f} s), cat {cat:.3f} s (CPU {CPU['cat']:.3f} s; "
          f"{size:.0f} MB in {len(files)} files): {wall / cat:.1f}x cat; peak {rss:.0f} MB")


def window_case(rails, profile, runs, shoal):
    display = ":97"
    # A server that was just stopped may still hold the display: wait until it has let go.
    for _ in range(100):
        if not os.path.exists(f"/tmp/.X{display[1:]}-lock"):
            break
        time.sleep(0.1)
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1440x900x24"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The server is ready once its socket exists (a previous one may still be going away).
    socket = f"/tmp/.X11-unix/X{display[1:]}"
    for _ in range(100):
        if os.path.exists(socket) and xvfb.poll() is None:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    try:
        env = dict(os.environ, DISPLAY=display, WAYLAND_DISPLAY="", WGPU_BACKEND="vulkan",
                   SHOAL_FIRST_FRAME="1", XDG_CONFIG_HOME=tempfile.mkdtemp(),
                   XDG_DATA_HOME=tempfile.mkdtemp())
        seconds, resident, peaks = [], [], []
        for i in range(runs + 1):
            p = subprocess.run([shoal, *rails, "--profile", profile], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
            m = re.search(r"first frame with the data set: ([\d.]+) s after start, (\d+) MB resident "
                          r"\(peak (\d+) MB\)", p.stderr)
            if not m:
                sys.exit(f"no first-frame line from the window:\n{p.stderr[-2000:]}")
            if i == 0:
                continue
            seconds.append(float(m[1]))
            resident.append(int(m[2]))
            peaks.append(int(m[3]))
        print(f"window (Xvfb, lavapipe): first frame {statistics.median(seconds):.2f} s, "
              f"{statistics.median(resident):.0f} MB resident (peak {statistics.median(peaks):.0f} MB); "
              f"runs: {seconds}")
    finally:
        xvfb.kill()
        xvfb.wait()


def boxfish_case(checkout, runs, shoal):
    data = os.path.join(checkout, "example-data")
    layer = os.path.join(ROOT, "scripts", "boxfish_data_layer.py")
    env = dict(os.environ, PYENV_VERSION=os.environ.get("BOXFISH_PYENV", "2.7.18"))
    for run, region, threshold in [("bgpc", 1, 8000000), ("collex", 1, 8000000)]:
        meta = f"{run}_meta.yaml"
        if not os.path.exists(os.path.join(data, meta)):
            print(f"boxfish {run}: {meta} not in {data}; skipped")
            continue
        query = [shoal, "query", os.path.join(data, meta), "--domain", "links",
                 "--where", f"netWrites > {threshold}", "--where", f"code_region = {region}",
                 "--attr", "packets"]
        ours, _, _ = timed(query, runs=runs)
        ours_cpu = CPU[shoal]
        theirs = []
        for _ in range(max(1, runs // 2)):
            t = time.perf_counter()
            p = subprocess.run(["python2", layer, checkout, meta, str(region), str(threshold)],
                               cwd=data, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                sys.exit(f"Boxfish's data layer failed:\n{p.stderr[-2000:]}")
            theirs.append(time.perf_counter() - t)
        b = statistics.median(theirs)
        print(f"boxfish {run}: shoal query {ours * 1000:.1f} ms (CPU {ours_cpu * 1000:.0f} ms), "
              f"Boxfish's data layer {b:.2f} s: {b / ours:.0f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--shoal", default=os.path.join(ROOT, "target", "release", "shoal"))
    ap.add_argument("--boxfish", default=os.environ.get("BOXFISH", ""))
    ap.add_argument("cases", nargs="*", default=["tsubame", "k36", "window", "boxfish"])
    a = ap.parse_args()
    with open("/proc/loadavg") as f:
        print(f"load average before: {' '.join(f.read().split()[:3])}; {a.shoal}")
    tsubame = [os.path.join(ROOT, "benches/data/tsubame", r) for r in ("rail0", "rail1")]
    k36 = os.path.join(ROOT, "target/bench-data/k36")
    k36_rails = [os.path.join(k36, r) for r in ("rail0", "rail1")]
    k36_profile = os.path.join(k36, "ranks10000-peers100.ibprof")
    for case in a.cases:
        if case == "tsubame":
            render_case("tsubame", tsubame, os.path.join(ROOT, "target/bench-data/tsubame-alltoall.ibprof"),
                        a.runs, a.shoal)
        elif case == "k36":
            render_case("k36", k36_rails, k36_profile, a.runs, a.shoal)
        elif case == "window":
            window_case(k36_rails, k36_profile, a.runs, a.shoal)
        elif case == "boxfish":
            if not a.boxfish:
                print("boxfish: no checkout (--boxfish DIR or BOXFISH=DIR); skipped")
            else:
                boxfish_case(a.boxfish, a.runs, a.shoal)
        else:
            sys.exit(f"unknown case {case!r}: tsubame, k36, window or boxfish")
    with open("/proc/loadavg") as f:
        print(f"load average after: {' '.join(f.read().split()[:3])}")


if __name__ == "__main__":
    main()
