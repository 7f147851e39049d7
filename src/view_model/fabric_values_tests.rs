//! The loads road and the rows road give one answer: for random view specs (job, region, diff,
//! colour-by, aggregate), the values, sides and masks a clause-free view reads from the loads
//! equal those the query engine aggregates when a no-op clause forces it to scan the rows.

use proptest::prelude::*;

use super::*;
use crate::model::Cluster;
use crate::model::synthetic::TwoLevel;
use crate::routing::RegionKey;
use crate::view_model::colour_choice::ColourMap;
use crate::view_model::dataset::{ALL_JOBS, CONTENTION, HostBytes};
use crate::view_model::filter::Clause;
use crate::view_model::prepare::{LayoutChoice, prepare};
use crate::view_model::values::RegionSelection;

/// A clause every link and node passes: it only forces the rows road.
fn no_op() -> Filter {
    Filter { clauses: vec![Clause::parse("level >= -1").unwrap()], ..Filter::default() }
}

fn cluster(rails: usize) -> Cluster {
    let fabrics = (0..rails)
        .map(|r| TwoLevel::new(3, 2, 2).rail(crate::model::RailId(r as u8), (r as u64) << 32).build());
    Cluster::new(fabrics.collect())
}

fn traffic(hosts: usize) -> impl Strategy<Value = Vec<HostBytes>> {
    proptest::collection::vec((0..hosts, 0..hosts, 1u64..5_000), 0..6)
        .prop_map(|pairs| pairs.into_iter().filter(|(s, d, _)| s != d).collect())
}

/// One profile, or two or three jobs, each with one to three regions.
fn dataset() -> impl Strategy<Value = Dataset> {
    let hosts = 6;
    (1usize..=2, 0usize..=3, proptest::collection::vec(proptest::collection::vec(traffic(hosts), 1..=3), 3))
        .prop_map(|(rails, jobs, regions)| {
            let cluster = cluster(rails);
            if jobs < 2 {
                let named =
                    regions[0].iter().enumerate().map(|(i, r)| (format!("r{i}"), r.clone())).collect();
                return Dataset::from_host_traffic("one".into(), cluster, named);
            }
            let jobs =
                regions.into_iter().take(jobs).enumerate().map(|(k, r)| (format!("j{k}"), r)).collect();
            Dataset::from_job_traffic("jobs".into(), cluster, jobs)
        })
}

fn key(n: u32) -> RegionKey {
    if n == 0 { RegionKey::Total } else { RegionKey::Region(n) }
}

fn selection() -> impl Strategy<Value = RegionSelection> {
    prop_oneof![
        Just(RegionSelection::Total),
        (1u32..=3).prop_map(RegionSelection::Region),
        (1u32..=3).prop_map(RegionSelection::Cumulative),
        (1u32..=3, 1u32..=3).prop_map(|(a, b)| RegionSelection::Window(a, b)),
        (0u32..=3, 0u32..=3).prop_map(|(a, b)| RegionSelection::Diff(key(a), key(b))),
    ]
}

fn job() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("j0".to_string())),
        Just(Some("j2".to_string())),
        Just(Some(ALL_JOBS.to_string())),
        Just(Some(CONTENTION.to_string())),
    ]
}

fn spec() -> impl Strategy<Value = ViewSpec> {
    let link = prop_oneof![Just(Some("bytes".to_string())), Just(None)];
    let node = prop_oneof![
        Just(Some("bytes_sent".to_string())),
        Just(Some("bytes_received".to_string())),
        Just(None)
    ];
    let rows =
        prop_oneof![Just(Aggregate::Sum), Just(Aggregate::Mean), Just(Aggregate::Max), Just(Aggregate::Min)];
    (selection(), job(), job(), link, node, rows).prop_map(|(selection, job, job_b, link, node, rows)| {
        ViewSpec {
            selection,
            job,
            job_b,
            link_attribute: link,
            node_attribute: node,
            rows,
            link_map: ColourMap::Copper,
            ..ViewSpec::default()
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_clause_free_view_reads_from_the_loads_what_the_rows_say(d in dataset(), spec in spec()) {
        prop_assert!(fabric_values(&d, &spec, &Filter::default()).is_some(), "the loads road is taken");
        let fast = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d));
        let rows = prepare(&d, &spec, &no_op(), &LayoutChoice::natural(&d));
        match (fast, rows) {
            (Ok(fast), Ok(rows)) => {
                prop_assert_eq!(&fast.link_values, &rows.link_values);
                prop_assert_eq!(&fast.node_values, &rows.node_values);
                prop_assert_eq!(&fast.link_sides, &rows.link_sides);
                prop_assert_eq!(&fast.link_pass, &rows.link_pass);
                prop_assert_eq!(&fast.node_pass, &rows.node_pass);
                prop_assert_eq!(fast.link_range, rows.link_range);
                prop_assert_eq!(fast.node_range, rows.node_range);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "one road failed: {:?} / {:?}", a.err(), b.err()),
        }
    }
}

#[test]
fn a_jobs_view_colours_that_jobs_bytes_not_every_jobs() {
    let d = Dataset::from_job_traffic(
        "jobs".into(),
        cluster(1),
        vec![("a".into(), vec![vec![(0, 5, 1000)]]), ("b".into(), vec![vec![(1, 4, 7)]])],
    );
    let f = d.fabric.as_ref().unwrap();
    let spec = ViewSpec { job: Some("b".into()), ..ViewSpec::for_dataset(&d) };
    let values = fabric_values(&d, &spec, &Filter::default()).unwrap();
    let b_total = &f.jobs[1].loads.total.rails[0].bytes.to_dense();
    let expected: Vec<Option<f64>> = b_total.iter().map(|&x| Some(x as f64)).collect();
    assert_eq!(values.links, expected);
    assert_eq!(values.links.iter().flatten().fold(0.0f64, |m, &v| m.max(v)), 7.0);
}

#[test]
fn a_contention_view_leaves_single_job_ends_without_a_value() {
    // Both jobs leave host 0's leaf; only one job's bytes reach host 4 and host 5.
    let d = Dataset::from_job_traffic(
        "jobs".into(),
        cluster(1),
        vec![("a".into(), vec![vec![(0, 5, 1000)]]), ("b".into(), vec![vec![(0, 4, 7)]])],
    );
    let spec = ViewSpec { job: Some(CONTENTION.into()), ..ViewSpec::for_dataset(&d) };
    let values = fabric_values(&d, &spec, &Filter::default()).unwrap();
    let valued: Vec<f64> = values.links.iter().flatten().copied().collect();
    assert!(!valued.is_empty(), "the shared host link has the smaller job's bytes");
    assert!(valued.iter().all(|&v| v == 7.0), "{valued:?}");
    assert!(values.links.iter().any(Option::is_none), "single-job ends have no value");
    assert!(values.link_pass.iter().all(|&p| p), "but they are drawn (neutral)");
}
