#!/usr/bin/env python3
"""How fast a local Prometheus hands over a `query_range` answer, before shoal reads a byte.

Issue 26's speed target is a day of every port of the k = 36 rails (139,968 series x 1,441
points at 60 s) into the time strip within 10 s. Part of that time is the server's: this script
backfills SERIES counter series of POINTS points (60 s apart) with `promtool tsdb
create-blocks-from openmetrics`, starts Debian's `prometheus` on 127.0.0.1, and times the
`query_range` answers shoal would ask for (the whole range at once, and sharded by GUID prefix),
reading each answer to the end and discarding it. It prints samples per second, so the day's
figure can be scaled from a smaller store.

    scripts/measure-prometheus-answer.py [--series 20000] [--points 361] [--runs 3] [--keep DIR]

Needs `prometheus` and `promtool` (scripts/test.sh installs them) and a few GB of disk in $TMPDIR.
"""
import argparse
import os
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from prometheus_local import backfill, require_tools, start_server, stop_server, wait_ready  # noqa: E402

METRIC = "infiniband_switch_port_transmit_data_bytes_total"
T0 = 1_700_000_000
STEP = 60


def write_openmetrics(path, series, points):
    """Each series in time order, one family, `# EOF` last (what promtool requires)."""
    with open(path, "w") as out:
        out.write(f"# TYPE {METRIC[:-len('_total')]} counter\n")
        for i in range(series):
            labels = f'{{guid="0x{0x0002c90300000000 + i // 36:016x}",port="{i % 36 + 1}"}}'
            rate = 1_000_000 + 4096 * (i % 7)
            out.write("".join(f"{METRIC}{labels} {rate * k} {T0 + STEP * k}\n" for k in range(points)))
        out.write("# EOF\n")


def timed_query(url, selector, points):
    """Seconds and bytes for one `query_range` answer, read to the end."""
    query = urllib.parse.urlencode({
        "query": selector, "start": T0, "end": T0 + STEP * (points - 1), "step": STEP,
    })
    start = time.perf_counter()
    size = 0
    with urllib.request.urlopen(f"{url}/api/v1/query_range?{query}", timeout=600) as r:
        while chunk := r.read(1 << 20):
            size += len(chunk)
    return time.perf_counter() - start, size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--series", type=int, default=20000)
    ap.add_argument("--points", type=int, default=361)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", help="reuse (or leave) the backfilled store in this directory")
    args = ap.parse_args()
    require_tools()
    work = args.keep or tempfile.mkdtemp(prefix="shoal-prom-answer-")
    store = os.path.join(work, "data")
    if not os.path.isdir(store):
        os.makedirs(work, exist_ok=True)
        source = os.path.join(work, "history.om")
        t = time.perf_counter()
        write_openmetrics(source, args.series, args.points)
        backfill(source, store)
        os.remove(source)
        print(f"backfilled {args.series} series x {args.points} points in {time.perf_counter() - t:.1f} s")
    server, url = start_server(store, os.path.join(work, "prometheus.log"), "--query.max-samples=1000000000")
    try:
        wait_ready(url)
        samples = args.series * args.points
        whole = "{__name__=~\"infiniband_.+_total\"}"
        shards = [f'{{__name__=~"infiniband_.+_total",port="{p}"}}' for p in range(1, 37)]
        for run in range(args.runs):
            seconds, size = timed_query(url, whole, args.points)
            print(f"run {run + 1}: whole range in one answer: {seconds:.2f} s, {size / 1e6:.0f} MB, "
                  f"{samples / seconds / 1e6:.2f} M samples/s")
            for workers in (1, os.cpu_count() or 1):
                t = time.perf_counter()
                with ThreadPoolExecutor(workers) as pool:
                    size = sum(b for _, b in pool.map(lambda s: timed_query(url, s, args.points), shards))
                seconds = time.perf_counter() - t
                print(f"run {run + 1}: 36 answers by port, {workers} at a time: {seconds:.2f} s, "
                      f"{size / 1e6:.0f} MB, {samples / seconds / 1e6:.2f} M samples/s")
        day = 139_968 * 1_441
        print(f"a day of every k = 36 port is {day / 1e6:.0f} M samples")
    finally:
        stop_server(server, work, args.keep)


if __name__ == "__main__":
    main()
