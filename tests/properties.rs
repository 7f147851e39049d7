//! Property tests (proptest) on random fat trees with D-mod-k tables, two and three levels:
//! tracing conserves bytes, every path is loop-free and ends at its destination's CA, the
//! per-destination accumulation equals walking each pair, and the layout puts every node on its
//! level; the routing engines deliver every pair of the same trees. And on random profiles: ibprof parse → write → parse is the identity.

use std::collections::HashSet;

use proptest::prelude::*;
use shoal::layout::{FatTreeOptions, layout_fat_tree};
use shoal::model::synthetic::{ThreeLevel, TwoLevel};
use shoal::model::{
    Cluster, Dump, EpochMicros, Fabric, Guid, Lid, LidBytes, LocalPort, NodeKind, PeerBytes, Profile,
    ProfileSource, RailId, RankSection,
};
use shoal::profile_io::ibprof::{parse_profile, write_profile};
use shoal::routing::engines::{Engine, route};
use shoal::routing::{Flow, Outcome, accumulate, trace};

/// A random fat tree: two levels, or three, with the level every node must be laid out on
/// (hops to the nearest host), known from its description.
#[derive(Clone, Debug)]
enum Tree {
    Two(usize, usize, usize),
    Three(usize, usize, usize, usize, usize),
}

impl Tree {
    fn build(&self, rail: u8) -> Fabric {
        let base = u64::from(rail) << 40;
        match *self {
            Tree::Two(l, h, s) => TwoLevel::new(l, h, s).rail(RailId(rail), base).build(),
            Tree::Three(p, l, h, a, c) => ThreeLevel::new(p, l, h, a, c).rail(RailId(rail), base).build(),
        }
    }
}

fn level_of(fabric: &Fabric, node: petgraph::graph::NodeIndex) -> u32 {
    let n = fabric.node(node);
    let d = n.description.as_str();
    match n.kind {
        NodeKind::Ca => 0,
        _ if d.starts_with("L1-") || d.starts_with("ft-leaf") => 1,
        _ if d.starts_with("L2-") || d.starts_with("ft-agg") => 2,
        _ if d.starts_with("ft-core") => 3,
        _ => panic!("unknown switch {d}"),
    }
}

fn trees() -> impl Strategy<Value = Tree> {
    prop_oneof![
        (1..6usize, 1..5usize, 1..4usize).prop_map(|(l, h, s)| Tree::Two(l, h, s)),
        (1..4usize, 1..4usize, 1..4usize, 1..4usize, 1..4usize)
            .prop_map(|(p, l, h, a, c)| Tree::Three(p, l, h, a, c)),
    ]
}

fn ca_lids(fabric: &Fabric) -> Vec<Lid> {
    fabric.cas().filter_map(|n| fabric.node(n).base_lid()).collect()
}

/// Flows between random CA pairs (indices into the CA LIDs, any size), with random byte counts.
fn flows_on(fabric: &Fabric, picks: &[(usize, usize, u64)]) -> Vec<Flow> {
    let lids = ca_lids(fabric);
    picks
        .iter()
        .map(|&(s, d, bytes)| Flow { src: lids[s % lids.len()], dst: lids[d % lids.len()], bytes })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_path_is_loop_free_and_ends_at_its_destinations_ca(tree in trees()) {
        let fabric = tree.build(0);
        let lids: Vec<Lid> = fabric.graph.node_indices().filter_map(|n| fabric.node(n).base_lid()).collect();
        for &s in &lids {
            for &d in ca_lids(&fabric).iter() {
                let path = trace(&fabric, s, d);
                prop_assert_eq!(path.outcome, Outcome::Delivered, "{} -> {}", s, d);
                let nodes: Vec<_> = path.hops.iter().map(|h| h.node).collect();
                prop_assert_eq!(nodes.iter().collect::<HashSet<_>>().len(), nodes.len(), "loop {} -> {}", s, d);
                let last = *nodes.last().unwrap();
                prop_assert_eq!(Some(last), fabric.owner_of_lid(d).map(|o| o.node));
                prop_assert_eq!(fabric.node(last).kind, NodeKind::Ca);
                prop_assert_eq!(path.link_ends.len() + 1, nodes.len());
            }
        }
    }

    #[test]
    fn tracing_conserves_bytes_and_accumulation_equals_walking_each_pair(
        tree in trees(),
        picks in prop::collection::vec((0..1000usize, 0..1000usize, 1..1_000_000u64), 1..60),
    ) {
        let fabric = tree.build(0);
        let flows = flows_on(&fabric, &picks);
        let load = accumulate(&fabric, &flows);
        let injected: u64 = flows.iter().map(|f| f.bytes).sum();
        prop_assert_eq!(load.injected, injected);
        prop_assert_eq!(load.delivered + load.undelivered, load.injected);
        prop_assert_eq!(load.undelivered, 0, "D-mod-k delivers everything: {:?}", load.undelivered_detail);
        let mut walked = vec![0u64; fabric.link_end_count()];
        for flow in &flows {
            for end in &trace(&fabric, flow.src, flow.dst).link_ends {
                walked[end.index()] += flow.bytes;
            }
        }
        prop_assert_eq!(&load.bytes.to_dense(), &walked);
    }

    #[test]
    fn the_layout_puts_every_node_on_its_level_rail_zero_above_rail_one_below(tree in trees()) {
        let cluster = Cluster::new(vec![tree.build(0), tree.build(1)]);
        let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
        for (r, (fabric, rail)) in cluster.rails.iter().zip(&layout.rails).enumerate() {
            let sign = if r == 0 { 1.0 } else { -1.0 };
            for node in fabric.graph.node_indices() {
                let level = level_of(fabric, node);
                prop_assert_eq!(rail.levels[node.index()], Some(level), "{}", fabric.node(node).description);
                let y = rail.positions[node.index()].map(|p| p.y);
                prop_assert_eq!(y, Some(sign * level as f32), "{}", fabric.node(node).description);
            }
        }
    }
}

/// Fewest switch-to-switch hops from every switch to `to`, breadth-first over the cabling.
fn switch_hops_to(fabric: &Fabric, to: petgraph::graph::NodeIndex) -> Vec<usize> {
    let mut hops = vec![usize::MAX; fabric.graph.node_count()];
    hops[to.index()] = 0;
    let mut frontier = vec![to];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for n in frontier {
            for m in fabric.graph.neighbors(n) {
                if fabric.node(m).kind == NodeKind::Switch && hops[m.index()] == usize::MAX {
                    hops[m.index()] = hops[n.index()] + 1;
                    next.push(m);
                }
            }
        }
        frontier = next;
    }
    hops
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `shoal route` on random fat trees (their D-mod-k tables thrown away): every engine
    /// delivers every CA pair loop-free; dmodk and minhop over the fewest switches.
    #[test]
    fn every_routing_engine_delivers_every_ca_pair_loop_free_dmodk_and_minhop_shortest(tree in trees()) {
        let fabric = tree.build(0);
        for engine in Engine::ALL {
            let (routed, _) = route(&fabric, engine, "tree").map_err(|e| TestCaseError::fail(e.to_string()))?;
            for &d in &ca_lids(&routed) {
                let owner = routed.owner_of_lid(d).unwrap().node;
                let leaf = routed.graph.neighbors(owner).next().unwrap();
                let hops = switch_hops_to(&routed, leaf);
                for &s in &ca_lids(&routed) {
                    let source = routed.owner_of_lid(s).unwrap().node;
                    if source == owner {
                        continue;
                    }
                    let path = trace(&routed, s, d);
                    prop_assert_eq!(path.outcome, Outcome::Delivered, "{}: {} -> {}", engine, s, d);
                    let nodes: Vec<_> = path.hops.iter().map(|h| h.node).collect();
                    prop_assert_eq!(nodes.iter().collect::<HashSet<_>>().len(), nodes.len(), "{}: loop", engine);
                    if engine != Engine::UpDown {
                        let first = routed.graph.neighbors(source).next().unwrap();
                        prop_assert_eq!(nodes.len() - 2, hops[first.index()] + 1, "{}: {} -> {}", engine, s, d);
                    }
                }
            }
        }
    }
}

/// Text with what needs quoting: spaces, `#`, quotes, backslashes, tabs and non-ASCII.
fn text() -> impl Strategy<Value = String> {
    "[ -~\t\u{e9}\u{2026}\u{1F41F}]{0,10}"
}

fn micros() -> impl Strategy<Value = EpochMicros> {
    (-1_000_000_000_000i64..2_000_000_000_000_000).prop_map(EpochMicros)
}

fn port() -> impl Strategy<Value = LocalPort> {
    (0..256u32, prop::option::of(text()), prop::option::of(any::<u8>()), any::<u64>(), any::<u16>(), 0..8u8)
        .prop_map(|(index, device, portnum, guid, lid, lmc)| LocalPort {
            index,
            device,
            portnum,
            guid: Guid(guid),
            lid: Lid(lid),
            lmc,
        })
}

fn dump(job_ranks: u32) -> impl Strategy<Value = Dump> {
    let peers = prop::collection::vec((0..job_ranks.max(1), any::<u64>(), any::<u64>()), 0..6);
    // Port picks are indices into the rank's declared ports, resolved in `section`.
    let lids = prop::collection::vec((0..4u32, any::<u16>(), any::<u64>(), any::<u64>()), 0..4);
    (any::<u32>(), prop::option::of(text()), micros(), peers, lids).prop_map(
        |(region, name, dumptime, peers, lids)| {
            let mut seen = HashSet::new();
            let peers = peers
                .into_iter()
                .filter(|p| seen.insert(p.0))
                .map(|(peer, sent, recv)| PeerBytes { peer, sent, recv })
                .collect();
            let mut seen = HashSet::new();
            let lids = lids
                .into_iter()
                .filter(|l| seen.insert((l.0, l.1)))
                .map(|(port, lid, sent, recv)| LidBytes { port, lid: Lid(lid), sent, recv })
                .collect();
            Dump { region, name, dumptime, peers, lids, ..Default::default() }
        },
    )
}

fn section(job_ranks: u32) -> impl Strategy<Value = RankSection> {
    let ports = prop::collection::vec(port(), 0..3);
    let dumps = prop::collection::vec(dump(job_ranks), 0..4);
    (0..job_ranks, text(), prop::option::of(any::<u32>()), micros(), ports, dumps).prop_map(
        |(rank, host, pid, starttime, ports, dumps)| {
            let mut seen = HashSet::new();
            let ports: Vec<LocalPort> = ports.into_iter().filter(|p| seen.insert(p.index)).collect();
            // Regions strictly increase within a rank, as the format requires; `lid` counters
            // name a port the rank declared.
            let mut dumps: Vec<Dump> = dumps;
            dumps.sort_by_key(|d| d.region);
            dumps.dedup_by_key(|d| d.region);
            for dump in &mut dumps {
                let mut seen = HashSet::new();
                dump.lids = std::mem::take(&mut dump.lids)
                    .into_iter()
                    .filter_map(|l| {
                        let port = ports.get(l.port as usize % ports.len().max(1))?.index;
                        seen.insert((port, l.lid)).then_some(LidBytes { port, ..l })
                    })
                    .collect();
            }
            RankSection { rank, host, pid, starttime, ports, dumps }
        },
    )
}

fn profiles() -> impl Strategy<Value = Profile> {
    let source = prop::option::of(prop_oneof![
        Just(ProfileSource::Pmpi),
        Just(ProfileSource::OmpiMonitoring),
        Just(ProfileSource::Peruse)
    ]);
    (1..2000u32, prop::option::of(text()), source).prop_flat_map(|(job_ranks, mpi, source)| {
        prop::collection::vec(section(job_ranks), 0..5).prop_map(move |sections| {
            let mut seen = HashSet::new();
            let ranks = sections.into_iter().filter(|s| seen.insert(s.rank)).collect();
            Profile { job_ranks, mpi: mpi.clone(), source, ranks }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ibprof_parse_write_parse_is_the_identity(profile in profiles()) {
        let mut first = Vec::new();
        write_profile(&profile, &mut first).unwrap();
        let first = String::from_utf8(first).unwrap();
        let (parsed, _) = parse_profile(&first, "random").unwrap();
        prop_assert_eq!(&parsed, &profile, "written:\n{}", first);
        let mut second = Vec::new();
        write_profile(&parsed, &mut second).unwrap();
        let (again, _) = parse_profile(&String::from_utf8(second).unwrap(), "again").unwrap();
        prop_assert_eq!(again, parsed);
    }
}
