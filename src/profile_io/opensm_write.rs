//! Writing a fabric as OpenSM dumps it: `opensm-subnet.lst` and `opensm.fdbs`, byte for byte in
//! the formats of `osm_dump.c` (see [`super::ibdiagnet_lst`] and [`super::fdbs`] for the quirks),
//! so that `shoal gen` can make fabrics larger than ibsim's and our own readers read them back.
//!
//! - `.lst`: every link twice, once from each end, nodes in index order and ports in port order.
//!   Shoal does not model vendor and device ids, so every switch is written as an SX6036
//!   (`VenID:0002C9 DevID:C738`) and every CA as a ConnectX-3 (`DevID:1003`); the peer's ids go
//!   through OpenSM's 32-bit byte swap (`DevID:C7380000`). Unknown width or speed print `??`.
//! - `.fdbs`: one block per switch with a table, rows in LID order. `Hops` is the length of the
//!   routed path (`HOPS UNKNOWN` when it does not reach the LID), `Optimal` says whether that is
//!   the fewest hops the cabling allows (found by a breadth-first search per destination).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use petgraph::graph::NodeIndex;

use crate::model::{Fabric, LftEntry, Lid, Node, NodeKind, PortNum};

const NO_PATH: u8 = u8::MAX;

/// Writes `opensm-subnet.lst` and `opensm.fdbs` for `fabric` into `dir` (created if missing),
/// each through a buffer, the two side by side.
pub fn write_rail_dir(fabric: &Fabric, dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let write = |name: &str, body: &dyn Fn(&mut BufWriter<File>) -> io::Result<()>| {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(dir.join(name))?);
        body(&mut out)?;
        out.flush()
    };
    let (lst, fdbs) = rayon::join(
        || write("opensm-subnet.lst", &|out| write_lst(fabric, out)),
        || write("opensm.fdbs", &|out| write_fdbs(fabric, out)),
    );
    lst.and(fdbs)
}

/// Writes the link list.
pub fn write_lst(fabric: &Fabric, out: &mut impl Write) -> io::Result<()> {
    for node in fabric.graph.node_indices() {
        let cabled = (0..=u8::MAX).map(PortNum).filter(|&p| fabric.link_at(node, p).is_some());
        for port in cabled {
            let Some((end, peer, peer_port)) = fabric.out_through(node, port) else { continue };
            let link = &fabric.graph[end.edge];
            write_end(fabric, out, node, port, false)?;
            out.write_all(b" ")?;
            write_end(fabric, out, peer, peer_port, true)?;
            let width = link.width.as_deref().unwrap_or("??");
            let speed = link.speed.as_deref().unwrap_or("??");
            writeln!(out, " PHY={width} LOG=ACT SPD={speed}")?;
        }
    }
    Ok(())
}

fn write_end(
    fabric: &Fabric,
    out: &mut impl Write,
    index: NodeIndex,
    port: PortNum,
    remote: bool,
) -> io::Result<()> {
    let node = fabric.node(index);
    let (kind, dev) = match node.kind {
        NodeKind::Switch => ("SW", 0xC738u32),
        NodeKind::Ca => ("CA", 0x1003),
        NodeKind::Router => ("Rt", 0x1003),
    };
    let (lid, port_guid) = end_identity(node, port);
    let system = node.system_guid.unwrap_or(node.guid).0;
    let ids = if remote {
        format!("VenID:{:08X} DevID:{:08X}", 0x02C9u32, dev << 16)
    } else {
        format!("VenID:{:06X} DevID:{dev:04X}", 0x02C9u32)
    };
    write!(
        out,
        "{{ {kind} Ports:{:02X} SystemGUID:{system:016x} NodeGUID:{:016x} PortGUID:{port_guid:016x} {ids} \
         Rev:000000A1 {{{}}} LID:{:04X} PN:{:02X} }}",
        node.num_ports, node.guid.0, node.description, lid.0, port.0
    )
}

/// The LID and port GUID a `.lst` end shows: a switch's port 0, a CA's own port.
fn end_identity(node: &Node, port: PortNum) -> (Lid, u64) {
    let own = if node.kind == NodeKind::Switch { PortNum(0) } else { port };
    let info = node.ports.get(&own);
    let lid = info.map(|i| i.lid).unwrap_or_default();
    let guid = info.and_then(|i| i.guid).unwrap_or(node.guid).0;
    (lid, guid)
}

/// Writes the forwarding tables.
pub fn write_fdbs(fabric: &Fabric, out: &mut impl Write) -> io::Result<()> {
    let switches: Vec<NodeIndex> = fabric.switches().filter(|&s| fabric.lft(s).is_some()).collect();
    let hops = HopTable::new(fabric, &switches);
    let mut line = Vec::with_capacity(64);
    for (row, &switch) in switches.iter().enumerate() {
        let Some(lft) = fabric.lft(switch) else { continue };
        writeln!(out, "dump_ucast_routes: Switch 0x{:016x}", fabric.node(switch).guid.0)?;
        writeln!(out, "LID    : Port : Hops : Optimal")?;
        for (lid, entry) in lft.entries() {
            line.clear();
            line.extend_from_slice(b"0x");
            push_hex4(&mut line, lid.0);
            match entry {
                LftEntry::Port(port) => {
                    line.extend_from_slice(b" : ");
                    push_dec(&mut line, u32::from(port.0), 3);
                    match hops.get(row, lid) {
                        Some((routed, least)) if routed != NO_PATH => {
                            line.extend_from_slice(b"  : ");
                            push_dec(&mut line, u32::from(routed), 2);
                            line.extend_from_slice(if routed == least {
                                b"   : yes\n"
                            } else {
                                b"   : no\n"
                            });
                        }
                        _ => line.extend_from_slice(b"  : HOPS UNKNOWN\n"),
                    }
                }
                LftEntry::Unreachable | LftEntry::Missing => line.extend_from_slice(b" : UNREACHABLE\n"),
            }
            out.write_all(&line)?;
        }
    }
    Ok(())
}

fn push_hex4(line: &mut Vec<u8>, value: u16) {
    for shift in [12, 8, 4, 0] {
        line.push(b"0123456789ABCDEF"[usize::from((value >> shift) & 0xF)]);
    }
}

fn push_dec(line: &mut Vec<u8>, value: u32, width: usize) {
    let digits = value.to_string();
    line.extend(std::iter::repeat_n(b'0', width.saturating_sub(digits.len())));
    line.extend_from_slice(digits.as_bytes());
}

/// Routed and least hop counts from every table-holding switch to every LID that has an owner.
struct HopTable {
    /// `lid_pos[lid]`: column of the LID, or `usize::MAX`.
    lid_pos: Vec<usize>,
    /// `routed[switch row * lids + column]`, `NO_PATH` when the route does not arrive.
    routed: Vec<u8>,
    least: Vec<u8>,
    lids: usize,
}

impl HopTable {
    fn new(fabric: &Fabric, switches: &[NodeIndex]) -> HopTable {
        let mut owned: Vec<Lid> = Vec::new();
        for node in fabric.graph.node_indices() {
            for info in fabric.node(node).ports.values().filter(|i| i.lid.0 != 0) {
                let count = 1u32 << info.lmc.min(7);
                owned.extend(
                    (0..count).filter_map(|k| u16::try_from(u32::from(info.lid.0) + k).ok()).map(Lid),
                );
            }
        }
        owned.sort_unstable();
        owned.dedup();
        let mut lid_pos = vec![usize::MAX; owned.last().map_or(0, |l| usize::from(l.0) + 1)];
        for (i, lid) in owned.iter().enumerate() {
            lid_pos[usize::from(lid.0)] = i;
        }
        let mut row_of = vec![usize::MAX; fabric.graph.node_count()];
        for (row, s) in switches.iter().enumerate() {
            row_of[s.index()] = row;
        }
        let lids = owned.len();
        let mut routed = vec![NO_PATH; switches.len() * lids];
        let mut least = vec![NO_PATH; switches.len() * lids];
        let mut memo = vec![None::<u8>; fabric.graph.node_count()];
        let mut chain = Vec::new();
        let mut queue = VecDeque::new();
        for (column, &lid) in owned.iter().enumerate() {
            let Some(owner) = fabric.owner_of_lid(lid) else { continue };
            least_hops(fabric, owner.node, &row_of, lids, column, &mut least, &mut queue);
            memo.fill(None);
            memo[owner.node.index()] = Some(0);
            for &s in switches {
                let hops = routed_hops(fabric, s, lid, &mut memo, &mut chain);
                routed[row_of[s.index()] * lids + column] = hops;
            }
        }
        HopTable { lid_pos, routed, least, lids }
    }

    fn get(&self, row: usize, lid: Lid) -> Option<(u8, u8)> {
        let column = *self.lid_pos.get(usize::from(lid.0)).filter(|&&c| c != usize::MAX)?;
        let at = row * self.lids + column;
        Some((self.routed[at], self.least[at]))
    }
}

/// Breadth-first from the owner of a LID through switches: the fewest hops any switch needs.
fn least_hops(
    fabric: &Fabric,
    owner: NodeIndex,
    row_of: &[usize],
    lids: usize,
    column: usize,
    least: &mut [u8],
    queue: &mut VecDeque<(NodeIndex, u8)>,
) {
    let mut seen = vec![false; fabric.graph.node_count()];
    queue.clear();
    queue.push_back((owner, 0));
    seen[owner.index()] = true;
    while let Some((node, hops)) = queue.pop_front() {
        if let Some(&row) = row_of.get(node.index()).filter(|&&r| r != usize::MAX) {
            least[row * lids + column] = hops;
        }
        // Paths run through switches only; a CA is an end, not a hop.
        if node != owner && fabric.node(node).kind != NodeKind::Switch {
            continue;
        }
        for next in fabric.graph.neighbors(node) {
            if !seen[next.index()] {
                seen[next.index()] = true;
                queue.push_back((next, hops.saturating_add(1)));
            }
        }
    }
}

/// Hops from `switch` to the owner of `lid` along the tables, memoised per destination in
/// `memo` (the owner holds `Some(0)`); `NO_PATH` if the route drops or loops.
fn routed_hops(
    fabric: &Fabric,
    switch: NodeIndex,
    lid: Lid,
    memo: &mut [Option<u8>],
    chain: &mut Vec<NodeIndex>,
) -> u8 {
    chain.clear();
    let mut node = switch;
    let end = loop {
        if let Some(hops) = memo[node.index()] {
            break hops;
        }
        if chain.contains(&node) || chain.len() > 64 {
            break NO_PATH;
        }
        chain.push(node);
        let next = match fabric.lft(node).map(|lft| lft.get(lid)) {
            Some(LftEntry::Port(port)) if port.0 != 0 => fabric.out_through(node, port).map(|(_, n, _)| n),
            _ => None,
        };
        match next {
            Some(n) if fabric.node(n).kind == NodeKind::Switch || memo[n.index()].is_some() => node = n,
            _ => break NO_PATH,
        }
    };
    let mut hops = end;
    for &n in chain.iter().rev() {
        hops = if hops == NO_PATH { NO_PATH } else { hops.saturating_add(1) };
        memo[n.index()] = Some(hops);
    }
    memo[switch.index()].unwrap_or(NO_PATH)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RailId;
    use crate::model::synthetic::ThreeLevel;
    use crate::profile_io::Input;
    use crate::profile_io::fdbs::parse_fdbs;
    use crate::profile_io::ibdiagnet_lst::parse_lst;
    use crate::profile_io::rail::{DumpKind, RailInputs, build_rail};

    fn written(fabric: &Fabric) -> (String, String) {
        let (mut lst, mut fdbs) = (Vec::new(), Vec::new());
        write_lst(fabric, &mut lst).unwrap();
        write_fdbs(fabric, &mut fdbs).unwrap();
        (String::from_utf8(lst).unwrap(), String::from_utf8(fdbs).unwrap())
    }

    #[test]
    fn lines_look_like_opensm_and_every_link_is_listed_from_both_ends() {
        let fabric = ThreeLevel::k_ary(4).build();
        let (lst, fdbs) = written(&fabric);
        assert_eq!(lst.lines().count(), 2 * fabric.link_count());
        let first = lst.lines().next().unwrap();
        assert!(
            first.starts_with(
                "{ CA Ports:01 SystemGUID:0002c90000000000 NodeGUID:0002c90000000000 \
             PortGUID:0002c90000000001 VenID:0002C9 DevID:1003 Rev:000000A1 {n0001 HCA-1} LID:0001 PN:01 } \
             { SW Ports:04 "
            ),
            "{first}"
        );
        assert!(first.contains("VenID:000002C9 DevID:C7380000"), "{first}");
        assert!(first.ends_with(" PHY=4x LOG=ACT SPD=25"), "{first}");
        let mut rows = fdbs.lines();
        assert!(rows.next().unwrap().starts_with("dump_ucast_routes: Switch 0x"));
        assert_eq!(rows.next(), Some("LID    : Port : Hops : Optimal"));
        // The first switch is leaf 0 of pod 0: host 1 is on its port 1, one hop away.
        assert_eq!(rows.next(), Some("0x0001 : 001  : 01   : yes"));
    }

    #[test]
    fn our_readers_read_back_the_same_fabric_and_tables() {
        let fabric = ThreeLevel::new(3, 2, 3, 2, 2).build();
        let (lst, fdbs) = written(&fabric);
        let (from_lst, warnings) = parse_lst(&Input::from_text("g.lst", lst.clone()), RailId(0)).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(from_lst.link_count(), fabric.link_count());
        let (tables, warnings) = parse_fdbs(&Input::from_text("g.fdbs", fdbs.clone())).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(tables.len(), fabric.switches().count());
        let inputs = RailInputs {
            inputs: vec![
                (DumpKind::LinkList, Input::from_text("g.lst", lst)),
                (DumpKind::Fdbs, Input::from_text("g.fdbs", fdbs)),
            ],
        };
        let (read, warnings) = build_rail(&inputs, RailId(0), "g").unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        for node in fabric.graph.node_indices() {
            let original = fabric.node(node);
            let again = read.node_by_guid(original.guid).map(|n| read.node(n)).unwrap();
            // The reader also records the cabled switch ports (without a LID); the rest is equal.
            let with_lids = |n: &Node| {
                n.ports.iter().filter(|(_, i)| i.lid.0 != 0).map(|(p, i)| (*p, *i)).collect::<Vec<_>>()
            };
            assert_eq!(with_lids(again), with_lids(original));
            assert_eq!(
                Node { ports: Default::default(), ..again.clone() },
                Node { ports: Default::default(), ..original.clone() }
            );
            if original.kind == NodeKind::Switch {
                assert_eq!(read.lft(read.node_by_guid(original.guid).unwrap()), fabric.lft(node));
            }
        }
    }

    #[test]
    fn a_non_minimal_route_is_marked_not_optimal_and_a_dropped_one_has_unknown_hops() {
        // Two pods of two leaves (one host each) and two aggregation switches: LIDs 1-4 are
        // hosts, 5-8 leaves, 9-12 aggregation switches.
        let mut fabric = ThreeLevel::new(2, 2, 1, 2, 1).build();
        let leaf = fabric.switches().find(|&s| fabric.node(s).description == "ft-leaf-p000-000").unwrap();
        let lft = fabric.lft_mut(leaf).unwrap();
        // Aggregation switch (0, 1) is one hop up; send it through (0, 0) instead, which goes down
        // to leaf (0, 1) and up again: three hops. And send host 2 out of a port with no cable.
        lft.set(Lid(10), LftEntry::Port(PortNum(2)));
        lft.set(Lid(2), LftEntry::Port(PortNum(9)));
        let (_, fdbs) = written(&fabric);
        let block: Vec<&str> = fdbs.split("dump_ucast_routes").nth(1).unwrap().lines().collect();
        assert!(block.contains(&"0x000A : 002  : 03   : no"), "{block:?}");
        assert!(block.contains(&"0x0002 : 009  : HOPS UNKNOWN"), "{block:?}");
        assert!(block.contains(&"0x0009 : 002  : 01   : yes"), "{block:?}");
    }
}
