//! The default backend: logical bytes per world rank, as the application asked MPI to move them.
//!
//! The wrappers in [`crate::wrap`] do the counting into [`State`]'s counters; this backend only
//! reads them out, spreading the even shares of collectives over the communicators' members.

use super::{Backend, DumpData};
use crate::state::State;

pub struct Pmpi;

impl Backend for Pmpi {
    fn source(&self) -> &'static str {
        "pmpi"
    }

    fn collect(&self, st: &State, dump: &mut DumpData) {
        if dump.peers.len() < st.size as usize {
            dump.peers.resize(st.size as usize, (0, 0));
        }
        st.comms.totals_into(&st.peers, st.rank, &mut dump.peers);
        st.world_each.spread_into(0..st.size, st.rank, &mut dump.peers);
    }
}
