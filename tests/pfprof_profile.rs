//! PFProf JSON profiles read as rank-level traffic: the same loads as the same counters written
//! as ibprof, and the format is told by content, not by name. The fixture is synthetic
//! (`scripts/make-pfprof-fixture.py`), laid out as PFProf writes its rank files.

use std::path::PathBuf;

use shoal::model::Profile;
use shoal::profile_io::ibprof::write_profile;
use shoal::profile_io::profiles::read_profile;
use shoal::routing::Loads;
use shoal::view_model::{OpenRequest, open};

/// The loads the testbed takes from `profile`.
fn loads_of(profile: &std::path::Path) -> Loads {
    let request = OpenRequest {
        profile: Some(profile.to_path_buf()),
        ..OpenRequest::of_rails(vec![vec![root().join("sample-data/testbed")]])
    };
    open(&request, &|_| {}).unwrap().fabric.unwrap().loads
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    root().join("tests/fixtures/pfprof")
}

fn sent(r: u64, p: u64) -> u64 {
    if r == p { 0 } else { 1000 * (r + 1) + p }
}

#[test]
fn a_directory_of_rank_files_reads_as_one_profile_of_peer_bytes() {
    let (profile, warnings) = read_profile(&fixture()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!((profile.job_ranks, profile.ranks.len()), (8, 8));
    let r3 = &profile.ranks[3];
    assert_eq!((r3.rank, r3.host.as_str()), (3, "n0002"));
    let peers = &r3.dumps[0].peers;
    assert_eq!(peers.len(), 7);
    for p in peers {
        assert_eq!((p.sent, p.recv), (sent(3, u64::from(p.peer)), sent(u64::from(p.peer), 3)));
    }
    // One message each way per peer. Sent: 4000..=4007 bytes, all in bin 11 (2048..=4095);
    // received: 1003 (bin 9), 2003 (10), 3003 (11), 5003..=8003 (12).
    let dump = &r3.dumps[0];
    assert!(dump.messages.iter().all(|m| (m.sent, m.recv) == (1, 1)), "{:?}", dump.messages);
    assert_eq!(dump.messages.len(), 7);
    let bins: Vec<_> = dump.sizes.iter().map(|b| (b.bin, b.sent, b.recv)).collect();
    assert_eq!(bins, vec![(9, 0, 1), (10, 0, 1), (11, 7, 1), (12, 0, 4)]);
}

#[test]
fn pfprof_loads_equal_the_same_counters_written_as_ibprof_and_every_byte_is_delivered() {
    let from_json = loads_of(&fixture());
    let (profile, _): (Profile, _) = read_profile(&fixture()).unwrap();
    let dir = std::env::temp_dir().join(format!("shoal-pfprof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ibprof = dir.join("same.ibprof");
    write_profile(&profile, &mut std::fs::File::create(&ibprof).unwrap()).unwrap();
    let from_text = loads_of(&ibprof);
    let (a, b) = (&from_json, &from_text);
    assert_eq!(a.total.rails[0].bytes, b.total.rails[0].bytes);
    let rail = &a.total.rails[0];
    // Ranks 2h and 2h+1 share a host: only bytes between hosts enter the fabric.
    let between_hosts: u64 = (0..8)
        .flat_map(|r| (0..8).map(move |p| (r, p)))
        .filter(|(r, p)| r / 2 != p / 2)
        .map(|(r, p)| sent(r, p))
        .sum();
    assert_eq!((rail.injected, rail.delivered, rail.undelivered), (between_hosts, between_hosts, 0));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_format_is_told_by_content_whatever_the_name() {
    let dir = std::env::temp_dir().join(format!("shoal-pfprof-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let renamed = dir.join("rank0.ibprof");
    std::fs::copy(fixture().join("oxton-result0.json"), &renamed).unwrap();
    let (profile, warnings) = read_profile(&renamed).unwrap();
    assert_eq!(profile.ranks.len(), 1);
    assert!(warnings.iter().any(|w| w.message.contains("7 of 8 ranks have no file")), "{warnings:?}");
    let ibprof = root().join("sample-data/testbed/alltoall.ibprof");
    let renamed = dir.join("alltoall.json");
    std::fs::copy(&ibprof, &renamed).unwrap();
    assert_eq!(read_profile(&renamed).unwrap().0, read_profile(&ibprof).unwrap().0);
    std::fs::remove_dir_all(dir).unwrap();
}
