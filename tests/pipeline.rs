//! The whole pipeline on the bundled sample data: parse → trace → layout → tables.

use std::path::PathBuf;

use shoal::model::{NodeKind, RailId};
use shoal::pipeline::{Analysis, analyse};
use shoal::routing::{Flow, LoadOptions, RailPolicy, RegionKey, accumulate, trace};

fn sample(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data").join(rel)
}

fn two_rails(profile: &str, options: &LoadOptions) -> Analysis {
    let rails = vec![vec![sample("tworail/rail0")], vec![sample("tworail/rail1")]];
    analyse(&rails, Some(&sample(profile)), options).unwrap()
}

#[test]
fn bytes_are_conserved_on_every_rail_and_region() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz", &LoadOptions::default());
    let data = analysis.profile.as_ref().unwrap();
    assert_eq!(data.loads.regions.len(), 2);
    for region in data.loads.regions.iter().chain([&data.loads.total]) {
        for (r, rail) in region.rails.iter().enumerate() {
            assert!(rail.is_conserved(), "rail {r} region {:?}", region.key());
            assert!(rail.injected > 0);
        }
    }
    assert!(analysis.warnings.iter().all(|w| !w.message.contains("injected")), "{:?}", analysis.warnings);
}

#[test]
fn region_loads_add_up_to_the_cumulative_total() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz", &LoadOptions::default());
    let loads = &analysis.profile.as_ref().unwrap().loads;
    for r in 0..2 {
        let summed: Vec<u64> = (0..loads.total.rails[r].bytes.len())
            .map(|i| loads.regions.iter().map(|region| region.rails[r].bytes.get(i)).sum())
            .collect();
        assert_eq!(summed, loads.total.rails[r].bytes.to_dense(), "rail {r}");
    }
}

#[test]
fn accumulated_loads_equal_tracing_every_pair_on_a_real_fabric() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz", &LoadOptions::default());
    let fabric = &analysis.cluster.rails[0];
    let lids: Vec<_> = fabric.cas().filter_map(|n| fabric.node(n).base_lid()).collect();
    let flows: Vec<Flow> = lids
        .iter()
        .enumerate()
        .flat_map(|(i, &s)| {
            lids.iter().enumerate().map(move |(j, &d)| Flow { src: s, dst: d, bytes: (i * 7 + j) as u64 })
        })
        .collect();
    let load = accumulate(fabric, &flows);
    let mut expected = vec![0u64; fabric.link_end_count()];
    for f in &flows {
        for end in trace(fabric, f.src, f.dst).link_ends {
            expected[end.index()] += f.bytes;
        }
    }
    assert_eq!(load.bytes.to_dense(), expected);
    assert_eq!(load.undelivered, 0);
}

#[test]
fn a_bcast_over_rail_0_only_leaves_rail_1_idle() {
    let analysis = two_rails("tworail/bcast-rail0-only.ibprof", &LoadOptions::default());
    let total = &analysis.profile.as_ref().unwrap().loads.total;
    assert!(total.rails[0].injected > 0);
    assert_eq!(total.rails[1].injected, 0);
    let both = two_rails("tworail/bcast-both-rails.ibprof", &LoadOptions::default());
    let total = &both.profile.as_ref().unwrap().loads.total;
    assert_eq!(total.rails[0].injected, total.rails[1].injected);
}

#[test]
fn pinning_rank_traffic_to_one_rail_moves_every_byte_there() {
    let analysis = two_rails(
        "tworail/samplesort.ibprof.gz",
        &LoadOptions { policy: RailPolicy::Rail(1), ..Default::default() },
    );
    let total = analysis.profile.as_ref().unwrap().loads.get(RegionKey::Total).unwrap();
    assert_eq!(total.rails[0].injected, 0);
    assert!(total.rails[1].injected > 0);
}

#[test]
fn the_real_fat_tree_lays_out_by_level_with_rail_1_below() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz", &LoadOptions::default());
    for (r, (fabric, layout)) in analysis.cluster.rails.iter().zip(&analysis.layout.rails).enumerate() {
        assert_eq!(fabric.rail, RailId(r as u8));
        assert_eq!(layout.max_level, 3);
        for node in fabric.graph.node_indices() {
            let n = fabric.node(node);
            let level = layout.levels[node.index()].unwrap();
            let position = layout.positions[node.index()].unwrap();
            let expected = match n.kind {
                NodeKind::Ca => 0,
                _ if n.description.contains("-L1-") => 1,
                _ if n.description.contains("-L2-") => 2,
                _ => 3,
            };
            assert_eq!(level, expected, "{}", n.description);
            let sign = if r == 0 { 1.0 } else { -1.0 };
            assert_eq!(position.y, sign * level as f32, "{}", n.description);
        }
    }
}

#[test]
fn when_a_counter_shrinks_the_total_is_traced_from_the_last_dumps_not_summed() {
    let dir = std::env::temp_dir().join(format!("shoal-shrink-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("p.ibprof");
    std::fs::write(
        &profile,
        "ibprof 1\njob ranks 2\nrank 0 host n0001 starttime 0\nregion 1 dumptime 1\npeer 1 sent 1000 recv 0\n\
         region 2 dumptime 2\npeer 1 sent 400 recv 0\nrank 1 host n0030 starttime 0\nregion 1 dumptime 1\nregion 2 dumptime 2\n",
    )
    .unwrap();
    let rails = vec![vec![sample("testbed")]];
    let analysis = analyse(&rails, Some(&profile), &LoadOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let loads = &analysis.profile.as_ref().unwrap().loads;
    assert!(analysis.warnings.iter().any(|w| w.message.contains("shrank")));
    assert_eq!(loads.regions[0].rails[0].injected, 1000);
    assert_eq!(loads.regions[1].rails[0].injected, 0);
    assert_eq!(loads.total.rails[0].injected, 400);
}

#[test]
fn a_real_collector_profile_traces_onto_the_fabric_through_a_host_map() {
    let (map, warnings) =
        shoal::pipeline::read_host_map(&sample("tworail/collector-samplesort-8.hostmap")).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let analysis = two_rails(
        "tworail/collector-samplesort-8.ibprof",
        &LoadOptions { host_map: map, ..Default::default() },
    );
    let data = analysis.profile.as_ref().unwrap();
    let names: Vec<_> = data.regions.regions.iter().map(|r| r.name.clone().unwrap_or_default()).collect();
    assert_eq!(names, ["splitters", "exchange", "MPI_Finalize"]);
    let total = &data.loads.total;
    assert_eq!((total.unplaced_bytes, total.intra_node_bytes), (0, 0));
    let sent: u64 =
        data.profile.ranks.iter().flat_map(|r| &r.dumps.last().unwrap().peers).map(|p| p.sent).sum();
    assert_eq!(total.rails.iter().map(|r| r.injected).sum::<u64>(), sent);
    assert!(total.rails.iter().all(|r| r.is_conserved() && r.undelivered == 0));
}

#[test]
fn tracing_only_one_region_gives_that_region_and_the_total_as_tracing_all_does() {
    let all = two_rails("tworail/samplesort.ibprof.gz", &LoadOptions::default());
    let one = two_rails(
        "tworail/samplesort.ibprof.gz",
        &LoadOptions { only_region: Some(2), ..Default::default() },
    );
    let (all, one) = (&all.profile.as_ref().unwrap().loads, &one.profile.as_ref().unwrap().loads);
    assert_eq!(one.regions.len(), 1);
    assert_eq!(one.get(RegionKey::Region(2)), all.get(RegionKey::Region(2)));
    for (a, b) in all.total.rails.iter().zip(&one.total.rails) {
        assert_eq!(a.bytes, b.bytes, "the total is traced, not summed from the one region");
    }
}
