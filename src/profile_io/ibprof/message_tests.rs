//! Message counts (`sent_msgs`/`recv_msgs` on `peer` lines) and the message-size histogram
//! (`msgsize` lines), issue 23 item 4: optional, so an older file reads as "not counted".

use super::*;
use crate::model::{PeerMessages, SizeCounts};

fn parse(text: &str) -> (Profile, Vec<Warning>) {
    parse_profile(text, "t.ibprof").expect("a profile with a header always parses")
}

fn with_body(body: &str) -> String {
    format!("ibprof 1\njob ranks 4\nrank 0 host a starttime 1\nregion 1 dumptime 2\n{body}")
}

#[test]
fn an_old_file_reads_as_not_counted_never_as_zero_messages() {
    let (profile, warnings) = parse(&with_body("peer 1 sent 10 recv 0\npeer 2 sent 5 recv 5\n"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let dump = &profile.ranks[0].dumps[0];
    assert!(!dump.counts_messages());
    assert_eq!(dump.messages_of(1), None);
    assert!(dump.sizes.is_empty());
}

#[test]
fn counted_peer_lines_and_size_bins_are_read_on_both_paths() {
    // The first peer line is spelled as the writer spells it (fast path), the second is not.
    let body = "peer 1 sent 10 recv 0 sent_msgs 2 recv_msgs 0\n\
                peer  3 recv_msgs 4 sent 1 recv 7 sent_msgs 1\n\
                msgsize 12 sent_msgs 3 recv_msgs 1\nmsgsize 0 sent_msgs 0 recv_msgs 4\n";
    let (profile, warnings) = parse(&with_body(body));
    assert!(warnings.is_empty(), "{warnings:?}");
    let dump = &profile.ranks[0].dumps[0];
    assert_eq!(
        dump.messages,
        vec![PeerMessages { peer: 1, sent: 2, recv: 0 }, PeerMessages { peer: 3, sent: 1, recv: 4 }]
    );
    assert_eq!(
        dump.sizes,
        vec![SizeCounts { bin: 0, sent: 0, recv: 4 }, SizeCounts { bin: 12, sent: 3, recv: 1 }]
    );
}

#[test]
fn a_repeated_peer_sums_its_messages_as_its_bytes() {
    let body = "peer 2 sent 1 recv 0 sent_msgs 1 recv_msgs 0\npeer 1 sent 1 recv 0 sent_msgs 5 recv_msgs 0\n\
                peer 2 sent 1 recv 0 sent_msgs 3 recv_msgs 1\n";
    let (profile, warnings) = parse(&with_body(body));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("peer 2 appears twice"));
    let dump = &profile.ranks[0].dumps[0];
    assert_eq!(
        dump.messages,
        vec![PeerMessages { peer: 1, sent: 5, recv: 0 }, PeerMessages { peer: 2, sent: 4, recv: 1 }]
    );
}

#[test]
fn peers_in_any_order_come_out_sorted_in_every_dump() {
    let body = "peer 3 sent 1 recv 0 sent_msgs 3 recv_msgs 0\npeer 1 sent 1 recv 0 sent_msgs 1 recv_msgs 0\n\
                region 2 dumptime 3\npeer 2 sent 1 recv 0 sent_msgs 2 recv_msgs 0\npeer 0 sent 1 recv 0 sent_msgs 9 recv_msgs 0\n";
    let (profile, warnings) = parse(&with_body(body));
    assert!(warnings.is_empty(), "{warnings:?}");
    let peers =
        |d: usize| profile.ranks[0].dumps[d].messages.iter().map(|m| (m.peer, m.sent)).collect::<Vec<_>>();
    assert_eq!(peers(0), vec![(1, 1), (3, 3)]);
    assert_eq!(peers(1), vec![(0, 9), (2, 2)]);
}

#[test]
fn half_or_bad_message_counts_keep_the_bytes_and_are_named() {
    let body = "peer 1 sent 10 recv 0 sent_msgs 2\npeer 2 sent 3 recv 0 sent_msgs x recv_msgs 1\n\
                msgsize 64 sent_msgs 1 recv_msgs 1\nmsgsize 3 sent_msgs 1\n";
    let (profile, warnings) = parse(&with_body(body));
    let lines: Vec<_> = warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0].0, Some(5));
    assert!(lines[0].1.contains("come together"), "{lines:?}");
    assert!(lines[1].1.contains("bad message counts"), "{lines:?}");
    assert!(lines[2].1.contains("bad msgsize bin `64`"), "{lines:?}");
    assert!(lines[3].1.contains("missing counts"), "{lines:?}");
    let dump = &profile.ranks[0].dumps[0];
    assert_eq!(dump.peers.len(), 2);
    assert!(!dump.counts_messages());
    assert!(dump.sizes.is_empty());
}

#[test]
fn a_size_line_outside_a_region_is_named_and_skipped() {
    let text = "ibprof 1\njob ranks 1\nrank 0 host a starttime 1\nmsgsize 3 sent_msgs 1 recv_msgs 0\n";
    let (_, warnings) = parse(text);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].line, Some(4));
    assert!(warnings[0].message.contains("msgsize line before rank 0's first region"), "{warnings:?}");
}

#[test]
fn counts_and_sizes_survive_write_then_read() {
    let body = "peer 1 sent 10 recv 0 sent_msgs 2 recv_msgs 0\npeer 2 sent 1 recv 1\n\
                msgsize 3 sent_msgs 2 recv_msgs 0\n";
    let (profile, _) = parse(&with_body(body));
    let mut out = Vec::new();
    write_profile(&profile, &mut out).expect("writing to memory");
    let text = String::from_utf8(out).expect("the writer writes UTF-8");
    assert!(text.contains("peer 1 sent 10 recv 0 sent_msgs 2 recv_msgs 0\npeer 2 sent 1 recv 1\n"), "{text}");
    assert_eq!(parse(&text).0, profile);
}
