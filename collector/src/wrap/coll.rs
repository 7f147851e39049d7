//! Blocking collective wrappers. What each counts is described in [`crate::coll`].

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]
#![allow(clippy::too_many_arguments)]

use std::ffi::{c_int, c_void};

use super::collective;
use crate::coll;
use crate::ffi::{Handle, mpi};
use crate::scope::Kind;

type I = c_int;
type H = Handle;
type P = *const c_void;
type M = *mut c_void;
type IP = *const c_int;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Barrier(comm: H) -> I {
    collective!(
        Kind::Barrier,
        "MPI_Barrier",
        |st| {
            let _ = st;
        },
        unsafe { (mpi().f.barrier)(comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Bcast(buf: M, count: I, dt: H, root: I, comm: H) -> I {
    collective!(Kind::Bcast, "MPI_Bcast", |st| coll::bcast(st, count, dt, root, comm), unsafe {
        (mpi().f.bcast)(buf, count, dt, root, comm)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Reduce(sbuf: P, rbuf: M, count: I, dt: H, op: H, root: I, comm: H) -> I {
    collective!(Kind::Reduce, "MPI_Reduce", |st| coll::reduce(st, count, dt, root, comm), unsafe {
        (mpi().f.reduce)(sbuf, rbuf, count, dt, op, root, comm)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Allreduce(sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H) -> I {
    collective!(Kind::Allreduce, "MPI_Allreduce", |st| coll::symmetric(st, count, dt, comm), unsafe {
        (mpi().f.allreduce)(sbuf, rbuf, count, dt, op, comm)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Gather(
    sbuf: P,
    sc: I,
    stype: H,
    rbuf: M,
    rc: I,
    rtype: H,
    root: I,
    comm: H,
) -> I {
    collective!(Kind::Gather, "MPI_Gather", |st| coll::gather(st, sc, stype, rc, rtype, root, comm), unsafe {
        (mpi().f.gather)(sbuf, sc, stype, rbuf, rc, rtype, root, comm)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Gatherv(
    sbuf: P,
    sc: I,
    stype: H,
    rbuf: M,
    rcs: IP,
    displs: IP,
    rtype: H,
    root: I,
    comm: H,
) -> I {
    collective!(
        Kind::Gatherv,
        "MPI_Gatherv",
        |st| unsafe { coll::gatherv(st, sc, stype, rcs, rtype, root, comm) },
        unsafe { (mpi().f.gatherv)(sbuf, sc, stype, rbuf, rcs, displs, rtype, root, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Scatter(
    sbuf: P,
    sc: I,
    stype: H,
    rbuf: M,
    rc: I,
    rtype: H,
    root: I,
    comm: H,
) -> I {
    collective!(
        Kind::Scatter,
        "MPI_Scatter",
        |st| coll::scatter(st, sc, stype, rc, rtype, root, comm),
        unsafe { (mpi().f.scatter)(sbuf, sc, stype, rbuf, rc, rtype, root, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Scatterv(
    sbuf: P,
    scs: IP,
    displs: IP,
    stype: H,
    rbuf: M,
    rc: I,
    rtype: H,
    root: I,
    comm: H,
) -> I {
    collective!(
        Kind::Scatterv,
        "MPI_Scatterv",
        |st| unsafe { coll::scatterv(st, scs, stype, rc, rtype, root, comm) },
        unsafe { (mpi().f.scatterv)(sbuf, scs, displs, stype, rbuf, rc, rtype, root, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Allgather(sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, comm: H) -> I {
    collective!(
        Kind::Allgather,
        "MPI_Allgather",
        |st| coll::blocks(st, sbuf, sc, stype, rc, rtype, comm),
        unsafe { (mpi().f.allgather)(sbuf, sc, stype, rbuf, rc, rtype, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Allgatherv(
    sbuf: P,
    sc: I,
    stype: H,
    rbuf: M,
    rcs: IP,
    displs: IP,
    rtype: H,
    comm: H,
) -> I {
    collective!(
        Kind::Allgatherv,
        "MPI_Allgatherv",
        |st| unsafe { coll::allgatherv(st, sbuf, sc, stype, rcs, rtype, comm) },
        unsafe { (mpi().f.allgatherv)(sbuf, sc, stype, rbuf, rcs, displs, rtype, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Alltoall(sbuf: P, sc: I, stype: H, rbuf: M, rc: I, rtype: H, comm: H) -> I {
    collective!(
        Kind::Alltoall,
        "MPI_Alltoall",
        |st| coll::blocks(st, sbuf, sc, stype, rc, rtype, comm),
        unsafe { (mpi().f.alltoall)(sbuf, sc, stype, rbuf, rc, rtype, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Alltoallv(
    sbuf: P,
    scs: IP,
    sdispls: IP,
    stype: H,
    rbuf: M,
    rcs: IP,
    rdispls: IP,
    rtype: H,
    comm: H,
) -> I {
    collective!(
        Kind::Alltoallv,
        "MPI_Alltoallv",
        |st| unsafe { coll::alltoallv(st, sbuf, scs, stype, rcs, rtype, comm) },
        unsafe { (mpi().f.alltoallv)(sbuf, scs, sdispls, stype, rbuf, rcs, rdispls, rtype, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Alltoallw(
    sbuf: P,
    scs: IP,
    sdispls: IP,
    stypes: P,
    rbuf: M,
    rcs: IP,
    rdispls: IP,
    rtypes: P,
    comm: H,
) -> I {
    collective!(
        Kind::Alltoallw,
        "MPI_Alltoallw",
        |st| unsafe { coll::alltoallw(st, sbuf, scs, stypes, rcs, rtypes, comm) },
        unsafe { (mpi().f.alltoallw)(sbuf, scs, sdispls, stypes, rbuf, rcs, rdispls, rtypes, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Reduce_scatter(sbuf: P, rbuf: M, rcs: IP, dt: H, op: H, comm: H) -> I {
    collective!(
        Kind::ReduceScatter,
        "MPI_Reduce_scatter",
        |st| unsafe { coll::reduce_scatter(st, rcs, dt, comm) },
        unsafe { (mpi().f.reduce_scatter)(sbuf, rbuf, rcs, dt, op, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Reduce_scatter_block(sbuf: P, rbuf: M, rc: I, dt: H, op: H, comm: H) -> I {
    collective!(
        Kind::ReduceScatterBlock,
        "MPI_Reduce_scatter_block",
        |st| coll::symmetric(st, rc, dt, comm),
        unsafe { (mpi().f.reduce_scatter_block)(sbuf, rbuf, rc, dt, op, comm) }
    )
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Scan(sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H) -> I {
    collective!(Kind::Scan, "MPI_Scan", |st| coll::scan(st, count, dt, comm), unsafe {
        (mpi().f.scan)(sbuf, rbuf, count, dt, op, comm)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Exscan(sbuf: P, rbuf: M, count: I, dt: H, op: H, comm: H) -> I {
    collective!(Kind::Exscan, "MPI_Exscan", |st| coll::scan(st, count, dt, comm), unsafe {
        (mpi().f.exscan)(sbuf, rbuf, count, dt, op, comm)
    })
}
