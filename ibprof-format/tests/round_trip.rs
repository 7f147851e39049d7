//! What the writer writes, the strict reader reads back unchanged, record for record, whatever
//! the strings hold; and its counter lines are the ones the fast path reads.

use std::borrow::Cow;

use ibprof_format::strict::{parse, parse_line};
use ibprof_format::{
    Canonical, Job, LidCounts, MsgCounts, PeerCounts, Port, Rank, Record, Region, SizeBin, push_lid,
    push_peer, push_record,
};

/// Strings a name, host or MPI version might hold, and some it should not but could.
const AWKWARD: &[&str] = &[
    "n0001",
    "",
    "sample sort",
    r#"say "hi""#,
    r"C:\dir\",
    r#"\"#,
    r#"\" "#,
    "x#y",
    "#",
    "nœud-é 東京",
    "tab\there",
    "two\nlines\r\n",
    "bell\u{7} del\u{7f} nel\u{85}",
    "no-break\u{a0}space",
    r#"a\nb is not a line break"#,
];

fn records() -> Vec<Record<'static>> {
    let mut records = vec![Record::Header];
    for (i, &s) in AWKWARD.iter().enumerate() {
        let i = i as u32;
        records.push(Record::Job(Job { ranks: i, mpi: Some(s.into()), source: Some("pmpi") }));
        records.push(Record::Rank(Rank { rank: i, host: s.into(), pid: Some(i), starttime: -5 }));
        let device = Some(Cow::Borrowed(s));
        records.push(Record::Port(Port {
            index: i,
            device,
            portnum: Some(1),
            guid: u64::MAX,
            lid: 0xffff,
            lmc: 7,
        }));
        records.push(Record::Region(Region {
            number: i,
            name: Some(s.into()),
            dumptime: 1_700_000_000_250_000,
        }));
    }
    records.push(Record::Job(Job { ranks: 1 << 24, mpi: None, source: None }));
    records.push(Record::Rank(Rank { rank: 0, host: "h".into(), pid: None, starttime: 0 }));
    records.push(Record::Port(Port::default()));
    records.push(Record::Region(Region::default()));
    records.push(Record::Peer(PeerCounts { peer: 1, sent: u64::MAX, recv: 0, msgs: None }));
    let msgs = Some(MsgCounts { sent: u64::MAX, recv: 0 });
    records.push(Record::Peer(PeerCounts { peer: 2, sent: 1, recv: 0, msgs }));
    records.push(Record::Size(SizeBin { bin: 0, msgs: MsgCounts { sent: 0, recv: u64::MAX } }));
    records.push(Record::Size(SizeBin { bin: 63, msgs: MsgCounts { sent: 1, recv: 2 } }));
    records.push(Record::Lid(LidCounts { port: 255, lid: 0, sent: 0, recv: u64::MAX }));
    records
}

#[test]
fn every_record_reads_back_as_it_was_written_on_one_line() {
    for record in records() {
        let mut out = Vec::new();
        push_record(&mut out, &record);
        let text = String::from_utf8(out).unwrap_or_default();
        let line = text.strip_suffix('\n').unwrap_or_else(|| panic!("no line end: {text:?}"));
        assert!(!line.contains('\n'), "{line:?}");
        assert_eq!(parse_line(line), Ok(Some(record.clone())), "{line:?}");
    }
}

#[test]
fn a_quoted_name_round_trips_through_a_whole_file() {
    let mut out = Vec::new();
    let mut written = vec![
        Record::Header,
        Record::Job(Job {
            ranks: AWKWARD.len() as u32,
            mpi: Some("MPICH \"4.0\" #2".into()),
            source: Some("peruse"),
        }),
    ];
    for (i, &s) in AWKWARD.iter().enumerate() {
        let i = i as u32;
        written.push(Record::Rank(Rank { rank: i, host: s.into(), pid: None, starttime: 1 }));
        written.push(Record::Port(Port { index: 0, device: Some(s.into()), lid: 1, ..Port::default() }));
        written.push(Record::Region(Region { number: 1, name: Some(s.into()), dumptime: 2 }));
        written.push(Record::Peer(PeerCounts { peer: 0, sent: 3, recv: 4, msgs: None }));
        let msgs = Some(MsgCounts { sent: 1, recv: i.into() });
        written.push(Record::Peer(PeerCounts { peer: i, sent: 3, recv: 4, msgs }));
        written.push(Record::Lid(LidCounts { port: 0, lid: 2, sent: 5, recv: 6 }));
        written.push(Record::Size(SizeBin { bin: i, msgs: MsgCounts { sent: 7, recv: 8 } }));
    }
    for record in &written {
        push_record(&mut out, record);
    }
    let text = String::from_utf8(out).unwrap_or_default();
    assert_eq!(parse(&text), Ok(written), "{text}");
}

#[test]
fn written_counter_lines_take_the_fast_path() {
    let mut out = Vec::new();
    let old = PeerCounts { peer: 4_000_000, sent: 123_456_789_012, recv: u64::MAX, msgs: None };
    push_peer(&mut out, &old);
    let peer_end = out.len();
    let counted = PeerCounts { msgs: Some(MsgCounts { sent: 99_999_999_999, recv: 0 }), ..old };
    push_peer(&mut out, &counted);
    let counted_end = out.len();
    push_lid(&mut out, &LidCounts { port: 3, lid: 0xbeef, sent: 0, recv: 17 });
    let text = String::from_utf8(out).unwrap_or_default();
    assert_eq!(Canonical::at(&text, 0).peer(), Some((old, peer_end)));
    assert_eq!(Canonical::at(&text, peer_end).peer(), Some((counted, counted_end)));
    assert_eq!(Canonical::at(&text, counted_end).lid(), Some((3, 0xbeef, 0, 17, text.len())));
}
