//! Specifications of the ibprof v1 reader and writer on text. Files, gzip and directories are
//! tested in `tests/ibprof_files.rs`.

use super::*;
use crate::model::{
    Dump, EpochMicros, Guid, Lid, LidBytes, LocalPort, PeerBytes, PeerMessages, ProfileSource, RankSection,
    SizeCounts,
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

fn parse(text: &str) -> (Profile, Vec<Warning>) {
    parse_profile(text, "t.ibprof").unwrap()
}

fn write(profile: &Profile) -> String {
    let mut out = Vec::new();
    write_profile(profile, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// A small valid profile with one rank and region, then `body` appended inside that region.
fn with_body(body: &str) -> String {
    format!(
        "ibprof 1\njob ranks 4\nrank 0 host a starttime 1\nport 0 guid 0x1 lid 0x2\nregion 1 dumptime 2\n{body}"
    )
}

/// The (line, message) of each warning.
fn lines(warnings: &[Warning]) -> Vec<(Option<usize>, &str)> {
    warnings.iter().map(|w| (w.line, w.message.as_str())).collect()
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
    let port = LocalPort {
        index: 0,
        device: Some("mlx5_0".into()),
        portnum: Some(1),
        guid: Guid(0x0002c90300000101),
        lid: Lid(0x12),
        lmc: 1,
    };
    assert_eq!(r0.ports, vec![port]);
    assert_eq!(r0.dumps.len(), 2);
    assert_eq!(r0.dumps[0].name.as_deref(), Some("sample sort"));
    assert_eq!(r0.dumps[0].dumptime, EpochMicros(1_700_000_001_500_000));
    assert_eq!(r0.dumps[0].lids, vec![LidBytes { port: 0, lid: Lid(0x13), sent: 10, recv: 20 }]);
    assert_eq!(r0.dumps[1].peers, vec![PeerBytes { peer: 1, sent: 1052672, recv: 1050624 }]);
    let r1 = &profile.ranks[1];
    assert_eq!((r1.host.as_str(), r1.pid, r1.starttime), ("n0002", None, EpochMicros(1_700_000_000_000_001)));
    assert_eq!(r1.dumps[0].name, None);
}

#[test]
fn parse_write_parse_is_the_identity() {
    let (profile, _) = parse(EXAMPLE);
    let text = write(&profile);
    let (again, warnings) = parse(&text);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(again, profile);
    assert_eq!(write(&again), text);
}

#[test]
fn strings_with_spaces_quotes_escapes_and_line_ends_survive_a_round_trip() {
    let profile = Profile {
        job_ranks: 2,
        mpi: Some(r#"MPICH "4.0" #2 \ build"#.into()),
        source: Some(ProfileSource::OmpiMonitoring),
        ranks: vec![RankSection {
            rank: 1,
            host: "host with space\tand tab".into(),
            pid: None,
            starttime: EpochMicros(-5),
            ports: vec![LocalPort {
                index: 3,
                device: Some("multi\nline\r".into()),
                portnum: None,
                guid: Guid(u64::MAX),
                lid: Lid(0xbfff),
                lmc: 7,
            }],
            dumps: vec![Dump {
                region: 3,
                name: Some(String::new()),
                dumptime: EpochMicros(9),
                peers: vec![PeerBytes { peer: 0, sent: u64::MAX, recv: 0 }],
                lids: vec![LidBytes { port: 3, lid: Lid(0xffff), sent: 1, recv: u64::MAX }],
                ..Default::default()
            }],
        }],
    };
    let text = write(&profile);
    let (again, warnings) = parse(&text);
    assert!(warnings.is_empty(), "{warnings:?}\n{text}");
    assert_eq!(again, profile);
}

#[test]
fn the_writer_leaves_out_absent_optional_fields() {
    let profile = Profile {
        job_ranks: 1,
        ranks: vec![RankSection {
            host: "h".into(),
            ports: vec![LocalPort { guid: Guid(1), lid: Lid(2), ..Default::default() }],
            dumps: vec![Dump { region: 1, ..Default::default() }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let text = write(&profile);
    assert_eq!(
        text,
        "ibprof 1\njob ranks 1\nrank 0 host h starttime 0.000000\nport 0 guid 0x0000000000000001 lid 0x0002\n\
         region 1 dumptime 0.000000\n"
    );
    assert_eq!(parse(&text).0, profile);
}

#[test]
fn comments_blank_lines_tabs_and_crlf_are_all_fine() {
    let text = "# head\r\n\r\nibprof 1 # v1\r\njob\tranks 2\r\n# between\r\nrank 0 host a starttime 1 # c\r\n\
                region 1 dumptime 2\r\n  peer 1 sent 3 recv 4\r\npeer  0   sent 1 recv 1 # self\r\n";
    let (profile, warnings) = parse(text);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(profile.ranks[0].dumps[0].peers.len(), 2);
    assert_eq!(profile.ranks[0].dumps[0].peers[0], PeerBytes { peer: 1, sent: 3, recv: 4 });
}

#[test]
fn another_version_or_no_header_is_an_error_not_a_guess() {
    let err = |text: &str| parse_profile(text, "x.ibprof").unwrap_err().to_string();
    assert_eq!(
        err("ibprof 2\njob ranks 1\n"),
        "x.ibprof:1: ibprof format version 2 is not supported (this reader knows version 1)"
    );
    assert_eq!(
        err("# c\n\nrank 0 host a starttime 1\n"),
        "x.ibprof:3: not an ibprof profile: a `rank` line before the `ibprof 1` header"
    );
    assert!(err("job ranks 2\nibprof 1\n").starts_with("x.ibprof:1: not an ibprof profile"));
    assert!(err("ibprof\n").contains("without a version"));
    assert_eq!(err(""), "x.ibprof: empty profile: no `ibprof 1` header line");
    assert_eq!(err("# only comments\n"), "x.ibprof: empty profile: no `ibprof 1` header line");
}

#[test]
fn bad_lines_are_skipped_with_their_line_numbers() {
    let text = with_body(
        "peer 1 sent x recv 2\nbogus 1 2\npeer 9 sent 1 recv 1\npeer 2 sent 5 recv 6\nlid 0 zz sent 1 recv 1\n\
         lid 5 0x3 sent 1 recv 1\npeer 3 sent 1\npeer 3 sent 1 recv 1 colour red\n",
    );
    let (profile, warnings) = parse(&text);
    assert_eq!(
        lines(&warnings),
        [
            (Some(6), "peer line: bad or missing `sent` count `x`; line skipped"),
            (Some(7), "unknown keyword `bogus`; line skipped"),
            (Some(8), "peer 9 is not a rank of this job (4 ranks); line skipped"),
            (Some(10), "bad lid `zz`; line skipped"),
            (Some(11), "lid line on port 5, which rank 0 did not declare; skipped"),
            (Some(12), "peer line: bad or missing `recv` count `(missing)`; line skipped"),
            (Some(13), "peer line: unknown field `colour` ignored"),
        ]
    );
    let peers = &profile.ranks[0].dumps[0].peers;
    assert_eq!(peers, &[PeerBytes { peer: 2, sent: 5, recv: 6 }, PeerBytes { peer: 3, sent: 1, recv: 1 }]);
}

#[test]
fn lines_that_need_a_rank_or_a_region_are_named_and_skipped() {
    let text = "ibprof 1\njob ranks 2\npeer 1 sent 1 recv 1\nport 0 guid 0x1 lid 0x1\nregion 1 dumptime 1\n\
                rank 0 host a starttime 1\npeer 1 sent 1 recv 1\nlid 0 0x1 sent 1 recv 1\n";
    let (_, warnings) = parse(text);
    assert_eq!(
        lines(&warnings),
        [
            (Some(3), "peer line before the first rank line; skipped"),
            (Some(4), "port line before the first rank line; skipped"),
            (Some(5), "region line before the first rank line; skipped"),
            (Some(7), "peer line before rank 0's first region line; skipped"),
            (Some(8), "lid line before rank 0's first region line; skipped"),
        ]
    );
}

#[test]
fn lines_out_of_place_are_skipped_with_a_reason() {
    let text = with_body("port 1 guid 0x5 lid 0x6\njob ranks 4\njob ranks 5\nibprof 1\n");
    let (profile, warnings) = parse(&text);
    assert_eq!(
        lines(&warnings),
        [
            (Some(6), "port line after region 1; ports come before the regions; skipped"),
            (Some(8), "job line differs from the one on line 2; ignored (keeping the first)"),
        ]
    );
    assert_eq!(profile.ranks[0].ports.len(), 1);
    assert_eq!(profile.job_ranks, 4);
}

#[test]
fn a_duplicate_peer_or_lid_is_added_up_and_reported_even_out_of_order() {
    let text = with_body(
        "peer 1 sent 1 recv 2\npeer 3 sent 1 recv 1\npeer 1 sent 10 recv 20\nlid 0 0x9 sent 1 recv 0\n\
         lid 0 0x9 sent 2 recv 0\n",
    );
    let (profile, warnings) = parse(&text);
    let dump = &profile.ranks[0].dumps[0];
    assert_eq!(
        dump.peers,
        [PeerBytes { peer: 1, sent: 11, recv: 22 }, PeerBytes { peer: 3, sent: 1, recv: 1 }]
    );
    assert_eq!(dump.lids, [LidBytes { port: 0, lid: Lid(9), sent: 3, recv: 0 }]);
    assert_eq!(
        lines(&warnings),
        [
            (Some(8), "peer 1 appears twice in region 1; the counts are summed"),
            (Some(10), "lid 0 0x0009 appears twice in region 1; the counts are summed"),
        ]
    );
}

#[test]
fn a_bad_rank_line_skips_its_whole_section_with_one_counted_warning() {
    let text = "ibprof 1\njob ranks 2\nrank 0 starttime 1\nregion 1 dumptime 2\npeer 1 sent 1 recv 2\n\
                rank 7 host b starttime 1\npeer 1 sent 1 recv 1\nrank 1 host b starttime 1\n";
    let (profile, warnings) = parse(text);
    assert_eq!(profile.ranks.iter().map(|r| r.rank).collect::<Vec<_>>(), [1]);
    assert_eq!(
        lines(&warnings),
        [
            (Some(3), "rank line without `host`; this rank's section is skipped (2 lines skipped with it)"),
            (
                Some(6),
                "rank 7 is not a rank of this job (2 ranks); this rank's section is skipped (1 line skipped with it)"
            ),
        ]
    );
}

#[test]
fn regions_that_do_not_increase_are_skipped_with_their_counters() {
    let text = "ibprof 1\njob ranks 2\nrank 0 host a starttime 1\nregion 2 dumptime 2\npeer 1 sent 5 recv 0\n\
                region 2 dumptime 3\npeer 1 sent 9 recv 0\npeer 0 sent 9 recv 0\nregion 3 dumptime 4\npeer 1 sent 7 recv 0\n";
    let (profile, warnings) = parse(text);
    let regions: Vec<u32> = profile.ranks[0].dumps.iter().map(|d| d.region).collect();
    assert_eq!(regions, [2, 3]);
    assert_eq!(profile.ranks[0].dumps[1].peers[0].sent, 7);
    assert_eq!(
        lines(&warnings),
        [(
            Some(6),
            "region 2 of rank 0 does not follow region 2 (regions must increase); region skipped (2 counter lines skipped with it)"
        )]
    );
}

#[test]
fn bad_numbers_in_rank_port_and_region_lines_are_named() {
    let text = "ibprof 1\njob ranks 2 source mpip\nrank 0 host a pid -3 starttime 1.1234567\nrank 1 host b pid x starttime 1\n\
                port 300 guid 0x1 lid 0x1\nport 0 guid 0x1 lid 0x10000\nport 1 guid 0x1 lid 0x1 lmc 8 portnum 999\n\
                port 1 guid 0x2 lid 0x2\nregion x dumptime 1\nregion 1 dumptime soon\n";
    let (profile, warnings) = parse(text);
    assert_eq!(
        lines(&warnings),
        [
            (Some(2), "unknown source `mpip` ignored (expected pmpi, ompi-monitoring or peruse)"),
            (
                Some(3),
                "bad starttime `1.1234567` (expected Unix seconds with up to 6 decimals); this rank's section is skipped"
            ),
            (Some(4), "bad pid `x` ignored"),
            (Some(5), "bad port index `300` (0..256); line skipped"),
            (Some(6), "port 0: bad or missing lid `0x10000`; line skipped"),
            (Some(7), "port 1: bad portnum `999` ignored"),
            (Some(7), "port 1: bad lmc `8` (0..=7) ignored; taken as 0"),
            (Some(8), "port 1 is listed twice for rank 1; keeping the first"),
            (Some(9), "bad region number `x`; region skipped"),
            (Some(10), "region 1: bad or missing dumptime `soon`; region skipped"),
        ]
    );
    assert_eq!(
        profile.ranks[0].ports,
        [LocalPort { index: 1, guid: Guid(1), lid: Lid(1), ..Default::default() }]
    );
}

#[test]
fn an_unterminated_quote_skips_only_its_line() {
    let text = "ibprof 1\njob ranks 1 mpi \"Open MPI\nrank 0 host \"a b\" starttime 1\n";
    let (profile, warnings) = parse(text);
    assert_eq!(lines(&warnings)[0], (Some(2), "quoted string does not end on this line; line skipped"));
    assert_eq!(profile.ranks[0].host, "a b");
    assert_eq!(profile.mpi, None);
}

#[test]
fn a_broken_quote_in_a_rank_or_region_line_skips_what_that_line_starts() {
    let text = "ibprof 1\njob ranks 2\nrank \"0 host a starttime 1\npeer 1 sent 1 recv 1\nrank 1 host b starttime 1\n\
                region 1 dumptime 1\npeer 0 sent 1 recv 1\nregion 2 name \"x dumptime 2\npeer 0 sent 5 recv 5\n";
    let (profile, warnings) = parse(text);
    assert_eq!(
        lines(&warnings),
        [
            (
                Some(3),
                "quoted string does not end on this line; this rank's section is skipped (1 line skipped with it)"
            ),
            (
                Some(8),
                "quoted string does not end on this line; region skipped (1 counter line skipped with it)"
            ),
        ]
    );
    assert_eq!(profile.ranks.len(), 1);
    assert_eq!(profile.ranks[0].dumps.len(), 1);
}

#[test]
fn an_absurd_rank_count_is_refused_without_allocating() {
    let (profile, warnings) = parse("ibprof 1\njob ranks 4000000000\nrank 2 host a starttime 1\n");
    assert_eq!(profile.job_ranks, 3);
    assert_eq!(
        lines(&warnings)[0],
        (
            Some(2),
            "job ranks `4000000000` is not a rank count in 0..=16777216; ignored (ranks are counted from the sections)"
        )
    );
    let (_, warnings) =
        parse("ibprof 1\nrank 0 host a starttime 1\nregion 1 dumptime 1\npeer 4000000000 sent 1 recv 1\n");
    assert_eq!(
        lines(&warnings)[0],
        (Some(4), "peer 4000000000 is not a rank of this job (16777216 ranks); line skipped")
    );
}

#[test]
fn without_a_job_line_the_rank_count_comes_from_ranks_and_peers() {
    let (profile, warnings) =
        parse("ibprof 1\nrank 1 host a starttime 1\nregion 1 dumptime 1\npeer 6 sent 1 recv 1\n");
    assert_eq!(profile.job_ranks, 7);
    assert_eq!(
        lines(&warnings),
        [(None, "no `job` line; job ranks taken as 7, one more than the highest rank or peer")]
    );
}

#[test]
fn a_rank_found_twice_in_a_file_keeps_the_first() {
    let text = "ibprof 1\njob ranks 2\nrank 0 host a starttime 1\nrank 1 host b starttime 1\nrank 0 host c starttime 1\n";
    let (profile, warnings) = parse(text);
    assert_eq!(profile.ranks.iter().map(|r| r.host.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(
        lines(&warnings),
        [(Some(5), "rank 0 appears again (first on line 3); this section is skipped")]
    );
}

#[test]
fn a_truncated_last_line_loses_only_that_line_and_says_why() {
    let cut = &EXAMPLE[..EXAMPLE.len() - 8]; // "peer 0 sent 2048 re"
    let (profile, warnings) = parse(cut);
    assert_eq!(profile.ranks.len(), 2);
    assert!(profile.ranks[1].dumps[0].peers.is_empty());
    assert_eq!(
        lines(&warnings),
        [(
            Some(13),
            "peer line: bad or missing `recv` count `(missing)`; line skipped \
             (the file ends without a line end; its last line may be truncated)"
        )]
    );
    let (_, warnings) = parse(&EXAMPLE[..EXAMPLE.len() - 1]);
    assert_eq!(
        lines(&warnings),
        [(Some(13), "the file ends without a line end; its last line may be truncated")]
    );
}

#[test]
fn past_a_hundred_problem_lines_the_rest_are_counted_in_order() {
    let mut text = String::from("ibprof 1\njob ranks 2\n");
    for r in 0..2 {
        text.push_str(&format!("rank {r} host h starttime 1\nregion 1 dumptime 1\n"));
        for _ in 0..80 {
            text.push_str("what\n");
        }
    }
    let (_, warnings) = parse(&text);
    assert_eq!(warnings.len(), MAX_LINE_WARNINGS_FOR_TESTS + 1);
    assert_eq!(warnings[0].line, Some(5));
    assert_eq!(warnings[99].line, Some(5 + 80 + 2 + 19));
    assert_eq!(warnings[100].message, "60 more problem lines not listed (only the first 100 are)");
}

const MAX_LINE_WARNINGS_FOR_TESTS: usize = crate::profile_io::line_warnings::MAX_LINE_WARNINGS;

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
    let middle = text.find("rank 1500 ").unwrap();
    text.insert_str(middle, "peer 99999 sent 1 recv 1\n");
    text.push_str("peer 99999 sent 1 recv 1\n");
    let total = text.lines().count();
    let (again, warnings) = parse(&text);
    assert_eq!(again.ranks, profile.ranks);
    let at: Vec<Option<usize>> = warnings.iter().map(|w| w.line).collect();
    assert_eq!(at, [Some(2 + 1500 * 5 + 1), Some(total)]);
}

#[test]
fn an_indented_first_rank_line_is_read_too() {
    let text = "ibprof 1\njob ranks 2\n rank 0 host a starttime 1\nregion 1 dumptime 1\npeer 1 sent 1 recv 1\n\
                rank 1 host b starttime 1\nbad\n";
    let (profile, warnings) = parse(text);
    assert_eq!(profile.ranks.iter().map(|r| r.rank).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(profile.ranks[0].dumps[0].peers.len(), 1);
    assert_eq!(lines(&warnings), [(Some(7), "unknown keyword `bad`; line skipped")]);
}

#[test]
fn an_indented_rank_line_still_starts_a_new_section() {
    let text = "ibprof 1\njob ranks 2\nrank 0 host a starttime 1\n  rank 1 host b starttime 1\nregion 1 dumptime 1\n";
    let (profile, warnings) = parse(text);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(profile.ranks.len(), 2);
    assert_eq!(profile.ranks[1].dumps.len(), 1);
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

mod round_trip {
    use proptest::prelude::*;

    use super::*;

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9_.-]{0,8}",
            any::<String>(),
            proptest::collection::vec(
                prop_oneof![Just("\""), Just("\\"), Just("#"), Just(" "), Just("\n"), Just("x")],
                0..8
            )
            .prop_map(|v| v.concat()),
        ]
    }

    fn port() -> impl Strategy<Value = LocalPort> {
        (
            0u32..4,
            proptest::option::of(text()),
            proptest::option::of(any::<u8>()),
            any::<u64>(),
            any::<u16>(),
            0u8..=7,
        )
            .prop_map(|(index, device, portnum, guid, lid, lmc)| LocalPort {
                index,
                device,
                portnum,
                guid: Guid(guid),
                lid: Lid(lid),
                lmc,
            })
    }

    fn dump(job_ranks: u32) -> impl Strategy<Value = Dump> {
        (
            proptest::option::of(text()),
            any::<i64>().prop_map(|t| EpochMicros(t / 2)),
            proptest::collection::btree_map(0..job_ranks, (any::<u64>(), any::<u64>()), 0..5),
            proptest::collection::btree_map((0u32..4, any::<u16>()), (any::<u64>(), any::<u64>()), 0..5),
            any::<bool>(),
            proptest::collection::btree_map(0u8..64, (any::<u64>(), any::<u64>()), 0..4),
        )
            .prop_map(|(name, dumptime, peers, lids, counted, sizes)| Dump {
                region: 0,
                name,
                dumptime,
                // A writer counts messages on every peer line of a dump or on none.
                messages: peers
                    .iter()
                    .filter(|_| counted)
                    .map(|(&peer, &(sent, recv))| PeerMessages { peer, sent: sent / 7, recv: recv / 3 })
                    .collect(),
                peers: peers.into_iter().map(|(peer, (sent, recv))| PeerBytes { peer, sent, recv }).collect(),
                lids: lids
                    .into_iter()
                    .map(|((port, lid), (sent, recv))| LidBytes { port, lid: Lid(lid), sent, recv })
                    .collect(),
                sizes: sizes.into_iter().map(|(bin, (sent, recv))| SizeCounts { bin, sent, recv }).collect(),
            })
    }

    fn profile() -> impl Strategy<Value = Profile> {
        (1u32..6).prop_flat_map(|job_ranks| {
            let section = (
                text(),
                proptest::option::of(any::<u32>()),
                any::<i64>().prop_map(|t| EpochMicros(t / 2)),
                proptest::collection::vec(port(), 0..3),
                proptest::collection::vec((1u32..4, dump(job_ranks)), 0..3),
            );
            (
                proptest::option::of(text()),
                proptest::option::of(prop_oneof![
                    Just(ProfileSource::Pmpi),
                    Just(ProfileSource::OmpiMonitoring),
                    Just(ProfileSource::Peruse)
                ]),
                proptest::collection::btree_map(0..job_ranks, section, 0..4),
            )
                .prop_map(move |(mpi, source, sections)| Profile {
                    job_ranks,
                    mpi,
                    source,
                    ranks: sections
                        .into_iter()
                        .map(|(rank, (host, pid, starttime, mut ports, dumps))| {
                            ports.sort_by_key(|p| p.index);
                            ports.dedup_by_key(|p| p.index);
                            let mut region = 0;
                            let dumps = dumps
                                .into_iter()
                                .map(|(step, mut dump)| {
                                    region += step;
                                    dump.region = region;
                                    dump.lids.retain(|l| ports.iter().any(|p| p.index == l.port));
                                    dump
                                })
                                .collect();
                            RankSection { rank, host, pid, starttime, ports, dumps }
                        })
                        .collect(),
                })
        })
    }

    proptest! {
        #[test]
        fn any_valid_profile_survives_write_then_parse(profile in profile()) {
            let text = write(&profile);
            let (again, warnings) = parse(&text);
            prop_assert!(warnings.is_empty(), "{:?}\n{}", warnings, text);
            prop_assert_eq!(again, profile);
        }
    }
}
