//! The PERUSE backend, driven by a test double of the PERUSE library (`tests/mpi/peruse_double.c`)
//! that calls libibprof's real callback with `{src_lid, dst_lid, kind, bytes}` records from
//! inside the collectives it interposes.

#[macro_use]
mod common;

use std::collections::BTreeMap;

use common::{Mpi, RANKS, build_with, fake_sysfs, read_profile, run_ok, workdir};

fn run_double(mpi: Mpi, test: &str, selection: Option<&str>) -> common::Profile {
    let lib_suffix = ".so";
    build_with(mpi, "peruse_double.c", lib_suffix, &["-ldl"]);
    let app = build_with(mpi, "peruse_app.c", "", &["-L{bin}", "-l:peruse_double.so", "-Wl,-rpath,{bin}"]);
    let dir = workdir(&format!("{test}-{}", mpi.tag()));
    let sysfs = fake_sysfs(&dir, &[("mlx5_0", 1, 0x11), ("mlx5_1", 1, 0x21)]);
    let mut env = vec![
        ("IBPROF_OUT", dir.join("peruse.ibprof").display().to_string()),
        ("IBPROF_SYSFS_ROOT", sysfs.display().to_string()),
    ];
    if let Some(s) = selection {
        env.push(("IBPROF", s.to_string()));
    }
    run_ok(mpi, &app, &dir, true, &env);
    read_profile(&dir.join("peruse.ibprof"))
}

type Lids = BTreeMap<(u32, u16), (u64, u64)>;

/// What the double's Alltoall reports on rank `r`: 64 ints to each other rank from port 0, and a
/// 7-byte RDMA read by port 1 from each.
fn alltoall_lids(r: u32) -> Lids {
    let mut m = Lids::new();
    for p in (0..RANKS).filter(|&p| p != r) {
        m.insert((0, 0x100 + p as u16), (256, 0));
        m.insert((1, 0x200 + p as u16), (0, 7));
    }
    m
}

fn records_count_per_local_port_and_remote_lid(mpi: Mpi) {
    let p = run_double(mpi, "peruse", None);
    assert_eq!(p.source, "peruse");
    for (&r, rank) in &p.ranks {
        let ports = &rank.ports;
        assert_eq!(
            ports[..2],
            [
                "port 0 device mlx5_0 portnum 1 guid 0x0002c90300000001 lid 0x0011",
                "port 1 device mlx5_1 portnum 1 guid 0x0002c90300000002 lid 0x0021",
            ]
        );
        assert_eq!(ports[2], "port 2 device unknown guid 0x0000000000000000 lid 0x0099");
        let names: Vec<_> = rank.regions.iter().map(|g| g.name.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["alltoall", "MPI_Finalize"]);
        assert_eq!(rank.regions[0].lids, alltoall_lids(r), "rank {r} after the Alltoall");
        let mut last = alltoall_lids(r);
        if r == 0 {
            for p in 1..RANKS {
                last.insert((1, 0x100 + p as u16), (100, 0));
            }
        }
        last.insert((0, 0x300), (1, 0));
        last.insert((0, 0x400), (1000, 0));
        last.insert((2, 0x500), (5, 0));
        assert_eq!(rank.regions[1].lids, last, "rank {r} at MPI_Finalize");
        assert!(!rank.regions[1].peers.is_empty(), "pmpi peer counters are kept alongside");
    }
}

fn ibprof_keeps_only_records_from_inside_the_named_collectives(mpi: Mpi) {
    let p = run_double(mpi, "peruse-select", Some("ALLTOALL"));
    for (&r, rank) in &p.ranks {
        assert_eq!(rank.ports.len(), 2, "no record from the unknown LID was kept");
        for region in &rank.regions {
            assert_eq!(region.lids, alltoall_lids(r), "rank {r} region {:?}", region.name);
        }
    }
}

on_both_mpis!(records_count_per_local_port_and_remote_lid);
on_both_mpis!(ibprof_keeps_only_records_from_inside_the_named_collectives);
