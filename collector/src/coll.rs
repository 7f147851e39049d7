//! Logical bytes of each collective, per peer world rank (the data each rank's result depends
//! on, as a direct algorithm would move it; MPI's real tree or ring schedules are what the
//! ompi-monitoring backend sees instead):
//!
//! | collective            | this rank sends                       | this rank receives                 |
//! |-----------------------|---------------------------------------|------------------------------------|
//! | Bcast                 | root: the buffer to each other rank   | others: the buffer from the root   |
//! | Reduce                | others: the buffer to the root        | root: the buffer from each other   |
//! | Allreduce             | the buffer to each other rank         | the buffer from each other rank    |
//! | Gather(v), Scatter(v) | as their counts say, to / from root   |                                    |
//! | Allgather(v)          | its block to each other rank          | each other rank's block            |
//! | Alltoall(v,w)         | block i to rank i                     | block i from rank i                |
//! | Reduce_scatter(_block)| block i of its vector to rank i       | its own block from each other rank |
//! | Scan, Exscan          | the buffer to each higher rank        | the buffer from each lower rank    |
//! | Barrier               | nothing                               | nothing                            |
//!
//! A rank's share with itself is never counted. `MPI_IN_PLACE` is honoured where the standard
//! lets it change the amounts (Allgather(v), Alltoall(v,w)). Arguments that the standard calls
//! insignificant on a rank (e.g. the receive type at a non-root) are never looked at.
//! Collectives on intercommunicators are not counted.

use std::ffi::{c_int, c_void};

use crate::comms::CommInfo;
use crate::count::counts;
use crate::ffi::Handle;
use crate::lookup::Lookup;
use crate::state::State;

type P = *const c_void;
type IP = *const c_int;

/// What a counting function returns: `None` when `L` could not look something up, in which case
/// nothing was counted (see [`crate::lookup`]).
pub type Counted = Option<()>;

/// Bytes of entry `i` of an MPI counts array of `size`-byte elements: 0 past its end or for a
/// negative count.
fn count_bytes(counts: &[c_int], i: usize, size: u64) -> u64 {
    counts.get(i).map_or(0, |&c| c.max(0) as u64 * size)
}

/// The size of one element of `dt`, looked up only if some count in `counts` is positive.
#[inline(always)]
fn size_if_used<L: Lookup>(st: &State, l: L, counts: &[c_int], dt: Handle) -> Option<u64> {
    if counts.iter().any(|&c| c > 0) { l.type_bytes(st, dt) } else { Some(0) }
}

/// Adds `bytes(i)` to the counter of each other member `i`.
fn per_member(st: &State, v: &CommInfo, sent: bool, mut bytes: impl FnMut(usize) -> u64) {
    let me = v.rank as c_int;
    for i in 0..v.size() {
        if i as c_int == me {
            continue;
        }
        let b = bytes(i);
        if b == 0 {
            continue;
        }
        if let Some(w) = v.member(i as c_int) {
            if sent { st.peers.add_sent(w, b) } else { st.peers.add_recv(w, b) }
        }
    }
}

/// Whether this process is rank `root` of `v`.
#[inline(always)]
fn is_root(v: &CommInfo, root: c_int) -> bool {
    root == v.rank as c_int
}

#[inline(always)]
pub fn bcast<L: Lookup>(st: &State, l: L, count: c_int, dt: Handle, root: c_int, comm: Handle) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let bytes = l.bytes(st, count, dt)?;
    if is_root(v, root) {
        st.add_each(v, bytes, 0);
    } else if let Some(r) = l.member(v, root) {
        st.peers.add_recv(r, bytes);
    }
    Some(())
}

#[inline(always)]
pub fn reduce<L: Lookup>(st: &State, l: L, count: c_int, dt: Handle, root: c_int, comm: Handle) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let bytes = l.bytes(st, count, dt)?;
    if is_root(v, root) {
        st.add_each(v, 0, bytes);
    } else if let Some(r) = l.member(v, root) {
        st.peers.add_sent(r, bytes);
    }
    Some(())
}

/// Allreduce and Reduce_scatter_block: the same amount to and from every other rank.
#[inline(always)]
pub fn symmetric<L: Lookup>(st: &State, l: L, count: c_int, dt: Handle, comm: Handle) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let bytes = l.bytes(st, count, dt)?;
    st.add_each(v, bytes, bytes);
    Some(())
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn gather<L: Lookup>(
    st: &State,
    l: L,
    scount: c_int,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    if is_root(v, root) {
        st.add_each(v, 0, l.bytes(st, rcount, rtype)?);
    } else if let Some(r) = l.member(v, root) {
        st.peers.add_sent(r, l.bytes(st, scount, stype)?);
    }
    Some(())
}

/// # Safety
/// `rcounts` must hold the communicator's size of ints at the root.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gatherv<L: Lookup>(
    st: &State,
    l: L,
    scount: c_int,
    stype: Handle,
    rcounts: IP,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    if is_root(v, root) {
        let rc = unsafe { counts(rcounts, v.size()) };
        let size = size_if_used(st, l, rc, rtype)?;
        per_member(st, v, false, |i| count_bytes(rc, i, size));
    } else if let Some(r) = l.member(v, root) {
        st.peers.add_sent(r, l.bytes(st, scount, stype)?);
    }
    Some(())
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn scatter<L: Lookup>(
    st: &State,
    l: L,
    scount: c_int,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    if is_root(v, root) {
        st.add_each(v, l.bytes(st, scount, stype)?, 0);
    } else if let Some(r) = l.member(v, root) {
        st.peers.add_recv(r, l.bytes(st, rcount, rtype)?);
    }
    Some(())
}

/// # Safety
/// `scounts` must hold the communicator's size of ints at the root.
#[allow(clippy::too_many_arguments)]
pub unsafe fn scatterv<L: Lookup>(
    st: &State,
    l: L,
    scounts: IP,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    if is_root(v, root) {
        let sc = unsafe { counts(scounts, v.size()) };
        let size = size_if_used(st, l, sc, stype)?;
        per_member(st, v, true, |i| count_bytes(sc, i, size));
    } else if let Some(r) = l.member(v, root) {
        st.peers.add_recv(r, l.bytes(st, rcount, rtype)?);
    }
    Some(())
}

/// Allgather and Alltoall: one block to and from each other rank.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn blocks<L: Lookup>(
    st: &State,
    l: L,
    sbuf: P,
    scount: c_int,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    // The second type first: the prepared lookup declines it before looking up the first, so
    // that nothing else is live while it does.
    let same = l.is_in_place(st, sbuf) || (scount == rcount && stype == rtype);
    let second = if same { None } else { Some(l.second_bytes(st, scount, stype)?) };
    let recv = l.bytes(st, rcount, rtype)?;
    let sent = second.unwrap_or(recv);
    st.add_each(v, sent, recv);
    Some(())
}

/// # Safety
/// `rcounts` must hold the communicator's size of ints.
#[allow(clippy::too_many_arguments)]
pub unsafe fn allgatherv<L: Lookup>(
    st: &State,
    l: L,
    sbuf: P,
    scount: c_int,
    stype: Handle,
    rcounts: IP,
    rtype: Handle,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let rc = unsafe { counts(rcounts, v.size()) };
    let rsize = size_if_used(st, l, rc, rtype)?;
    let sent = if l.is_in_place(st, sbuf) {
        count_bytes(rc, v.rank as usize, rsize)
    } else {
        l.bytes(st, scount, stype)?
    };
    st.add_each(v, sent, 0);
    per_member(st, v, false, |i| count_bytes(rc, i, rsize));
    Some(())
}

/// # Safety
/// The count arrays must hold the communicator's size of ints.
#[allow(clippy::too_many_arguments)]
pub unsafe fn alltoallv<L: Lookup>(
    st: &State,
    l: L,
    sbuf: P,
    scounts: IP,
    stype: Handle,
    rcounts: IP,
    rtype: Handle,
    comm: Handle,
) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let n = v.size();
    let rc = unsafe { counts(rcounts, n) };
    let (sc, stype) =
        if l.is_in_place(st, sbuf) { (rc, rtype) } else { (unsafe { counts(scounts, n) }, stype) };
    let ssize = size_if_used(st, l, sc, stype)?;
    let rsize = size_if_used(st, l, rc, rtype)?;
    per_member(st, v, true, |i| count_bytes(sc, i, ssize));
    per_member(st, v, false, |i| count_bytes(rc, i, rsize));
    Some(())
}

/// # Safety
/// The count arrays and the type arrays (`stypes`, `rtypes`: handles of the running ABI) must
/// hold the communicator's size of entries.
#[allow(clippy::too_many_arguments)]
pub unsafe fn alltoallw<L: Lookup>(
    st: &State,
    l: L,
    sbuf: P,
    scounts: IP,
    stypes: P,
    rcounts: IP,
    rtypes: P,
    comm: Handle,
) -> Counted {
    // A type per block: a type that is not prepared may come after others were counted.
    let l = l.full()?;
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let n = v.size();
    let abi = st.mpi.abi();
    let rc = unsafe { counts(rcounts, n) };
    let (sc, stypes) =
        if l.is_in_place(st, sbuf) { (rc, rtypes) } else { (unsafe { counts(scounts, n) }, stypes) };
    let block = |c: &[c_int], types: P, i: usize| match c.get(i) {
        Some(&k) if k > 0 && !types.is_null() => st.bytes(k, unsafe { abi.handle_at(types, i) }),
        _ => 0,
    };
    per_member(st, v, true, |i| block(sc, stypes, i));
    per_member(st, v, false, |i| block(rc, rtypes, i));
    Some(())
}

/// # Safety
/// `rcounts` must hold the communicator's size of ints.
pub unsafe fn reduce_scatter<L: Lookup>(st: &State, l: L, rcounts: IP, dt: Handle, comm: Handle) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let rc = unsafe { counts(rcounts, v.size()) };
    let size = size_if_used(st, l, rc, dt)?;
    per_member(st, v, true, |i| count_bytes(rc, i, size));
    let mine = count_bytes(rc, v.rank as usize, size);
    st.add_each(v, 0, mine);
    Some(())
}

/// Scan and Exscan: to every higher rank, from every lower one.
pub fn scan<L: Lookup>(st: &State, l: L, count: c_int, dt: Handle, comm: Handle) -> Counted {
    let Some(v) = l.intra(st, comm)? else { return Some(()) };
    let bytes = l.bytes(st, count, dt)?;
    if bytes == 0 {
        return Some(());
    }
    let me = v.rank as c_int;
    for i in 0..v.size() as c_int {
        if let Some(w) = v.member(i).filter(|_| i != me) {
            if i > me { st.peers.add_sent(w, bytes) } else { st.peers.add_recv(w, bytes) }
        }
    }
    Some(())
}
