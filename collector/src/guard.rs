//! No panic crosses the FFI boundary: every piece of collector code called from an MPI wrapper
//! runs under [`guard`], which catches a panic, reports the first one on stderr, and lets the
//! application carry on (its MPI call still goes through; only the profile may be incomplete).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static HOOK: Once = Once::new();
static REPORTED: AtomicBool = AtomicBool::new(false);

/// Runs `f`; a panic inside becomes `None`.
#[inline(always)]
pub fn guard<R>(what: &'static str, f: impl FnOnce() -> R) -> Option<R> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Some(r),
        Err(_) => {
            caught(what);
            None
        }
    }
}

#[cold]
fn caught(what: &'static str) {
    if !REPORTED.swap(true, Ordering::Relaxed) {
        eprintln!(
            "ibprof: internal error while {what}; the application goes on, this profile may be incomplete"
        );
    }
}

/// Replaces the default hook (of the collector's own Rust runtime only) with one that prints the
/// first panic's message and location, and nothing after it.
pub fn install_panic_hook() {
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            if !REPORTED.load(Ordering::Relaxed) {
                eprintln!("ibprof: panic: {info}");
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_none_and_normal_values_pass_through() {
        assert_eq!(guard("testing", || 7), Some(7));
        let caught: Option<()> = guard("testing", || panic!("boom"));
        assert_eq!(caught, None);
    }
}
