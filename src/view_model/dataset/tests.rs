//! The data set's tests (kept apart so mod.rs stays under 600 lines).

use super::synthetic::flow_set;
use super::*;
use crate::model::synthetic::TwoLevel;
use crate::routing::accumulate;

#[test]
fn a_synthetic_dataset_routes_every_byte_and_lists_its_regions() {
    let d = Dataset::synthetic(4, 4, 2, 2);
    let f = d.fabric.as_ref().unwrap();
    assert_eq!(f.cluster.hosts.len(), 16);
    for region in f.loads.regions.iter().chain([&f.loads.total]) {
        for rail in &region.rails {
            assert!(rail.is_conserved());
            assert_eq!(rail.undelivered, 0);
        }
    }
    let names: Vec<_> = d.regions().iter().map(|r| (r.number, r.name.clone())).collect();
    assert_eq!(names, [(1, Some("all-to-all".into())), (2, Some("shift".into()))]);
    assert_eq!(d.flows_for(RegionSelection::Cumulative(2), None).len(), 2);
}

/// Two jobs on a 2-leaf tree: md sends host 0 → 3, io host 1 → 3; both end on host 3.
fn two_jobs() -> Dataset {
    let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 2).build()]);
    let job = |name: &str, pairs: &[(usize, usize, u64)], ranks: Vec<(u32, usize)>| {
        let set = flow_set(&cluster, pairs);
        let rails = cluster.rails.iter().zip(&set.flows).map(|(f, fl)| accumulate(f, fl)).collect();
        let total = RegionLoads { rails, ..Default::default() };
        DatasetJob {
            name: name.into(),
            loads: Loads { regions: vec![], total },
            flows: BTreeMap::from([(RegionKey::Region(0), std::sync::Arc::new(set))]),
            rank_hosts: ranks,
            placed: false,
        }
    };
    let md = job("md", &[(0, 3, 10)], vec![(0, 0), (1, 3)]);
    let io = job("io", &[(1, 3, 4)], vec![(0, 1)]);
    let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
    Dataset::with_jobs("two".into(), cluster, layout, vec![md, io], Vec::new())
}

fn bytes_of(d: &Dataset, job: &str) -> Vec<Option<f64>> {
    let rows = [
        crate::view_model::query::Condition::parse("region = -1").unwrap(),
        crate::view_model::query::Condition::parse(&format!("job = {job}")).unwrap(),
    ];
    crate::view_model::query::values(
        &d.run,
        Domain::Links,
        &rows,
        crate::view_model::query::Aggregate::Sum,
        "bytes",
    )
    .unwrap()
}

#[test]
fn a_jobs_region_lists_only_that_jobs_flows_and_all_lists_every_jobs() {
    let d = two_jobs();
    let sources = |job: Option<&str>| -> Vec<u16> {
        let sets = d.flows_for(RegionSelection::Region(0), job);
        sets.iter().flat_map(|s| s.flows.iter().flatten().map(|f| f.src.0)).collect()
    };
    let cluster = &d.fabric.as_ref().unwrap().cluster;
    let lid = |h: usize| cluster.rails[0].node(cluster.hosts[h].on_rail(0)[0]).base_lid().unwrap().0;
    assert_eq!(sources(Some("md")), [lid(0)], "region 0 of md is not region 0 of io");
    assert_eq!(sources(Some("io")), [lid(1)]);
    assert_eq!(sources(Some("all")), [lid(0), lid(1)]);
    assert_eq!(sources(Some("contention")), [lid(0), lid(1)]);
    assert_eq!(sources(None), [lid(0), lid(1)]);
}

#[test]
fn each_job_all_and_contention_are_rows_of_the_traffic_table() {
    let d = two_jobs();
    assert_eq!(d.jobs(), ["md", "io"]);
    let (md, io, all, contention) =
        (bytes_of(&d, "md"), bytes_of(&d, "io"), bytes_of(&d, "all"), bytes_of(&d, "contention"));
    let mut contended = 0;
    for p in 0..md.len() {
        let (m, i) = (md[p].unwrap(), io[p].unwrap());
        assert_eq!(all[p], Some(m + i), "all sums the jobs at {p}");
        if m > 0.0 && i > 0.0 {
            contended += 1;
            assert_eq!(contention[p], Some(4.0), "the second-largest job's bytes");
        } else {
            assert_eq!(contention[p], None, "a single-job end has no contention value (neutral)");
        }
    }
    // Hosts 0 and 1 share leaf 0; D-mod-k sends both to host 3 through one spine: leaf 0's
    // end up, the spine's end down, leaf 1's end into host 3.
    assert_eq!(contended, 3);
}

#[test]
fn ranks_of_jobs_are_numbered_in_turn_and_name_their_job() {
    let d = two_jobs();
    let io_rank = crate::view_model::query::mask(
        &d.run,
        Domain::Ranks,
        &[crate::view_model::query::Condition::parse("job = io").unwrap()],
    )
    .unwrap();
    assert_eq!(io_rank, [false, false, true], "io's rank 0 follows md's two ranks");
    let hosts = d.run.project(Domain::Ranks, &std::collections::HashSet::from([2]), Domain::Nodes).unwrap();
    assert_eq!(hosts, std::collections::HashSet::from([1]));
}

#[test]
fn searching_job_io_highlights_its_ranks_and_so_its_hosts() {
    let d = two_jobs();
    let seeds = crate::view_model::highlight::search(&d, "job io");
    assert_eq!(seeds, [crate::view_model::highlight::Seed::Id { domain: Domain::Ranks, id: 2 }]);
}

#[test]
fn a_view_of_several_jobs_shows_all_and_diffs_two_jobs_like_two_regions() {
    use crate::routing::RegionKey;
    use crate::view_model::view::{ViewSpec, selection_conditions};
    let d = two_jobs();
    let mut spec = ViewSpec::for_dataset(&d);
    let cond = |c: &str| crate::view_model::query::Condition::parse(c).unwrap();
    assert_eq!(selection_conditions(&d, &spec), vec![vec![cond("region = -1"), cond("job = all")]]);
    spec.selection = RegionSelection::Diff(RegionKey::Total, RegionKey::Total);
    spec.job = Some("md".into());
    spec.job_b = Some("io".into());
    let sides = selection_conditions(&d, &spec);
    assert_eq!(sides[0], vec![cond("region = -1"), cond("job = md")]);
    assert_eq!(sides[1], vec![cond("region = -1"), cond("job = io")]);
    assert!(spec.default_title(&d, "fat tree").contains("job md − job io"));
}
