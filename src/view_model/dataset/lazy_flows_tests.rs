//! Specifications of flows built on first use.

use super::*;
use crate::view_model::{Dataset, OpenRequest, open};

fn sample(profile: &str) -> Dataset {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let request = OpenRequest {
        profile: Some(dir.join(profile)),
        ..OpenRequest::of_rails(vec![vec![dir.join("rail0")], vec![dir.join("rail1")]])
    };
    open(&request, &|_| {}).expect("the sample loads")
}

fn fabric_flows(d: &Dataset) -> &LazyFlows {
    &d.fabric.as_ref().expect("a fabric").flows
}

#[test]
fn opening_a_profile_builds_no_flows_and_asking_builds_them_once_for_every_clone() {
    let d = sample("samplesort.ibprof.gz");
    let flows = fabric_flows(&d);
    assert!(!flows.is_built());
    assert!(!flows.is_empty(), "a profile has flows to build");
    let clone = d.clone();
    let built = flows.all();
    assert!(fabric_flows(&clone).is_built(), "clones share what was built");
    assert!(std::ptr::eq(built, fabric_flows(&clone).all()));
}

#[test]
fn flows_built_late_are_the_flows_an_eager_build_gives() {
    let d = sample("samplesort.ibprof.gz");
    let fabric = d.fabric.as_ref().expect("a fabric");
    let profile = fabric.profile.as_ref().expect("a profile");
    let (regions, _) = crate::model::region_table(profile, "samplesort");
    let eager = flows_of(&fabric.cluster, profile, &regions, &LoadOptions::default());
    let late = fabric.flows.all();
    assert_eq!(late.keys().collect::<Vec<_>>(), eager.keys().collect::<Vec<_>>());
    for (key, set) in &eager {
        assert_eq!(**set, *late[key], "{key:?}");
    }
    let traced: usize = late[&RegionKey::Total].flows.iter().map(Vec::len).sum();
    assert!(traced > 0, "the sample's total sends between hosts");
}

#[test]
fn the_most_pairs_counted_before_building_are_the_built_flows_count() {
    let d = sample("samplesort.ibprof.gz");
    let flows = fabric_flows(&d);
    let counted = flows.most_pairs();
    assert!(!flows.is_built(), "counting builds nothing");
    let built = flows.all();
    let largest =
        built.values().map(|s| s.flows.iter().map(Vec::len).sum::<usize>() + s.intra_node_pairs.len()).max();
    assert_eq!(counted, largest);
    assert_eq!(flows.most_pairs(), largest);
}

#[test]
fn pairs_counted_up_to_a_bound_are_exact_within_it_and_above_it_past_it() {
    let d = sample("samplesort.ibprof.gz");
    let flows = fabric_flows(&d);
    let most = flows.most_pairs().expect("the sample has flows");
    assert!(most > 1);
    assert_eq!(flows.most_pairs_past(most), Some(most));
    assert_eq!(flows.most_pairs_past(usize::MAX), Some(most));
    for limit in [0, 1, most / 2, most - 1] {
        let past = flows.most_pairs_past(limit).expect("counted");
        assert!(past > limit && past <= most, "{past} for a bound of {limit}");
    }
    assert!(!flows.is_built(), "counting builds nothing");
}

/// The sample's broadcast profile with its second region's dumps left out.
fn one_region_profile(dir: &std::path::Path) -> std::path::PathBuf {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("sample-data/tworail/bcast-both-rails.ibprof"))
        .expect("the sample");
    let mut keep = true;
    let mut kept = String::new();
    for line in text.lines() {
        if line.starts_with("region ") || line.starts_with("rank ") {
            keep = !line.starts_with("region 2 ");
        }
        if keep {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let path = dir.join("bcast-region-1.ibprof");
    std::fs::write(&path, kept).expect("written");
    path
}

#[test]
fn a_profile_of_one_region_keeps_one_flow_set_for_it_and_the_total() {
    let dir = std::env::temp_dir().join(format!("shoal-one-region-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let d = sample(one_region_profile(&dir).to_str().expect("a path"));
    std::fs::remove_dir_all(&dir).ok();
    let flows = fabric_flows(&d).all();
    let keys: Vec<&RegionKey> = flows.keys().collect();
    assert_eq!(keys, [&RegionKey::Region(1), &RegionKey::Total]);
    assert!(Arc::ptr_eq(&flows[&RegionKey::Region(1)], &flows[&RegionKey::Total]));
    assert!(flows[&RegionKey::Total].flows.iter().any(|rail| !rail.is_empty()));
}

#[test]
fn a_data_set_without_a_profile_has_no_flows_and_builds_none() {
    let flows = LazyFlows::default();
    assert!(flows.is_empty());
    assert_eq!(flows.most_pairs(), None);
    assert!(flows.all().is_empty());
}

#[test]
fn every_set_keeps_the_switch_counts_the_tables_give_its_flows() {
    let d = sample("samplesort.ibprof.gz");
    let fabric = d.fabric.as_ref().expect("a fabric");
    for (key, set) in fabric.flows.all() {
        for (rail, (flows, kept)) in set.flows.iter().zip(&set.hops).enumerate() {
            let walked =
                crate::routing::switch_count::switches_crossed_all(&fabric.cluster.rails[rail], flows);
            let kept: Vec<Option<u32>> =
                kept.iter().map(|&b| crate::routing::switch_count::kept_count(b)).collect();
            assert_eq!(kept, walked, "{key:?}, rail {rail}");
        }
        assert_eq!(set.hops.len(), set.flows.len(), "{key:?}: every rail keeps its counts");
    }
}
