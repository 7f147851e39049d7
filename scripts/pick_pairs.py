#!/usr/bin/env python3
"""Pick CA -> CA LID pairs for ibtracert ground truth, deterministically.

Usage: pick_pairs.py OPENSM_SUBNET_LST N [--seed S] [--storage-prefix stor --storage K] [--lmc M]

Reads the CA ports (description and base LID) from an OpenSM/ibdiagnet .lst link list and prints
N lines "SRC DST" of decimal LIDs, as ibtracert takes them:
  * pairs are distinct, src != dst, drawn with random.Random(seed);
  * --storage K: K of the pairs have a storage node (description starting with the prefix) as
    source or destination (alternating), so that single-rail nodes are covered;
  * --lmc M: every CA answers to 2^M LIDs (base .. base + 2^M - 1). Each side of a pair gets a
    random offset in that range, and at least half of the pairs use a non-base LID on both ends,
    so that a tracer's LMC handling is exercised.
"""
import argparse
import random
import re
import sys

CA = re.compile(r"\{ CA\S* Ports:\w+ .*?\{(?P<desc>[^}]*)\} LID:(?P<lid>\w+) PN:\w+ \}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lst")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--storage-prefix", default="stor")
    ap.add_argument("--storage", type=int, default=0)
    ap.add_argument("--lmc", type=int, default=0)
    a = ap.parse_args()

    cas = {}
    with open(a.lst) as f:
        for line in f:
            for m in CA.finditer(line):
                cas[m.group("desc").strip()] = int(m.group("lid"), 16)
    if len(cas) < 2:
        sys.exit(f"{a.lst}: fewer than two CA ports found")
    names = sorted(cas)
    stor = [n for n in names if n.startswith(a.storage_prefix)]
    comp = [n for n in names if not n.startswith(a.storage_prefix)]
    if a.storage and not stor:
        sys.exit(f"{a.lst}: no CA description starts with {a.storage_prefix!r}")
    rnd = random.Random(a.seed)
    width = 1 << a.lmc
    seen = set()
    out = []
    while len(out) < a.n:
        i = len(out)
        if i < a.storage:
            s, d = rnd.choice(stor), rnd.choice(comp + stor)
            if i % 2:
                s, d = d, s
        else:
            s, d = rnd.sample(comp, 2)
        if s == d:
            continue
        if a.lmc:
            lo = 1 if i % 2 == 0 else 0  # even pairs: non-base LIDs on both ends
            so, do = rnd.randrange(lo, width), rnd.randrange(lo, width)
        else:
            so = do = 0
        pair = (cas[s] + so, cas[d] + do)
        if pair in seen:
            continue
        seen.add(pair)
        out.append(pair)
    sys.stdout.write("".join(f"{s} {d}\n" for s, d in out))


if __name__ == "__main__":
    main()
