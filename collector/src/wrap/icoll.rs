//! Non-blocking collective wrappers: counted when posted, like the blocking ones
//! ([`crate::coll`]). Their traffic moves later, during progress, so they open no `IBPROF=` scope
//! for the backends that count below MPI.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]
#![allow(clippy::too_many_arguments)]

use std::ffi::{c_int, c_void};

use super::{counting, guard};
use crate::coll;
use crate::ffi::{Handle, mpi};
use crate::lookup::Full;
use crate::scope::Kind;

type I = c_int;
type H = Handle;
type P = *const c_void;
type M = *mut c_void;
type IP = *const c_int;

/// Defines `MPI_I<name>`: count with `$count` when `$kind` is selected, then call `PMPI`.
macro_rules! icollective {
    ($name:ident, $field:ident, $kind:expr, ($($arg:ident: $ty:ty),*), |$st:ident| $count:expr) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($arg: $ty),*, req: M) -> I {
            if let Some($st) = counting($kind) {
                guard(stringify!($name), || $count);
            }
            unsafe { (mpi().f.$field)($($arg),*, req) }
        }
    };
}

icollective!(MPI_Ibarrier, ibarrier, Kind::Barrier, (comm: H), |st| { let _ = (st, comm); });
icollective!(MPI_Ibcast, ibcast, Kind::Bcast, (buf: M, count: I, dt: H, root: I, comm: H), |st| {
    let _ = buf;
    coll::bcast(st, Full, count, dt, root, comm)
});
icollective!(MPI_Ireduce, ireduce, Kind::Reduce, (sbuf: P, rbuf: M, count: I, dt: H, op: H, root: I, comm: H), |st| {
    let _ = (sbuf, rbuf, op);
    coll::reduce(st, Full, count, dt, root, comm)
});
icollective!(MPI_Iallreduce, iallreduce, Kind::Allreduce, (sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H), |st| {
    let _ = (sbuf, rbuf, op);
    coll::symmetric(st, Full, count, dt, comm)
});
icollective!(MPI_Igather, igather, Kind::Gather,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, root: I, comm: H), |st| {
    let _ = (sbuf, rbuf);
    coll::gather(st, Full, sc, stype, rc, rtype, root, comm)
});
icollective!(MPI_Igatherv, igatherv, Kind::Gatherv,
    (sbuf: P, sc: I, stype: H, rbuf: M, rcs: IP, displs: IP, rtype: H, root: I, comm: H), |st| {
    let _ = (sbuf, rbuf, displs);
    unsafe { coll::gatherv(st, Full, sc, stype, rcs, rtype, root, comm) }
});
icollective!(MPI_Iscatter, iscatter, Kind::Scatter,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, root: I, comm: H), |st| {
    let _ = (sbuf, rbuf);
    coll::scatter(st, Full, sc, stype, rc, rtype, root, comm)
});
icollective!(MPI_Iscatterv, iscatterv, Kind::Scatterv,
    (sbuf: P, scs: IP, displs: IP, stype: H, rbuf: M, rc: I, rtype: H, root: I, comm: H), |st| {
    let _ = (sbuf, rbuf, displs);
    unsafe { coll::scatterv(st, Full, scs, stype, rc, rtype, root, comm) }
});
icollective!(MPI_Iallgather, iallgather, Kind::Allgather,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, comm: H), |st| {
    let _ = rbuf;
    coll::blocks(st, Full, sbuf, sc, stype, rc, rtype, comm)
});
icollective!(MPI_Iallgatherv, iallgatherv, Kind::Allgatherv,
    (sbuf: P, sc: I, stype: H, rbuf: M, rcs: IP, displs: IP, rtype: H, comm: H), |st| {
    let _ = (rbuf, displs);
    unsafe { coll::allgatherv(st, Full, sbuf, sc, stype, rcs, rtype, comm) }
});
icollective!(MPI_Ialltoall, ialltoall, Kind::Alltoall,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, comm: H), |st| {
    let _ = rbuf;
    coll::blocks(st, Full, sbuf, sc, stype, rc, rtype, comm)
});
icollective!(MPI_Ialltoallv, ialltoallv, Kind::Alltoallv,
    (sbuf: P, scs: IP, sdispls: IP, stype: H, rbuf: M, rcs: IP, rdispls: IP, rtype: H, comm: H), |st| {
    let _ = (sdispls, rbuf, rdispls);
    unsafe { coll::alltoallv(st, Full, sbuf, scs, stype, rcs, rtype, comm) }
});
icollective!(MPI_Ialltoallw, ialltoallw, Kind::Alltoallw,
    (sbuf: P, scs: IP, sdispls: IP, stypes: P, rbuf: M, rcs: IP, rdispls: IP, rtypes: P, comm: H), |st| {
    let _ = (sdispls, rbuf, rdispls);
    unsafe { coll::alltoallw(st, Full, sbuf, scs, stypes, rcs, rtypes, comm) }
});
icollective!(MPI_Ireduce_scatter, ireduce_scatter, Kind::ReduceScatter,
    (sbuf: P, rbuf: M, rcs: IP, dt: H, op: H, comm: H), |st| {
    let _ = (sbuf, rbuf, op);
    unsafe { coll::reduce_scatter(st, Full, rcs, dt, comm) }
});
icollective!(MPI_Ireduce_scatter_block, ireduce_scatter_block, Kind::ReduceScatterBlock,
    (sbuf: P, rbuf: M, rc: I, dt: H, op: H, comm: H), |st| {
    let _ = (sbuf, rbuf, op);
    coll::symmetric(st, Full, rc, dt, comm)
});
icollective!(MPI_Iscan, iscan, Kind::Scan, (sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H), |st| {
    let _ = (sbuf, rbuf, op);
    coll::scan(st, Full, count, dt, comm)
});
icollective!(MPI_Iexscan, iexscan, Kind::Exscan, (sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H), |st| {
    let _ = (sbuf, rbuf, op);
    coll::scan(st, Full, count, dt, comm)
});
