//! A lazy domain (issue 23's pairs): built by the first call that names it, by no other.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::model::table::Column;

/// A four-node ring whose `pairs` domain (two pairs, `hops` 1 and 3, each on link 0 or 1) is
/// lazy, and how many times it was built.
fn ring_with_lazy_pairs() -> (Run, Arc<AtomicUsize>) {
    let builds = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&builds);
    let network = Network::torus(&["x"], &[4]);
    let links: Vec<i64> = network.links.iter().map(|l| l.id).take(2).collect();
    let traffic = Table::new(
        "traffic",
        Domain::Links,
        "linkid",
        vec!["linkid".into(), "bytes".into()],
        vec![Column::Int(links.clone()), Column::Float(vec![10.0, 20.0])],
    )
    .unwrap();
    let run = Run::new(
        "t",
        network,
        vec![traffic],
        vec![Projection::NodeLink { node_policy: Policy::Both, link_policy: Policy::Both }],
    );
    let build = move || {
        counter.fetch_add(1, Ordering::SeqCst);
        let pairs = Table::new(
            "pairs",
            Domain::Pairs,
            "pairid",
            vec!["pairid".into(), "hops".into(), "bytes".into()],
            vec![Column::Int(vec![0, 1]), Column::Float(vec![1.0, 3.0]), Column::Float(vec![5.0, 6.0])],
        )
        .unwrap();
        let routes = vec![(0, links[0]), (1, links[1])];
        let file =
            Projection::File { name: "routes".into(), from: Domain::Pairs, to: Domain::Links, pairs: routes };
        (vec![pairs], vec![file])
    };
    let lazy = LazyDomain {
        domain: Domain::Pairs,
        attributes: vec!["pairid".into(), "hops".into(), "bytes".into()],
        neighbours: vec![Domain::Links],
        build: Arc::new(build),
    };
    (run.with_lazy_domain(lazy), builds)
}

#[test]
fn calls_that_do_not_name_the_lazy_domain_leave_it_unbuilt() {
    let (run, builds) = ring_with_lazy_pairs();
    assert!(run.is_pending(Domain::Pairs));
    assert_eq!(run.ids(Domain::Links).len(), 8);
    assert_eq!(run.tables().len(), 1);
    // `bytes` is an attribute of both; the links' own table is nearer, found without building.
    assert_eq!(run.table_with(Domain::Links, "bytes"), Some(0));
    assert_eq!(run.distance(Domain::Pairs, Domain::Links), Some(2), "one step past links");
    assert_eq!(run.distance(Domain::Pairs, Domain::Nodes), Some(3));
    let first = HashSet::from([run.ids(Domain::Nodes)[0]]);
    assert!(run.project(Domain::Nodes, &first, Domain::Links).is_some());
    assert!(run.is_pending(Domain::Pairs));
    assert_eq!(builds.load(Ordering::SeqCst), 0);
}

#[test]
fn naming_the_domain_builds_it_once_and_every_call_then_sees_it() {
    let (run, builds) = ring_with_lazy_pairs();
    let hops = run.table_with(Domain::Pairs, "hops").expect("pairs declares hops");
    assert!(!run.is_pending(Domain::Pairs));
    assert_eq!(run.tables()[hops].name, "pairs");
    assert_eq!(hops, 1, "after the run's own tables");
    assert_eq!(run.ids(Domain::Pairs), &[0, 1]);
    let links = run.project(Domain::Pairs, &HashSet::from([1]), Domain::Links).unwrap();
    assert_eq!(links, HashSet::from([run.ids(Domain::Links)[1]]));
    assert_eq!(run.neighbours(Domain::Pairs), vec![Domain::Links]);
    assert_eq!(builds.load(Ordering::SeqCst), 1);
}

#[test]
fn ids_a_projection_onto_it_or_a_clone_build_it_at_most_once() {
    let (run, builds) = ring_with_lazy_pairs();
    let shared = run.clone();
    let link = HashSet::from([run.ids(Domain::Links)[0]]);
    assert_eq!(run.project(Domain::Links, &link, Domain::Pairs), Some(HashSet::from([0])));
    assert!(!shared.is_pending(Domain::Pairs), "a clone shares what was built");
    assert_eq!(shared.ids(Domain::Pairs).len(), 2);
    assert_eq!(builds.load(Ordering::SeqCst), 1);
}
