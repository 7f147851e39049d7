//! The MPI interface as the collector sees it: ABI detection and the `PMPI_*` table.

pub mod abi;
pub mod pmpi;
pub mod tools;

pub use abi::{Abi, Consts, Handle, HandleCell, StatusCell};
pub use pmpi::Mpi;
pub(crate) use pmpi::{mpi, mpi_resolved};
