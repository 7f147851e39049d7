//! Completion wrappers (`MPI_Wait*`, `MPI_Test*`): count the receives that complete.
//!
//! While no receive is pending in the table, each wrapper is a plain forward. Otherwise the
//! request handles are read *before* the call (MPI overwrites completed ones with
//! `MPI_REQUEST_NULL`), and a status array of our own stands in for `MPI_STATUS(ES)_IGNORE`.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_int, c_void};

use super::guard;
use crate::ffi::{Handle, mpi};
use crate::state::{State, state};

type I = c_int;
type M = *mut c_void;

/// The state, if some receive is pending.
#[inline(always)]
fn pending() -> Option<&'static State> {
    state().filter(|st| !st.requests.is_empty())
}

/// Status storage: the caller's, or ours when the caller ignores statuses.
struct Statuses {
    own: Vec<u64>,
    base: M,
    stride: usize,
}

impl Statuses {
    fn new(st: &State, given: M, n: usize) -> Statuses {
        let stride = st.mpi.abi().status_bytes();
        if st.mpi.c.ignores_status(given) {
            let mut own = vec![0u64; (n.max(1) * stride).div_ceil(8)];
            let base = own.as_mut_ptr() as M;
            Statuses { own, base, stride }
        } else {
            Statuses { own: Vec::new(), base: given, stride }
        }
    }

    fn ptr(&self) -> M {
        self.base
    }

    fn at(&self, i: usize) -> *const c_void {
        let _keep = &self.own;
        (self.base as *const u8).wrapping_add(i * self.stride) as *const c_void
    }
}

/// Counts request `handle`'s receive from `status` if it is tracked.
fn done(st: &State, handle: Handle, status: *const c_void) {
    guard("counting a completed receive", || {
        if let Some(comm) = st.requests.complete_recv(handle) {
            unsafe { st.count_received_ref(&comm, status) }
        }
    });
}

fn handles(st: &State, reqs: M, n: I) -> Vec<Handle> {
    if reqs.is_null() {
        return Vec::new();
    }
    (0..n.max(0) as usize).map(|i| unsafe { st.mpi.abi().handle_at(reqs, i) }).collect()
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Wait(req: M, status: M) -> I {
    let f = mpi().f.wait;
    let Some(st) = pending().filter(|_| !req.is_null()) else { return unsafe { f(req, status) } };
    let h = unsafe { st.mpi.abi().handle_at(req, 0) };
    if !st.requests.is_recv(h) {
        return unsafe { f(req, status) };
    }
    let s = Statuses::new(st, status, 1);
    let rc = unsafe { f(req, s.ptr()) };
    if rc == 0 {
        done(st, h, s.at(0));
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Test(req: M, flag: *mut I, status: M) -> I {
    let f = mpi().f.test;
    let Some(st) = pending().filter(|_| !req.is_null()) else { return unsafe { f(req, flag, status) } };
    let h = unsafe { st.mpi.abi().handle_at(req, 0) };
    if !st.requests.is_recv(h) {
        return unsafe { f(req, flag, status) };
    }
    let s = Statuses::new(st, status, 1);
    let rc = unsafe { f(req, flag, s.ptr()) };
    if rc == 0 && !flag.is_null() && unsafe { *flag } != 0 {
        done(st, h, s.at(0));
    }
    rc
}

/// Shared body of `MPI_Waitall` / `MPI_Testall`: `call` gets the status array to use and
/// returns the MPI result and whether everything completed.
unsafe fn all(st: &State, n: I, reqs: M, statuses: M, call: impl FnOnce(M) -> (I, bool)) -> I {
    let hs = handles(st, reqs, n);
    let recvs = st.requests.recv_positions(&hs);
    if recvs.is_empty() {
        return call(statuses).0;
    }
    let s = Statuses::new(st, statuses, hs.len());
    let (rc, complete) = call(s.ptr());
    if rc == 0 && complete {
        for i in recvs {
            done(st, hs[i], s.at(i));
        }
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Waitall(n: I, reqs: M, statuses: M) -> I {
    let f = mpi().f.waitall;
    match pending() {
        None => unsafe { f(n, reqs, statuses) },
        Some(st) => unsafe { all(st, n, reqs, statuses, |s| (f(n, reqs, s), true)) },
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Testall(n: I, reqs: M, flag: *mut I, statuses: M) -> I {
    let f = mpi().f.testall;
    match pending() {
        None => unsafe { f(n, reqs, flag, statuses) },
        Some(st) => unsafe {
            all(st, n, reqs, statuses, |s| {
                let rc = f(n, reqs, flag, s);
                (rc, !flag.is_null() && *flag != 0)
            })
        },
    }
}

/// Shared body of `MPI_Waitany` / `MPI_Testany`.
unsafe fn any(st: &State, n: I, reqs: M, index: *mut I, status: M, call: impl FnOnce(M) -> (I, bool)) -> I {
    let hs = handles(st, reqs, n);
    if st.requests.recv_positions(&hs).is_empty() {
        return call(status).0;
    }
    let s = Statuses::new(st, status, 1);
    let (rc, complete) = call(s.ptr());
    if rc == 0 && complete && !index.is_null() {
        let i = unsafe { *index };
        if let Some(&h) = usize::try_from(i).ok().and_then(|i| hs.get(i)) {
            done(st, h, s.at(0));
        }
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Waitany(n: I, reqs: M, index: *mut I, status: M) -> I {
    let f = mpi().f.waitany;
    match pending() {
        None => unsafe { f(n, reqs, index, status) },
        Some(st) => unsafe { any(st, n, reqs, index, status, |s| (f(n, reqs, index, s), true)) },
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Testany(n: I, reqs: M, index: *mut I, flag: *mut I, status: M) -> I {
    let f = mpi().f.testany;
    match pending() {
        None => unsafe { f(n, reqs, index, flag, status) },
        Some(st) => unsafe {
            any(st, n, reqs, index, status, |s| {
                let rc = f(n, reqs, index, flag, s);
                (rc, !flag.is_null() && *flag != 0)
            })
        },
    }
}

/// Shared body of `MPI_Waitsome` / `MPI_Testsome`.
unsafe fn some(
    st: &State,
    n: I,
    reqs: M,
    outcount: *mut I,
    indices: *mut I,
    statuses: M,
    call: impl FnOnce(M) -> I,
) -> I {
    let hs = handles(st, reqs, n);
    if st.requests.recv_positions(&hs).is_empty() {
        return call(statuses);
    }
    let s = Statuses::new(st, statuses, hs.len());
    let rc = call(s.ptr());
    if rc == 0 && !outcount.is_null() && !indices.is_null() {
        let done_n = usize::try_from(unsafe { *outcount }).unwrap_or(0).min(hs.len());
        for k in 0..done_n {
            let i = unsafe { *indices.add(k) };
            if let Some(&h) = usize::try_from(i).ok().and_then(|i| hs.get(i)) {
                done(st, h, s.at(k));
            }
        }
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Waitsome(n: I, reqs: M, outcount: *mut I, indices: *mut I, statuses: M) -> I {
    let f = mpi().f.waitsome;
    match pending() {
        None => unsafe { f(n, reqs, outcount, indices, statuses) },
        Some(st) => unsafe {
            some(st, n, reqs, outcount, indices, statuses, |s| f(n, reqs, outcount, indices, s))
        },
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Testsome(n: I, reqs: M, outcount: *mut I, indices: *mut I, statuses: M) -> I {
    let f = mpi().f.testsome;
    match pending() {
        None => unsafe { f(n, reqs, outcount, indices, statuses) },
        Some(st) => unsafe {
            some(st, n, reqs, outcount, indices, statuses, |s| f(n, reqs, outcount, indices, s))
        },
    }
}
