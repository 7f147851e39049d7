//! The whole way in on the bundled sample data, through `view_model::open`: parse → trace →
//! layout → the data set.

use std::path::PathBuf;

use shoal::model::{NodeKind, RailId};
use shoal::routing::{Flow, RailPolicy, RegionKey, accumulate, trace};
use shoal::view_model::dataset::{Dataset, FabricData};
use shoal::view_model::{OpenRequest, open_regions};

fn sample(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data").join(rel)
}

/// The two-rail sample with `profile`, opened with `choices` (host map, rail policy), tracing
/// only region `only` if given.
fn two_rails_with(profile: &str, choices: OpenRequest, only: Option<u32>) -> Dataset {
    let rails =
        OpenRequest::of_rails(vec![vec![sample("tworail/rail0")], vec![sample("tworail/rail1")]]).rails;
    let request = OpenRequest { profile: Some(sample(profile)), rails, ..choices };
    open_regions(&request, only, &|_| {}).unwrap()
}

fn two_rails(profile: &str) -> Dataset {
    two_rails_with(profile, OpenRequest::default(), None)
}

fn fabric(dataset: &Dataset) -> &FabricData {
    dataset.fabric.as_ref().unwrap()
}

#[test]
fn bytes_are_conserved_on_every_rail_and_region() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz");
    let data = fabric(&analysis);
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
    let analysis = two_rails("tworail/samplesort.ibprof.gz");
    let loads = &fabric(&analysis).loads;
    for r in 0..2 {
        let summed: Vec<u64> = (0..loads.total.rails[r].bytes.len())
            .map(|i| loads.regions.iter().map(|region| region.rails[r].bytes.get(i)).sum())
            .collect();
        assert_eq!(summed, loads.total.rails[r].bytes.to_dense(), "rail {r}");
    }
}

#[test]
fn accumulated_loads_equal_tracing_every_pair_on_a_real_fabric() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz");
    let fabric = &fabric(&analysis).cluster.rails[0];
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
    let analysis = two_rails("tworail/bcast-rail0-only.ibprof");
    let total = &fabric(&analysis).loads.total;
    assert!(total.rails[0].injected > 0);
    assert_eq!(total.rails[1].injected, 0);
    let both = two_rails("tworail/bcast-both-rails.ibprof");
    let total = &fabric(&both).loads.total;
    assert_eq!(total.rails[0].injected, total.rails[1].injected);
}

#[test]
fn pinning_rank_traffic_to_one_rail_moves_every_byte_there() {
    let request = OpenRequest { rail_policy: RailPolicy::Rail(1), ..Default::default() };
    let analysis = two_rails_with("tworail/samplesort.ibprof.gz", request, None);
    let total = fabric(&analysis).loads.get(RegionKey::Total).unwrap();
    assert_eq!(total.rails[0].injected, 0);
    assert!(total.rails[1].injected > 0);
}

#[test]
fn the_real_fat_tree_lays_out_by_level_with_rail_1_below() {
    let analysis = two_rails("tworail/samplesort.ibprof.gz");
    let data = fabric(&analysis);
    for (r, (fabric, layout)) in data.cluster.rails.iter().zip(&data.layout.rails).enumerate() {
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
    let request = OpenRequest {
        profile: Some(profile.clone()),
        ..OpenRequest::of_rails(vec![vec![sample("testbed")]])
    };
    let analysis = open_regions(&request, None, &|_| {}).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let loads = &fabric(&analysis).loads;
    assert!(analysis.warnings.iter().any(|w| w.message.contains("shrank")));
    assert_eq!(loads.regions[0].rails[0].injected, 1000);
    assert_eq!(loads.regions[1].rails[0].injected, 0);
    assert_eq!(loads.total.rails[0].injected, 400);
}

#[test]
fn a_real_collector_profile_traces_onto_the_fabric_through_a_host_map() {
    let request = OpenRequest {
        host_map: Some(sample("tworail/collector-samplesort-8.hostmap")),
        ..Default::default()
    };
    let analysis = two_rails_with("tworail/collector-samplesort-8.ibprof", request, None);
    let about_the_map = analysis.warnings.iter().filter(|w| w.to_string().contains("hostmap"));
    assert_eq!(about_the_map.count(), 0, "{:?}", analysis.warnings);
    let data = fabric(&analysis);
    let names: Vec<_> = analysis.regions().iter().map(|r| r.name.clone().unwrap_or_default()).collect();
    assert_eq!(names, ["splitters", "exchange", "MPI_Finalize"]);
    let total = &data.loads.total;
    assert_eq!((total.unplaced_bytes, total.intra_node_bytes), (0, 0));
    let sent: u64 = data
        .profile
        .as_ref()
        .unwrap()
        .ranks
        .iter()
        .flat_map(|r| &r.dumps.last().unwrap().peers)
        .map(|p| p.sent)
        .sum();
    assert_eq!(total.rails.iter().map(|r| r.injected).sum::<u64>(), sent);
    assert!(total.rails.iter().all(|r| r.is_conserved() && r.undelivered == 0));
}

#[test]
fn tracing_only_one_region_gives_that_region_and_the_total_as_tracing_all_does() {
    let all = two_rails("tworail/samplesort.ibprof.gz");
    let one = two_rails_with("tworail/samplesort.ibprof.gz", OpenRequest::default(), Some(2));
    let (all, one) = (&fabric(&all).loads, &fabric(&one).loads);
    assert_eq!(one.regions.len(), 1);
    assert_eq!(one.get(RegionKey::Region(2)), all.get(RegionKey::Region(2)));
    for (a, b) in all.total.rails.iter().zip(&one.total.rails) {
        assert_eq!(a.bytes, b.bytes, "the total is traced, not summed from the one region");
    }
}
