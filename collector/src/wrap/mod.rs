//! The exported `MPI_*` functions. Each counts (under [`guard`]) and then calls `PMPI_*`.
//!
//! The hot path of a wrapper that counts nothing is one load of the live selection and one mask
//! test, then a jump to `PMPI_*` through the resolved table; both are statics, read without
//! following a pointer. Counting happens *before* the MPI call, so the call itself is a tail call
//! with the application's arguments untouched: profiling never changes what MPI does.

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
    if crate::scope::counting(kind) { state() } else { None }
}

/// `PMPI`'s entry point as `pick` takes it from the resolved table, or `unresolved` before
/// the table is resolved.
#[inline(always)]
pub(crate) fn forward<F>(unresolved: F, pick: impl FnOnce(&'static crate::ffi::Mpi) -> F) -> F {
    crate::ffi::mpi_resolved().map_or(unresolved, pick)
}

/// Defines the wrapper `$name` of a collective: counts with `$count` (a [`crate::coll`] function
/// called with the lookup `$l`) when `$kind` is selected, then calls `PMPI` through `$field`.
///
/// The wrapper itself only tests the live selection and jumps: to `PMPI_*` when `$kind` is not
/// counted, else to `counted`. That one counts with [`crate::lookup::Prepared`], without calling
/// out; where that lookup cannot answer, or a backend needs the collective's scope, or MPI is not
/// initialised through us, it hands over to `in_full`: same arguments, out of line, counting with
/// [`crate::lookup::Full`]. Counting needs more registers than the caller's arguments leave free,
/// so the function that counts saves some; kept apart, a call that is filtered out saves none
/// (it used to save five, on every call). Each of them ends in one call, to the function it
/// picked: with a single call site the compiler makes it a tail call even when arguments travel
/// on the stack (with two, a 7-argument collective kept a frame and a return through it, which
/// cost an `MPI_Alltoall` on 2 ranks about 8 ns at 1 KiB).
macro_rules! collective {
    ($name:ident, $field:ident, $kind:expr, ($($arg:ident: $ty:ty),*), |$st:ident, $l:ident| $count:expr) => {
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> std::ffi::c_int {
            #[cold]
            #[inline(never)]
            unsafe extern "C" fn in_full($($arg: $ty),*) -> std::ffi::c_int {
                let Some($st) = $crate::state::state() else {
                    return unsafe { ($crate::ffi::mpi().f.$field)($($arg),*) };
                };
                $crate::wrap::guard(stringify!($name), || {
                    let $l = $crate::lookup::Full;
                    $count
                });
                let _inside = $st.track_inside.then($crate::inside::Inside::enter);
                unsafe { ($st.mpi.f.$field)($($arg),*) }
            }
            /// Counts with the prepared lookup, then forwards.
            #[inline(never)]
            unsafe extern "C" fn counted($($arg: $ty),*) -> std::ffi::c_int {
                let full: unsafe extern "C" fn($($ty),*) -> std::ffi::c_int = in_full;
                let target = match $crate::state::inline_state() {
                    Some($st) => {
                        let prepared = move || {
                            let $l = $crate::lookup::Prepared::now();
                            $count
                        };
                        let counted = $crate::wrap::guard(stringify!($name), prepared);
                        if counted == Some(None) { full } else { $crate::wrap::forward(full, |m| m.f.$field) }
                    }
                    None => full,
                };
                unsafe { target($($arg),*) }
            }
            let target: unsafe extern "C" fn($($ty),*) -> std::ffi::c_int = if $crate::scope::counting($kind) {
                counted
            } else {
                $crate::wrap::forward(in_full, |m| m.f.$field)
            };
            unsafe { target($($arg),*) }
        }
    };
}
pub(crate) use collective;
