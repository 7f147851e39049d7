//! The dumps one rank takes: cumulative counters at each region boundary, kept until
//! `MPI_Finalize` writes them.
//!
//! Each dump keeps only the peers and LIDs with traffic, so a rank's memory is its counters
//! (O(peers)) plus what its regions saw. A backend that only knows what this rank *sent* (Open
//! MPI's monitoring) gets its `recv` columns at finalize from the other ranks' `sent` columns
//! ([`fill_recv_from_senders`]).

use std::ffi::{c_int, c_void};

use crate::dump_data::{DumpData, DumpRecord};
use crate::state::State;

/// Replaces every dump's `recv` column with what each peer reported as `sent` to this rank in
/// its dump of the same number. Collective over the collector's private communicator: every
/// rank calls it. It only acts when every rank asks for it and all have the same number of
/// dumps (regions marked collectively); otherwise `recv` stays as the backend left it.
pub fn fill_recv_from_senders(st: &State, wanted: bool, dumps: &mut [DumpRecord]) {
    let m = st.mpi;
    let n = st.size as usize;
    let k = dumps.len();
    // [wanted, -wanted, k, -k] reduced with MAX gives the max and (negated) min of both.
    let mine: [i64; 4] = [wanted as i64, -(wanted as i64), k as i64, -(k as i64)];
    let mut all = [0i64; 4];
    // SAFETY: four `long long` in and out.
    let rc = unsafe {
        (m.f.allreduce)(
            mine.as_ptr() as *const c_void,
            all.as_mut_ptr() as *mut c_void,
            4,
            m.c.long_long,
            m.c.op_max,
            st.private,
        )
    };
    if rc != 0 || all[1] != -1 || all[0] != 1 {
        return;
    }
    if all[2] != -all[3] {
        if st.rank == 0 {
            eprintln!(
                "ibprof: ranks took different numbers of dumps ({} to {}), so the recv columns stay 0",
                -all[3], all[2]
            );
        }
        return;
    }
    // Per peer, per dump: the bytes and the messages this rank sent it.
    let mut send = vec![0u64; 2 * n * k];
    for (d, dump) in dumps.iter().enumerate() {
        for (i, &(peer, sent, _)) in dump.peers.iter().enumerate() {
            let at = 2 * (peer as usize * k + d);
            if let Some(slot) = send.get_mut(at..at + 2) {
                slot[0] = sent;
                slot[1] = dump.msgs.get(i).map_or(0, |m| m.0);
            }
        }
    }
    let mut recv = vec![0u64; 2 * n * k];
    let bytes = (16 * k) as c_int;
    // SAFETY: both buffers hold n blocks of 16·k bytes.
    let rc = unsafe {
        (m.f.alltoall)(
            send.as_ptr() as *const c_void,
            bytes,
            m.c.byte,
            recv.as_mut_ptr() as *mut c_void,
            bytes,
            m.c.byte,
            st.private,
        )
    };
    if rc != 0 {
        return;
    }
    for (d, dump) in dumps.iter_mut().enumerate() {
        let (mut dense, mut msgs) = (vec![(0u64, 0u64); n], vec![(0u64, 0u64); n]);
        for (i, &(peer, sent, _)) in dump.peers.iter().enumerate() {
            if let (Some(e), Some(m)) = (dense.get_mut(peer as usize), msgs.get_mut(peer as usize)) {
                e.0 = sent;
                m.0 = dump.msgs.get(i).map_or(0, |m| m.0);
            }
        }
        for (p, (e, m)) in dense.iter_mut().zip(msgs.iter_mut()).enumerate() {
            let at = 2 * (p * k + d);
            e.1 = recv[at];
            m.1 = recv[at + 1];
        }
        // A sent-only backend (Open MPI's monitoring) counts the messages it sends: each peer's
        // count of messages to this rank is this rank's `recv_msgs`, as its bytes are `recv`.
        let data =
            DumpData { peers: dense, lids: std::mem::take(&mut dump.lids), msgs: Some(msgs), sizes: None };
        *dump = DumpRecord::new(dump.region, dump.name.as_deref(), dump.time, data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_messages_go_on_the_peer_lines_and_the_size_bins_after_the_lids() {
        let mut sizes = vec![(0, 0); 64];
        sizes[12] = (2, 1);
        let data = DumpData {
            peers: vec![(0, 0), (8192, 4096)],
            msgs: Some(vec![(0, 0), (2, 1)]),
            sizes: Some(sizes),
            ..Default::default()
        };
        let mut s = Vec::new();
        DumpRecord::new(1, None, 0, data).write(&mut s);
        assert_eq!(
            String::from_utf8_lossy(&s),
            "region 1 dumptime 0.000000\npeer 1 sent 8192 recv 4096 sent_msgs 2 recv_msgs 1\n\
             msgsize 12 sent_msgs 2 recv_msgs 1\n"
        );
    }

    #[test]
    fn a_dump_keeps_only_peers_with_traffic_and_writes_in_order() {
        let data = DumpData {
            peers: vec![(0, 0), (5, 0), (0, 0), (0, 9)],
            lids: vec![(0, 0x12, 3, 4)],
            ..Default::default()
        };
        let d = DumpRecord::new(2, Some("x"), 1_000_000, data);
        assert_eq!(d.peers, vec![(1, 5, 0), (3, 0, 9)]);
        assert!(d.msgs.is_empty() && d.sizes.is_empty(), "not counted: no message fields");
        let mut s = Vec::new();
        d.write(&mut s);
        assert_eq!(
            String::from_utf8_lossy(&s),
            "region 2 name x dumptime 1.000000\npeer 1 sent 5 recv 0\npeer 3 sent 0 recv 9\n\
             lid 0 0x0012 sent 3 recv 4\n"
        );
    }
}
