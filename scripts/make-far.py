#!/usr/bin/env python3
"""Write an ibdiagnet2.far (adaptive-routing configuration) for a fabric routed by OpenSM.

SYNTHETIC: Debian's OpenSM has no adaptive routing (NVIDIA's ar_updn / ar_ftree engines are not
open source) and ibsim simulates no AR, so no tool on this machine dumps a real .far. This
script writes what an AR-enabled SM typically configures on a two-level fat tree, in the
ibdiagnet2.far layout (docs/formats/adaptive-routing.md), from the real OpenSM dumps:

  * a leaf: group 0 = every port cabled to a switch (its up-ports); every CA LID not on this
    leaf is `Free` in group 0; its own CAs' LIDs and switch LIDs are `Static`;
  * a spine: one group per leaf below it, holding the parallel cables to that leaf; every CA
    LID under that leaf is `Free` in that leaf's group.
The `Static Port` column is the port of OpenSM's table (opensm.fdbs), as a real .far shows it.

Usage: scripts/make-far.py RAIL_DIR OUT_FILE
"""
import gzip
import os
import re
import sys

END = re.compile(r"\{ (?P<kind>SW|CA)\S* .*?NodeGUID:(?P<guid>[0-9a-fA-F]+) .*?LID:(?P<lid>\w+) PN:(?P<pn>\w+) \}")


def opened(path):
    return gzip.open(path + ".gz", "rt") if os.path.exists(path + ".gz") else open(path)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rail, out = sys.argv[1], sys.argv[2]
    peers = {}  # switch guid -> {port: (kind, guid)}
    ca_lids = {}  # CA LID -> (leaf guid, port)
    with opened(os.path.join(rail, "opensm-subnet.lst")) as f:
        for line in f:
            ends = list(END.finditer(line))
            if len(ends) != 2:
                continue
            for a, b in (ends, ends[::-1]):
                if a.group("kind") == "SW":
                    peers.setdefault(int(a.group("guid"), 16), {})[int(a.group("pn"), 16)] = (b.group("kind"), int(b.group("guid"), 16))
                    if b.group("kind") == "CA":
                        ca_lids[int(b.group("lid"), 16)] = int(a.group("guid"), 16)
    static = {}  # switch guid -> {lid: port}
    current = None
    with opened(os.path.join(rail, "opensm.fdbs")) as f:
        for line in f:
            if line.startswith("dump_ucast_routes: Switch"):
                current = static.setdefault(int(line.split()[-1], 16), {})
            elif line.startswith("0x") and current is not None:
                lid, port = line.split(":")[:2]
                if port.strip().isdigit():  # UNREACHABLE rows have no static port
                    current[int(lid, 16)] = int(port)
    lines = ["# SYNTHETIC: written by scripts/make-far.py from OpenSM dumps; no SM configured this AR",
             "File version: 1"]
    for guid in sorted(peers):
        ports = peers[guid]
        is_leaf = any(kind == "CA" for kind, _ in ports.values())
        groups = {}  # group -> ports
        free = {}  # lid -> group
        if is_leaf:
            groups[0] = sorted(p for p, (kind, _) in ports.items() if kind == "SW")
            for lid, leaf in ca_lids.items():
                if leaf != guid:
                    free[lid] = 0
        else:
            below = sorted({g for kind, g in ports.values() if kind == "SW"})
            for n, leaf in enumerate(below):
                groups[n] = sorted(p for p, (kind, g) in ports.items() if g == leaf)
                for lid, l in ca_lids.items():
                    if l == leaf:
                        free[lid] = n
        table = static.get(guid, {})
        lines += [f"Switch 0x{guid:016x}", "Groups Definition:", "Group   Sub Group   WHBF   Ports", "-" * 40]
        for g, ps in sorted(groups.items()):
            lines.append(f"{g}   0   0   " + "".join(f"{p}," for p in ps))
        top = max(table) if table else 0
        lines += ["LFT Definition:", f"PLFT_NUM: 0, top: 0x{top:04x}", "LID   Static Port   Lid State   Group", "-" * 40]
        for lid in sorted(table):
            state, group = ("Free", free[lid]) if lid in free else ("Static", 0)
            lines.append(f"0x{lid:04x}   {table[lid]}   {state}   {group}")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{out}: {len(peers)} switches")


if __name__ == "__main__":
    main()
