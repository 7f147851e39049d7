//! Point-to-point wrappers: blocking, non-blocking and persistent sends and receives.
//!
//! Sends count when posted. Receives count when they complete, from the status (ours when the
//! application passed `MPI_STATUS_IGNORE`), so the source and the length are what arrived.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_int, c_void};

use super::{counting, guard};
use crate::ffi::{Handle, StatusCell, mpi};
use crate::requests::Tracked;
use crate::scope::Kind;
use crate::state::{State, state};

type I = c_int;
type H = Handle;
type P = *const c_void;
type M = *mut c_void;

macro_rules! send_wrapper {
    ($name:ident, $field:ident) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(buf: P, count: I, dt: H, dest: I, tag: I, comm: H) -> I {
            if let Some(st) = counting(Kind::P2p) {
                guard(stringify!($name), || st.count_send(comm, dest, count, dt));
            }
            unsafe { (mpi().f.$field)(buf, count, dt, dest, tag, comm) }
        }
    };
}

send_wrapper!(MPI_Send, send);
send_wrapper!(MPI_Bsend, bsend);
send_wrapper!(MPI_Ssend, ssend);
send_wrapper!(MPI_Rsend, rsend);

macro_rules! isend_wrapper {
    ($name:ident, $field:ident) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(buf: P, count: I, dt: H, dest: I, tag: I, comm: H, req: M) -> I {
            if let Some(st) = counting(Kind::P2p) {
                guard(stringify!($name), || st.count_send(comm, dest, count, dt));
            }
            unsafe { (mpi().f.$field)(buf, count, dt, dest, tag, comm, req) }
        }
    };
}

isend_wrapper!(MPI_Isend, isend);
isend_wrapper!(MPI_Ibsend, ibsend);
isend_wrapper!(MPI_Issend, issend);
isend_wrapper!(MPI_Irsend, irsend);

macro_rules! send_init_wrapper {
    ($name:ident, $field:ident) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(buf: P, count: I, dt: H, dest: I, tag: I, comm: H, req: M) -> I {
            let rc = unsafe { (mpi().f.$field)(buf, count, dt, dest, tag, comm, req) };
            if rc == 0
                && let Some(st) = state()
            {
                guard(stringify!($name), || {
                    let what = match st.send_target(comm, dest, count, dt) {
                        Some((peer, bytes)) => Tracked::Send { peer, bytes },
                        None => Tracked::Nothing,
                    };
                    st.requests.insert(unsafe { st.mpi.abi().handle_at(req, 0) }, what);
                });
            }
            rc
        }
    };
}

send_init_wrapper!(MPI_Send_init, send_init);
send_init_wrapper!(MPI_Bsend_init, bsend_init);
send_init_wrapper!(MPI_Ssend_init, ssend_init);
send_init_wrapper!(MPI_Rsend_init, rsend_init);

/// Calls `f` with a status pointer that is never `MPI_STATUS_IGNORE`, then counts the receive.
#[inline]
unsafe fn with_status(st: &State, status: M, comm: H, f: impl FnOnce(M) -> I) -> I {
    let mut own = StatusCell::default();
    let s = if st.mpi.c.ignores_status(status) { own.as_mut_ptr() } else { status };
    let rc = f(s);
    if rc == 0 {
        guard("counting a receive", || {
            if let Some(v) = st.view(comm) {
                unsafe { st.count_received(v, s) }
            }
        });
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Recv(buf: M, count: I, dt: H, source: I, tag: I, comm: H, status: M) -> I {
    let f = mpi().f.recv;
    match counting(Kind::P2p) {
        Some(st) => unsafe { with_status(st, status, comm, |s| f(buf, count, dt, source, tag, comm, s)) },
        None => unsafe { f(buf, count, dt, source, tag, comm, status) },
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Sendrecv(
    sbuf: P,
    scount: I,
    stype: H,
    dest: I,
    stag: I,
    rbuf: M,
    rcount: I,
    rtype: H,
    source: I,
    rtag: I,
    comm: H,
    status: M,
) -> I {
    let f = mpi().f.sendrecv;
    match counting(Kind::P2p) {
        Some(st) => {
            guard("MPI_Sendrecv", || st.count_send(comm, dest, scount, stype));
            unsafe {
                with_status(st, status, comm, |s| {
                    f(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, s)
                })
            }
        }
        None => unsafe {
            f(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status)
        },
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Sendrecv_replace(
    buf: M,
    count: I,
    dt: H,
    dest: I,
    stag: I,
    source: I,
    rtag: I,
    comm: H,
    status: M,
) -> I {
    let f = mpi().f.sendrecv_replace;
    match counting(Kind::P2p) {
        Some(st) => {
            guard("MPI_Sendrecv_replace", || st.count_send(comm, dest, count, dt));
            unsafe { with_status(st, status, comm, |s| f(buf, count, dt, dest, stag, source, rtag, comm, s)) }
        }
        None => unsafe { f(buf, count, dt, dest, stag, source, rtag, comm, status) },
    }
}

/// Starts tracking a receive request so that its completion is counted.
fn track_recv(st: &State, req: M, source: I, comm: H, persistent: bool) {
    guard("tracking a receive", || {
        let handle = unsafe { st.mpi.abi().handle_at(req, 0) };
        let what = match st.comm_ref(comm) {
            Some(c) if source != st.mpi.c.proc_null => Tracked::Recv { comm: c, persistent },
            _ if persistent => Tracked::Nothing,
            _ => return,
        };
        st.requests.insert(handle, what);
    });
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Irecv(buf: M, count: I, dt: H, source: I, tag: I, comm: H, req: M) -> I {
    let rc = unsafe { (mpi().f.irecv)(buf, count, dt, source, tag, comm, req) };
    if rc == 0
        && let Some(st) = counting(Kind::P2p)
    {
        track_recv(st, req, source, comm, false);
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Recv_init(buf: M, count: I, dt: H, source: I, tag: I, comm: H, req: M) -> I {
    let rc = unsafe { (mpi().f.recv_init)(buf, count, dt, source, tag, comm, req) };
    if rc == 0
        && let Some(st) = state()
    {
        track_recv(st, req, source, comm, true);
    }
    rc
}

/// Counts a persistent send as it starts.
fn start_one(st: &State, handle: Handle) {
    if let Some(Tracked::Send { peer, bytes }) = st.requests.get(handle) {
        st.peers.add_sent(peer, bytes);
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Start(req: M) -> I {
    if let Some(st) = counting(Kind::P2p)
        && !st.requests.is_empty()
    {
        guard("MPI_Start", || start_one(st, unsafe { st.mpi.abi().handle_at(req, 0) }));
    }
    unsafe { (mpi().f.start)(req) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Startall(n: I, reqs: M) -> I {
    if let Some(st) = counting(Kind::P2p)
        && !st.requests.is_empty()
        && !reqs.is_null()
    {
        guard("MPI_Startall", || {
            for i in 0..n.max(0) as usize {
                start_one(st, unsafe { st.mpi.abi().handle_at(reqs, i) });
            }
        });
    }
    unsafe { (mpi().f.startall)(n, reqs) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Request_free(req: M) -> I {
    let taken = match state() {
        Some(st) if !st.requests.is_empty() && !req.is_null() => {
            let h = unsafe { st.mpi.abi().handle_at(req, 0) };
            guard("MPI_Request_free", || st.requests.take(h)).flatten().map(|t| (st, h, t))
        }
        _ => None,
    };
    let rc = unsafe { (mpi().f.request_free)(req) };
    if rc != 0
        && let Some((st, h, t)) = taken
    {
        st.requests.insert(h, t);
    }
    rc
}
