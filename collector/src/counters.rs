//! Byte counters, safe under `MPI_THREAD_MULTIPLE`: relaxed atomic adds, no locks on the hot path.
//!
//! Memory is O(peers): two `u64` per world rank, plus two per communicator for traffic that a
//! collective spreads evenly over all members ([`Each`]). An `MPI_Alltoall` on a communicator of
//! any size therefore costs two atomic adds, not two per peer; the even shares are spread over the
//! members only when a dump is taken.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes sent to and received from each world rank.
#[derive(Debug)]
pub struct PeerCounters {
    sent: Box<[AtomicU64]>,
    recv: Box<[AtomicU64]>,
}

impl PeerCounters {
    pub fn new(world_size: usize) -> PeerCounters {
        let zeros = || (0..world_size).map(|_| AtomicU64::new(0)).collect::<Box<[_]>>();
        PeerCounters { sent: zeros(), recv: zeros() }
    }

    pub fn len(&self) -> usize {
        self.sent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sent.is_empty()
    }

    #[inline(always)]
    pub fn add_sent(&self, peer: u32, bytes: u64) {
        if let Some(c) = self.sent.get(peer as usize) {
            c.fetch_add(bytes, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    pub fn add_recv(&self, peer: u32, bytes: u64) {
        if let Some(c) = self.recv.get(peer as usize) {
            c.fetch_add(bytes, Ordering::Relaxed);
        }
    }

    /// Adds the current values into `totals` (`(sent, recv)` per world rank).
    pub fn add_into(&self, totals: &mut [(u64, u64)]) {
        for ((t, s), r) in totals.iter_mut().zip(self.sent.iter()).zip(self.recv.iter()) {
            t.0 += s.load(Ordering::Relaxed);
            t.1 += r.load(Ordering::Relaxed);
        }
    }
}

/// Bytes sent to / received from *each* other member of a communicator.
#[derive(Debug, Default)]
pub struct Each {
    sent: AtomicU64,
    recv: AtomicU64,
}

impl Each {
    #[inline(always)]
    pub fn add(&self, sent: u64, recv: u64) {
        if sent != 0 {
            self.sent.fetch_add(sent, Ordering::Relaxed);
        }
        if recv != 0 {
            self.recv.fetch_add(recv, Ordering::Relaxed);
        }
    }

    pub fn get(&self) -> (u64, u64) {
        (self.sent.load(Ordering::Relaxed), self.recv.load(Ordering::Relaxed))
    }

    /// Spreads the even shares over `members` (world ranks), skipping `me`.
    pub fn spread_into(&self, members: impl Iterator<Item = u32>, me: u32, totals: &mut [(u64, u64)]) {
        let (sent, recv) = self.get();
        if sent == 0 && recv == 0 {
            return;
        }
        for m in members.filter(|&m| m != me) {
            if let Some(t) = totals.get_mut(m as usize) {
                t.0 += sent;
                t.1 += recv;
            }
        }
    }

    /// Moves the even shares into per-peer counters for good (when a communicator is freed).
    pub fn fold_into(&self, members: &[u32], me: u32, peers: &PeerCounters) {
        let sent = self.sent.swap(0, Ordering::Relaxed);
        let recv = self.recv.swap(0, Ordering::Relaxed);
        for &m in members.iter().filter(|&&m| m != me) {
            if sent != 0 {
                peers.add_sent(m, sent);
            }
            if recv != 0 {
                peers.add_recv(m, recv);
            }
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
        let mut totals = vec![(0, 0); 4];
        each.spread_into([0, 2, 3].into_iter(), 2, &mut totals);
        assert_eq!(totals, vec![(10, 3), (0, 0), (0, 0), (10, 3)]);
    }

    #[test]
    fn folding_moves_shares_to_peers_once() {
        let peers = PeerCounters::new(3);
        let each = Each::default();
        each.add(5, 7);
        each.fold_into(&[0, 1, 2], 1, &peers);
        each.fold_into(&[0, 1, 2], 1, &peers);
        let mut totals = vec![(0, 0); 3];
        peers.add_into(&mut totals);
        assert_eq!(totals, vec![(5, 7), (0, 0), (5, 7)]);
    }

    #[test]
    fn out_of_range_peers_are_ignored_not_a_panic() {
        let peers = PeerCounters::new(2);
        peers.add_sent(9, 1);
        peers.add_recv(u32::MAX, 1);
        let mut totals = vec![(0, 0); 2];
        peers.add_into(&mut totals);
        assert_eq!(totals, vec![(0, 0); 2]);
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
        let mut totals = vec![(0, 0); 2];
        peers.add_into(&mut totals);
        assert_eq!(totals[1].0, 12_000);
    }
}
