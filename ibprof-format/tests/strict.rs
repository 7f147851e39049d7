//! The strict reader refuses anything the writer would not write, naming the line.

use ibprof_format::strict::{Error, parse, parse_line};
use ibprof_format::{PeerCounts, Record};

const GOOD: &str = "ibprof 1\n\
job ranks 2 source pmpi\n\
rank 0 host a starttime 1.5\n\
port 0 guid 0x1 lid 0x2\n\
region 1 dumptime 2\n\
peer 1 sent 3 recv 4\n\
lid 0 0x3 sent 5 recv 0\n";

fn line_of(text: &str) -> Option<usize> {
    parse(text).err().map(|e: Error| e.line)
}

#[test]
fn a_well_formed_file_is_read_whole() {
    assert_eq!(parse(GOOD).map(|r| r.len()), Ok(7));
    let commented = GOOD.replace("rank 0", "# a comment\n\nrank 0").replace("\n", "\r\n");
    assert_eq!(parse(&commented).map(|r| r.len()), Ok(7));
}

#[test]
fn lines_out_of_place_are_refused_with_their_line_number() {
    let cases = [
        ("job ranks 2\n", 1),
        ("ibprof 1\nibprof 1\n", 2),
        ("ibprof 1\npeer 1 sent 1 recv 1\n", 2),
        ("ibprof 1\nrank 0 host a starttime 1\nmsgsize 1 sent_msgs 1 recv_msgs 0\n", 3),
        (&*format!("{GOOD}job ranks 2\n"), 8),
        (&*format!("{GOOD}port 1 guid 0x1 lid 0x2\n"), 8),
        (&*format!("{GOOD}region 1 dumptime 3\n"), 8),
        (&*format!("{GOOD}lid 1 0x3 sent 1 recv 1\n"), 8),
        (&*format!("{GOOD}peer 2 sent 1 recv 1\n"), 8),
        (&*format!("{GOOD}rank 0 host b starttime 1\n"), 8),
        (&*format!("{GOOD}rank 2 host b starttime 1\n"), 8),
        (&*format!("{GOOD}rank 1 host b starttime 1\npeer 0 sent 1 recv 1\n"), 9),
        ("ibprof 1\nrank 0 host a starttime 1\nport 0 guid 1 lid 1\nport 0 guid 2 lid 2\n", 4),
    ];
    for (text, line) in cases {
        assert_eq!(line_of(text), Some(line), "{text}");
    }
}

#[test]
fn a_missing_header_or_line_end_is_refused() {
    assert_eq!(line_of(""), Some(1));
    assert_eq!(line_of("# only a comment\n"), Some(2));
    assert_eq!(line_of("ibprof 1"), Some(1));
    assert_eq!(line_of(GOOD.trim_end()), Some(7));
}

#[test]
fn message_counts_and_size_bins_are_optional_records_of_a_dump() {
    let counted = GOOD.replace("peer 1 sent 3 recv 4", "peer 1 sent 3 recv 4 sent_msgs 2 recv_msgs 1");
    let with_sizes =
        format!("{counted}msgsize 0 sent_msgs 1 recv_msgs 0\nmsgsize 63 sent_msgs 0 recv_msgs 1\n");
    assert_eq!(parse(&with_sizes).map(|r| r.len()), Ok(9));
    let old = parse(GOOD).unwrap_or_default();
    assert!(
        old.iter().all(|r| !matches!(r, Record::Peer(PeerCounts { msgs: Some(_), .. }) | Record::Size(_)))
    );
}

#[test]
fn malformed_lines_are_refused() {
    let bad = [
        "ibprof 2",
        "ibprof 1 extra",
        "job ranks 16777217",
        "job ranks 2 source mpiP",
        "job mpi x",
        "rank 0 host a",
        "rank 0 starttime 1",
        "rank -1 host a starttime 1",
        "rank 0 host a starttime 1 pid x",
        "port 256 guid 0x1 lid 0x1",
        "port 0 guid 0x1 lid 0x10000",
        "port 0 guid 0x1 lid 0x1 lmc 8",
        "port 0 guid 0x1 lid 0x1 portnum 256",
        "region 1",
        "region 1 dumptime 1.1234567",
        "peer 1 sent 1",
        "peer 1 sent 1 recv 1 sent 2",
        "peer 1 sent 1 recv 1 extra",
        "peer 1 sent 1 recv",
        "peer \"1\" sent 1 recv 1",
        "lid 0 sent 1 recv 1",
        "peer 1 sent 1 recv 1 sent_msgs 1",
        "peer 1 sent 1 recv 1 recv_msgs 1",
        "peer 1 sent 1 recv 1 sent_msgs x recv_msgs 1",
        "msgsize 64 sent_msgs 1 recv_msgs 1",
        "msgsize 3 sent_msgs 1",
        "msgsize sent_msgs 1 recv_msgs 1",
        "lid 0 0x1 sent 1 recv 1 sent_msgs 1 recv_msgs 1",
        "rank 0 host \"a\"b starttime 1",
        "rank 0 host \"a starttime 1",
        "unknown 1",
    ];
    for line in bad {
        assert!(parse_line(line).is_err(), "{line}");
    }
}

#[test]
fn counters_may_come_in_either_order_and_blank_lines_are_nothing() {
    assert_eq!(parse_line("peer 1 recv 2 sent 3"), parse_line("peer 1 sent 3 recv 2"));
    assert_eq!(
        parse_line("peer 1 recv_msgs 1 recv 2 sent_msgs 4 sent 3"),
        parse_line("peer 1 sent 3 recv 2 sent_msgs 4 recv_msgs 1")
    );
    assert_eq!(parse_line("  # comment"), Ok(None));
    assert_eq!(parse_line(""), Ok(None));
}
