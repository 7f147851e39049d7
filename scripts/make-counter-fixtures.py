#!/usr/bin/env python3
"""Real port-counter fixtures: perfquery and ibqueryerrors output captured on a simulated fabric.

Usage: scripts/make-counter-fixtures.py [SHOAL_BINARY]   (default: target/debug/shoal)

Writes tests/fixtures/counters/testbed/. Needs Debian's ibsim-utils, opensm, infiniband-diags.

1. `shoal convert sample-data/testbed --profile alltoall.ibprof` gives the predicted bytes of
   every link end (links.csv, `total` rows).
2. ibsim runs sample-data/testbed/ibsim.net with its console (standard input) on a pipe that
   stays open; an OpenSM
   stays up under umad2sim (minhop, as the sample was routed; no sweeps) to answer the SA.
3. "before": every link end's sending port is read with `perfquery -x LID PORT` and plain
   `perfquery LID PORT` (each concatenated into one file), and `ibqueryerrors --data` (with and
   without `--report-port`) runs; a few ports get symbol errors first so that `--data`, which
   prints only ports with errors, has something to print.
4. Each sending port's counters are set, through ibsim's console, to the value read before plus the
   predicted words (bytes / 4, rounded up) plus a known extra on a few ports (plan.csv); the far
   end's PortRcvData the same. The 32-bit counters are set saturating, as hardware does.
5. "after": the same captures again. Then one port's counters are reset (`perfquery -R`) and
   `perfquery -x` is captured once more ("reset").

The management packets the queries themselves send are counted by the simulator too: that is the
small difference the tests bound.
"""

import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "sample-data", "testbed")
OUT = os.path.join(ROOT, "tests", "fixtures", "counters", "testbed")
UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
SIM_ENV = dict(os.environ, SIM_HOST="n0001", LD_PRELOAD=UMAD2SIM)
WORD_MAX_32 = 0xFFFFFFFF
# (node as named in the net file, port, extra words beyond the prediction, why)
EXTRAS = [
    ("L1-00", 22, 5_000_000, "another job's traffic on an inter-switch link"),
    ("n0005", 1, 123_456, "a host sending outside the profiled job"),
    ("L1-01", 30, 4_100_000_000, "enough to saturate the 32-bit PortXmitData"),
]
ERROR_PORTS = [("n0003", 1), ("L1-00", 22), ("L1-01", 5)]
RESET_PORT = ("n0007", 1)
# ibqueryerrors exits 1 when it found ports with errors, which is the point here.
IBQUERYERRORS_FOUND = (0, 1)


def main():
    shoal = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "shoal")
    os.makedirs(OUT, exist_ok=True)
    work = tempfile.mkdtemp(prefix="shoal-counters-")
    predicted = predicted_words(shoal, work)
    names = net_names(os.path.join(SAMPLE, "ibsim.net"))
    lids = port_lids(os.path.join(SAMPLE, "opensm-subnet.lst"))
    links = link_ends(os.path.join(work, "links.csv"))
    sim = Simulator(work)
    try:
        sim.start()
        for node, port in ERROR_PORTS:
            sim.console(f'PerformanceSet "{node}"[{port}] PortCounters.SymbolErrorCounter=3')
        ports = [end for (a, ap, b, bp, _, _) in links for end in ((a, ap), (b, bp))]
        before = capture(sim, ports, lids, "before")
        plan = apply_traffic(sim, links, predicted, names, before)
        capture(sim, ports, lids, "after")
        reset_lid = lid_of_name(RESET_PORT[0], names, lids)
        sim.run(["perfquery", "-x", "-R", str(reset_lid), str(RESET_PORT[1])])
        write(os.path.join(OUT, "perfquery-x-reset.txt"), perfquery_all(sim, ports, lids, ["-x"]))
        write_plan(plan)
    finally:
        sim.stop()
    perfmgr_captures(work, links, predicted, names, lids)


def perfmgr_captures(work, links, predicted, names, lids):
    """OpenSM's PerfMgr (sweeping every second) dumps before and after the same traffic."""
    sim = Simulator(os.path.join(work, "perfmgr"), perfmgr=True)
    os.makedirs(sim.work)
    ports = [end for (a, ap, b, bp, _, _) in links for end in ((a, ap), (b, bp))]
    try:
        sim.start()
        time.sleep(3)
        for when in ("before", "after"):
            if when == "after":
                now = parse_perfquery(perfquery_all(sim, ports, lids, ["-x"]))
                apply_traffic(sim, links, predicted, names, now)
                time.sleep(3)
            write(os.path.join(OUT, f"perfmgr-{when}.txt"), sim.perfmgr_dump(mach=False))
            write(os.path.join(OUT, f"perfmgr-mach-{when}.txt"), sim.perfmgr_dump(mach=True))
    finally:
        sim.stop()


def predicted_words(shoal, work):
    """Bytes each link end carries in the prediction, keyed by its sending (guid, port)."""
    profile = os.path.join(SAMPLE, "alltoall.ibprof")
    subprocess.run([shoal, "convert", SAMPLE, "--profile", profile, "--out", work], check=True)
    words = {}
    for a, ap, b, bp, ab, ba in link_ends(os.path.join(work, "links.csv")):
        words[(a, ap)] = int(ab)
        words[(b, bp)] = int(ba)
    return words


def link_ends(path):
    """(a_guid, a_port, b_guid, b_port, bytes_a_to_b, bytes_b_to_a) of every `total` row."""
    with open(path) as f:
        return [
            (int(r["a_guid"], 16), int(r["a_port"]), int(r["b_guid"], 16), int(r["b_port"]),
             r["bytes_a_to_b"], r["bytes_b_to_a"])
            for r in csv.DictReader(f) if r["region"] == "total"
        ]


def net_names(path):
    """Node description → name in the net file (`Hca 1 "n0001" # "n0001 HCA-1"`)."""
    names = {}
    for line in open(path):
        m = re.match(r'^(Hca|Switch)\s+\d+\s+"([^"]+)"\s*#\s*"([^"]+)"', line)
        if m:
            names[m.group(3)] = m.group(2)
    return names


def port_lids(path):
    """(node GUID, port) → (LID, description); a switch's LID serves every port."""
    lids = {}
    end = re.compile(r"\{ (\S+) Ports:\w+ SystemGUID:\w+ NodeGUID:(\w+) .*?\{(.*?)\} LID:(\w+) PN:(\w+) \}")
    for line in open(path):
        for kind, guid, desc, lid, pn in end.findall(line):
            lids[(int(guid, 16), int(pn, 16))] = (int(lid, 16), desc)
    return lids


def lid_of_name(name, names, lids):
    return next(lid for (_, _), (lid, desc) in lids.items() if names.get(desc) == name)


class Simulator:
    """ibsim with its console on a pipe, and an OpenSM that stays up for the SA."""

    def __init__(self, work, perfmgr=False):
        self.work = work
        self.procs = []
        self.perfmgr = perfmgr
        self.dump_file = os.path.join(work, "perfmgr-dump.log")

    def start(self):
        log = open(os.path.join(self.work, "ibsim.log"), "w")
        sim = subprocess.Popen(["ibsim", "-s", os.path.join(SAMPLE, "ibsim.net")],
                               stdin=subprocess.PIPE, stdout=log, stderr=log, cwd=self.work, text=True)
        self.procs.append(sim)
        self.stdin = sim.stdin
        wait_for(os.path.join(self.work, "ibsim.log"), "sim>")
        osm_log = os.path.join(self.work, "osm.log")
        args = ["opensm", "-R", "minhop", "-s", "0", "-f", osm_log]
        if self.perfmgr:
            conf = os.path.join(self.work, "opensm.conf")
            write(conf, f"event_db_dump_file {self.dump_file}\n")
            args += ["--perfmgr", "--perfmgr_sweep_time_s", "1", "--console", "local", "-F", conf]
        osm = subprocess.Popen(
            args, env=dict(SIM_ENV, OSM_TMP_DIR=self.work, OSM_CACHE_DIR=self.work),
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.work, text=True)
        self.osm_console = osm.stdin
        self.procs.append(osm)
        self.wait_for_master()

    def wait_for_master(self, seconds=60):
        """OpenSM buffers its log, so ask the fabric: `sminfo` answers once an SM is master."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            done = subprocess.run(["sminfo"], env=SIM_ENV, capture_output=True, text=True, timeout=30)
            if "SMINFO_MASTER" in done.stdout:
                time.sleep(1)
                return
            time.sleep(0.5)
        raise SystemExit("OpenSM never became master")

    def perfmgr_dump(self, mach):
        """The PerfMgr's `dump_counters` (or `dump_counters mach`) file, once written."""
        if os.path.exists(self.dump_file):
            os.remove(self.dump_file)
        self.osm_console.write("perfmgr dump_counters" + (" mach" if mach else "") + "\n")
        self.osm_console.flush()
        wait_for(self.dump_file, "multicast_rcv_pkts")
        time.sleep(1)
        return open(self.dump_file).read()

    def console(self, command):
        self.stdin.write(command + "\n")
        self.stdin.flush()

    def run(self, args, ok_codes=(0,)):
        done = subprocess.run(args, env=SIM_ENV, capture_output=True, text=True, timeout=120)
        if done.returncode not in ok_codes:
            raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr}")
        return done.stdout

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
            p.wait()


def wait_for(path, text, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path) and text in open(path, errors="replace").read():
            return
        time.sleep(0.2)
    raise SystemExit(f"{text!r} never appeared in {path}")


def perfquery_all(sim, ports, lids, flags):
    return "".join(sim.run(["perfquery", *flags, str(lids[(g, p)][0]), str(p)]) for g, p in ports)


def capture(sim, ports, lids, when):
    extended = perfquery_all(sim, ports, lids, ["-x"])
    write(os.path.join(OUT, f"perfquery-x-{when}.txt"), extended)
    write(os.path.join(OUT, f"perfquery-{when}.txt"), perfquery_all(sim, ports, lids, []))
    write(os.path.join(OUT, f"ibqueryerrors-data-{when}.txt"), sim.run(["ibqueryerrors", "--data"], IBQUERYERRORS_FOUND))
    write(os.path.join(OUT, f"ibqueryerrors-data-r-{when}.txt"),
          sim.run(["ibqueryerrors", "--data", "--report-port"], IBQUERYERRORS_FOUND))
    return parse_perfquery(extended)


def parse_perfquery(text):
    """(LID, port) → {counter: value} of `perfquery -x` blocks."""
    values, key = {}, None
    for line in text.splitlines():
        m = re.match(r"# Port extended counters: Lid (\d+) port (\d+)", line)
        if m:
            key = (int(m.group(1)), int(m.group(2)))
            values[key] = {}
        m = re.match(r"(\w+):\.+(\d+)$", line)
        if m and key:
            values[key][m.group(1)] = int(m.group(2))
    return values


def apply_traffic(sim, links, predicted, names, before):
    """Sets every sending port to before + predicted + extra; the far end receives the same."""
    lids = port_lids(os.path.join(SAMPLE, "opensm-subnet.lst"))
    extras = {(n, p): w for n, p, w, _ in EXTRAS}
    plan = []
    for a, ap, b, bp, _, _ in links:
        for (src, sp), (dst, dp) in (((a, ap), (b, bp)), ((b, bp), (a, ap))):
            src_lid, src_desc = lids[(src, sp)]
            dst_lid, dst_desc = lids[(dst, dp)]
            src_name, dst_name = names[src_desc], names[dst_desc]
            words = math.ceil(predicted[(src, sp)] / 4)
            extra = extras.get((src_name, sp), 0)
            xmit = before[(src_lid, sp)]["PortXmitData"] + words + extra
            rcv = before[(dst_lid, dp)]["PortRcvData"] + words + extra
            for counter, node, port, value in (("PortXmitData", src_name, sp, xmit),
                                               ("PortRcvData", dst_name, dp, rcv)):
                sim.console(f'PerformanceSet "{node}"[{port}] PortCountersExtended.{counter}={value}')
                sim.console(f'PerformanceSet "{node}"[{port}] PortCounters.{counter}={min(value, WORD_MAX_32)}')
            plan.append((f"0x{src:016x}", sp, src_name, predicted[(src, sp)], words, extra))
    time.sleep(1)
    return plan


def write_plan(plan):
    with open(os.path.join(OUT, "plan.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["guid", "port", "node", "predicted_bytes", "predicted_words", "extra_words"])
        out.writerows(sorted(plan))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
