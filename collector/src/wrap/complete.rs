//! Completion wrappers (`MPI_Wait*`, `MPI_Test*`): count the receives that complete.
//!
//! While no receive is pending in the table, each wrapper is a plain forward. Otherwise the
//! request handles are read and their receives taken out of the table *before* the call (MPI
//! overwrites completed handles with `MPI_REQUEST_NULL` and may reuse their values at once, see
//! [`crate::requests`]); a status array of our own stands in for `MPI_STATUS(ES)_IGNORE`.
//! Afterwards the completed receives are counted and the others put back.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_int, c_void};

use super::guard;
use crate::ffi::{Handle, mpi};
use crate::requests::Taken;
use crate::scope::Kind;
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

/// Settles the taken receives after the call: those `completed` says are done (by position in
/// the request array, with the status at that status slot) are counted; persistent ones and
/// unfinished ones go back into the table.
fn settle(
    st: &State,
    taken: Vec<Taken>,
    rc: I,
    statuses: &Statuses,
    completed: impl Fn(usize) -> Option<usize>,
) {
    guard("counting completed receives", || {
        let counting = st.scope.counts(Kind::P2p);
        for t in taken {
            let slot = if rc == 0 { completed(t.index) } else { None };
            if let Some(slot) = slot
                && counting
            {
                unsafe { st.count_received_ref(&t.comm, statuses.at(slot)) };
            }
            if slot.is_none() || t.persistent {
                st.requests.put_back(t);
            }
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
    let Some(st) = pending() else { return unsafe { f(req, status) } };
    let taken = st.requests.take_recvs(&handles(st, req, 1));
    if taken.is_empty() {
        return unsafe { f(req, status) };
    }
    let s = Statuses::new(st, status, 1);
    let rc = unsafe { f(req, s.ptr()) };
    settle(st, taken, rc, &s, |_| Some(0));
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Test(req: M, flag: *mut I, status: M) -> I {
    let f = mpi().f.test;
    let Some(st) = pending() else { return unsafe { f(req, flag, status) } };
    let taken = st.requests.take_recvs(&handles(st, req, 1));
    if taken.is_empty() {
        return unsafe { f(req, flag, status) };
    }
    let s = Statuses::new(st, status, 1);
    let rc = unsafe { f(req, flag, s.ptr()) };
    let done = !flag.is_null() && unsafe { *flag } != 0;
    settle(st, taken, rc, &s, |_| done.then_some(0));
    rc
}

/// Shared body of `MPI_Waitall` / `MPI_Testall`: `call` gets the status array to use and
/// returns the MPI result and whether everything completed.
unsafe fn all(st: &State, n: I, reqs: M, statuses: M, call: impl FnOnce(M) -> (I, bool)) -> I {
    let taken = st.requests.take_recvs(&handles(st, reqs, n));
    if taken.is_empty() {
        return call(statuses).0;
    }
    let s = Statuses::new(st, statuses, n.max(0) as usize);
    let (rc, complete) = call(s.ptr());
    settle(st, taken, rc, &s, |i| complete.then_some(i));
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

/// Shared body of `MPI_Waitany` / `MPI_Testany`; `call` returns the result and whether a
/// request completed (its position is then in `*index`).
unsafe fn any(st: &State, n: I, reqs: M, index: *mut I, status: M, call: impl FnOnce(M) -> (I, bool)) -> I {
    let taken = st.requests.take_recvs(&handles(st, reqs, n));
    if taken.is_empty() {
        return call(status).0;
    }
    let s = Statuses::new(st, status, 1);
    let (rc, complete) = call(s.ptr());
    let which = if complete && !index.is_null() { usize::try_from(unsafe { *index }).ok() } else { None };
    settle(st, taken, rc, &s, |i| (Some(i) == which).then_some(0));
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
    let taken = st.requests.take_recvs(&handles(st, reqs, n));
    if taken.is_empty() {
        return call(statuses);
    }
    let s = Statuses::new(st, statuses, n.max(0) as usize);
    let rc = call(s.ptr());
    let mut slots = Vec::new();
    if rc == 0 && !outcount.is_null() && !indices.is_null() {
        let k = usize::try_from(unsafe { *outcount }).unwrap_or(0).min(n.max(0) as usize);
        slots = (0..k).map(|j| unsafe { *indices.add(j) }).collect();
    }
    settle(st, taken, rc, &s, |i| slots.iter().position(|&x| x as usize == i));
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
