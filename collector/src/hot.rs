//! Everything a counted collective on `MPI_COMM_WORLD` reads before it counts, in one cache line.
//!
//! On 2 ranks a 1 KiB collective runs through enough of MPI that the wrapper's data are out of
//! the cache by its next call, so each line the counting path reads is a miss. This line holds
//! the live `IBPROF=` selection, the state (when wrappers may count inline) and the constants
//! that the prepared lookup compares against; the rest of the path touches only the counters.
//!
//! Written at `MPI_Init` and `MPI_Finalize` (and by `MPI_Pcontrol`), read by every wrapper. It
//! knows nothing of the collector's types: the state is kept as an untyped pointer, which
//! [`crate::state::inline_state`] reads back.
//!
//! The static is read only from inherent functions: a static that a trait method's body reaches
//! counts as exported from the rlib, and is then reached through the GOT (one more load, from
//! another line); so the prepared lookup carries [`Constants`] by value.

use std::cell::UnsafeCell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};

/// One 64-byte line, aligned, so that reading any field brings in all of them.
#[repr(C, align(64))]
struct Hot {
    /// The live `IBPROF=` selection ([`crate::scope`]).
    live: AtomicU32,
    /// The published state, if collective wrappers may count before forwarding (no backend
    /// counts below MPI); null otherwise.
    inline: AtomicPtr<c_void>,
    /// Written once, before `inline` is first set; read only by a wrapper that saw `inline` set.
    /// Plain data rather than atomics, so that the compiler loads each constant where it is
    /// used instead of all of them up front (which kept two more registers, saved and restored
    /// on every path of every wrapper).
    constants: UnsafeCell<Constants>,
}

// SAFETY: `live` and `inline` are atomics; `constants` is written only by `publish`, before the
// Release store that sets `inline`, and read only after an Acquire load that saw it set
// (`publish` runs once per process, from `MPI_Init`).
unsafe impl Sync for Hot {}

static HOT: Hot = Hot {
    live: AtomicU32::new(0),
    inline: AtomicPtr::new(std::ptr::null_mut()),
    constants: UnsafeCell::new(Constants {
        mpich: false,
        world: 0,
        handle_mask: 0,
        in_place: 0,
        type_slots: std::ptr::null(),
    }),
};

const _: () = assert!(size_of::<Hot>() == 64);

/// The live `IBPROF=` selection: a mask of [`crate::scope::Kind`] bits.
#[inline(always)]
pub(crate) fn live() -> u32 {
    HOT.live.load(Ordering::Relaxed)
}

/// Sets the live selection ([`crate::scope::Scope`]'s pause and resume).
#[inline(never)]
pub(crate) fn set_live(mask: u32) {
    HOT.live.store(mask, Ordering::Relaxed);
}

/// What the prepared lookup compares against.
#[derive(Clone, Copy)]
pub(crate) struct Constants {
    pub mpich: bool,
    pub world: usize,
    pub handle_mask: usize,
    pub in_place: usize,
    /// Open MPI's size slots; they must stay valid for the rest of the process.
    pub type_slots: *const (usize, u32),
}

/// Fills the line at `MPI_Init` (once per process); `inline` is the state, or null when
/// wrappers must count out of line. The selection goes live separately
/// ([`crate::scope::Scope::resume`]).
#[inline(never)]
pub(crate) fn publish(c: &Constants, inline: *const c_void) {
    // The line's address escapes here, so that the optimiser keeps it one object rather than
    // splitting its fields into separate statics, which the linker may place apart.
    let hot = std::hint::black_box(&HOT);
    // SAFETY: no wrapper reads the constants before `inline` is set below, and this runs once.
    unsafe { *hot.constants.get() = *c };
    hot.inline.store(inline.cast_mut(), Ordering::Release);
}

/// At `MPI_Finalize`: no wrapper counts inline any more.
#[inline(never)]
pub(crate) fn withdraw() {
    HOT.inline.store(std::ptr::null_mut(), Ordering::Release);
}

/// The state published for inline counting, untyped; null when there is none.
#[inline(always)]
pub(crate) fn inline() -> *const c_void {
    HOT.inline.load(Ordering::Acquire)
}

/// The constants; call only after [`inline`] gave a state.
#[inline(always)]
pub(crate) fn constants() -> Constants {
    // SAFETY: `inline` was seen set (Acquire), after `publish` wrote the constants (Release).
    unsafe { *HOT.constants.get() }
}
