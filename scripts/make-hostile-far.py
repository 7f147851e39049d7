#!/usr/bin/env python3
"""Writes a hostile ibdiagnet2.far for tests/hostile/ar-groups-naming-every-port: the rail-optimized
sample's AR tables with every group naming ports 1-64 (CA ports and wrong-way switch ports too)
and every LID AR-enabled (Free). Usage: scripts/make-hostile-far.py > every-port.far (then gzip)."""
import re
import sys

SOURCE = "tests/fixtures/ar/railopt/ibdiagnet2.far"
GROUP = re.compile(r"^(\d+\s+\d+\s+\d+\s+)([\d,]+)\s*$")

out = ["# HOSTILE: every AR group names every port; written by scripts/make-hostile-far.py from "
       + SOURCE + "\n"]
for line in open(SOURCE):
    if line.startswith("#"):
        continue
    m = GROUP.match(line)
    if m:
        line = m.group(1) + ",".join(str(p) for p in range(1, 65)) + ",\n"
    out.append(line.replace("   Static   ", "   Free   "))
sys.stdout.write("".join(out))
