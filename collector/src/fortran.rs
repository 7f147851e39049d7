//! Fortran bindings (`mpif.h` and `use mpi`, gfortran's `name_` symbols).
//!
//! Open MPI's Fortran functions call `PMPI_*` directly, so its Fortran programs would slip past
//! the C wrappers: these wrappers convert the Fortran handles (`MPI_*_f2c`), count exactly as
//! the C wrappers do, then call Open MPI's own Fortran function (the next `name_` symbol).
//! MPICH's Fortran functions call the C `MPI_*` functions, which already count; under MPICH
//! these wrappers only forward. `use mpi_f08` is not covered.

#![allow(clippy::missing_safety_doc)]

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::OnceLock;

use crate::ffi::abi::dlsym_default;
use crate::ffi::{Abi, Handle, mpi};
use crate::guard::guard;
use crate::inside::Inside;
use crate::lifecycle;
use crate::lookup::Full;
use crate::requests::Tracked;
use crate::scope::Kind;
use crate::state::{State, state};
use crate::{coll, wrap};

type F = *const c_int;
type E = *mut c_int;
type P = *const c_void;
type M = *mut c_void;

/// Open MPI's Fortran sentinels (addresses of its common blocks).
struct Sentinels {
    in_place: usize,
    status_ignore: usize,
    statuses_ignore: usize,
}

fn sentinels() -> &'static Sentinels {
    static S: OnceLock<Sentinels> = OnceLock::new();
    S.get_or_init(|| Sentinels {
        in_place: dlsym_default(c"mpi_fortran_in_place_") as usize,
        status_ignore: dlsym_default(c"mpi_fortran_status_ignore_") as usize,
        statuses_ignore: dlsym_default(c"mpi_fortran_statuses_ignore_") as usize,
    })
}

/// The state, if this is Open MPI (whose Fortran layer bypasses the C wrappers) and `kind` counts.
#[inline]
fn counting(kind: Kind) -> Option<&'static State> {
    wrap::counting(kind).filter(|st| st.mpi.abi() == Abi::OpenMpi)
}

unsafe fn comm(f: F) -> Handle {
    match mpi().x.comm_f2c {
        Some(c) => mpi().abi().norm(unsafe { c(*f) }),
        None => Handle(0),
    }
}

unsafe fn dtype(f: F) -> Handle {
    match mpi().x.type_f2c {
        Some(c) => mpi().abi().norm(unsafe { c(*f) }),
        None => Handle(0),
    }
}

unsafe fn request(f: c_int) -> Handle {
    match mpi().x.request_f2c {
        Some(c) => mpi().abi().norm(unsafe { c(f) }),
        None => Handle(0),
    }
}

/// A Fortran send buffer as the C counting code sees it (`MPI_IN_PLACE` translated).
fn sbuf(p: P) -> P {
    if p as usize == sentinels().in_place && p as usize != 0 { mpi().c.in_place as P } else { p }
}

/// The next definition of a Fortran symbol (the MPI library's own).
macro_rules! next {
    ($name:literal, $ty:ty) => {{
        static NEXT: OnceLock<usize> = OnceLock::new();
        let addr = *NEXT.get_or_init(|| crate::ffi::abi::dlsym_next(c_name($name)) as usize);
        if addr == 0 {
            eprintln!("ibprof: {} not found in the MPI library", $name);
            std::process::abort();
        }
        // SAFETY: the symbol is the MPI library's Fortran function with this signature.
        unsafe { std::mem::transmute::<usize, $ty>(addr) }
    }};
}

fn c_name(s: &'static str) -> &'static CStr {
    // The literals passed to `next!` end with "\0".
    CStr::from_bytes_with_nul(s.as_bytes()).unwrap_or(c"")
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_init_(ierr: E) {
    let f = next!("mpi_init_\0", unsafe extern "C" fn(E));
    guard("preparing MPI_Init", lifecycle::before_init);
    unsafe { f(ierr) };
    if ierr.is_null() || unsafe { *ierr } == 0 {
        guard("starting the profile", lifecycle::start);
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_init_thread_(required: F, provided: E, ierr: E) {
    let f = next!("mpi_init_thread_\0", unsafe extern "C" fn(F, E, E));
    guard("preparing MPI_Init_thread", lifecycle::before_init);
    unsafe { f(required, provided, ierr) };
    if ierr.is_null() || unsafe { *ierr } == 0 {
        guard("starting the profile", lifecycle::start);
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_finalize_(ierr: E) {
    let f = next!("mpi_finalize_\0", unsafe extern "C" fn(E));
    guard("finishing the profile", lifecycle::finish);
    unsafe { f(ierr) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_pcontrol_(level: F) {
    let level = if level.is_null() { 1 } else { unsafe { *level } };
    unsafe { crate::wrap::init::MPI_Pcontrol(level) };
}

/// `CALL IBPROF_REGION('name')`: gfortran passes the length as a hidden trailing argument.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibprof_region_(name: *const c_char, len: usize) {
    if let Some(st) = state() {
        let text = if name.is_null() {
            None
        } else {
            let bytes = unsafe { std::slice::from_raw_parts(name as *const u8, len) };
            Some(String::from_utf8_lossy(bytes).trim_end().to_string())
        };
        guard("ibprof_region", || st.dump(text.as_deref()));
    }
}

macro_rules! fortran_send {
    ($name:ident, $sym:literal) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(buf: P, count: F, dt: F, dest: F, tag: F, c: F, ierr: E) {
            let f = next!($sym, unsafe extern "C" fn(P, F, F, F, F, F, E));
            if let Some(st) = counting(Kind::P2p) {
                guard($sym, || unsafe { st.count_send(comm(c), *dest, *count, dtype(dt)) });
            }
            unsafe { f(buf, count, dt, dest, tag, c, ierr) }
        }
    };
}

fortran_send!(mpi_send_, "mpi_send_\0");
fortran_send!(mpi_ssend_, "mpi_ssend_\0");
fortran_send!(mpi_bsend_, "mpi_bsend_\0");
fortran_send!(mpi_rsend_, "mpi_rsend_\0");

macro_rules! fortran_isend {
    ($name:ident, $sym:literal) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(buf: P, count: F, dt: F, dest: F, tag: F, c: F, req: E, ierr: E) {
            let f = next!($sym, unsafe extern "C" fn(P, F, F, F, F, F, E, E));
            if let Some(st) = counting(Kind::P2p) {
                guard($sym, || unsafe { st.count_send(comm(c), *dest, *count, dtype(dt)) });
            }
            unsafe { f(buf, count, dt, dest, tag, c, req, ierr) }
        }
    };
}

fortran_isend!(mpi_isend_, "mpi_isend_\0");
fortran_isend!(mpi_issend_, "mpi_issend_\0");

/// Status storage for a Fortran call: the caller's, or ours for `MPI_STATUS(ES)_IGNORE`.
/// Open MPI's Fortran status has the C layout (6 integers = 24 bytes).
fn fortran_statuses(given: M, ignore: usize, n: usize, own: &mut Vec<u64>) -> M {
    if given as usize == ignore || given.is_null() {
        own.resize(n.max(1) * 3, 0);
        own.as_mut_ptr() as M
    } else {
        given
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_recv_(buf: M, count: F, dt: F, source: F, tag: F, c: F, status: M, ierr: E) {
    let f = next!("mpi_recv_\0", unsafe extern "C" fn(M, F, F, F, F, F, M, E));
    let Some(st) = counting(Kind::P2p) else {
        return unsafe { f(buf, count, dt, source, tag, c, status, ierr) };
    };
    let mut own = Vec::new();
    let s = fortran_statuses(status, sentinels().status_ignore, 1, &mut own);
    unsafe { f(buf, count, dt, source, tag, c, s, ierr) };
    if ierr.is_null() || unsafe { *ierr } == 0 {
        guard("mpi_recv_", || {
            if let Some(v) = st.view(unsafe { comm(c) }) {
                unsafe { st.count_received(v, s) }
            }
        });
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_irecv_(buf: M, count: F, dt: F, source: F, tag: F, c: F, req: E, ierr: E) {
    let f = next!("mpi_irecv_\0", unsafe extern "C" fn(M, F, F, F, F, F, E, E));
    unsafe { f(buf, count, dt, source, tag, c, req, ierr) };
    if let Some(st) = counting(Kind::P2p)
        && (ierr.is_null() || unsafe { *ierr } == 0)
    {
        guard("mpi_irecv_", || {
            let h = unsafe { request(*req) };
            if let Some(cr) = st.comm_ref(unsafe { comm(c) })
                && unsafe { *source } != st.mpi.c.proc_null
            {
                st.requests.insert(h, Tracked::Recv { comm: cr, persistent: false });
            }
        });
    }
}

/// Counts the tracked receives among Fortran requests `reqs` after a wait that completed them all.
unsafe fn wait_fortran(st: &State, reqs: &[c_int], statuses: M, call: impl FnOnce(M)) {
    let handles: Vec<Handle> = reqs.iter().map(|&r| unsafe { request(r) }).collect();
    let taken = st.requests.take_recvs(&handles);
    let mut own = Vec::new();
    let ignore = if reqs.len() == 1 { sentinels().status_ignore } else { sentinels().statuses_ignore };
    let s =
        if taken.is_empty() { statuses } else { fortran_statuses(statuses, ignore, reqs.len(), &mut own) };
    call(s);
    guard("counting Fortran receives", || {
        for t in taken {
            let status = (s as *const u8).wrapping_add(t.index * 24) as *const c_void;
            unsafe { st.count_received_ref(&t.comm, status) };
        }
    });
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_wait_(req: E, status: M, ierr: E) {
    let f = next!("mpi_wait_\0", unsafe extern "C" fn(E, M, E));
    match counting(Kind::P2p).filter(|st| !st.requests.is_empty()) {
        None => unsafe { f(req, status, ierr) },
        Some(st) => unsafe { wait_fortran(st, &[*req], status, |s| f(req, s, ierr)) },
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_waitall_(n: F, reqs: E, statuses: M, ierr: E) {
    let f = next!("mpi_waitall_\0", unsafe extern "C" fn(F, E, M, E));
    match counting(Kind::P2p).filter(|st| !st.requests.is_empty() && !reqs.is_null()) {
        None => unsafe { f(n, reqs, statuses, ierr) },
        Some(st) => unsafe {
            let list = std::slice::from_raw_parts(reqs, (*n).max(0) as usize).to_vec();
            wait_fortran(st, &list, statuses, |s| f(n, reqs, s, ierr))
        },
    }
}

/// Runs a Fortran collective: count under `kind`, then call MPI inside the collective's scope.
fn fortran_collective(
    kind: Kind,
    what: &'static str,
    count: impl FnOnce(&State) -> coll::Counted,
    call: impl FnOnce(),
) {
    match counting(kind) {
        None => call(),
        Some(st) => {
            guard(what, || count(st));
            let _inside = st.track_inside.then(Inside::enter);
            call()
        }
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_bcast_(buf: M, count: F, dt: F, root: F, c: F, ierr: E) {
    let f = next!("mpi_bcast_\0", unsafe extern "C" fn(M, F, F, F, F, E));
    fortran_collective(
        Kind::Bcast,
        "mpi_bcast_",
        |st| unsafe { coll::bcast(st, Full, *count, dtype(dt), *root, comm(c)) },
        || unsafe { f(buf, count, dt, root, c, ierr) },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_reduce_(sb: P, rb: M, count: F, dt: F, op: F, root: F, c: F, ierr: E) {
    let f = next!("mpi_reduce_\0", unsafe extern "C" fn(P, M, F, F, F, F, F, E));
    fortran_collective(
        Kind::Reduce,
        "mpi_reduce_",
        |st| unsafe { coll::reduce(st, Full, *count, dtype(dt), *root, comm(c)) },
        || unsafe { f(sb, rb, count, dt, op, root, c, ierr) },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_allreduce_(sb: P, rb: M, count: F, dt: F, op: F, c: F, ierr: E) {
    let f = next!("mpi_allreduce_\0", unsafe extern "C" fn(P, M, F, F, F, F, E));
    fortran_collective(
        Kind::Allreduce,
        "mpi_allreduce_",
        |st| unsafe { coll::symmetric(st, Full, *count, dtype(dt), comm(c)) },
        || unsafe { f(sb, rb, count, dt, op, c, ierr) },
    )
}

macro_rules! fortran_blocks {
    ($name:ident, $sym:literal, $kind:expr) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(sb: P, sc: F, st_: F, rb: M, rc: F, rt: F, c: F, ierr: E) {
            let f = next!($sym, unsafe extern "C" fn(P, F, F, M, F, F, F, E));
            fortran_collective(
                $kind,
                $sym,
                |st| unsafe { coll::blocks(st, Full, sbuf(sb), *sc, dtype(st_), *rc, dtype(rt), comm(c)) },
                || unsafe { f(sb, sc, st_, rb, rc, rt, c, ierr) },
            )
        }
    };
}

fortran_blocks!(mpi_alltoall_, "mpi_alltoall_\0", Kind::Alltoall);
fortran_blocks!(mpi_allgather_, "mpi_allgather_\0", Kind::Allgather);

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_gather_(sb: P, sc: F, st_: F, rb: M, rc: F, rt: F, root: F, c: F, ierr: E) {
    let f = next!("mpi_gather_\0", unsafe extern "C" fn(P, F, F, M, F, F, F, F, E));
    fortran_collective(
        Kind::Gather,
        "mpi_gather_",
        |st| unsafe { coll::gather(st, Full, *sc, dtype(st_), *rc, dtype(rt), *root, comm(c)) },
        || unsafe { f(sb, sc, st_, rb, rc, rt, root, c, ierr) },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_scatter_(sb: P, sc: F, st_: F, rb: M, rc: F, rt: F, root: F, c: F, ierr: E) {
    let f = next!("mpi_scatter_\0", unsafe extern "C" fn(P, F, F, M, F, F, F, F, E));
    fortran_collective(
        Kind::Scatter,
        "mpi_scatter_",
        |st| unsafe { coll::scatter(st, Full, *sc, dtype(st_), *rc, dtype(rt), *root, comm(c)) },
        || unsafe { f(sb, sc, st_, rb, rc, rt, root, c, ierr) },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_alltoallv_(
    sb: P,
    scs: F,
    sd: F,
    st_: F,
    rb: M,
    rcs: F,
    rd: F,
    rt: F,
    c: F,
    ierr: E,
) {
    let f = next!("mpi_alltoallv_\0", unsafe extern "C" fn(P, F, F, F, M, F, F, F, F, E));
    fortran_collective(
        Kind::Alltoallv,
        "mpi_alltoallv_",
        |st| unsafe { coll::alltoallv(st, Full, sbuf(sb), scs, dtype(st_), rcs, dtype(rt), comm(c)) },
        || unsafe { f(sb, scs, sd, st_, rb, rcs, rd, rt, c, ierr) },
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn mpi_barrier_(c: F, ierr: E) {
    let f = next!("mpi_barrier_\0", unsafe extern "C" fn(F, E));
    fortran_collective(Kind::Barrier, "mpi_barrier_", |_| Some(()), || unsafe { f(c, ierr) })
}
