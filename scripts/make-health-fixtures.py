#!/usr/bin/env python3
"""Real link-health fixtures: a degraded link, XmitWait and error counters on a simulated fabric.

Usage: scripts/make-health-fixtures.py

Writes tests/fixtures/health/. Needs Debian's ibsim-utils, opensm, infiniband-diags.

1. A two-switch fabric (S1, S2; four hosts; two inter-switch links) is written as an ibsim net
   file whose connection comments give each link's width and speed: every link `4xQDR`, but
   S1[4]–S2[4] `1xSDR`, both sides (ibsim takes them from the comments, FACTS.md).
2. ibsim runs it with its console on a pipe; a real OpenSM routes it once (`opensm -o`) and
   dumps opensm-subnet.lst (PHY=/SPD= per link) and opensm.fdbs into the fixture folder.
3. "before": plain `perfquery LID PORT` (PortCounters: XmitWait and the error counters) of every
   port, concatenated.
4. Through ibsim's console (`PerformanceSet`) the ports get what the plan below adds.
5. "after": the same capture again.
"""

import os
import re
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "health")
UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"
SIM_ENV = dict(os.environ, SIM_HOST="H1", LD_PRELOAD=UMAD2SIM)

# (node, port, counter, added)
PLAN = [
    ("S1", 3, "PortXmitWait", 12_345_678),
    ("S2", 1, "PortXmitWait", 500_000),
    ("S2", 4, "SymbolErrorCounter", 7),
    ("S2", 4, "LinkDownedCounter", 3),
    ("S1", 1, "PortXmitDiscards", 5),
    ("S2", 2, "PortRcvConstraintErrors", 2),
]

NET = """\
# ibsim net file written by scripts/make-health-fixtures.py: S1[4]-S2[4] runs 1xSDR
vendid=0x02c9
devid=0xc738
switchguid=0x0002c90200000001
Switch\t4 "S1"\t# "S1" base port 0 lid 1 lmc 0
[1]\t"H1"[1]\t# "H1" lid 3 4xQDR
[2]\t"H2"[1]\t# "H2" lid 4 4xQDR
[3]\t"S2"[3]\t# "S2" lid 2 4xQDR
[4]\t"S2"[4]\t# "S2" lid 2 1xSDR

vendid=0x02c9
devid=0xc738
switchguid=0x0002c90200000002
Switch\t4 "S2"\t# "S2" base port 0 lid 2 lmc 0
[1]\t"H3"[1]\t# "H3" lid 5 4xQDR
[2]\t"H4"[1]\t# "H4" lid 6 4xQDR
[3]\t"S1"[3]\t# "S1" lid 1 4xQDR
[4]\t"S1"[4]\t# "S1" lid 1 1xSDR
"""


def host(name, number, switch, port):
    return (
        f"\nvendid=0x02c9\ndevid=0x1003\ncaguid=0x0002c9030000000{number}\n"
        f'Hca\t1 "{name}"\t# "{name} HCA-1"\n'
        f'[1](0002c9030000001{number})\t"{switch}"[{port}]\t# lid {number + 2} lmc 0 "{switch}" lid {1 if switch == "S1" else 2} 4xQDR\n'
    )


def main():
    os.makedirs(OUT, exist_ok=True)
    net = NET + host("H1", 1, "S1", 1) + host("H2", 2, "S1", 2) + host("H3", 3, "S2", 1) + host("H4", 4, "S2", 2)
    write(os.path.join(OUT, "ibsim.net"), net)
    work = tempfile.mkdtemp(prefix="shoal-health-")
    log = open(os.path.join(work, "ibsim.log"), "w")
    sim = subprocess.Popen(["ibsim", "-s", os.path.join(OUT, "ibsim.net")], stdin=subprocess.PIPE,
                           stdout=log, stderr=log, cwd=work, text=True)
    try:
        wait_for(os.path.join(work, "ibsim.log"), "sim>")
        dumps = os.path.join(work, "dumps")
        os.makedirs(dumps)
        env = dict(SIM_ENV, OSM_TMP_DIR=dumps, OSM_CACHE_DIR=dumps)
        subprocess.run(["opensm", "-o", "-R", "minhop", "-D", "0x43", "-f", os.path.join(work, "osm.log"),
                        "--dump_files_dir", dumps], env=env, check=True, capture_output=True, timeout=300)
        for name in ["opensm-subnet.lst", "opensm.fdbs"]:
            write(os.path.join(OUT, name), open(os.path.join(dumps, name)).read())
        ports = port_lids(os.path.join(OUT, "opensm-subnet.lst"))
        before = capture(ports)
        write(os.path.join(OUT, "perfquery-before.txt"), before)
        values = parse(before)
        for node, port, counter, added in PLAN:
            lid = next(l for (n, p), l in ports.items() if n == node and p == port)
            now = values[(lid, port)][counter] + added
            sim.stdin.write(f'PerformanceSet "{node}"[{port}] PortCounters.{counter}={now}\n')
            sim.stdin.flush()
        time.sleep(1)
        write(os.path.join(OUT, "perfquery-after.txt"), capture(ports))
    finally:
        sim.terminate()
        sim.wait()


def port_lids(lst):
    """(node name, port) → LID, for every port of opensm-subnet.lst (whose LIDs and PNs are hex)."""
    ports = {}
    for line in open(lst):
        for desc, lid, pn in re.findall(r"\{([^{}]*)\} LID:([0-9A-Fa-f]+) PN:([0-9A-Fa-f]+)", line):
            ports[(desc.split()[0], int(pn, 16))] = int(lid, 16)
    return ports


def capture(ports):
    out = []
    for (_, port), lid in sorted(ports.items(), key=lambda kv: (kv[1], kv[0][1])):
        done = subprocess.run(["perfquery", str(lid), str(port)], env=SIM_ENV, capture_output=True,
                              text=True, timeout=60, check=True)
        out.append(done.stdout)
    return "".join(out)


def parse(text):
    """(LID, port) → {counter: value} of plain perfquery blocks."""
    values, key = {}, None
    for line in text.splitlines():
        m = re.match(r"# Port counters: Lid (\d+) port (\d+)", line)
        if m:
            key = (int(m.group(1)), int(m.group(2)))
            values[key] = {}
        elif key and ":" in line:
            name, value = line.split(":", 1)
            value = value.strip(".")
            if re.fullmatch(r"\d+", value):
                values[key][name] = int(value)
    return values


def wait_for(path, text, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path) and text in open(path, errors="replace").read():
            return
        time.sleep(0.2)
    raise SystemExit(f"{text!r} never appeared in {path}")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
