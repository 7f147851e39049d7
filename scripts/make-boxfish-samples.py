#!/usr/bin/env python3
"""Writes the run-data samples into sample-data/ (see sample-data/README.md for the models):

  sample-data/torus8/  a BG/P-like 8x8x8 torus run in Boxfish's format (meta, nodes, links, map,
                       communicators): region 1 = nearest-neighbour halo, region 2 = transpose
                       routed dimension-order.
  sample-data/mesh6/   a 6x6 2D mesh in the generic CSV pair format: region 1 = halo,
                       region 2 = everyone sends to one hot-spot node, routed XY.

Deterministic: no randomness, so the files only change when this script does.
Usage: scripts/make-boxfish-samples.py [OUT_DIR]   (default: sample-data)
"""

import os
import sys

PACKET_BYTES = 256  # BG/P torus packets carry up to 256 bytes
KIB = 1024


def torus_step(c, t, d):
    """The next coordinate from c toward t on a ring of d, the short way (ties go +)."""
    fwd = (t - c) % d
    if fwd == 0:
        return c
    return (c + 1) % d if fwd <= d - fwd else (c - 1) % d


def route_dimension_order(src, dst, dims):
    """The hops (node coords) of a dimension-order (x, then y, then z) shortest route."""
    hops = []
    cur = list(src)
    for axis in range(len(dims)):
        while cur[axis] != dst[axis]:
            nxt = list(cur)
            nxt[axis] = torus_step(cur[axis], dst[axis], dims[axis])
            hops.append((tuple(cur), tuple(nxt)))
            cur = nxt
    return hops


def write_table(path, key, columns, rows):
    with open(path, "w") as f:
        f.write(f"---\nkey: {key}\n---\n")
        for name, dtype in columns:
            f.write(f"- [{name}, {dtype}]\n")
        f.write("...\n")
        for row in rows:
            f.write(" ".join(str(v) for v in row) + "\n")


def torus8(out):
    dims = (8, 8, 8)
    key = "SHOAL_TORUS8"
    os.makedirs(out, exist_ok=True)
    coords = [(x, y, z) for x in range(8) for y in range(8) for z in range(8)]
    node_of = {c: i for i, c in enumerate(coords)}  # node id = 64x + 8y + z
    # Links: six per node, ids in order of node, then +x -x +y -y +z -z (as Boxfish's examples).
    links = []
    for c in coords:
        for axis in range(3):
            for step in (1, -1):
                t = list(c)
                t[axis] = (c[axis] + step) % dims[axis]
                links.append((c, tuple(t)))
    link_of = {(s, t): i for i, (s, t) in enumerate(links)}
    # Ranks are numbered z-fastest in a different axis order than nodes: rank = 64z + 8y + x.
    rank_of_node = {node_of[(x, y, z)]: 64 * z + 8 * y + x for (x, y, z) in coords}

    link_bytes = {1: [0] * len(links), 2: [0] * len(links)}
    sent = {1: [0] * len(coords), 2: [0] * len(coords)}
    recv = {1: [0] * len(coords), 2: [0] * len(coords)}
    msgs = {1: [0] * len(coords), 2: [0] * len(coords)}

    def send(region, src, dst, nbytes):
        sent[region][node_of[src]] += nbytes
        recv[region][node_of[dst]] += nbytes
        msgs[region][node_of[src]] += 1
        for hop in route_dimension_order(src, dst, dims):
            link_bytes[region][link_of[hop]] += nbytes

    # Region 1, halo: each node sends to its six neighbours, 64/32/16 KiB along x/y/z; nodes in
    # the lower half (x < 4) hold twice the data and send twice as much.
    halo = (64 * KIB, 32 * KIB, 16 * KIB)
    for c in coords:
        for axis in range(3):
            for step in (1, -1):
                t = list(c)
                t[axis] = (c[axis] + step) % dims[axis]
                send(1, c, tuple(t), halo[axis] * (2 if c[0] < 4 else 1))
    # Region 2, transpose: (x, y, z) sends 256 KiB to (y, x, z), routed x then y.
    for (x, y, z) in coords:
        if x != y:
            send(2, (x, y, z), (y, x, z), 256 * KIB)

    write_table(
        os.path.join(out, "torus8_nodes.yaml"), key,
        [("nodeid", "int32"), ("x", "int32"), ("y", "int32"), ("z", "int32"), ("code_region", "int32"),
         ("sent_bytes", "int64"), ("recv_bytes", "int64"), ("messages", "int32")],
        [(node_of[c], *c, r, sent[r][node_of[c]], recv[r][node_of[c]], msgs[r][node_of[c]])
         for r in (1, 2) for c in coords])
    write_table(
        os.path.join(out, "torus8_links.yaml"), key,
        [("linkid", "int32"), ("sx", "int32"), ("sy", "int32"), ("sz", "int32"), ("tx", "int32"),
         ("ty", "int32"), ("tz", "int32"), ("code_region", "int32"), ("bytes", "int64"), ("packets", "int64")],
        [(i, *s, *t, r, link_bytes[r][i], -(-link_bytes[r][i] // PACKET_BYTES))
         for r in (1, 2) for i, (s, t) in enumerate(links)])
    write_table(
        os.path.join(out, "torus8_map.yaml"), key,
        [("mpirank", "int32"), ("nodeid", "int32")],
        sorted((rank, node) for node, rank in rank_of_node.items()))
    # Communicators: one per x-plane (the ranks whose node has that x).
    write_table(
        os.path.join(out, "torus8_communicators.yaml"), key,
        [("communicator_group_id", "int32"), ("communicator_name", "S32"), ("plane_x", "int32")],
        [(x, f"plane-x{x}", x) for x in range(8)])
    write_table(
        os.path.join(out, "torus8_communicator_map.yaml"), key,
        [("communicator_group_id", "int32"), ("mpirank", "int32")],
        sorted((c[0], rank_of_node[node_of[c]]) for c in coords))
    with open(os.path.join(out, "torus8_meta.yaml"), "w") as f:
        f.write(f"""---
key: {key}
date: 2024-05-01
author: scripts/make-boxfish-samples.py
hardware: {{
 type: bgp,
 network: torus,
 nodes: 512,
 coords: [x, y, z],
 coords_table: torus8_nodes.yaml,
 dim: {{x: 8, y: 8, z: 8}},
 source_coords: {{x: sx, y: sy, z: sz}},
 destination_coords: {{x: tx, y: ty, z: tz}},
 link_coords_table: torus8_links.yaml
}}
""")
        for fname, dom, typ, field in [
            ("torus8_nodes.yaml", "HW", "NODE", "nodeid"),
            ("torus8_links.yaml", "HW", "LINK", "linkid"),
            ("torus8_communicators.yaml", "COMM", "COMMUNICATOR", "communicator_group_id"),
        ]:
            f.write(f"---\nfiletype: table\nfilename: {fname}\ndomain: {dom}\ntype: {typ}\nfield: {field}\nflags: 0\n")
        f.write("""---
filetype: projection
type: file
filename: torus8_map.yaml
subdomain:
- { domain: HW, type: NODE, field: nodeid }
- { domain: COMM, type: RANK, field: mpirank }
flags: 0
---
filetype: projection
type: file
filename: torus8_communicator_map.yaml
subdomain:
- { domain: COMM, type: COMMUNICATOR, field: communicator_group_id }
- { domain: COMM, type: RANK, field: mpirank }
flags: 0
---
filetype: projection
type: node link
node_policy: Source
link_policy: Source
subdomain:
- { domain: HW, type: NODE, field: nodeid }
- { domain: HW, type: LINK, field: linkid }
flags: 0
...
""")


def mesh6(out):
    n = 6
    os.makedirs(out, exist_ok=True)
    ids = {(x, y): y * n + x for y in range(n) for x in range(n)}
    # Physical links, each listed once: (a, b) with b to the right of or above a.
    phys = []
    for (x, y), i in sorted(ids.items(), key=lambda kv: kv[1]):
        if x + 1 < n:
            phys.append((i, ids[(x + 1, y)]))
        if y + 1 < n:
            phys.append((i, ids[(x, y + 1)]))
    index = {p: k for k, p in enumerate(phys)}
    load = {1: {}, 2: {}}

    def hop(region, a, b, nbytes):
        key = (min(a, b), max(a, b))
        fwd, back = load[region].get(key, (0, 0))
        load[region][key] = (fwd + nbytes, back) if a < b else (fwd, back + nbytes)

    # Region 1, halo: 32 KiB to each mesh neighbour (edge nodes have fewer).
    for (x, y), i in ids.items():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (x + dx, y + dy) in ids:
                hop(1, i, ids[(x + dx, y + dy)], 32 * KIB)
    # Region 2, hot spot: every node sends 1 MiB to node (0, 0), routed x first, then y.
    for (x, y), i in ids.items():
        cx, cy = x, y
        while (cx, cy) != (0, 0):
            nx, ny = (cx - 1, cy) if cx > 0 else (cx, cy - 1)
            hop(2, ids[(cx, cy)], ids[(nx, ny)], 1024 * KIB)
            cx, cy = nx, ny
    with open(os.path.join(out, "nodes.csv"), "w") as f:
        f.write("id,name,x,y,row\n")
        for (x, y), i in sorted(ids.items(), key=lambda kv: kv[1]):
            f.write(f"{i},n{x}{y},{x},{y},{y}\n")
    with open(os.path.join(out, "links.csv"), "w") as f:
        f.write("a,b,region,bytes_a_to_b,bytes_b_to_a\n")
        for region in (1, 2):
            for (a, b) in phys:
                fwd, back = load[region].get((a, b), (0, 0))
                f.write(f"{a},{b},{region},{fwd},{back}\n")
    assert len(index) == len(phys)


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "sample-data"
    torus8(os.path.join(root, "torus8"))
    mesh6(os.path.join(root, "mesh6"))
