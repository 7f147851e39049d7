//! The exported `MPI_*` functions. Each counts (under [`guard`]) and then calls `PMPI_*`.
//!
//! The hot path of a wrapper that counts nothing is one atomic load (the state) and one mask
//! test. Counting happens *before* the MPI call, so the call itself is a tail call with the
//! application's arguments untouched: profiling never changes what MPI does.

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

/// Defines the wrapper `$name` of a collective: counts with `$count` (a [`crate::coll`] function
/// called with the lookup `$l`) when `$kind` is selected, then calls `PMPI` through `$field`.
///
/// The wrapper first counts with [`crate::lookup::Prepared`], inline and without calling out, so
/// that its only calls are tail calls and it needs no stack frame. Where that lookup cannot
/// answer, or a backend needs the collective's scope, or MPI is not initialised through us, it
/// hands over to `in_full`: same arguments, out of line, counting with
/// [`crate::lookup::Full`].
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
            let Some($st) = $crate::state::state() else {
                return unsafe { in_full($($arg),*) };
            };
            if $st.scope.counts($kind) {
                let prepared = move || {
                    let $l = $crate::lookup::Prepared;
                    $count
                };
                if $st.track_inside || $crate::wrap::guard(stringify!($name), prepared) == Some(None) {
                    return unsafe { in_full($($arg),*) };
                }
            }
            unsafe { ($st.mpi.f.$field)($($arg),*) }
        }
    };
}
pub(crate) use collective;
