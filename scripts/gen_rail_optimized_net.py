#!/usr/bin/env python3
"""Write an ibsim net file (ibnetdiscover syntax) for a rail-optimized GPU cluster in one subnet.

Shape (as NVIDIA's DGX SuperPOD reference designs describe it):
  * --sus scalable units of --su-hosts hosts; every host carries --planes HCAs, mlx5_0 ...
  * HCA k of every host of SU s is cabled to leaf switch "leaf-suSS-pK": the leaves with the
    same K across SUs form plane K (a "rail" inside one subnet);
  * every leaf is cabled --links-per-spine times to each of --spines spine switches.

Naming: each HCA is its own ibsim node, with a unique id "<host>-mlx5_K" and the node
description "<host> mlx5_K" (the comment after the Hca record): the host name is its first
word, so shoal groups a host's HCAs into one host. Node GUIDs come from --ca-guid (ibsim:
base + 2i, port GUID + 1).

The first HCA listed (the SM's port) is the first host's mlx5_0. Deterministic: same arguments, same
bytes.
"""
import argparse
import sys

VENDOR_MLNX = 0x02C9
DEVID_CA = 0x101D  # ConnectX-6
DEVID_SW = 0xD2F0  # Quantum


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sus", type=int, default=2)
    ap.add_argument("--su-hosts", type=int, default=32)
    ap.add_argument("--planes", type=int, default=8)
    ap.add_argument("--spines", type=int, default=4)
    ap.add_argument("--links-per-spine", type=int, default=8)
    ap.add_argument("--prefix", default="gpu")
    ap.add_argument("--ca-guid", type=lambda s: int(s, 0), default=0x0002C90300E00000)
    ap.add_argument("--sw-guid", type=lambda s: int(s, 0), default=0x0002C90200E00000)
    ap.add_argument("--speed", type=int, default=4, help="ibsim speed= mask: 1 SDR, 2 DDR, 4 QDR")
    a = ap.parse_args()

    leaf_ports = a.su_hosts + a.spines * a.links_per_spine
    spine_ports = a.sus * a.planes * a.links_per_spine
    if max(leaf_ports, spine_ports) > 254:
        sys.exit(f"a leaf needs {leaf_ports} ports and a spine {spine_ports}; at most 254")
    leaves = [(s, k) for s in range(a.sus) for k in range(a.planes)]
    leaf_name = lambda s, k: f"leaf-su{s:02d}-p{k}"
    spine_name = lambda j: f"spine{j:02d}"
    switches = {leaf_name(s, k): (leaf_ports, {}) for s, k in leaves}
    switches.update({spine_name(j): (spine_ports, {}) for j in range(a.spines)})

    def link(a_name, a_port, b_name, b_port):
        switches[a_name][1][a_port] = (b_name, b_port)
        if b_name in switches:
            switches[b_name][1][b_port] = (a_name, a_port)

    hcas = []  # (host, plane, leaf, leaf port)
    for h in range(a.sus * a.su_hosts):
        s, slot = divmod(h, a.su_hosts)
        host = f"{a.prefix}{h + 1:02d}"
        for k in range(a.planes):
            hcas.append((host, k, leaf_name(s, k), slot + 1))
            link(leaf_name(s, k), slot + 1, f"{host}-mlx5_{k}", 1)
    for li, (s, k) in enumerate(leaves):
        for j in range(a.spines):
            for c in range(a.links_per_spine):
                leaf_port = a.su_hosts + j * a.links_per_spine + c + 1
                spine_port = li * a.links_per_spine + c + 1
                link(leaf_name(s, k), leaf_port, spine_name(j), spine_port)

    out = [
        "# ibsim net file written by scripts/gen_rail_optimized_net.py " + " ".join(sys.argv[1:]),
        f"devid={DEVID_CA:#06x}",
        f"caguid={a.ca_guid:#018x}",
        f"speed={a.speed}",
        "",
    ]
    for host, k, leaf, port in hcas:
        out += [
            f"vendid={VENDOR_MLNX:#06x}",
            f'Hca\t1 "{host}-mlx5_{k}"\t# "{host} mlx5_{k}"',
            f'[1]\t"{leaf}"[{port}]',
            "",
        ]
    out += [f"devid={DEVID_SW:#06x}", f"switchguid={a.sw_guid:#018x}", ""]
    for name in sorted(switches):
        ports, conn = switches[name]
        out.append(f"vendid={VENDOR_MLNX:#06x}")
        out.append(f'Switch\t{ports} "{name}"\t# "MF0;{name}:MQM9700/U1"')
        for p in sorted(conn):
            peer, pp = conn[p]
            out.append(f'[{p}]\t"{peer}"[{pp}]')
        out.append("")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
