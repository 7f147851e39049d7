//! PERUSE InfiniBand send events as a backend.

use super::{Backend, DumpData};
use crate::ffi::Mpi;
use crate::state::State;

pub struct Peruse;

impl Peruse {
    pub fn start(_mpi: &Mpi) -> Result<Peruse, String> {
        Err("PERUSE_OPENIB_SEND is not available in this MPI library".into())
    }
}

impl Backend for Peruse {
    fn source(&self) -> &'static str {
        "peruse"
    }

    fn collect(&self, st: &State, dump: &mut DumpData) {
        dump.lids = st.lids.snapshot();
    }
}
