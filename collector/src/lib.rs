//! libibprof: a collector preloaded into unmodified MPI jobs. It counts the bytes each rank
//! exchanges with each other rank (and, where the MPI library exposes it, with each remote
//! InfiniBand LID), takes cumulative dumps at code-region boundaries, and at `MPI_Finalize`
//! gathers every rank's section into one ibprof v1 profile for shoal.
//!
//! ```text
//! mpirun -np 128 -x LD_PRELOAD=/path/libibprof.so -x IBPROF_OUT=run1.ibprof ./app
//! ```
//!
//! Conventions: bytes are plain byte counts; ranks are `MPI_COMM_WORLD` ranks. The profile is
//! written by the `ibprof-format` crate, the same writer shoal uses.
//!
//! One `libibprof.so` serves both Open MPI and the MPICH family: the MPI interface is declared
//! here (not taken from an `mpi.h`) with handles as [`ffi::Handle`], and the ABI is detected at
//! run time ([`ffi::abi`]). Every exported function catches panics ([`guard`]); profiling never
//! changes an MPI call's arguments or result.

pub mod backend;
pub mod chunks;
pub(crate) mod coll;
pub mod comm_attr;
pub mod comms;
pub mod config;
pub mod count;
pub mod counters;
pub mod dump_data;
pub mod dumps;
pub mod ffi;
pub mod fortran;
pub mod guard;
pub(crate) mod hot;
pub mod inside;
pub mod insitu;
pub mod insitu_finish;
pub mod lifecycle;
pub mod local_port;
pub(crate) mod lookup;
pub mod mpiio;
pub mod ops;
pub mod output;
pub mod requests;
pub mod safe_file;
pub mod scope;
pub mod state;
pub mod sysfs;
pub mod typesize;
pub mod wrap;
