#!/usr/bin/env python3
"""Write an ibsim net file (ibnetdiscover syntax) for a testbed or a folded-Clos fat tree.

Topologies (--levels):
  1  "testbed": two switches, --down hosts on each, joined by --isl parallel links
     (the thesis's Figure 4.3: 2 x 36-port switches, 21 hosts each, 15 links between them).
  2  --leaves leaf switches with --down hosts each and --up uplinks spread over --up spines.
  3  radix-k 3-level tree: --pods pods of k/2 edge + k/2 aggregation switches, and (k/2)^2
     cores, or --cores cores for a pruned tree (each aggregation switch reaches k/2 of them).

Naming, so that rails can be matched and GUIDs are unique across rails:
  * host names are --prefix + a 4-digit index starting at --first (n0001, n0002, ...); the
    same on every rail. The CA's node description is "<host> <--hca-desc>", e.g. "n0001 HCA-1":
    the host name is its first word.
  * --extra N hangs N single-rail nodes (storage, "stor01 HCA-1", ...) on free edge ports,
    spread evenly over the edge switches (use --down < k/2 to leave ports free).
  * --ca-guid / --sw-guid set ibsim's GUID bases (ibsim's `caguid=` / `switchguid=` lines);
    use different bases per rail. ibsim gives each CA node GUID base+2i and port GUID +1.
  * switch descriptions look like Mellanox ones: "MF0;<--sw-tag>-L1-00-00:SX6036/U1".
The first CA in the file is --sm-host (default: the first compute host): the SM runs there.
The output is deterministic: same arguments, same bytes.
"""
import argparse
import sys

VENDOR_MLNX = 0x02C9
DEVID_CA = 0x1003  # ConnectX-3
DEVID_SW = 0xC738  # SwitchX


def add_link(sw, a, ap, b, bp):
    sw[a][1][ap] = (b, bp)
    sw[b][1][bp] = (a, ap)


def testbed(a):
    """Two switches with a.down hosts each and a.isl links between them."""
    k = a.radix
    a.down = a.down or k // 2
    if a.down + a.isl > k:
        sys.exit(f"testbed: {a.down} hosts + {a.isl} ISLs do not fit on {k} ports")
    sw = {"L1-00": [k, {}], "L1-01": [k, {}]}
    for i in range(a.isl):
        add_link(sw, "L1-00", a.down + i + 1, "L1-01", a.down + i + 1)
    edges = [(name, list(range(1, a.down + 1))) for name in ("L1-00", "L1-01")]
    return sw, edges


def two_level(a):
    a.down = a.down or 4
    sw = {}
    for l in range(a.leaves):
        sw[f"L1-{l:02d}"] = [a.radix, {}]
    for s in range(a.up):
        sw[f"L2-{s:02d}"] = [a.radix, {}]
    edges = []
    for l in range(a.leaves):
        leaf = f"L1-{l:02d}"
        edges.append((leaf, list(range(1, a.down + 1))))
        for u in range(a.up):
            add_link(sw, leaf, a.down + u + 1, f"L2-{u:02d}", l + 1)
    return sw, edges


def three_level(a):
    k = a.radix
    half = k // 2
    sw = {}
    pods = a.pods or k
    ncores = a.cores or half * half
    for p in range(pods):
        for e in range(half):
            sw[f"L1-{p:02d}-{e:02d}"] = [k, {}]
        for g in range(half):
            sw[f"L2-{p:02d}-{g:02d}"] = [k, {}]
    for c in range(ncores):
        sw[f"L3-{c:03d}"] = [k, {}]
    down = a.down or half
    if down > half:
        sys.exit(f"3-level: {down} hosts per edge switch do not fit beside {half} uplinks")
    edges = []
    for p in range(pods):
        for e in range(half):
            edge = f"L1-{p:02d}-{e:02d}"
            edges.append((edge, list(range(1, down + 1))))
            for g in range(half):
                add_link(sw, edge, half + g + 1, f"L2-{p:02d}-{g:02d}", e + 1)
        for g in range(half):
            agg = f"L2-{p:02d}-{g:02d}"
            for c in range(half):
                if a.cores:  # pruned: each aggregation switch reaches `half` of the cores
                    stride = ncores // half
                    core_i = c * stride + (g % stride)
                    cport = p * (half // stride) + g // stride + 1
                else:  # full k-ary tree
                    core_i = g * half + c
                    cport = p + 1
                add_link(sw, agg, half + c + 1, f"L3-{core_i:03d}", cport)
    return sw, edges


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", type=int, default=2, choices=(1, 2, 3))
    ap.add_argument("--radix", type=int, default=8)
    ap.add_argument("--leaves", type=int, default=4)
    ap.add_argument("--down", type=int, default=None, help="hosts per edge switch (3-level default: k/2; 2-level: 4)")
    ap.add_argument("--up", type=int, default=4)
    ap.add_argument("--isl", type=int, default=15, help="testbed: links between the two switches")
    ap.add_argument("--pods", type=int, default=0)
    ap.add_argument("--cores", type=int, default=0, help="3-level: number of top switches (pruned wiring)")
    ap.add_argument("--prefix", default="n")
    ap.add_argument("--first", type=int, default=1, help="index of the first host")
    ap.add_argument("--hca-desc", default="HCA-1", help="second word of every CA description")
    ap.add_argument("--extra", type=int, default=0, help="single-rail storage nodes on free edge ports")
    ap.add_argument("--extra-prefix", default="stor")
    ap.add_argument("--sm-host", default=None, help="host listed first (the SM's port)")
    ap.add_argument("--ca-guid", type=lambda s: int(s, 0), default=0x0002C90300001000)
    ap.add_argument("--sw-guid", type=lambda s: int(s, 0), default=0x0002C90200001000)
    ap.add_argument("--speed", type=int, default=4, help="ibsim speed= mask: 1 SDR, 2 DDR, 4 QDR")
    ap.add_argument("--sw-tag", default="sw", help="middle part of switch descriptions")
    a = ap.parse_args()

    sw, edges = {1: testbed, 2: two_level, 3: three_level}[a.levels](a)
    hosts = {}  # host name -> (switch, port)
    h = a.first
    for edge, ports in edges:
        for p in ports:
            hosts[f"{a.prefix}{h:04d}"] = (edge, p)
            h += 1
    # storage nodes: spread evenly over the edge switches, each on its edge's first free port
    for e in range(a.extra):
        edge = edges[e * len(edges) // a.extra][0]
        used = {p for s, p in hosts.values() if s == edge}
        free = [p for p in range(1, sw[edge][0] + 1) if p not in sw[edge][1] and p not in used]
        if not free:
            sys.exit(f"no free port on {edge} for storage node {e + 1}")
        hosts[f"{a.extra_prefix}{e + 1:02d}"] = (edge, free[0])
    for hn, (s, p) in hosts.items():
        sw[s][1][p] = (hn, 1)

    order = list(hosts)
    first = a.sm_host or order[0]
    order.remove(first)
    order.insert(0, first)
    out = [
        "# ibsim net file written by scripts/gen_fattree_net.py " + " ".join(sys.argv[1:]),
        f"devid={DEVID_CA:#06x}",
        f"caguid={a.ca_guid:#018x}",
        f"speed={a.speed}",
        "",
    ]
    for hn in order:
        s, p = hosts[hn]
        out += [f"vendid={VENDOR_MLNX:#06x}", f'Hca\t1 "{hn}"\t# "{hn} {a.hca_desc}"', f'[1]\t"{s}"[{p}]', ""]
    out += [f"devid={DEVID_SW:#06x}", f"switchguid={a.sw_guid:#018x}", ""]
    for name in sorted(sw):
        ports, conn = sw[name]
        out.append(f"vendid={VENDOR_MLNX:#06x}")
        out.append(f'Switch\t{ports} "{name}"\t# "MF0;{a.sw_tag}-{name}:SX6036/U1"')
        for p in sorted(conn):
            peer, pp = conn[p]
            out.append(f'[{p}]\t"{peer}"[{pp}]')
        out.append("")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
