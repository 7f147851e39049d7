//! The `pairs` domain is traced when something first names it (issue 23): opening a fabric with
//! a profile, and every query that does not name pairs, leave it unbuilt.

use std::path::PathBuf;

use shoal::model::Domain;
use shoal::model::table::Aggregate;
use shoal::view_model::query::{Condition, mask, values};
use shoal::view_model::{Dataset, OpenRequest, RailRequest, open};

fn sample() -> Dataset {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let rails = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
    let request = OpenRequest {
        rails: rails.iter().map(|r| RailRequest { paths: vec![root.join(r)] }).collect(),
        profile: Some(root.join("sample-data/tworail/samplesort.ibprof.gz")),
        ..Default::default()
    };
    open(&request, &|_| {}).expect("the two-rail sample opens")
}

#[test]
fn opening_a_fabric_and_querying_its_links_leave_the_pairs_domain_unbuilt() {
    let d = sample();
    assert!(d.run.is_pending(Domain::Pairs), "opening does not trace the pairs");
    let bytes = values(&d.run, Domain::Links, &[], Aggregate::Sum, "bytes").unwrap();
    assert!(bytes.iter().any(|b| b.is_some_and(|b| b > 0.0)));
    let busy = Condition::parse("bytes > 0").unwrap();
    assert!(mask(&d.run, Domain::Links, &[busy]).unwrap().contains(&true));
    assert!(d.run.is_pending(Domain::Pairs), "`bytes` is the links' own attribute: pairs stay unbuilt");
}

#[test]
fn a_clause_naming_pairs_builds_the_domain_and_filters_by_it() {
    let d = sample();
    let far = Condition::parse("pairs.hops >= 5").unwrap();
    let kept = mask(&d.run, Domain::Links, &[far]).unwrap();
    assert!(!d.run.is_pending(Domain::Pairs));
    assert!(!d.run.ids(Domain::Pairs).is_empty());
    assert!(kept.contains(&true) && kept.contains(&false), "5-hop paths cross some link ends, not all");
}
