//! The committed real profile (`tests/data/samplesort-8.ibprof`, regenerate with
//! `tests/data/make-sample-profile.sh`) is well formed and self-consistent.

mod common;

use std::path::Path;

#[test]
fn the_sample_profile_balances_every_sender_with_its_receiver() {
    let p =
        common::read_profile(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/samplesort-8.ibprof"));
    assert_eq!((p.job_ranks, p.ranks.len(), p.source.as_str()), (8, 8, "pmpi"));
    for (&r, rank) in &p.ranks {
        let names: Vec<_> = rank.regions.iter().map(|g| g.name.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["splitters", "exchange", "MPI_Finalize"], "rank {r}");
        // Regions are marked collectively, so what r sent to q by region k is what q got from r.
        for (k, region) in rank.regions.iter().enumerate() {
            for (&q, &(sent, _)) in &region.peers {
                let back = p.ranks[&q].regions[k].peers.get(&r).map_or(0, |&(_, recv)| recv);
                assert_eq!(sent, back, "rank {r} → {q} in region {k}");
            }
        }
    }
}
