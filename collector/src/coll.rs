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

use crate::count::{View, counts};
use crate::ffi::Handle;
use crate::state::State;

type P = *const c_void;
type IP = *const c_int;

#[inline]
fn intra(st: &State, comm: Handle) -> Option<View<'_>> {
    st.view(comm).filter(|v| !v.is_inter())
}

/// Adds `bytes(i)` to the counter of each other member `i`.
/// Bytes of entry `i` of an MPI counts array of `size`-byte elements: 0 past its end or for a
/// negative count.
fn count_bytes(counts: &[c_int], i: usize, size: u64) -> u64 {
    counts.get(i).map_or(0, |&c| c.max(0) as u64 * size)
}

fn per_member(st: &State, v: View<'_>, sent: bool, mut bytes: impl FnMut(usize) -> u64) {
    let me = v.me(st);
    for i in 0..v.size(st) {
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

#[inline]
pub fn bcast(st: &State, count: c_int, dt: Handle, root: c_int, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let bytes = st.bytes(count, dt);
    if root == v.me(st) {
        v.add_each(st, bytes, 0);
    } else if let Some(r) = v.member(root) {
        st.peers.add_recv(r, bytes);
    }
}

#[inline]
pub fn reduce(st: &State, count: c_int, dt: Handle, root: c_int, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let bytes = st.bytes(count, dt);
    if root == v.me(st) {
        v.add_each(st, 0, bytes);
    } else if let Some(r) = v.member(root) {
        st.peers.add_sent(r, bytes);
    }
}

/// Allreduce and Reduce_scatter_block: the same amount to and from every other rank.
#[inline]
pub fn symmetric(st: &State, count: c_int, dt: Handle, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let bytes = st.bytes(count, dt);
    v.add_each(st, bytes, bytes);
}

#[allow(clippy::too_many_arguments)]
pub fn gather(
    st: &State,
    scount: c_int,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) {
    let Some(v) = intra(st, comm) else { return };
    if root == v.me(st) {
        v.add_each(st, 0, st.bytes(rcount, rtype));
    } else if let Some(r) = v.member(root) {
        st.peers.add_sent(r, st.bytes(scount, stype));
    }
}

/// # Safety
/// `rcounts` must hold the communicator's size of ints at the root.
pub unsafe fn gatherv(
    st: &State,
    scount: c_int,
    stype: Handle,
    rcounts: IP,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) {
    let Some(v) = intra(st, comm) else { return };
    if root == v.me(st) {
        let rc = unsafe { counts(rcounts, v.size(st)) };
        let size = if rc.iter().any(|&c| c > 0) { st.type_bytes(rtype) } else { 0 };
        per_member(st, v, false, |i| count_bytes(rc, i, size));
    } else if let Some(r) = v.member(root) {
        st.peers.add_sent(r, st.bytes(scount, stype));
    }
}

pub fn scatter(
    st: &State,
    scount: c_int,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) {
    let Some(v) = intra(st, comm) else { return };
    if root == v.me(st) {
        v.add_each(st, st.bytes(scount, stype), 0);
    } else if let Some(r) = v.member(root) {
        st.peers.add_recv(r, st.bytes(rcount, rtype));
    }
}

/// # Safety
/// `scounts` must hold the communicator's size of ints at the root.
pub unsafe fn scatterv(
    st: &State,
    scounts: IP,
    stype: Handle,
    rcount: c_int,
    rtype: Handle,
    root: c_int,
    comm: Handle,
) {
    let Some(v) = intra(st, comm) else { return };
    if root == v.me(st) {
        let sc = unsafe { counts(scounts, v.size(st)) };
        let size = if sc.iter().any(|&c| c > 0) { st.type_bytes(stype) } else { 0 };
        per_member(st, v, true, |i| count_bytes(sc, i, size));
    } else if let Some(r) = v.member(root) {
        st.peers.add_recv(r, st.bytes(rcount, rtype));
    }
}

/// Allgather and Alltoall: one block to and from each other rank.
pub fn blocks(st: &State, sbuf: P, scount: c_int, stype: Handle, rcount: c_int, rtype: Handle, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let recv = st.bytes(rcount, rtype);
    let sent = if st.mpi.c.is_in_place(sbuf) || (scount == rcount && stype == rtype) {
        recv
    } else {
        st.bytes(scount, stype)
    };
    v.add_each(st, sent, recv);
}

/// # Safety
/// `rcounts` must hold the communicator's size of ints.
pub unsafe fn allgatherv(
    st: &State,
    sbuf: P,
    scount: c_int,
    stype: Handle,
    rcounts: IP,
    rtype: Handle,
    comm: Handle,
) {
    let Some(v) = intra(st, comm) else { return };
    let rc = unsafe { counts(rcounts, v.size(st)) };
    let rsize = if rc.iter().any(|&c| c > 0) { st.type_bytes(rtype) } else { 0 };
    let sent = if st.mpi.c.is_in_place(sbuf) {
        count_bytes(rc, v.me(st) as usize, rsize)
    } else {
        st.bytes(scount, stype)
    };
    v.add_each(st, sent, 0);
    per_member(st, v, false, |i| count_bytes(rc, i, rsize));
}

/// # Safety
/// The count arrays must hold the communicator's size of ints.
#[allow(clippy::too_many_arguments)]
pub unsafe fn alltoallv(
    st: &State,
    sbuf: P,
    scounts: IP,
    stype: Handle,
    rcounts: IP,
    rtype: Handle,
    comm: Handle,
) {
    let Some(v) = intra(st, comm) else { return };
    let n = v.size(st);
    let rc = unsafe { counts(rcounts, n) };
    let (sc, stype) =
        if st.mpi.c.is_in_place(sbuf) { (rc, rtype) } else { (unsafe { counts(scounts, n) }, stype) };
    let ssize = if sc.iter().any(|&c| c > 0) { st.type_bytes(stype) } else { 0 };
    let rsize = if rc.iter().any(|&c| c > 0) { st.type_bytes(rtype) } else { 0 };
    per_member(st, v, true, |i| count_bytes(sc, i, ssize));
    per_member(st, v, false, |i| count_bytes(rc, i, rsize));
}

/// # Safety
/// The count arrays and the type arrays (`stypes`, `rtypes`: handles of the running ABI) must
/// hold the communicator's size of entries.
#[allow(clippy::too_many_arguments)]
pub unsafe fn alltoallw(st: &State, sbuf: P, scounts: IP, stypes: P, rcounts: IP, rtypes: P, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let n = v.size(st);
    let abi = st.mpi.abi();
    let rc = unsafe { counts(rcounts, n) };
    let (sc, stypes) =
        if st.mpi.c.is_in_place(sbuf) { (rc, rtypes) } else { (unsafe { counts(scounts, n) }, stypes) };
    let block = |c: &[c_int], types: P, i: usize| match c.get(i) {
        Some(&k) if k > 0 && !types.is_null() => st.bytes(k, unsafe { abi.handle_at(types, i) }),
        _ => 0,
    };
    per_member(st, v, true, |i| block(sc, stypes, i));
    per_member(st, v, false, |i| block(rc, rtypes, i));
}

/// # Safety
/// `rcounts` must hold the communicator's size of ints.
pub unsafe fn reduce_scatter(st: &State, rcounts: IP, dt: Handle, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let rc = unsafe { counts(rcounts, v.size(st)) };
    let size = if rc.iter().any(|&c| c > 0) { st.type_bytes(dt) } else { 0 };
    per_member(st, v, true, |i| count_bytes(rc, i, size));
    let mine = count_bytes(rc, v.me(st) as usize, size);
    v.add_each(st, 0, mine);
}

/// Scan and Exscan: to every higher rank, from every lower one.
pub fn scan(st: &State, count: c_int, dt: Handle, comm: Handle) {
    let Some(v) = intra(st, comm) else { return };
    let bytes = st.bytes(count, dt);
    if bytes == 0 {
        return;
    }
    let me = v.me(st);
    for i in 0..v.size(st) as c_int {
        if let Some(w) = v.member(i).filter(|_| i != me) {
            if i > me { st.peers.add_sent(w, bytes) } else { st.peers.add_recv(w, bytes) }
        }
    }
}
