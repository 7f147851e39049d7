//! PFAnalyzer's routing figures reproduced (issue 23): PFSim's 20-host cluster (4 edge switches
//! × 5 hosts, 2 cores, 8 cores per host) and a 128-rank CG-like pattern, routed by D-mod-K and
//! by the application-aware greedy router, at linear or random host selection × block or
//! cyclic process mapping. The measure is the busiest switch-to-switch link end.

use shoal::model::synthetic::{Pattern, TwoLevel};
use shoal::model::{Cluster, Fabric, Lid};
use shoal::routing::Flow;
use shoal::routing::engines::compare::{MaxLoad, compare_routings};
use shoal::routing::placement::{SplitMix64, shuffle};

const CORES_PER_HOST: u32 = 8;
const RANKS: u32 = 128;

/// PFSim's `milk` cluster.
fn cluster() -> Cluster {
    Cluster::new(vec![TwoLevel::new(4, 5, 2).build()])
}

#[derive(Clone, Copy, Debug)]
enum Hosts {
    Linear,
    Random(u64),
}

#[derive(Clone, Copy, Debug)]
enum Mapping {
    Block,
    Cyclic,
}

/// Rank → host index, as PFSim's host selectors and process mappers place a job.
fn placement(cluster: &Cluster, hosts: Hosts, mapping: Mapping) -> Vec<usize> {
    let needed = RANKS.div_ceil(CORES_PER_HOST) as usize;
    let mut chosen: Vec<usize> = (0..cluster.hosts.len()).collect();
    if let Hosts::Random(seed) = hosts {
        shuffle(&mut chosen, &mut SplitMix64::new(seed));
    }
    chosen.truncate(needed);
    (0..RANKS)
        .map(|r| match mapping {
            Mapping::Block => chosen[(r / CORES_PER_HOST) as usize],
            Mapping::Cyclic => chosen[r as usize % needed],
        })
        .collect()
}

/// The pattern's inter-host bytes as CA-to-CA flows.
fn flows(cluster: &Cluster, pattern: Pattern, hosts: Hosts, mapping: Mapping) -> Vec<Flow> {
    let fabric: &Fabric = &cluster.rails[0];
    let at = placement(cluster, hosts, mapping);
    let lid = |host: usize| -> Lid { fabric.node(cluster.hosts[host].on_rail(0)[0]).base_lid().unwrap() };
    let profile = pattern.build();
    let mut flows = Vec::new();
    for section in &profile.ranks {
        for peer in &section.dumps[0].peers {
            let (a, b) = (at[section.rank as usize], at[peer.peer as usize]);
            if a != b && peer.sent > 0 {
                flows.push(Flow { src: lid(a), dst: lid(b), bytes: peer.sent });
            }
        }
    }
    flows
}

fn loads(pattern: Pattern, hosts: Hosts, mapping: Mapping) -> Vec<MaxLoad> {
    let cluster = cluster();
    compare_routings(&cluster.rails[0], &flows(&cluster, pattern, hosts, mapping), "milk")
}

fn busiest(rows: &[MaxLoad], routing: &str) -> u64 {
    rows.iter()
        .find(|r| r.routing == routing)
        .unwrap_or_else(|| panic!("no {routing} in {rows:?}"))
        .switch_to_switch
}

const CG: Pattern = Pattern::Cg { ranks: RANKS, bytes: 1 << 20 };
const MILC: Pattern = Pattern::Milc { ranks: RANKS, bytes: 1 << 20 };

const PLACEMENTS: [Mapping; 2] = [Mapping::Block, Mapping::Cyclic];

/// The four (linear | random) × (block | cyclic) combinations, random hosts under three seeds.
fn combinations() -> Vec<(Hosts, Mapping)> {
    let hosts = [Hosts::Linear, Hosts::Random(7), Hosts::Random(11), Hosts::Random(23)];
    hosts.into_iter().flat_map(|h| PLACEMENTS.map(|m| (h, m))).collect()
}

#[test]
fn greedy_cuts_cg_at_linear_block_to_near_half_of_dmodk() {
    let rows = loads(CG, Hosts::Linear, Mapping::Block);
    let (greedy, dmodk) = (busiest(&rows, "greedy"), busiest(&rows, "dmodk"));
    // PFSim routes each (source, destination) pair on its own and reaches exactly half; on
    // destination-based tables every source leaf shares one port per destination, and no such
    // choice reaches half here (docs/routing-engines.md): 22 of 40 units, the best there is.
    assert!(greedy * 2 >= dmodk, "half is the floor: {rows:?}");
    assert!(greedy * 100 <= dmodk * 55, "greedy {greedy} against dmodk {dmodk}");
    assert_eq!(busiest(&rows, "recorded"), dmodk, "the synthetic tables are D-mod-K too");
}

#[test]
fn cyclic_mapping_raises_greedys_busiest_link() {
    for hosts in [Hosts::Linear, Hosts::Random(7)] {
        let block = busiest(&loads(CG, hosts, Mapping::Block), "greedy");
        let cyclic = busiest(&loads(CG, hosts, Mapping::Cyclic), "greedy");
        assert!(cyclic > block, "{hosts:?}: cyclic {cyclic} block {block}");
    }
}

#[test]
fn greedy_never_exceeds_dmodk_in_any_placement() {
    for pattern in [CG, MILC] {
        for (hosts, mapping) in combinations() {
            let rows = loads(pattern, hosts, mapping);
            for routing in ["greedy", "greedy-sum"] {
                assert!(
                    busiest(&rows, routing) <= busiest(&rows, "dmodk"),
                    "{} {hosts:?} {mapping:?}: {rows:?}",
                    pattern.name()
                );
            }
            assert!(rows.iter().all(|r| r.undelivered == 0), "{rows:?}");
        }
    }
}

#[test]
fn greedy_cuts_milc_at_linear_block() {
    let rows = loads(MILC, Hosts::Linear, Mapping::Block);
    assert!(busiest(&rows, "greedy") < busiest(&rows, "dmodk"), "{rows:?}");
}
