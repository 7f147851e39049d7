//! Open MPI's monitoring components as a backend (`IBPROF_OMPI_MONITORING=1`).

use super::{Backend, DumpData};
use crate::ffi::Mpi;
use crate::state::State;

pub struct OmpiMonitoring;

/// Sets the MCA parameters that switch the monitoring PML on; MPI reads them in `MPI_Init`.
pub fn before_init() {}

impl OmpiMonitoring {
    pub fn start(_mpi: &Mpi) -> Result<OmpiMonitoring, String> {
        Err("not built yet".into())
    }
}

impl Backend for OmpiMonitoring {
    fn source(&self) -> &'static str {
        "ompi-monitoring"
    }

    fn collect(&self, _st: &State, _dump: &mut DumpData) {}
}
