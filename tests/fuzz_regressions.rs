//! Inputs that crashed a parser under cargo-fuzz (see fuzz/README.md), one test each, named after
//! what broke. Each must now give a value or an error, never a panic.

use shoal::model::RailId;
use shoal::profile_io::Input;
use shoal::profile_io::ibdiagnet_lst::parse_lst;
use shoal::profile_io::ibprof::parse_profile;
use shoal::profile_io::lfts_dump::parse_lfts_dump;

fn input(bytes: &[u8]) -> Input {
    Input::from_bytes("crash", bytes.to_vec()).expect("plain bytes always make an input").0
}

#[test]
fn lst_node_type_ending_inside_a_multibyte_character_is_an_unknown_type_not_a_panic() {
    // fuzz/artifacts/lst/crash-5c0df155…: `{ \xfc\x0f Ports:24 …`; the invalid byte becomes U+FFFD
    // (3 bytes), and cutting the `-SM` suffix three bytes from the end split that character.
    let text = b"{ \xfc\x0f Ports:24 NodeGUID:0002c90200010000 {sw} LID:0002 PN:01 } \
                 { CA Ports:01 NodeGUID:0002c90300010000 {n1} LID:0001 PN:01 } PHY=4x LOG=ACT\n";
    let err = parse_lst(&input(text), RailId(0)).expect_err("the only line is unparseable");
    assert!(err.to_string().contains("no link lines"), "{err}");
}

#[test]
fn lfts_dump_header_whose_description_markers_overlap_reads_as_no_description() {
    // fuzz/artifacts/lfts_dump/crash-6702d922…: `('):` holds both `('` and `')`, one byte apart;
    // slicing between them went backwards.
    let text =
        b"Unicast lids [0-44] of switch Lid 2 guid 0x000202c900016888 ('):\n0x0001 001\n44 lids dumped\n";
    let (tables, warnings) = parse_lfts_dump(&input(text)).expect("the block is well formed");
    assert!(warnings.is_empty(), "{warnings:?}");
    let table = tables.values().next().expect("one switch");
    assert_eq!(table.description, None);
}

#[test]
fn ibprof_chunk_probe_landing_inside_a_multibyte_character_steps_over_it() {
    // fuzz/artifacts/ibprof/crash-15e2c81a…: invalid bytes in a host name became U+FFFD, and the
    // parallel chunker probed for `\nrank` from a byte offset inside that character. The probe
    // step is a 256th of the body (19 bytes here), which falls inside the run of 3-byte
    // characters after `rank 10 host h`.
    let host = format!("h{}", "\u{fffd}".repeat(30));
    let mut text = String::from("ibprof 1\njob ranks 84\n");
    for rank in 0..40 {
        text.push_str(&format!("rank {rank} host {host} starttime 1\n"));
    }
    let (profile, _) = parse_profile(&text, "crash").expect("the profile is well formed");
    assert_eq!(profile.ranks.len(), 40);
    assert_eq!(profile.ranks[17].host, host);
}

#[test]
fn ibprof_section_indented_into_the_prelude_obeys_the_jobs_rank_count() {
    // fuzz/artifacts/ibprof/crash-d610e4a7…: an indented ` rank` line is no chunk boundary, so the
    // prelude parser read that section, with the rank limit it had before the `job` line (none):
    // rank 1 was kept in a job of 0 ranks, and written back it was skipped, so the write → parse
    // round trip lost it.
    let text = "ibprof 1\njob ranks 0\n rank 1 host n0002 pid 20001 starttime 1700000000.000011\n";
    let (profile, warnings) = parse_profile(text, "crash").expect("the header and job parse");
    assert!(profile.ranks.is_empty(), "{:?}", profile.ranks);
    assert!(
        warnings.iter().any(|w| w.message.contains("rank 1 is not a rank of this job (0 ranks)")),
        "{warnings:?}"
    );
    let text = "ibprof 1\njob ranks 2\n rank 1 host n0002 starttime 1\n region 1 dumptime 2\n peer 0 sent 1 recv 1\n peer 3 sent 1 recv 1\n";
    let (profile, _) = parse_profile(text, "crash").expect("parses");
    assert_eq!(profile.ranks.len(), 1, "rank 1 of 2 is kept");
    let peers: usize = profile.ranks[0].dumps.iter().map(|d| d.peers.len()).sum();
    assert_eq!(peers, 1, "peer 0 is kept, peer 3 of a 2-rank job skipped");
}

/// Issue 16: the format sample probes byte offsets through the text; one landing inside a
/// multibyte character (node descriptions in UTF-8) steps to the next boundary.
#[test]
fn format_sample_probe_landing_inside_a_multibyte_character_steps_over_it() {
    let line =
        "CA    44  1 0x0002c90300010053 4x QDR - SW     3 21 0x0002c90200010001 ( 'n0042 é€' - 's' )\n";
    let mut text = "ibwarn: [1] ünïcödé debug €€€\n".repeat(400);
    text.push_str(&line.repeat(300));
    for cut in 0..8 {
        let input = Input::from_text("f", &text[..text.len() - line.len() * cut]);
        let _ = shoal::profile_io::rail::kind_from_content(&input);
    }
}

/// Issue 16: counts at the top of u64 on one link end (duplicates summed in the reader) stop at
/// 2^64 - 1 with a warning, never wrap or panic.
#[test]
fn duplicate_counters_near_two_to_the_64_saturate_in_the_reader() {
    let text = "ibprof 1\njob ranks 2\nrank 0 host a starttime 1.0\nregion 1 dumptime 2.0\n\
                peer 1 sent 18446744073709551000 recv 0\npeer 1 sent 18446744073709551000 recv 0\n";
    let (profile, warnings) = parse_profile(text, "crash").expect("a profile");
    assert_eq!(profile.ranks[0].dumps[0].peers[0].sent, u64::MAX);
    assert!(warnings.iter().any(|w| w.message.contains("byte sum overflow")), "{warnings:?}");
}

#[test]
fn a_stray_carriage_return_after_the_last_line_end_is_no_cut_line_streamed_or_whole() {
    // fuzz/artifacts/streamed/crash-02f6a9dd…: a dump ending `…\n\r`, with invalid UTF-8 (so
    // the whole read went line by line too). Streamed, the lone `\r` was a last line cut short;
    // whole, it was not. Neither: it is a stray carriage return, whatever path reads it.
    let table = "Unicast lids [0x0-0x1] of switch Lid 2 guid 0x0002c90200010000 (sw):\n\
                 0x0001 001 : (Channel Adapter portguid 0x0002c90300010001: 'n0001 HCA-1')\n\
                 1 lids dumped\n";
    let path = std::env::temp_dir().join(format!("shoal-stray-cr-{}", std::process::id()));
    for tail in [&b"\r"[..], b"\xff\n\r"] {
        let bytes = [table.as_bytes(), tail].concat();
        std::fs::write(&path, &bytes).unwrap();
        let (_, streamed) = shoal::profile_io::ibroute::parse_ibroute(&Input::deferred(&path)).unwrap();
        let (_, whole) = shoal::profile_io::ibroute::parse_ibroute(&input(&bytes)).unwrap();
        for warnings in [&streamed, &whole] {
            assert!(!warnings.iter().any(|w| w.message.contains("without a line end")), "{warnings:?}");
        }
    }
    std::fs::remove_file(&path).unwrap();
}
