//! Blocking collective wrappers. What each counts is described in [`crate::coll`].

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]
#![allow(clippy::too_many_arguments)]

use std::ffi::{c_int, c_void};

use super::collective;
use crate::coll;
use crate::ffi::Handle;
use crate::scope::Kind;

type I = c_int;
type H = Handle;
type P = *const c_void;
type M = *mut c_void;
type IP = *const c_int;

collective!(MPI_Barrier, barrier, Kind::Barrier, (comm: H), |st, l| {
    let _ = (st, l, comm);
    Some(())
});
collective!(MPI_Bcast, bcast, Kind::Bcast, (buf: M, count: I, dt: H, root: I, comm: H), |st, l| {
    let _ = buf;
    coll::bcast(st, l, count, dt, root, comm)
});
collective!(MPI_Reduce, reduce, Kind::Reduce,
    (sbuf: P, rbuf: M, count: I, dt: H, op: H, root: I, comm: H), |st, l| {
    let _ = (sbuf, rbuf, op);
    coll::reduce(st, l, count, dt, root, comm)
});
collective!(MPI_Allreduce, allreduce, Kind::Allreduce,
    (sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H), |st, l| {
    let _ = (sbuf, rbuf, op);
    coll::symmetric(st, l, count, dt, comm)
});
collective!(MPI_Gather, gather, Kind::Gather,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, root: I, comm: H), |st, l| {
    let _ = (sbuf, rbuf);
    coll::gather(st, l, sc, stype, rc, rtype, root, comm)
});
collective!(MPI_Gatherv, gatherv, Kind::Gatherv,
    (sbuf: P, sc: I, stype: H, rbuf: M, rcs: IP, displs: IP, rtype: H, root: I, comm: H), |st, l| {
    let _ = (sbuf, rbuf, displs);
    unsafe { coll::gatherv(st, l, sc, stype, rcs, rtype, root, comm) }
});
collective!(MPI_Scatter, scatter, Kind::Scatter,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, root: I, comm: H), |st, l| {
    let _ = (sbuf, rbuf);
    coll::scatter(st, l, sc, stype, rc, rtype, root, comm)
});
collective!(MPI_Scatterv, scatterv, Kind::Scatterv,
    (sbuf: P, scs: IP, displs: IP, stype: H, rbuf: M, rc: I, rtype: H, root: I, comm: H), |st, l| {
    let _ = (sbuf, displs, rbuf);
    unsafe { coll::scatterv(st, l, scs, stype, rc, rtype, root, comm) }
});
collective!(MPI_Allgather, allgather, Kind::Allgather,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, comm: H), |st, l| {
    let _ = rbuf;
    coll::blocks(st, l, sbuf, sc, stype, rc, rtype, comm)
});
collective!(MPI_Allgatherv, allgatherv, Kind::Allgatherv,
    (sbuf: P, sc: I, stype: H, rbuf: M, rcs: IP, displs: IP, rtype: H, comm: H), |st, l| {
    let _ = (rbuf, displs);
    unsafe { coll::allgatherv(st, l, sbuf, sc, stype, rcs, rtype, comm) }
});
collective!(MPI_Alltoall, alltoall, Kind::Alltoall,
    (sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, comm: H), |st, l| {
    let _ = rbuf;
    coll::blocks(st, l, sbuf, sc, stype, rc, rtype, comm)
});
collective!(MPI_Alltoallv, alltoallv, Kind::Alltoallv,
    (sbuf: P, scs: IP, sdispls: IP, stype: H, rbuf: M, rcs: IP, rdispls: IP, rtype: H, comm: H), |st, l| {
    let _ = (sdispls, rbuf, rdispls);
    unsafe { coll::alltoallv(st, l, sbuf, scs, stype, rcs, rtype, comm) }
});
collective!(MPI_Alltoallw, alltoallw, Kind::Alltoallw,
    (sbuf: P, scs: IP, sdispls: IP, stypes: P, rbuf: M, rcs: IP, rdispls: IP, rtypes: P, comm: H), |st, l| {
    let _ = (sdispls, rbuf, rdispls);
    unsafe { coll::alltoallw(st, l, sbuf, scs, stypes, rcs, rtypes, comm) }
});
collective!(MPI_Reduce_scatter, reduce_scatter, Kind::ReduceScatter,
    (sbuf: P, rbuf: M, rcs: IP, dt: H, op: H, comm: H), |st, l| {
    let _ = (sbuf, rbuf, op);
    unsafe { coll::reduce_scatter(st, l, rcs, dt, comm) }
});
collective!(MPI_Reduce_scatter_block, reduce_scatter_block, Kind::ReduceScatterBlock,
    (sbuf: P, rbuf: M, rc: I, dt: H, op: H, comm: H), |st, l| {
    let _ = (sbuf, rbuf, op);
    coll::symmetric(st, l, rc, dt, comm)
});
collective!(MPI_Scan, scan, Kind::Scan, (sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H), |st, l| {
    let _ = (sbuf, rbuf, op);
    coll::scan(st, l, count, dt, comm)
});
collective!(MPI_Exscan, exscan, Kind::Exscan, (sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H), |st, l| {
    let _ = (sbuf, rbuf, op);
    coll::scan(st, l, count, dt, comm)
});
