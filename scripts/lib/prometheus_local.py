"""What the Prometheus measurement and capture scripts share: a free local port, waiting for a
server to be ready, and the two protobuf encoders a remote-read request needs."""

import socket
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/-/ready", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    sys.exit(f"prometheus at {url} was not ready within {seconds} s")


def uvarint(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def field(number, wire, payload):
    """A protobuf field: a varint (wire 0) or length-delimited bytes (wire 2)."""
    if wire == 0:
        return uvarint(number << 3) + uvarint(payload)
    return uvarint(number << 3 | 2) + uvarint(len(payload)) + payload


def start_server(store, log_path, *extra):
    """Debian's `prometheus` serving `store` on a free 127.0.0.1 port: (process, URL)."""
    import subprocess

    port = free_port()
    server = subprocess.Popen([
        "prometheus", "--config.file=/dev/null", f"--storage.tsdb.path={store}",
        "--storage.tsdb.retention.time=100y", f"--web.listen-address=127.0.0.1:{port}", *extra,
    ], stdout=subprocess.DEVNULL, stderr=open(log_path, "w"))
    return server, f"http://127.0.0.1:{port}"


def stop_server(server, work, keep):
    """Stops the server, and removes its work folder unless asked to keep it."""
    import shutil

    server.terminate()
    server.wait()
    if not keep:
        shutil.rmtree(work, ignore_errors=True)


def require_tools():
    """Exits with a clear message unless Debian's `prometheus` and `promtool` are installed."""
    import shutil

    for tool in ("prometheus", "promtool"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed (scripts/test.sh installs it)")


def backfill(source, store):
    """Turns the OpenMetrics file `source` into TSDB blocks under `store` with promtool."""
    import subprocess

    subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", source, store],
                   check=True, stdout=subprocess.DEVNULL)
