//! The ompi-monitoring backend (Open MPI only): with Open MPI's basic linear collective
//! algorithms pinned, the bytes its monitoring PML saw equal the logical bytes pmpi counts.

mod common;

use common::{Mpi, build, read_profile, run_ok, workdir};

/// Pins Open MPI's tuned component to the direct ("basic linear") Alltoall and Bcast.
fn direct_algorithms() -> Vec<(&'static str, String)> {
    vec![
        ("OMPI_MCA_coll_tuned_use_dynamic_rules", "1".into()),
        ("OMPI_MCA_coll_tuned_alltoall_algorithm", "1".into()),
        ("OMPI_MCA_coll_tuned_bcast_algorithm", "1".into()),
    ]
}

fn profile(test: &str, monitoring: bool, selection: Option<&str>) -> common::Profile {
    let dir = workdir(test);
    let mut env = direct_algorithms();
    env.push(("IBPROF_OUT", dir.join("agree.ibprof").display().to_string()));
    if monitoring {
        env.push(("IBPROF_OMPI_MONITORING", "1".into()));
    }
    if let Some(s) = selection {
        env.push(("IBPROF", s.into()));
    }
    run_ok(Mpi::OpenMpi, &build(Mpi::OpenMpi, "agree.c"), &dir, true, &env);
    read_profile(&dir.join("agree.ibprof"))
}

fn counters(p: &common::Profile) -> Vec<Vec<std::collections::BTreeMap<u32, (u64, u64)>>> {
    p.ranks.values().map(|r| r.regions.iter().map(|g| g.peers.clone()).collect()).collect()
}

#[test]
fn with_direct_algorithms_pmpi_and_ompi_monitoring_agree() {
    let pmpi = profile("agree-pmpi", false, None);
    let mon = profile("agree-monitoring", true, None);
    assert_eq!(pmpi.source, "pmpi");
    assert_eq!(mon.source, "ompi-monitoring");
    assert_eq!(counters(&mon), counters(&pmpi));
    let r0 = &mon.ranks[&0].regions[1].peers;
    assert_eq!(
        r0[&1],
        (123 + 400 + 1024, 400 + 1000 + 1024),
        "rank 0 sends the ring message to 1, gets it from 3"
    );
}

#[test]
fn ompi_monitoring_honours_the_collective_selection() {
    let pmpi = profile("agree-pmpi-bcast", false, Some("BCAST"));
    let mon = profile("agree-monitoring-bcast", true, Some("BCAST"));
    assert_eq!(counters(&mon), counters(&pmpi));
    let r1 = &mon.ranks[&1].regions[1].peers;
    assert_eq!(r1.values().copied().collect::<Vec<_>>(), vec![(1000, 0); 3], "only the root's Bcast sends");
}

fn messages(p: &common::Profile) -> Vec<Vec<std::collections::BTreeMap<u32, (u64, u64)>>> {
    p.ranks.values().map(|r| r.regions.iter().map(|g| g.msgs.clone()).collect()).collect()
}

#[test]
fn ompi_monitoring_writes_the_messages_each_peer_sent_and_received() {
    let pmpi = profile("msgs-pmpi", false, None);
    let mon = profile("msgs-monitoring", true, None);
    for rank in mon.ranks.values() {
        for region in &rank.regions {
            let counted: Vec<&u32> = region.msgs.keys().collect();
            assert_eq!(counted, region.peers.keys().collect::<Vec<_>>(), "every peer line has counts");
        }
    }
    assert_eq!(messages(&mon), messages(&pmpi), "one PML message per logical one with linear algorithms");
    // Up to the second region rank 0 sent peer 1 the ring message and two Alltoall blocks, and
    // got two Alltoall blocks and the Bcast from it (the ring message comes from rank 3).
    assert_eq!(mon.ranks[&0].regions[1].msgs[&1], (3, 3));
    assert_eq!(mon.ranks[&0].regions[1].msgs[&3], (2, 3));
}
