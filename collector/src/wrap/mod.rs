//! The exported `MPI_*` functions. Each counts (under [`guard`]) and then calls `PMPI_*`.
//!
//! The hot path of a wrapper that counts nothing is two atomic loads (the PMPI table and the
//! state) and one mask test. Counting happens *before* the MPI call, so the call itself is a
//! tail call with the application's arguments untouched: profiling never changes what MPI does.

pub mod attr;
pub mod coll;
pub mod complete;
pub mod icoll;
pub mod init;
pub mod p2p;

use std::cell::Cell;

use crate::scope::Kind;
use crate::state::{State, state};

pub(crate) use crate::guard::guard;

/// The state, if `kind` is being counted.
#[inline(always)]
pub(crate) fn counting(kind: Kind) -> Option<&'static State> {
    let st = state()?;
    if st.scope.counts(kind) { Some(st) } else { None }
}

thread_local! {
    static INSIDE: Cell<u32> = const { Cell::new(0) };
}

/// Marks the calling thread as inside a selected collective, for the backends that count below
/// MPI (PERUSE) and honour `IBPROF=` by counting only while inside.
pub(crate) struct Inside;

impl Inside {
    pub(crate) fn enter() -> Inside {
        INSIDE.with(|c| c.set(c.get() + 1));
        Inside
    }

    /// True if the calling thread is inside a selected collective.
    pub(crate) fn now() -> bool {
        INSIDE.with(|c| c.get() > 0)
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        INSIDE.with(|c| c.set(c.get().saturating_sub(1)));
    }
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
                    let _inside = $crate::wrap::Inside::enter();
                    $call
                } else {
                    $call
                }
            }
        }
    }};
}
pub(crate) use collective;
