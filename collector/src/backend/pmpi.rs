//! The default backend: logical bytes and messages per world rank, as the application asked MPI
//! to move them, and the message-size histogram.
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
        let n = st.size as usize;
        if dump.peers.len() < n {
            dump.peers.resize(n, (0, 0));
        }
        let msgs = dump.msgs.get_or_insert_with(Vec::new);
        msgs.resize(n, (0, 0));
        let mut sizes = st.comms.totals_into(&st.peers, st.rank, &mut dump.peers, msgs);
        st.world.each.spread_into(0..st.size, st.rank, &mut dump.peers, msgs);
        st.world.each.sizes_into(st.world.size().saturating_sub(1) as u64, &mut sizes);
        dump.sizes = Some(sizes);
    }
}
