#!/usr/bin/env python3
"""Saves a real Prometheus's remote-read answer (streamed XOR chunks) and its `query_range`
answer for the same range, as fixtures for shoal's decoding tests.

Backfills a few treydock-named counter series with `promtool tsdb create-blocks-from
openmetrics` (a counter reset, a gap longer than the 5-minute lookback, 15 s scrapes off the
step times, values above 2^53, a value that is no count, a series over two chunks), starts
Debian's `prometheus` on 127.0.0.1, and writes into tests/fixtures/prometheus/:

    remote-read.bin     the body of POST /api/v1/read (frames as the server sent them)
    query-range.json    the body of GET /api/v1/query_range over the same steps

    scripts/capture-remote-read.py

The request is built by hand (protobuf, and one snappy literal) as shoal builds it.
"""
import os
import shutil
import sys
import tempfile
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from prometheus_local import backfill, field, require_tools, start_server, stop_server, uvarint, wait_ready  # noqa: E402

T0 = 1_700_000_000
FROM, TO, STEP = T0 + 300, T0 + 300 + 60 * 40, 60
NAMES = "infiniband_.+_total|node_infiniband_.+_total"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "prometheus")


def series():
    """(metric, labels, [(t, value text)]) of the fixture."""
    data = "infiniband_switch_port_transmit_data_bytes_total"
    wait = "infiniband_switch_port_transmit_wait_total"
    port1 = '{guid="0x0002c90200010000",port="1",switch="sw1"}'
    port2 = '{guid="0x0002c90200010000",port="2",switch="sw1"}'
    # One-minute scrapes; a reset at minute 12; nothing from minute 20 to 29 (a gap).
    one = []
    for k in range(45):
        if 20 <= k < 30:
            continue
        value = 1_000_000 * k if k < 12 else 4096 * (k - 11)
        one.append((T0 + 60 * k, str(value)))
    # 15 s scrapes 7 s off the minute, 181 samples (two chunks), values past 2^53.
    two = [(T0 + 7 + 15 * k, str(2**60 + 1_000_003 * k * k)) for k in range(181)]
    # XmitWait with a value that is no count in the middle.
    three = [(T0 + 60 * k, "1.5" if k == 9 else str(7 * k)) for k in range(45)]
    return [(data, port1, one), (data, port2, two), (wait, port1, three)]


def openmetrics():
    lines, family = [], None
    for metric, labels, points in series():
        base = metric[: -len("_total")]
        if base != family:
            lines.append(f"# TYPE {base} counter")
            family = base
        lines += [f"{metric}{labels} {value} {t}" for t, value in points]
    return "\n".join(lines + ["# EOF", ""])


def read_request():
    start_ms, end_ms, step_ms = (FROM - 300) * 1000, TO * 1000, STEP * 1000
    matcher = field(1, 0, 2) + field(2, 2, b"__name__") + field(3, 2, NAMES.encode())
    hints = field(1, 0, step_ms) + field(3, 0, start_ms) + field(4, 0, end_ms)
    query = field(1, 0, start_ms) + field(2, 0, end_ms) + field(3, 2, matcher) + field(4, 2, hints)
    request = field(1, 2, query) + field(2, 0, 1)  # STREAMED_XOR_CHUNKS
    n = len(request) - 1
    assert n < 256, "one snappy literal with a one-byte length"
    return uvarint(len(request)) + bytes([60 << 2, n]) + request


def main():
    require_tools()
    work = tempfile.mkdtemp(prefix="shoal-remote-read-")
    try:
        source = os.path.join(work, "history.om")
        with open(source, "w") as f:
            f.write(openmetrics())
        store = os.path.join(work, "data")
        backfill(source, store)
        server, url = start_server(store, os.path.join(work, "log"))
        try:
            wait_ready(url)
            request = urllib.request.Request(f"{url}/api/v1/read", data=read_request(), headers={
                "Content-Type": "application/x-protobuf", "Content-Encoding": "snappy",
                "X-Prometheus-Remote-Read-Version": "0.1.0"})
            with urllib.request.urlopen(request, timeout=60) as r:
                print("remote read:", r.status, r.headers["Content-Type"])
                body = r.read()
            os.makedirs(OUT, exist_ok=True)
            with open(os.path.join(OUT, "remote-read.bin"), "wb") as f:
                f.write(body)
            query = urllib.parse.urlencode({"query": "{__name__=~\"%s\"}" % NAMES,
                                            "start": FROM, "end": TO, "step": STEP})
            with urllib.request.urlopen(f"{url}/api/v1/query_range?{query}", timeout=60) as r:
                answer = r.read()
            with open(os.path.join(OUT, "query-range.json"), "wb") as f:
                f.write(answer)
            print(f"wrote {len(body)} B of frames and {len(answer)} B of JSON to {OUT}")
        finally:
            stop_server(server, work, keep=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
