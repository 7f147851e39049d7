//! Whether the calling thread is inside a selected collective: the collective wrappers mark
//! it, and the backends that count below MPI read it.

use std::cell::Cell;

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
