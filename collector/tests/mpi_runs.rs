//! Real MPI jobs (4 ranks on shared memory) with libibprof preloaded, under Open MPI and MPICH.
//! `tests/mpi/exact.c` moves known byte counts; [`model`] lists them, transfer by transfer.

#[macro_use]
mod common;

use std::collections::BTreeMap;

use common::{Mpi, RANKS, build, libibprof, parse_profile, read_profile, run_ok, workdir};

/// One logical transfer of exact.c: `bytes` from world rank `from` to `to`.
#[derive(Clone, Copy, Debug)]
struct Transfer {
    region: usize,
    kind: &'static str,
    from: u32,
    to: u32,
    bytes: u64,
}

/// The regions exact.c dumps, in order.
const REGIONS: [&str; 6] =
    ["p2p", "collectives", "subcomms", "nonblocking", "MPI_Pcontrol(1)", "MPI_Finalize"];

/// Every transfer exact.c makes on `n` ranks, as the pmpi backend must count it.
fn model(n: u32) -> Vec<Transfer> {
    let mut v = Vec::new();
    let mut add = |region: usize, kind: &'static str, from: u32, to: u32, bytes: u64| {
        if bytes > 0 {
            v.push(Transfer { region, kind, from, to, bytes });
        }
    };
    let pairs = || (0..n).flat_map(move |s| (0..n).filter(move |&d| d != s).map(move |d| (s, d)));
    for r in 0..n {
        let (right, left, partner) = ((r + 1) % n, (r + n - 1) % n, r ^ 1);
        add(0, "P2P", r, right, 1000);
        add(0, "P2P", r, left, 2000);
        add(0, "P2P", r, partner, 300);
        for _ in 0..3 {
            add(0, "P2P", r, right, 50); // a persistent send started three times
        }
        add(0, "P2P", r, r, 10);
        add(0, "P2P", r, right, 64);
        add(0, "P2P", r, right, 16);
    }
    for (s, d) in pairs() {
        let (s64, d64) = (s as u64, d as u64);
        add(1, "ALLTOALL", s, d, 400);
        add(1, "ALLTOALL", s, d, 200);
        add(1, "ALLREDUCE", s, d, 32);
        add(1, "ALLGATHER", s, d, 12);
        add(1, "ALLGATHER", s, d, 8); // 2 MPI_INT sent, 8 MPI_BYTE received
        add(1, "ALLGATHERV", s, d, s64 + 1);
        add(1, "ALLTOALLV", s, d, s64 + 2 * d64 + 1);
        add(1, "ALLTOALLW", s, d, (d64 + 1) * if d % 2 == 1 { 2 } else { 4 });
        add(1, "REDUCE_SCATTER_BLOCK", s, d, 20);
        add(1, "REDUCE_SCATTER", s, d, 4 * (d64 + 1));
        if d > s {
            add(1, "SCAN", s, d, 8);
            add(1, "EXSCAN", s, d, 8);
        }
        if s == 1 {
            add(1, "BCAST", s, d, 1024);
            add(1, "SCATTERV", s, d, 2 * d64 + 1);
        }
        if d == 2 {
            add(1, "REDUCE", s, d, 128);
        }
        if d == 0 {
            add(1, "GATHER", s, d, 16);
            add(5, "GATHER", s, d, 8);
        }
        if d == 3 {
            add(1, "GATHERV", s, d, 4 * (s64 + 1));
        }
        if s == 0 {
            add(1, "SCATTER", s, d, 8);
            add(2, "BCAST", s, d, 32);
        }
        if s % 2 == d % 2 {
            add(2, "ALLTOALL", s, d, 64);
        }
        add(3, "ALLTOALL", s, d, 50);
        add(3, "ALLREDUCE", s, d, 24);
        if s == 3 {
            add(3, "BCAST", s, d, 77);
        }
    }
    add(2, "P2P", 0, 2, 7);
    add(2, "P2P", 1, 3, 7);
    v
}

/// `(sent, recv)` per peer of `rank`, cumulative up to and including `region`, nonzero only.
fn expected(
    transfers: &[Transfer],
    rank: u32,
    region: usize,
    kinds: Option<&[&str]>,
) -> BTreeMap<u32, (u64, u64)> {
    let mut m: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    let selected = |t: &Transfer| t.region <= region && kinds.is_none_or(|k| k.contains(&t.kind));
    for t in transfers.iter().filter(|t| selected(t)) {
        if t.from == rank {
            m.entry(t.to).or_default().0 += t.bytes;
        }
        if t.to == rank {
            m.entry(t.from).or_default().1 += t.bytes;
        }
    }
    m.retain(|_, v| *v != (0, 0));
    m
}

/// Messages `(sent, recv)` per peer of `rank`, and per size bin, cumulative up to and including
/// `region`: every transfer of the model is one message.
#[allow(clippy::type_complexity)]
fn expected_messages(
    transfers: &[Transfer],
    rank: u32,
    region: usize,
    kinds: Option<&[&str]>,
) -> (BTreeMap<u32, (u64, u64)>, BTreeMap<u32, (u64, u64)>) {
    let (mut peers, mut sizes): (BTreeMap<u32, (u64, u64)>, BTreeMap<u32, (u64, u64)>) = Default::default();
    let selected = |t: &Transfer| t.region <= region && kinds.is_none_or(|k| k.contains(&t.kind));
    for t in transfers.iter().filter(|t| selected(t)) {
        let bin = ibprof_format::size_bin(t.bytes).expect("the model has no empty transfers");
        if t.from == rank {
            peers.entry(t.to).or_default().0 += 1;
            sizes.entry(bin).or_default().0 += 1;
        }
        if t.to == rank {
            peers.entry(t.from).or_default().1 += 1;
            sizes.entry(bin).or_default().1 += 1;
        }
    }
    (peers, sizes)
}

fn check_exact(profile: &common::Profile, kinds: Option<&[&str]>) {
    let transfers = model(RANKS);
    assert_eq!(profile.job_ranks, RANKS);
    assert_eq!(profile.ranks.len(), RANKS as usize);
    for (&r, rank) in &profile.ranks {
        let names: Vec<_> = rank.regions.iter().map(|g| g.name.as_deref().unwrap_or("")).collect();
        assert_eq!(names, REGIONS, "rank {r} regions");
        for (i, region) in rank.regions.iter().enumerate() {
            assert_eq!(region.number, i as u32);
            assert_eq!(region.peers, expected(&transfers, r, i, kinds), "rank {r} region {:?}", REGIONS[i]);
            let (msgs, sizes) = expected_messages(&transfers, r, i, kinds);
            assert_eq!(region.msgs, msgs, "messages of rank {r} region {:?}", REGIONS[i]);
            assert_eq!(region.sizes, sizes, "size bins of rank {r} region {:?}", REGIONS[i]);
        }
    }
}

fn exact_env(dir: &std::path::Path) -> Vec<(&'static str, String)> {
    vec![("IBPROF_OUT", dir.join("exact.ibprof").display().to_string())]
}

fn every_call_family_counts_the_exact_bytes_per_region(mpi: Mpi) {
    let dir = workdir(&format!("exact-{}", mpi.tag()));
    run_ok(mpi, &build(mpi, "exact.c"), &dir, true, &exact_env(&dir));
    let p = read_profile(&dir.join("exact.ibprof"));
    assert_eq!(p.source, "pmpi");
    check_exact(&p, None);
}
on_both_mpis!(every_call_family_counts_the_exact_bytes_per_region);

fn regions_are_cumulative_and_monotone(mpi: Mpi) {
    let dir = workdir(&format!("monotone-{}", mpi.tag()));
    run_ok(mpi, &build(mpi, "exact.c"), &dir, true, &exact_env(&dir));
    for (r, rank) in read_profile(&dir.join("exact.ibprof")).ranks {
        for pair in rank.regions.windows(2) {
            for (peer, &(s0, r0)) in &pair[0].peers {
                let (s1, r1) = pair[1].peers.get(peer).copied().unwrap_or_default();
                assert!(
                    s1 >= s0 && r1 >= r0,
                    "rank {r} peer {peer} shrank from {:?} to {:?}",
                    pair[0].name,
                    pair[1].name
                );
            }
        }
        let growth = rank.regions.windows(2).filter(|w| w[0].peers != w[1].peers).count();
        assert!(growth >= 3, "rank {r}: regions should differ, got {growth} changes");
    }
}
on_both_mpis!(regions_are_cumulative_and_monotone);

fn profiling_does_not_change_the_results(mpi: Mpi) {
    let exe = build(mpi, "exact.c");
    let dir = workdir(&format!("results-{}", mpi.tag()));
    let plain = run_ok(mpi, &exe, &dir, false, &[]);
    let profiled = run_ok(mpi, &exe, &dir, true, &exact_env(&dir));
    let checksums = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(checksums(&plain).lines().filter(|l| l.starts_with("checksum")).count(), RANKS as usize);
    assert_eq!(checksums(&plain), checksums(&profiled));
}
on_both_mpis!(profiling_does_not_change_the_results);

fn ibprof_selects_only_the_named_collectives(mpi: Mpi) {
    let dir = workdir(&format!("select-{}", mpi.tag()));
    let mut env = exact_env(&dir);
    env.push(("IBPROF", "ALLTOALL,BCAST".into()));
    run_ok(mpi, &build(mpi, "exact.c"), &dir, true, &env);
    check_exact(&read_profile(&dir.join("exact.ibprof")), Some(&["ALLTOALL", "BCAST"]));
}
on_both_mpis!(ibprof_selects_only_the_named_collectives);

fn the_gathered_file_is_the_per_rank_files_concatenated(mpi: Mpi) {
    let dir = workdir(&format!("perrank-{}", mpi.tag()));
    let mut env = exact_env(&dir);
    env.push(("IBPROF_PER_RANK", "1".into()));
    run_ok(mpi, &build(mpi, "exact.c"), &dir, true, &env);
    let gathered = std::fs::read_to_string(dir.join("exact.ibprof")).expect("gathered file");
    let mut header = String::new();
    let mut sections = String::new();
    for r in 0..RANKS {
        let text = std::fs::read_to_string(dir.join(format!("exact.rank{r}.ibprof"))).expect("per-rank file");
        let (head, body) = text.split_at(text.find("\nrank ").expect("rank line") + 1);
        if r == 0 {
            header = head.to_string();
        }
        assert_eq!(head, header, "every per-rank file has the same header");
        sections.push_str(body);
    }
    assert_eq!(gathered, header + &sections);
    assert_eq!(parse_profile(&gathered).ranks.len(), RANKS as usize);
}
on_both_mpis!(the_gathered_file_is_the_per_rank_files_concatenated);

fn a_missing_output_directory_is_a_message_not_a_crash(mpi: Mpi) {
    let dir = workdir(&format!("nodir-{}", mpi.tag()));
    let env = vec![("IBPROF_OUT", dir.join("no/such/dir/x.ibprof").display().to_string())];
    let out = run_ok(mpi, &build(mpi, "exact.c"), &dir, true, &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ibprof: cannot write profile"), "stderr: {stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with("checksum")).count(), 4);
}
on_both_mpis!(a_missing_output_directory_is_a_message_not_a_crash);

fn threads_counting_at_once_lose_no_bytes(mpi: Mpi) {
    let dir = workdir(&format!("threads-{}", mpi.tag()));
    let env = vec![("IBPROF_OUT", dir.join("threads.ibprof").display().to_string())];
    run_ok(mpi, &build(mpi, "threads.c"), &dir, true, &env);
    let p = read_profile(&dir.join("threads.ibprof"));
    // threads.c: 4 threads × 50 rounds of 100 B to the right neighbour and of a 16 B-per-peer
    // Alltoall on each thread's own communicator; MPI_Finalize is the only dump.
    let (threads, rounds) = (4u64, 50u64);
    for (&r, rank) in &p.ranks {
        let last = rank.regions.last().expect("final dump");
        for peer in (0..RANKS).filter(|&q| q != r) {
            let mut want = (threads * rounds * 16, threads * rounds * 16);
            if peer == (r + 1) % RANKS {
                want.0 += threads * rounds * 100;
            }
            if peer == (r + RANKS - 1) % RANKS {
                want.1 += threads * rounds * 100;
            }
            assert_eq!(last.peers.get(&peer).copied(), Some(want), "rank {r} peer {peer}");
        }
    }
}
on_both_mpis!(threads_counting_at_once_lose_no_bytes);

#[test]
fn the_collector_library_is_built_before_these_tests() {
    assert!(libibprof().metadata().map(|m| m.len() > 0).unwrap_or(false));
}

fn fortran_programs_are_counted_too(mpi: Mpi) {
    let lib = libibprof();
    let deps = lib.parent().expect("deps dir").display().to_string();
    let exe = common::build_with(
        mpi,
        "fortran.f90",
        "",
        // DT_RPATH (old tags), not DT_RUNPATH: cargo's LD_LIBRARY_PATH names target/debug first,
        // where an older libibprof.so may sit, and a second copy beside the preloaded one would
        // take the Fortran calls.
        &[&format!("-L{deps}"), "-l:libibprof.so", "-Wl,--disable-new-dtags", &format!("-Wl,-rpath,{deps}")],
    );
    let dir = workdir(&format!("fortran-{}", mpi.tag()));
    run_ok(mpi, &exe, &dir, true, &[("IBPROF_OUT", dir.join("f.ibprof").display().to_string())]);
    let p = read_profile(&dir.join("f.ibprof"));
    let mut transfers = Vec::new();
    for r in 0..RANKS {
        transfers.push(Transfer { region: 0, kind: "P2P", from: r, to: (r + 1) % RANKS, bytes: 400 });
        transfers.push(Transfer { region: 0, kind: "P2P", from: r, to: (r + RANKS - 1) % RANKS, bytes: 120 });
        for d in (0..RANKS).filter(|&d| d != r) {
            transfers.push(Transfer { region: 1, kind: "ALLTOALL", from: r, to: d, bytes: 40 + 20 });
            transfers.push(Transfer { region: 1, kind: "ALLREDUCE", from: r, to: d, bytes: 12 });
            if r == 2 {
                transfers.push(Transfer { region: 1, kind: "BCAST", from: r, to: d, bytes: 256 });
            }
        }
    }
    for (&r, rank) in &p.ranks {
        let names: Vec<_> = rank.regions.iter().map(|g| g.name.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["p2p", "MPI_Pcontrol(1)", "MPI_Finalize"], "rank {r}");
        for (i, region) in rank.regions.iter().enumerate() {
            assert_eq!(region.peers, expected(&transfers, r, i.min(1), None), "rank {r} region {i}");
        }
    }
}
on_both_mpis!(fortran_programs_are_counted_too);
