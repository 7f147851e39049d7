#!/usr/bin/env python3
"""Times `--prometheus` end to end through remote read: every port of the k = 36 rails from a
local Prometheus into the time strip (issue 26's speed target: a day at 60 s, <= 10 s).

Backfills one transmit-data counter series per link end of the rails (both ends of every link
in each rail's OpenSM `.lst`: 139,968 series for the two k = 36 rails) with HOURS hours of
one-minute points (`promtool tsdb create-blocks-from openmetrics`), starts Debian's
`prometheus` on 127.0.0.1, then times, each RUNS times:

- the server alone: `POST /api/v1/read` (streamed XOR chunks) read to the end and discarded;
- `shoal info RAILS` (the fabric's load, for reference: the strip cannot be drawn without
  counters, and `info` does more than load);
- `shoal render RAILS --module time-strip --prometheus URL --from --to --step 60s` (remote
  read into the time strip, drawn), with the server's CPU over it;
- with --bench, the history bench's `range_from_a_server_folded` against the same server: the
  range read and folded alone, its CPU split into read-and-fold and finish.

Each figure comes with wall and CPU seconds (user + system) and the load average. promtool
backfills at ~0.05 M samples/s here, so a whole day of every port (202 M samples) is out of
reach: measure all ports over fewer hours (per-series cost) and a whole day of every Nth port
(`--every N`: per-sample cost), and scale by hand, saying it is an extrapolation.

    scripts/measure-prometheus-remote-read.py [--hours 1] [--every 1] [--runs 3] [--bench] [--keep DIR]
        [--shoal target/release/shoal] [RAIL.lst ...]

RAILs default to target/bench-data/k36/rail{0,1}/opensm-subnet.lst (made by `cargo bench`'s
k = 36 setup; see DEVELOPERS.md). Needs a few GB of disk in $TMPDIR per backfilled hour.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from prometheus_local import backfill, field, require_tools, start_server, stop_server, uvarint, wait_ready  # noqa: E402

T0 = 1_700_000_000
STEP = 60
DEFAULT_RAILS = [f"target/bench-data/k36/rail{r}/opensm-subnet.lst" for r in (0, 1)]
NAMES = "infiniband_.+_total|node_infiniband_.+_total"
END = re.compile(r"\{ (CA|SW) .*?NodeGUID:([0-9a-f]+) .*?PN:([0-9A-Fa-f]+) \}")


def link_ends(lst):
    """Every (kind, node GUID, port) at either end of a link of the `.lst`, once, in order."""
    seen, out = set(), []
    with open(lst) as f:
        for line in f:
            for kind, guid, port in END.findall(line):
                end = (kind, guid, int(port, 16))
                if end not in seen:
                    seen.add(end)
                    out.append(end)
    return out


def write_openmetrics(path, ends, points):
    """One family per metric, each series in time order, `# EOF` last (what promtool requires)."""
    families = {"SW": "infiniband_switch_port_transmit_data_bytes",
                "CA": "infiniband_hca_port_transmit_data_bytes"}
    with open(path, "w", buffering=1 << 22) as out:
        for kind, family in families.items():
            out.write(f"# TYPE {family} counter\n")
            for i, (k, guid, port) in enumerate(ends):
                if k != kind:
                    continue
                head = f'{family}_total{{guid="0x{guid}",port="{port}"}} '
                rate = 1_000_000 + 4096 * (i % 7)
                out.write("".join(f"{head}{rate * s} {T0 + STEP * s}\n" for s in range(points)))
        out.write("# EOF\n")


def read_request(points):
    """The ReadRequest shoal sends (one regex matcher, STREAMED_XOR_CHUNKS), one snappy literal."""
    start, end = (T0 - 300) * 1000, (T0 + STEP * (points - 1)) * 1000
    matcher = field(1, 0, 2) + field(2, 2, b"__name__") + field(3, 2, NAMES.encode())
    query = field(1, 0, start) + field(2, 0, end) + field(3, 2, matcher)
    request = field(1, 2, query) + field(2, 0, 1)
    return uvarint(len(request)) + bytes([60 << 2, len(request) - 1]) + request


def make_store(work, store, ends, points, parts, compacted):
    """Backfills `ends` into `store`: `parts` promtool runs at once, on disjoint series (their
    blocks overlap in time, which Prometheus 2.39+ always accepts and merges when it compacts).
    With `compacted`, one more series far later lets the server compact the day as a long-running
    server has compacted a past day (2 h blocks into 6 h and longer ones), and waits for it."""
    os.makedirs(store, exist_ok=True)
    t = time.perf_counter()
    runs = []
    for part in range(parts):
        source = os.path.join(work, f"history-{part}.om")
        write_openmetrics(source, ends[part::parts], points)
        out = os.path.join(work, f"blocks-{part}")
        runs.append((source, out, subprocess.Popen(
            ["promtool", "tsdb", "create-blocks-from", "openmetrics", source, out], stdout=subprocess.DEVNULL)))
    for source, out, run in runs:
        if run.wait() != 0:
            sys.exit(f"promtool failed on {source}")
        for block in os.listdir(out):
            os.rename(os.path.join(out, block), os.path.join(store, block))
        os.rmdir(out)
        os.remove(source)
    seconds = time.perf_counter() - t
    print(f"backfilled {len(ends)} series x {points} points in {parts} parts in {seconds:.0f} s "
          f"({len(ends) * points / seconds / 1e6:.2f} M samples/s, {load()})")
    if compacted:
        compact(work, store, points)


def compact(work, store, points):
    """Lets the server compact every block of the day. The compaction planner leaves the newest
    block alone and compacts only ranges that end before the next newest one starts, so a series
    gets two samples, three and six days later, each in a block of its own."""
    later = os.path.join(work, "later.om")
    end = T0 + STEP * points
    with open(later, "w") as out:
        out.write("# TYPE shoal_measure_later gauge\n")
        out.write("".join(f"shoal_measure_later {days} {end + days * 86_400}\n" for days in (3, 6)))
        out.write("# EOF\n")
    backfill(later, store)
    os.remove(later)
    t = time.perf_counter()
    server, url = start_server(store, os.path.join(work, "compaction.log"))
    try:
        wait_ready(url, seconds=600)
        while True:
            time.sleep(20)
            # The planner runs once a minute; two quiet minutes with no change: done.
            blocks = sorted(os.listdir(store))
            time.sleep(130)
            if sorted(os.listdir(store)) == blocks:
                break
    finally:
        stop_server(server, work, keep=True)
    print(f"the server compacted the store in {time.perf_counter() - t:.0f} s "
          f"({len([b for b in os.listdir(store) if b.startswith('01')])} blocks, {load()})")


def timed_read(url, points):
    """Seconds and bytes of the server's remote-read answer, read to the end."""
    request = urllib.request.Request(f"{url}/api/v1/read", data=read_request(points), headers={
        "Content-Type": "application/x-protobuf", "Content-Encoding": "snappy",
        "X-Prometheus-Remote-Read-Version": "0.1.0"})
    start, size = time.perf_counter(), 0
    with urllib.request.urlopen(request, timeout=600) as r:
        while chunk := r.read(1 << 20):
            size += len(chunk)
    return time.perf_counter() - start, size


def timed_run(command):
    """Wall and child CPU seconds of a command, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def cpu_of(pid):
    """User + system CPU seconds of a running process (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load():
    return "load %.2f" % os.getloadavg()[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rails", nargs="*", default=DEFAULT_RAILS)
    ap.add_argument("--hours", type=float, default=1)
    ap.add_argument("--every", type=int, default=1,
                    help="backfill every Nth link end only (a whole day of fewer ports)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shoal", default="target/release/shoal")
    ap.add_argument("--bench", action="store_true",
                    help="also run the history bench's server case (cargo bench) against the store")
    ap.add_argument("--parts", type=int, default=2, help="promtool runs at once (disjoint series)")
    ap.add_argument("--compacted", action="store_true",
                    help="let the server compact the backfilled day first, as a long-running server has")
    ap.add_argument("--keep", help="reuse (or leave) the backfilled store in this directory")
    args = ap.parse_args()
    require_tools()
    points = int(args.hours * 60) + 1
    every_end = [e for rail in args.rails for e in link_ends(rail)]
    ends = every_end[::args.every]
    samples = len(ends) * points
    work = args.keep or tempfile.mkdtemp(prefix="shoal-remote-read-")
    store = os.path.join(work, "data")
    if not os.path.isdir(store):
        make_store(work, store, ends, points, args.parts, args.compacted)
    server, url = start_server(store, os.path.join(work, "prometheus.log"))
    rails = args.rails
    to = T0 + STEP * (points - 1)
    # `info` loads the fabric (and checks more than `render` does: a reference, not a baseline to
    # subtract; the bench's case below is the range's part alone).
    fabric = [args.shoal, "info", *rails]
    strip = [args.shoal, "render", *rails, "--module", "time-strip", "--out", os.path.join(work, "strip.png"),
             "--prometheus", url, "--from", str(T0), "--to", str(to), "--step", "60s"]
    # The history bench's server case: the range read and folded alone, on the same ports.
    bench = ["cargo", "bench", "--bench", "history", "--", "range_from_a_server"]
    try:
        wait_ready(url, seconds=300)
        print(f"{len(ends)} series x {points} points = {samples / 1e6:.1f} M samples")
        for run in range(1, args.runs + 1):
            cpu_before = cpu_of(server.pid)
            seconds, size = timed_read(url, points)
            server_cpu = cpu_of(server.pid) - cpu_before
            print(f"run {run}: server's remote-read answer alone: {seconds:.2f} s wall, {server_cpu:.2f} s "
                  f"of the server's CPU, {size / 1e6:.0f} MB ({size / samples:.2f} B a sample), "
                  f"{samples / seconds / 1e6:.1f} M samples/s ({load()})")
            wall, cpu = timed_run(fabric)
            print(f"run {run}: shoal info, the fabric alone: {wall:.2f} s wall, {cpu:.2f} s CPU ({load()})")
            cpu_before = cpu_of(server.pid)
            wall2, cpu2 = timed_run(strip)
            server_cpu = cpu_of(server.pid) - cpu_before
            print(f"run {run}: shoal render --module time-strip --prometheus: {wall2:.2f} s wall, "
                  f"{cpu2:.2f} s CPU, the server's {server_cpu:.2f} s CPU ({load()})")
            if args.bench:
                env = dict(os.environ, SHOAL_BENCH_PROMETHEUS=f"{url} {T0} {to}")
                done = subprocess.run(["nice", "-n", "10", *bench], env=env, capture_output=True, text=True)
                lines = [l for l in (done.stdout + done.stderr).splitlines() if "history:" in l]
                print(f"run {run}: history bench: " + " | ".join(lines) + f" ({load()})")
        day = len(every_end) * 1_441
        if args.runs > 0:
            print(f"a day of every port is {day / 1e6:.0f} M samples; this store holds "
                  f"{samples / day:.3f} of it (scale by hand, saying it is an extrapolation)")
    finally:
        stop_server(server, work, args.keep)


if __name__ == "__main__":
    main()
