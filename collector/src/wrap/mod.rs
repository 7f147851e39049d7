//! The exported `MPI_*` functions. Each counts (under [`guard`]) and then calls `PMPI_*`.
//!
//! The hot path of a wrapper that counts nothing is two atomic loads (the PMPI table and the
//! state) and one mask test. Counting happens *before* the MPI call, so the call itself is a
//! tail call with the application's arguments untouched: profiling never changes what MPI does.

pub mod coll;
pub mod complete;
pub mod icoll;
pub mod init;
pub mod p2p;

use crate::scope::Kind;
use crate::state::{State, state};

pub(crate) use crate::guard::guard;

/// The state, if `kind` is being counted.
#[inline(always)]
pub(crate) fn counting(kind: Kind) -> Option<&'static State> {
    let st = state()?;
    if st.scope.counts(kind) { Some(st) } else { None }
}

/// Runs a collective wrapper: count, then call MPI, inside the collective's scope if a backend
/// needs it.
macro_rules! collective {
    ($kind:expr, $what:literal, |$st:ident| $count:expr, $call:expr) => {{
        match $crate::wrap::counting($kind) {
            None => $call,
            Some($st) => {
                $crate::wrap::guard($what, || $count);
                if $st.track_inside {
                    let _inside = $crate::inside::Inside::enter();
                    $call
                } else {
                    $call
                }
            }
        }
    }};
}
pub(crate) use collective;
