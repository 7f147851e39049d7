//! Byte and message counters, safe under `MPI_THREAD_MULTIPLE`: relaxed atomic adds, no locks
//! and no allocation on the hot path.
//!
//! Memory is O(peers): four `u64` per world rank (bytes and messages, each way), a fixed
//! message-size histogram ([`SizeBins`], 2 × 64 counters), plus, per communicator, the traffic
//! that a collective spreads evenly over all members ([`Each`]: bytes and a 64-bin message
//! histogram each way, 1 KiB). An `MPI_Alltoall` on a communicator of any size therefore costs
//! four atomic adds, not a few per peer; the even shares are spread over the members and into
//! the histogram only when a dump is taken.
//!
//! A message is one logical transfer to one peer, as the bytes are attributed (`coll.rs`): a
//! point-to-point send or receive, or a collective's share to or from one member.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use ibprof_format::{SIZE_BINS, size_bin};

/// `(sent, recv)` pairs per world rank, dense: what a dump collects.
pub type Totals = [(u64, u64)];

/// Bytes and messages sent to and received from each world rank, and the size histogram.
#[derive(Debug)]
pub struct PeerCounters {
    peers: Box<[Peer]>,
    pub sizes: SizeBins,
}

/// One world rank's counters, in one 32-byte block: a message to or from it touches one line.
#[derive(Debug, Default)]
#[repr(C, align(32))]
struct Peer {
    bytes: Pair,
    msgs: Pair,
}

impl Peer {
    /// `bytes` in one message in direction `way`.
    #[inline(always)]
    fn add(&self, way: usize, bytes: u64, msgs: u64) {
        if bytes != 0 {
            self.bytes.0[way].fetch_add(bytes, Ordering::Relaxed);
        }
        if msgs != 0 {
            self.msgs.0[way].fetch_add(msgs, Ordering::Relaxed);
        }
    }
}

impl PeerCounters {
    pub fn new(world_size: usize) -> PeerCounters {
        PeerCounters { peers: (0..world_size).map(|_| Peer::default()).collect(), sizes: SizeBins::default() }
    }

    pub fn len(&self) -> usize {
        self.peers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.peers.is_empty()
    }

    /// One message of `bytes` sent to `peer` (an empty one counts nothing).
    #[inline(always)]
    pub fn add_sent(&self, peer: u32, bytes: u64) {
        if bytes != 0
            && let Some(p) = self.peers.get(peer as usize)
        {
            p.add(SENT, bytes, 1);
            self.sizes.add(bytes, 1, true);
        }
    }

    /// One message of `bytes` received from `peer` (an empty one counts nothing).
    #[inline(always)]
    pub fn add_recv(&self, peer: u32, bytes: u64) {
        if bytes != 0
            && let Some(p) = self.peers.get(peer as usize)
        {
            p.add(RECV, bytes, 1);
            self.sizes.add(bytes, 1, false);
        }
    }

    /// Counters folded in from elsewhere (a freed communicator's even shares): no new messages
    /// for the histogram, which counted them when they were made.
    fn add_folded(&self, peer: u32, bytes: (u64, u64), msgs: (u64, u64)) {
        if let Some(p) = self.peers.get(peer as usize) {
            p.add(SENT, bytes.0, msgs.0);
            p.add(RECV, bytes.1, msgs.1);
        }
    }

    /// Adds the current bytes into `totals` and messages into `msgs` (`(sent, recv)` per world
    /// rank).
    pub fn add_into(&self, totals: &mut Totals, msgs: &mut Totals) {
        let load = |pair: &Pair| (pair.0[SENT].load(Ordering::Relaxed), pair.0[RECV].load(Ordering::Relaxed));
        for ((t, m), p) in totals.iter_mut().zip(msgs.iter_mut()).zip(self.peers.iter()) {
            let (bytes, count) = (load(&p.bytes), load(&p.msgs));
            t.0 += bytes.0;
            t.1 += bytes.1;
            m.0 += count.0;
            m.1 += count.1;
        }
    }
}

/// Messages sent and received per power-of-two size bin (`ibprof_format::size_bin`).
#[derive(Debug)]
pub struct SizeBins {
    sent: [AtomicU64; SIZE_BINS as usize],
    recv: [AtomicU64; SIZE_BINS as usize],
}

impl Default for SizeBins {
    fn default() -> Self {
        SizeBins {
            sent: std::array::from_fn(|_| AtomicU64::new(0)),
            recv: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl SizeBins {
    /// `count` messages of `bytes` each, sent or received.
    #[inline(always)]
    pub fn add(&self, bytes: u64, count: u64, sent: bool) {
        let Some(bin) = size_bin(bytes) else { return };
        let bins = if sent { &self.sent } else { &self.recv };
        if let Some(c) = bins.get(bin as usize).filter(|_| count != 0) {
            c.fetch_add(count, Ordering::Relaxed);
        }
    }

    /// `bins[b]` messages of bin `b` to (or from) each of `others` members.
    fn fold(&self, bins: &[u64], others: u64, sent: bool) {
        let ours = if sent { &self.sent } else { &self.recv };
        for (c, &n) in ours.iter().zip(bins).filter(|(_, n)| **n != 0) {
            c.fetch_add(n.saturating_mul(others), Ordering::Relaxed);
        }
    }

    /// `(sent, recv)` per bin, every bin.
    pub fn snapshot(&self) -> Vec<(u64, u64)> {
        self.sent
            .iter()
            .zip(&self.recv)
            .map(|(s, r)| (s.load(Ordering::Relaxed), r.load(Ordering::Relaxed)))
            .collect()
    }
}

/// Bytes sent to / received from *each* other member of a communicator, and the messages per
/// member by size bin: one message each way per member and call, so a call costs one add to
/// the bytes and one to the bin, and the histogram's share (the bins times the other members)
/// is worked out when a dump is taken.
///
/// Both directions sit side by side (`[sent, recv]`), so that a collective that adds both
/// touches two cache lines, the bytes' and its bin's, rather than four.
#[derive(Debug)]
pub struct Each {
    bytes: Pair,
    bins: [Pair; SIZE_BINS as usize],
}

/// `[sent, recv]`, in one 16-byte-aligned block (never split across lines).
#[derive(Debug, Default)]
#[repr(align(16))]
struct Pair([AtomicU64; 2]);

const SENT: usize = 0;
const RECV: usize = 1;

impl Default for Each {
    fn default() -> Self {
        Each { bytes: Pair::default(), bins: std::array::from_fn(|_| Pair::default()) }
    }
}

impl Each {
    /// One collective call: `sent` bytes to and `recv` bytes from each other member (one
    /// message each way per member where the amount is not 0).
    #[inline(always)]
    pub fn add(&self, sent: u64, recv: u64) {
        self.add_one(SENT, sent);
        self.add_one(RECV, recv);
    }

    /// One message of `bytes` per member in direction `way` (an empty one counts nothing).
    #[inline(always)]
    fn add_one(&self, way: usize, bytes: u64) {
        if let Some(pair) = size_bin(bytes).and_then(|bin| self.bins.get(bin as usize)) {
            self.bytes.0[way].fetch_add(bytes, Ordering::Relaxed);
            pair.0[way].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// `(bytes, messages)` per member in direction `way`.
    fn get_one(&self, way: usize) -> (u64, u64) {
        let msgs = self.bins.iter().map(|b| b.0[way].load(Ordering::Relaxed)).sum();
        (self.bytes.0[way].load(Ordering::Relaxed), msgs)
    }

    /// Takes the counts of direction `way` out, leaving zeros: `(bytes, messages per bin)`.
    fn take_one(&self, way: usize) -> (u64, [u64; SIZE_BINS as usize]) {
        (
            self.bytes.0[way].swap(0, Ordering::Relaxed),
            std::array::from_fn(|b| self.bins[b].0[way].swap(0, Ordering::Relaxed)),
        )
    }

    /// `((sent, recv) bytes, (sent, recv) messages)` per member.
    pub fn get(&self) -> ((u64, u64), (u64, u64)) {
        let ((sent, sent_msgs), (recv, recv_msgs)) = (self.get_one(SENT), self.get_one(RECV));
        ((sent, recv), (sent_msgs, recv_msgs))
    }

    /// Adds the histogram's share, `(sent, recv)` messages per bin, for `others` other members.
    pub fn sizes_into(&self, others: u64, sizes: &mut [(u64, u64)]) {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed).saturating_mul(others);
        for (bin, pair) in sizes.iter_mut().zip(&self.bins) {
            bin.0 += load(&pair.0[SENT]);
            bin.1 += load(&pair.0[RECV]);
        }
    }

    /// Spreads the even shares over `members` (world ranks), skipping `me`.
    pub fn spread_into(
        &self,
        members: impl Iterator<Item = u32>,
        me: u32,
        totals: &mut Totals,
        msgs: &mut Totals,
    ) {
        let ((sent, recv), (sent_msgs, recv_msgs)) = self.get();
        if sent == 0 && recv == 0 {
            return;
        }
        for m in members.filter(|&m| m != me) {
            if let (Some(t), Some(c)) = (totals.get_mut(m as usize), msgs.get_mut(m as usize)) {
                t.0 += sent;
                t.1 += recv;
                c.0 += sent_msgs;
                c.1 += recv_msgs;
            }
        }
    }

    /// Moves the even shares into per-peer counters and the histogram for good (when a
    /// communicator is freed).
    pub fn fold_into(&self, members: &[u32], me: u32, peers: &PeerCounters) {
        let (sent, sent_bins) = self.take_one(SENT);
        let (recv, recv_bins) = self.take_one(RECV);
        let msgs = (sent_bins.iter().sum(), recv_bins.iter().sum());
        let others = members.len().saturating_sub(1) as u64;
        peers.sizes.fold(&sent_bins, others, true);
        peers.sizes.fold(&recv_bins, others, false);
        for &m in members.iter().filter(|&&m| m != me) {
            peers.add_folded(m, (sent, recv), msgs);
        }
    }
}

/// Port-level bytes per (local port index, remote LID): `sent` initiated toward the LID, `recv`
/// pulled from it (RDMA read). Only pairs seen take memory.
#[derive(Debug, Default)]
pub struct LidCounters {
    map: Mutex<HashMap<(u32, u16), (u64, u64)>>,
}

impl LidCounters {
    pub fn add(&self, port: u32, lid: u16, sent: u64, recv: u64) {
        // A poisoned lock only means another thread panicked mid-add; the counts are still sane.
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let e = map.entry((port, lid)).or_default();
        e.0 += sent;
        e.1 += recv;
    }

    /// All pairs, sorted by port then LID.
    pub fn snapshot(&self) -> Vec<(u32, u16, u64, u64)> {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let mut v: Vec<_> = map.iter().map(|(&(p, l), &(s, r))| (p, l, s, r)).collect();
        v.sort_unstable_by_key(|&(p, l, _, _)| (p, l));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_shares_reach_every_member_but_me() {
        let each = Each::default();
        each.add(10, 3);
        each.add(10, 0);
        let (mut totals, mut msgs) = (vec![(0, 0); 4], vec![(0, 0); 4]);
        each.spread_into([0, 2, 3].into_iter(), 2, &mut totals, &mut msgs);
        assert_eq!(totals, vec![(20, 3), (0, 0), (0, 0), (20, 3)]);
        assert_eq!(msgs, vec![(2, 1), (0, 0), (0, 0), (2, 1)], "two calls sent to each, one received");
    }

    #[test]
    fn folding_moves_shares_to_peers_and_the_histogram_once() {
        let peers = PeerCounters::new(3);
        let each = Each::default();
        each.add(5, 7);
        each.fold_into(&[0, 1, 2], 1, &peers);
        each.fold_into(&[0, 1, 2], 1, &peers);
        let (mut totals, mut msgs) = (vec![(0, 0); 3], vec![(0, 0); 3]);
        peers.add_into(&mut totals, &mut msgs);
        assert_eq!(totals, vec![(5, 7), (0, 0), (5, 7)]);
        assert_eq!(msgs, vec![(1, 1), (0, 0), (1, 1)]);
        let bins = peers.sizes.snapshot();
        assert_eq!(
            (bins[2], bins[2].0 + bins.iter().map(|b| b.1).sum::<u64>()),
            ((2, 2), 4),
            "5 and 7 bytes: bin 2, to and from two members"
        );
    }

    #[test]
    fn the_histogram_counts_each_call_once_per_other_member() {
        let each = Each::default();
        each.add(1024, 0);
        each.add(1024, 1);
        each.add(0, 4096);
        let mut sizes = vec![(0, 0); SIZE_BINS as usize];
        each.sizes_into(3, &mut sizes);
        assert_eq!((sizes[10], sizes[0], sizes[12]), ((6, 0), (0, 3), (0, 3)));
        assert_eq!(sizes.iter().map(|b| b.0 + b.1).sum::<u64>(), 12, "nothing for the empty directions");
        assert_eq!(each.get().1, (2, 2), "messages per member: one per call and non-empty direction");
    }

    #[test]
    fn out_of_range_peers_are_ignored_not_a_panic() {
        let peers = PeerCounters::new(2);
        peers.add_sent(9, 1);
        peers.add_recv(u32::MAX, 1);
        peers.add_sent(1, 0);
        let (mut totals, mut msgs) = (vec![(0, 0); 2], vec![(0, 0); 2]);
        peers.add_into(&mut totals, &mut msgs);
        assert_eq!(totals, vec![(0, 0); 2]);
        assert_eq!(msgs, vec![(0, 0); 2], "an empty message counts nothing");
        assert!(peers.sizes.snapshot().iter().all(|&b| b == (0, 0)));
    }

    #[test]
    fn messages_fall_in_their_power_of_two_bins_each_way() {
        let peers = PeerCounters::new(2);
        peers.add_sent(1, 1);
        peers.add_sent(1, 4096);
        peers.add_sent(1, 8191);
        peers.add_recv(0, u64::MAX);
        let bins = peers.sizes.snapshot();
        assert_eq!((bins[0], bins[12], bins[63]), ((1, 0), (2, 0), (0, 1)));
        assert_eq!(bins.iter().map(|b| b.0 + b.1).sum::<u64>(), 4);
    }

    #[test]
    fn lid_pairs_accumulate_and_come_out_sorted() {
        let lids = LidCounters::default();
        lids.add(1, 0x20, 5, 0);
        lids.add(0, 0x30, 1, 2);
        lids.add(1, 0x20, 5, 1);
        assert_eq!(lids.snapshot(), vec![(0, 0x30, 1, 2), (1, 0x20, 10, 1)]);
    }

    #[test]
    fn concurrent_adds_lose_nothing() {
        let peers = PeerCounters::new(2);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..1000).for_each(|_| peers.add_sent(1, 3)));
            }
        });
        let (mut totals, mut msgs) = (vec![(0, 0); 2], vec![(0, 0); 2]);
        peers.add_into(&mut totals, &mut msgs);
        assert_eq!(totals[1].0, 12_000);
        assert_eq!(msgs[1].0, 4000);
        assert_eq!(peers.sizes.snapshot()[1], (4000, 0), "3-byte messages are in bin 1");
    }
}
