#!/usr/bin/env python3
"""Compare two routings of one fabric, entry by entry and path by path.

Usage: compare_routing.py REFERENCE_DIR OTHER_DIR [--label NAME] [--csv FILE]

Each DIR holds OpenSM-format dumps of the same fabric (same GUIDs, same LIDs):
`opensm-subnet.lst` and `opensm.fdbs` (either may be gzipped), e.g. a real OpenSM's dumps and
what `shoal route` wrote for the same topology. Prints one line (and appends one CSV row) with:

  rows        (switch, CA LID) forwarding rows compared (every LID of an LMC range)
  equal       fraction of those rows with the same output port
  sw_equal    the same for (switch, switch LID) rows
  hops_equal  fraction of (switch, CA LID) rows whose routed path has the same hop count
  delivered   fraction of (switch, CA LID) rows each routing delivers (ref / other)
  balance_eq  fraction of switches whose per-port CA-LID counts are the same multiset
              (the same balance, whatever port carries which share)
  a2a_max     busiest link end under all-to-all among the CAs (one flow per CA pair, base
              LIDs), reference / other, and whether the two sorted load lists are equal
              (`same`: equivalent loads, link ends permuted)
"""

import argparse
import gzip
import os
import re
import sys
from collections import Counter, defaultdict

END = re.compile(
    r"\{ (\S+) Ports:(\w+) SystemGUID:(\w+) NodeGUID:(\w+) PortGUID:(\w+) .*?\{(.*?)\} LID:(\w+) PN:(\w+) \}"
)


def open_dump(directory, name):
    for candidate in (name, name + ".gz"):
        path = os.path.join(directory, candidate)
        if os.path.exists(path):
            return gzip.open(path, "rt") if path.endswith(".gz") else open(path)
    sys.exit(f"{directory}: no {name}[.gz]")


def read_lst(directory):
    """Links as {(node guid, port): (peer guid, peer port)}, plus node kinds and base LIDs."""
    links, kind, base_lid = {}, {}, {}
    with open_dump(directory, "opensm-subnet.lst") as f:
        for line in f:
            ends = END.findall(line)
            if len(ends) != 2:
                continue
            (ka, _, _, ga, _, _, la, pa), (kb, _, _, gb, _, _, lb, pb) = ends
            for k, g, lid in ((ka, ga, la), (kb, gb, lb)):
                kind[g] = "SW" if k.startswith("SW") else "CA"
            links[(ga, int(pa, 16))] = (gb, int(pb, 16))
            links[(gb, int(pb, 16))] = (ga, int(pa, 16))
            base_lid[(ga, int(pa, 16) if kind[ga] == "CA" else 0)] = int(la, 16)
            base_lid[(gb, int(pb, 16) if kind[gb] == "CA" else 0)] = int(lb, 16)
    return links, kind, base_lid


def read_fdbs(directory):
    """{switch guid: {lid: port or None}}."""
    tables, current = {}, None
    with open_dump(directory, "opensm.fdbs") as f:
        for line in f:
            if "dump_ucast_routes:" in line:
                current = tables.setdefault(line.split("Switch")[-1].strip().lower().replace("0x", ""), {})
                continue
            parts = [p.strip() for p in line.split(":")]
            if current is None or len(parts) < 2 or not parts[0].startswith("0x"):
                continue
            lid = int(parts[0], 16)
            current[lid] = None if parts[1].startswith("UNREACHABLE") else int(parts[1])
    return tables


class Routing:
    def __init__(self, directory):
        self.links, self.kind, base = read_lst(directory)
        self.tables = read_fdbs(directory)
        # LID → (owner guid, port); LIDs of an LMC range above a CA's base LID belong to it.
        self.owner = {lid: key for key, lid in base.items() if lid}
        ca_bases = sorted(lid for (g, p), lid in base.items() if lid and self.kind[g] == "CA")
        routed = sorted({lid for t in self.tables.values() for lid in t})
        for lid in routed:
            if lid not in self.owner:
                below = [b for b in ca_bases if b < lid]
                if below and lid - below[-1] < 128:
                    self.owner[lid] = self.owner[below[-1]]
        self.ca_lids = sorted(l for l, (g, _) in self.owner.items() if self.kind[g] == "CA")
        self.base_ca_lids = sorted(set(ca_bases))
        self.switches = sorted(g for g, k in self.kind.items() if k == "SW")

    def walk(self, switch, lid):
        """Hop count from `switch` to the owner of `lid` and the link ends crossed, or None."""
        target, _ = self.owner[lid]
        at, ends = switch, []
        for _ in range(64):
            port = self.tables.get(at, {}).get(lid)
            if port is None:
                return None
            if port == 0:
                return (len(ends), ends) if at == target else None
            far = self.links.get((at, port))
            if far is None:
                return None
            ends.append((at, port))
            if far[0] == target:
                return len(ends), ends
            if self.kind[far[0]] != "SW":
                return None
            at = far[0]
        return None


def all_to_all_loads(r):
    """Pairs crossing each link end when every CA sends to every other (base LIDs)."""
    loads = Counter()
    attach = {}
    for (g, p), (peer, pp) in r.links.items():
        if r.kind[g] == "CA" and r.kind[peer] == "SW":
            attach[g] = (peer, (g, p))
    for lid in r.base_ca_lids:
        dest, _ = r.owner[lid]
        memo = {}
        for src, (sw, end) in attach.items():
            if src == dest:
                continue
            loads[end] += 1
            if sw not in memo:
                memo[sw] = r.walk(sw, lid)
            if memo[sw]:
                for e in memo[sw][1]:
                    loads[e] += 1
    return loads


def compare(ref, other):
    rows = equal = hops_equal = ref_ok = other_ok = sw_rows = sw_equal = 0
    balanced = 0
    for s in ref.switches:
        rt, ot = ref.tables.get(s, {}), other.tables.get(s, {})
        for lid in ref.ca_lids:
            rows += 1
            equal += rt.get(lid) == ot.get(lid)
            a, b = ref.walk(s, lid), other.walk(s, lid)
            ref_ok += a is not None
            other_ok += b is not None
            hops_equal += a is not None and b is not None and a[0] == b[0]
        for lid, (g, _) in ref.owner.items():
            if ref.kind[g] == "SW":
                sw_rows += 1
                sw_equal += rt.get(lid) == ot.get(lid)
        count = lambda t: sorted(Counter(t.get(l) for l in ref.ca_lids if t.get(l)).values())
        balanced += count(rt) == count(ot)
    la, lb = all_to_all_loads(ref), all_to_all_loads(other)
    same = sorted(la.values()) == sorted(lb.values())
    frac = lambda x, n: x / n if n else 1.0
    return {
        "rows": rows,
        "equal": frac(equal, rows),
        "sw_equal": frac(sw_equal, sw_rows),
        "hops_equal": frac(hops_equal, rows),
        "delivered": f"{frac(ref_ok, rows):.3f}/{frac(other_ok, rows):.3f}",
        "balance_eq": frac(balanced, len(ref.switches)),
        "a2a_max": f"{max(la.values(), default=0)}/{max(lb.values(), default=0)}",
        "a2a_loads": "same" if same else "differ",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference")
    parser.add_argument("other")
    parser.add_argument("--label", default="")
    parser.add_argument("--csv")
    args = parser.parse_args()
    ref, other = Routing(args.reference), Routing(args.other)
    if ref.owner.keys() != other.owner.keys():
        sys.exit("the two dumps do not assign the same LIDs; route the same topology")
    result = compare(ref, other)
    cells = " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items())
    print(f"{args.label} {cells}".strip())
    if args.csv:
        new = not os.path.exists(args.csv)
        with open(args.csv, "a") as f:
            if new:
                f.write("label," + ",".join(result) + "\n")
            f.write(args.label + "," + ",".join(
                f"{v:.4f}" if isinstance(v, float) else str(v) for v in result.values()) + "\n")


if __name__ == "__main__":
    main()
