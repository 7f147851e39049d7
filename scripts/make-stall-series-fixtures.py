#!/usr/bin/env python3
"""Real fixtures for stall over time: five perfquery captures of the health fabric, four intervals.

Usage: scripts/make-stall-series-fixtures.py

Writes tests/fixtures/stall-series/. Needs Debian's ibsim-utils, opensm, infiniband-diags.

The fabric is tests/fixtures/health's (scripts/make-health-fixtures.py: S1, S2, hosts H1–H4,
every link 4xQDR but S1[4]–S2[4] 1xSDR). ibsim runs it, a real OpenSM routes it once, then
plain `perfquery LID PORT` of every port is captured five times (snapshot-0 … snapshot-4); between
captures ibsim's console (`PerformanceSet`) adds the XmitWait ticks and data words of STEPS, so
each interval holds a known stall and utilisation. perfquery prints no times: tests date the
captures one second apart (4x QDR: 31,250,000 ticks of 128 bytes are one second; 1x SDR:
7,812,500 ticks of 32 bytes).
"""

import importlib.util
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "stall-series")
spec = importlib.util.spec_from_file_location("health", os.path.join(ROOT, "scripts", "make-health-fixtures.py"))
health = importlib.util.module_from_spec(spec)
spec.loader.exec_module(health)

# Per interval: (node, port, counter, added).
STEPS = [
    # 1: S1's two links into S2 stall 50 % (one region: same switches, tier, direction).
    [("S1", 3, "PortXmitWait", 15_625_000), ("S1", 4, "PortXmitWait", 3_906_250),
     ("S1", 3, "PortXmitData", 500_000_000)],
    # 2: only S1[3] goes on stalling (20 %); H1's uplink stalls 30 % (another tier and direction).
    [("S1", 3, "PortXmitWait", 6_250_000), ("H1", 1, "PortXmitWait", 9_375_000),
     ("S1", 3, "PortXmitData", 250_000_000)],
    # 3: calm.
    [],
    # 4: S1[3] severe (60 %) and S1[4] again: one region once more.
    [("S1", 3, "PortXmitWait", 18_750_000), ("S1", 4, "PortXmitWait", 1_562_500),
     ("S1", 3, "PortXmitData", 900_000_000)],
]


def main():
    os.makedirs(OUT, exist_ok=True)
    net = health.NET + health.host("H1", 1, "S1", 1) + health.host("H2", 2, "S1", 2) \
        + health.host("H3", 3, "S2", 1) + health.host("H4", 4, "S2", 2)
    work = tempfile.mkdtemp(prefix="shoal-stall-series-")
    netfile = os.path.join(work, "ibsim.net")
    health.write(netfile, net)
    log = open(os.path.join(work, "ibsim.log"), "w")
    sim = subprocess.Popen(["ibsim", "-s", netfile], stdin=subprocess.PIPE, stdout=log, stderr=log,
                           cwd=work, text=True)
    try:
        health.wait_for(os.path.join(work, "ibsim.log"), "sim>")
        dumps = os.path.join(work, "dumps")
        os.makedirs(dumps)
        env = dict(health.SIM_ENV, OSM_TMP_DIR=dumps, OSM_CACHE_DIR=dumps)
        subprocess.run(["opensm", "-o", "-R", "minhop", "-D", "0x43", "-f", os.path.join(work, "osm.log"),
                        "--dump_files_dir", dumps], env=env, check=True, capture_output=True, timeout=300)
        ports = health.port_lids(os.path.join(dumps, "opensm-subnet.lst"))
        text = health.capture(ports)
        health.write(os.path.join(OUT, "snapshot-0.txt"), text)
        for step, plan in enumerate(STEPS, start=1):
            values = health.parse(text)
            for node, port, counter, added in plan:
                lid = next(l for (n, p), l in ports.items() if n == node and p == port)
                now = values[(lid, port)][counter] + added
                sim.stdin.write(f'PerformanceSet "{node}"[{port}] PortCounters.{counter}={now}\n')
                sim.stdin.flush()
                values[(lid, port)][counter] = now
            time.sleep(1)
            text = health.capture(ports)
            health.write(os.path.join(OUT, f"snapshot-{step}.txt"), text)
    finally:
        sim.terminate()
        sim.wait()


if __name__ == "__main__":
    main()
