//! PFProf's message counts and size lists (issue 23 item 4): `tx_messages[p]` / `rx_messages[p]`
//! are the messages this rank sent to / received from world rank `p`, counted with the bytes;
//! `tx_message_sizes` / `rx_message_sizes` list `{frequency, message_size}` pairs, which become
//! the dump's power-of-two size histogram (`ibprof_format::size_bin`; empty messages count
//! nothing, as in the collector). A file without `tx_messages` and `rx_messages` reads as "not
//! counted", never as zero messages.

use serde::Deserialize;

use crate::model::bytes::add_bytes;
use crate::model::{PeerBytes, PeerMessages, SizeCounts};

use super::Count;

/// One entry of a size list.
#[derive(Debug, Deserialize)]
pub(super) struct SizeEntry {
    frequency: Count,
    message_size: Count,
}

/// Adds one phase's message counts to the running (cumulative) `totals` and returns the
/// messages of the peers that `peers` keeps; `None` when the phase counts no messages.
pub(super) fn phase_messages(
    totals: &mut Vec<PeerMessages>,
    tx: Option<&[Count]>,
    rx: Option<&[Count]>,
    width: usize,
    peers: &[PeerBytes],
) -> Option<Vec<PeerMessages>> {
    if tx.is_none() && rx.is_none() {
        return None;
    }
    if totals.len() < width {
        totals.resize(width, PeerMessages::default());
    }
    let at = |list: Option<&[Count]>, p: usize| list.and_then(|l| l.get(p)).map_or(0, |c| c.0);
    for (peer, total) in totals.iter_mut().enumerate().take(width) {
        total.peer = peer as u32;
        add_bytes(&mut total.sent, at(tx, peer));
        add_bytes(&mut total.recv, at(rx, peer));
    }
    Some(peers.iter().filter_map(|p| totals.get(p.peer as usize).copied()).collect())
}

/// The size histogram of the `tx` (sent) and `rx` (received) size lists, by bin.
pub(super) fn size_histogram(tx: &[SizeEntry], rx: &[SizeEntry]) -> Vec<SizeCounts> {
    let mut bins: Vec<SizeCounts> = Vec::new();
    for (list, sent) in [(tx, true), (rx, false)] {
        for entry in list {
            let Some(bin) = ibprof_format::size_bin(entry.message_size.0) else { continue };
            let bin = bin as u8;
            let at = match bins.binary_search_by_key(&bin, |b| b.bin) {
                Ok(at) => at,
                Err(at) => {
                    bins.insert(at, SizeCounts { bin, sent: 0, recv: 0 });
                    at
                }
            };
            let cell = if sent { &mut bins[at].sent } else { &mut bins[at].recv };
            add_bytes(cell, entry.frequency.0);
        }
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(frequency: u64, message_size: u64) -> SizeEntry {
        SizeEntry { frequency: Count(frequency), message_size: Count(message_size) }
    }

    #[test]
    fn sizes_fall_in_power_of_two_bins_and_empty_messages_in_none() {
        let tx = [entry(2, 4096), entry(1, 8191), entry(5, 0), entry(1, 1)];
        let rx = [entry(3, 4097)];
        assert_eq!(
            size_histogram(&tx, &rx),
            vec![SizeCounts { bin: 0, sent: 1, recv: 0 }, SizeCounts { bin: 12, sent: 3, recv: 3 }]
        );
    }

    #[test]
    fn phase_counts_are_cumulative_and_kept_for_the_peers_with_bytes() {
        let mut totals = Vec::new();
        let peers = [PeerBytes { peer: 1, sent: 5, recv: 0 }];
        let first = phase_messages(&mut totals, Some(&[Count(0), Count(2)]), None, 2, &peers);
        assert_eq!(first, Some(vec![PeerMessages { peer: 1, sent: 2, recv: 0 }]));
        let second = phase_messages(&mut totals, Some(&[Count(0), Count(1)]), Some(&[Count(4)]), 2, &peers);
        assert_eq!(second, Some(vec![PeerMessages { peer: 1, sent: 3, recv: 0 }]));
        assert_eq!(totals[0], PeerMessages { peer: 0, sent: 0, recv: 4 });
        assert_eq!(phase_messages(&mut totals, None, None, 2, &peers), None);
    }
}
