//! One ibprof format for both sides (issue 11): a profile written the way the collector writes
//! it (prelude on rank 0, then each rank's section gathered in turn, all through the
//! `ibprof-format` crate) reads in shoal into exactly the profile it describes, and shoal's
//! writer gives back the same bytes. Names hold everything quoting must survive.

use std::borrow::Cow;
use std::path::Path;

use ibprof_format as format;
use shoal::model::{
    Dump, EpochMicros, Guid, Lid, LidBytes, LocalPort, PeerBytes, PeerMessages, Profile, ProfileSource,
    RankSection, SizeCounts,
};
use shoal::profile_io::ibprof::{parse_profile, read_profile, write_profile};

/// Strings that take each branch of the quoting rule.
const NAMES: &[&str] = &[
    "n0001",
    "sample sort",
    r#"say "hi""#,
    r"C:\dir\",
    r#"back\slash "and quote""#,
    "x#y",
    "nœud-é 東京",
    "",
    "tab\there",
    "two\nlines\r",
    "nel\u{85}",
];

const MPI: &str = r#"MPICH "4.0" \ #2"#;
const START: i64 = 1_700_000_000_250_000;

fn name(i: usize) -> &'static str {
    NAMES[i % NAMES.len()]
}

fn ranks() -> u32 {
    NAMES.len() as u32
}

/// The profile the text below describes, built by hand in shoal's model.
fn expected() -> Profile {
    let section = |r: u32| {
        let i = r as usize;
        let counters = |scale: u64| Dump {
            region: scale as u32,
            name: (scale == 1).then(|| name(i + 2).to_string()),
            dumptime: EpochMicros(START + scale as i64 * 1_000_000),
            peers: (0..ranks())
                .filter(|&p| p != r)
                .map(|peer| PeerBytes { peer, sent: scale * 4096, recv: scale })
                .collect(),
            lids: vec![LidBytes { port: 0, lid: Lid(0x13), sent: scale << 40, recv: 0 }],
            messages: (0..ranks())
                .filter(|&p| p != r)
                .map(|peer| PeerMessages { peer, sent: scale, recv: scale })
                .collect(),
            sizes: vec![SizeCounts { bin: 12, sent: scale * u64::from(ranks() - 1), recv: 0 }],
        };
        RankSection {
            rank: r,
            host: name(i).to_string(),
            pid: Some(4242 + r),
            starttime: EpochMicros(START),
            ports: vec![
                LocalPort {
                    index: 0,
                    device: Some(name(i + 1).to_string()),
                    portnum: Some(1),
                    guid: Guid(0x0002_c903_0000_0000 + u64::from(r)),
                    lid: Lid(0x12),
                    lmc: 0,
                },
                LocalPort {
                    index: 1,
                    device: None,
                    portnum: None,
                    guid: Guid(u64::MAX),
                    lid: Lid(0xbfff),
                    lmc: 2,
                },
            ],
            dumps: vec![counters(1), counters(2)],
        }
    };
    Profile {
        job_ranks: ranks(),
        mpi: Some(MPI.into()),
        source: Some(ProfileSource::Pmpi),
        ranks: (0..ranks()).map(section).collect(),
    }
}

/// One rank's section as the collector builds it (`State::section`), from plain values.
fn collector_section(r: u32) -> Vec<u8> {
    let i = r as usize;
    let mut out = Vec::new();
    format::push_rank(
        &mut out,
        &format::Rank { rank: r, host: name(i).into(), pid: Some(4242 + r), starttime: START },
    );
    let device = Some(Cow::Borrowed(name(i + 1)));
    let guid = 0x0002_c903_0000_0000 + u64::from(r);
    format::push_port(
        &mut out,
        &format::Port { index: 0, device, portnum: Some(1), guid, lid: 0x12, lmc: 0 },
    );
    format::push_port(
        &mut out,
        &format::Port { index: 1, device: None, portnum: None, guid: u64::MAX, lid: 0xbfff, lmc: 2 },
    );
    for scale in 1..=2u64 {
        let name = (scale == 1).then(|| name(i + 2).into());
        let dumptime = START + scale as i64 * 1_000_000;
        format::push_region(&mut out, &format::Region { number: scale as u32, name, dumptime });
        for peer in (0..ranks()).filter(|&p| p != r) {
            let msgs = Some(format::MsgCounts { sent: scale, recv: scale });
            format::push_peer(&mut out, &format::PeerCounts { peer, sent: scale * 4096, recv: scale, msgs });
        }
        format::push_lid(&mut out, &format::LidCounts { port: 0, lid: 0x13, sent: scale << 40, recv: 0 });
        let msgs = format::MsgCounts { sent: scale * u64::from(ranks() - 1), recv: 0 };
        format::push_size_bin(&mut out, &format::SizeBin { bin: 12, msgs });
    }
    out
}

/// The whole file as the collector gathers it on rank 0: prelude, then every section in rank order.
fn collector_text() -> String {
    let mut out = Vec::new();
    format::push_prelude(
        &mut out,
        &format::Job { ranks: ranks(), mpi: Some(MPI.into()), source: Some("pmpi") },
    );
    for r in 0..ranks() {
        out.extend(collector_section(r));
    }
    String::from_utf8(out).unwrap_or_else(|e| panic!("the writer wrote invalid UTF-8: {e}"))
}

#[test]
fn a_collector_profile_reads_into_the_profile_it_describes() {
    let text = collector_text();
    let (profile, warnings) =
        parse_profile(&text, "collector.ibprof").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(warnings.is_empty(), "{warnings:?}\n{text}");
    assert_eq!(profile, expected());
}

#[test]
fn shoal_writes_the_same_bytes_as_the_collector() {
    let mut out = Vec::new();
    write_profile(&expected(), &mut out).unwrap_or_else(|e| panic!("writing to memory: {e}"));
    assert_eq!(String::from_utf8_lossy(&out), collector_text());
}

#[test]
fn a_quoted_name_round_trips_through_both_readers() {
    let text = collector_text();
    let records = format::strict::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let hosts: Vec<String> = records
        .iter()
        .filter_map(|r| match r {
            format::Record::Rank(rank) => Some(rank.host.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(hosts, NAMES);
    let (profile, _) = parse_profile(&text, "collector.ibprof").unwrap_or_else(|e| panic!("{e}"));
    assert!(profile.ranks.iter().map(|s| s.host.as_str()).eq(NAMES.iter().copied()));
}

#[test]
fn the_sample_profiles_are_valid_to_the_strict_reader_too() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "sample-data/testbed/alltoall.ibprof",
        "sample-data/tworail/bcast-both-rails.ibprof",
        "sample-data/tworail/bcast-rail0-only.ibprof",
        "sample-data/tworail/collector-samplesort-8.ibprof",
        "collector/tests/data/samplesort-8.ibprof",
    ] {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let records = format::strict::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let sections = records.iter().filter(|r| matches!(r, format::Record::Rank(_))).count();
        let (profile, warnings) = read_profile(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(warnings.is_empty(), "{file}: {warnings:?}");
        assert_eq!(profile.ranks.len(), sections, "{file}");
    }
}
