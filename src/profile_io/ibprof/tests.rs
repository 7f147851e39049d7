//! Specifications of the ibprof v1 reader and writer.

use super::*;
use crate::model::{
    Dump, EpochMicros, Guid, Lid, LidBytes, LocalPort, PeerBytes, Profile, ProfileSource, RankSection,
};

const EXAMPLE: &str = r#"ibprof 1
# written by a test
job ranks 2 mpi "Open MPI 4.1.4" source pmpi
rank 0 host n0001 pid 4242 starttime 1700000000.000000
port 0 device mlx5_0 portnum 1 guid 0x0002c90300000101 lid 0x0012 lmc 1
region 1 name "sample sort" dumptime 1700000001.500000
peer 1 sent 4096 recv 2048
lid 0 0x0013 sent 10 recv 20
region 2 name finalize dumptime 1700000009.000000
peer 1 sent 1052672 recv 1050624
rank 1 host "n0002" starttime 1700000000.000001
region 1 dumptime 1700000001.600000
peer 0 sent 2048 recv 4096
"#;

fn parse(text: &str) -> (Profile, Vec<crate::model::Warning>) {
    parse_profile(text, "t.ibprof").unwrap()
}

fn write(profile: &Profile) -> String {
    let mut out = Vec::new();
    write_profile(profile, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_documented_example_reads_field_by_field() {
    let (profile, warnings) = parse(EXAMPLE);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        (profile.job_ranks, profile.mpi.as_deref(), profile.source),
        (2, Some("Open MPI 4.1.4"), Some(ProfileSource::Pmpi))
    );
    let r0 = &profile.ranks[0];
    assert_eq!((r0.rank, r0.host.as_str(), r0.pid), (0, "n0001", Some(4242)));
    assert_eq!(
        r0.ports,
        vec![LocalPort {
            index: 0,
            device: Some("mlx5_0".into()),
            portnum: Some(1),
            guid: Guid(0x0002c90300000101),
            lid: Lid(0x12),
            lmc: 1
        }]
    );
    assert_eq!(r0.dumps.len(), 2);
    assert_eq!(r0.dumps[0].name.as_deref(), Some("sample sort"));
    assert_eq!(r0.dumps[0].dumptime, EpochMicros(1_700_000_001_500_000));
    assert_eq!(r0.dumps[0].lids, vec![LidBytes { port: 0, lid: Lid(0x13), sent: 10, recv: 20 }]);
    assert_eq!(r0.dumps[1].peers, vec![PeerBytes { peer: 1, sent: 1052672, recv: 1050624 }]);
    assert_eq!(profile.ranks[1].starttime, EpochMicros(1_700_000_000_000_001));
}

#[test]
fn parse_write_parse_is_the_identity() {
    let (profile, _) = parse(EXAMPLE);
    let text = write(&profile);
    let (again, warnings) = parse(&text);
    assert!(warnings.is_empty());
    assert_eq!(again, profile);
    assert_eq!(write(&again), text);
}

#[test]
fn strings_with_spaces_quotes_and_hashes_survive_a_round_trip() {
    let profile = Profile {
        job_ranks: 1,
        mpi: Some(r#"MPICH "4.0" #2 \ build"#.into()),
        source: None,
        ranks: vec![RankSection {
            rank: 0,
            host: "host with space".into(),
            starttime: EpochMicros(5),
            dumps: vec![Dump {
                region: 3,
                name: Some(String::new()),
                dumptime: EpochMicros(9),
                ..Default::default()
            }],
            ..Default::default()
        }],
    };
    let (again, warnings) = parse(&write(&profile));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(again, profile);
}

#[test]
fn another_version_or_no_header_is_an_error_not_a_guess() {
    assert!(parse_profile("ibprof 2\njob ranks 1\n", "v2").unwrap_err().to_string().contains("version 2"));
    assert!(parse_profile("rank 0 host a starttime 1\n", "x").unwrap_err().to_string().contains("ibprof 1"));
    assert!(parse_profile("", "empty").is_err());
}

#[test]
fn bad_lines_are_skipped_with_their_line_numbers() {
    let text = "ibprof 1\njob ranks 4\nrank 0 host a starttime 1.0\nregion 1 dumptime 2.0\npeer 1 sent x recv 2\nbogus 1 2\npeer 9 sent 1 recv 1\npeer 2 sent 5 recv 6\nlid 0 zz sent 1 recv 1\n";
    let (profile, warnings) = parse(text);
    let lines: Vec<_> = warnings.iter().map(|w| w.line.unwrap()).collect();
    assert_eq!(lines, vec![5, 6, 7, 9]);
    assert!(warnings[1].message.contains("unknown keyword `bogus`"));
    assert!(warnings[2].message.contains("outside the job's 4 ranks"));
    assert_eq!(profile.ranks[0].dumps[0].peers, vec![PeerBytes { peer: 2, sent: 5, recv: 6 }]);
}

#[test]
fn counters_before_any_region_or_rank_are_named_and_skipped() {
    let text =
        "ibprof 1\njob ranks 2\npeer 1 sent 1 recv 1\nrank 0 host a starttime 1\npeer 1 sent 1 recv 1\n";
    let (_, warnings) = parse(text);
    assert_eq!(warnings.len(), 2);
    assert_eq!(warnings[0].line, Some(3));
    assert_eq!(warnings[1].line, Some(5));
    assert!(warnings[1].message.contains("before the rank's first region"));
}

#[test]
fn a_duplicate_peer_is_added_up_and_reported() {
    let text = "ibprof 1\njob ranks 2\nrank 0 host a starttime 1\nregion 1 dumptime 2\npeer 1 sent 1 recv 2\npeer 1 sent 10 recv 20\n";
    let (profile, warnings) = parse(text);
    assert_eq!(profile.ranks[0].dumps[0].peers, vec![PeerBytes { peer: 1, sent: 11, recv: 22 }]);
    assert_eq!(warnings[0].line, Some(6));
}

#[test]
fn a_rank_line_without_host_skips_its_whole_section_once() {
    let text = "ibprof 1\njob ranks 2\nrank 0 starttime 1\nregion 1 dumptime 2\npeer 1 sent 1 recv 2\nrank 1 host b starttime 1\n";
    let (profile, warnings) = parse(text);
    assert_eq!(profile.ranks.len(), 1);
    assert_eq!(profile.ranks[0].rank, 1);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(3));
}

#[test]
fn regions_out_of_order_are_skipped_with_their_counters() {
    let text = "ibprof 1\njob ranks 2\nrank 0 host a starttime 1\nregion 2 dumptime 2\npeer 1 sent 5 recv 0\nregion 1 dumptime 3\npeer 1 sent 9 recv 0\n";
    let (profile, warnings) = parse(text);
    assert_eq!(profile.ranks[0].dumps.len(), 1);
    assert_eq!(profile.ranks[0].dumps[0].peers[0].sent, 5);
    assert_eq!(warnings.len(), 1);
}

#[test]
fn an_absurd_rank_count_is_refused_without_allocating() {
    let (profile, warnings) = parse("ibprof 1\njob ranks 4000000000\n");
    assert_eq!(profile.job_ranks, 0);
    assert!(warnings[0].message.contains("ranks"));
}

#[test]
fn a_truncated_last_line_loses_only_that_line() {
    let cut = &EXAMPLE[..EXAMPLE.len() - 8]; // "peer 0 sent 2048 re"
    let (profile, warnings) = parse(cut);
    assert_eq!(profile.ranks.len(), 2);
    assert!(profile.ranks[1].dumps[0].peers.is_empty());
    assert_eq!(warnings.len(), 1);
}

#[test]
fn many_ranks_parse_in_parallel_chunks_with_exact_line_numbers() {
    let mut profile = Profile { job_ranks: 3000, ..Default::default() };
    for r in 0..3000 {
        let peers = (0..3).map(|p| PeerBytes { peer: p, sent: u64::from(r), recv: 1 }).collect();
        profile.ranks.push(RankSection {
            rank: r,
            host: format!("n{r}"),
            dumps: vec![Dump { region: 1, peers, ..Default::default() }],
            ..Default::default()
        });
    }
    let mut text = write(&profile);
    text.push_str("peer 99999 sent 1 recv 1\n");
    let lines = text.lines().count();
    let (again, warnings) = parse(&text);
    assert_eq!(again.ranks, profile.ranks);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(lines));
}

#[test]
fn gzip_files_and_directories_of_files_read_as_one_profile() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("shoal-ibprof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (profile, _) = parse(EXAMPLE);
    for rank in &profile.ranks {
        let one = Profile { ranks: vec![rank.clone()], ..profile.clone() };
        let path = dir.join(format!("rank{}.ibprof.gz", rank.rank));
        let mut gz =
            flate2::write::GzEncoder::new(std::fs::File::create(path).unwrap(), flate2::Compression::fast());
        gz.write_all(write(&one).as_bytes()).unwrap();
        gz.finish().unwrap();
    }
    std::fs::write(
        dir.join("rank0-copy.ibprof"),
        write(&Profile { ranks: vec![profile.ranks[0].clone()], ..profile.clone() }),
    )
    .unwrap();
    let (merged, warnings) = read_profile(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(merged, profile);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("rank 0 is also in"));
}

#[test]
fn peer_lines_read_the_same_with_odd_spacing_comments_and_overflow() {
    let text = "ibprof 1\njob ranks 4\nrank 0 host a starttime 1\nregion 1 dumptime 2\npeer 1 sent 5 recv 6\npeer  2\tsent 7 recv 8 # spaced\npeer 3 sent 99999999999999999999 recv 1\n";
    let (profile, warnings) = parse(text);
    assert_eq!(
        profile.ranks[0].dumps[0].peers,
        vec![PeerBytes { peer: 1, sent: 5, recv: 6 }, PeerBytes { peer: 2, sent: 7, recv: 8 }]
    );
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(7));
}
