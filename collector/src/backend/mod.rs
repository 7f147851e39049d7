//! Where the counters come from. Every backend implements [`Backend`]; a dump asks each active
//! backend to add its cumulative counters.
//!
//! - [`pmpi::Pmpi`] (default): logical bytes per world rank, counted by the `MPI_*` wrappers.
//! - [`ompi_monitoring::OmpiMonitoring`] (`IBPROF_OMPI_MONITORING=1`, Open MPI): the bytes that
//!   Open MPI's monitoring PML really sent to each peer, after collectives were split up. It
//!   replaces pmpi's peer counters.
//! - [`peruse::Peruse`]: per (local port, remote LID) bytes from the `PERUSE_OPENIB_SEND` event,
//!   when the MPI library provides it. It adds `lid` lines next to the peer counters.

pub mod ompi_monitoring;
pub mod peruse;
pub mod pmpi;

pub use crate::dump_data::DumpData;
pub use crate::state::Backend;

/// The backends for this process, peer source first: pmpi, or ompi-monitoring when asked for
/// and available; then PERUSE when the MPI library has the InfiniBand send event.
pub fn select(mpi: &crate::ffi::Mpi, config: &crate::config::Config, rank: u32) -> Vec<Box<dyn Backend>> {
    let mut chosen: Vec<Box<dyn Backend>> = Vec::new();
    let say = |msg: String| {
        if rank == 0 {
            eprintln!("ibprof: {msg}");
        }
    };
    if config.ompi_monitoring {
        match ompi_monitoring::OmpiMonitoring::start(mpi) {
            Ok(b) => chosen.push(Box::new(b)),
            Err(e) => say(format!("ompi-monitoring unavailable ({e}); counting MPI-level bytes (pmpi)")),
        }
    }
    if chosen.is_empty() {
        chosen.push(Box::new(pmpi::Pmpi));
    }
    if config.peruse {
        match peruse::Peruse::start(mpi) {
            Ok(b) => chosen.push(Box::new(b)),
            Err(e) => say(format!("{e}; no port-level (lid) counters, counting MPI-level bytes")),
        }
    }
    chosen
}
