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
//! The static is private and read only from inherent functions: a static that a trait method's
//! body reaches counts as exported from the rlib, and is then reached through the GOT (one more
//! load, from another line); so the prepared lookup carries [`Constants`] by value.

use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};

/// One 64-byte line, aligned, so that reading any field brings in all of them.
#[repr(C, align(64))]
pub(crate) struct Hot {
    /// The live `IBPROF=` selection ([`crate::scope`]).
    live: AtomicU32,
    /// 1 under MPICH, whose predefined datatypes carry their size in the handle.
    mpich: AtomicU32,
    /// The published state, if collective wrappers may count before forwarding (no backend
    /// counts below MPI); null otherwise.
    inline: AtomicPtr<c_void>,
    /// `MPI_COMM_WORLD`'s handle and the mask a handle is compared under.
    world: AtomicUsize,
    handle_mask: AtomicUsize,
    /// `MPI_IN_PLACE`.
    in_place: AtomicUsize,
    /// Open MPI: the first of the predefined datatypes' size slots ([`crate::typesize`]).
    type_slots: AtomicPtr<(usize, u32)>,
}

// Private, and read through the functions below: a `pub(crate)` static was reached through the
// GOT (one more load, from another line) in every wrapper.
static HOT: Hot = Hot {
    live: AtomicU32::new(0),
    mpich: AtomicU32::new(0),
    inline: AtomicPtr::new(std::ptr::null_mut()),
    world: AtomicUsize::new(0),
    handle_mask: AtomicUsize::new(0),
    in_place: AtomicUsize::new(0),
    type_slots: AtomicPtr::new(std::ptr::null_mut()),
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

/// Fills the line at `MPI_Init`; `inline` is the state, or null when wrappers must count out of
/// line. The selection goes live separately ([`crate::scope::Scope::resume`]).
#[inline(never)]
pub(crate) fn publish(c: &Constants, inline: *const c_void) {
    // The line's address escapes here, so that the optimiser keeps it one object rather than
    // splitting its fields into separate statics, which the linker may place apart.
    let _ = std::hint::black_box(&HOT);
    HOT.mpich.store(u32::from(c.mpich), Ordering::Relaxed);
    HOT.world.store(c.world, Ordering::Relaxed);
    HOT.handle_mask.store(c.handle_mask, Ordering::Relaxed);
    HOT.in_place.store(c.in_place, Ordering::Relaxed);
    HOT.type_slots.store(c.type_slots.cast_mut(), Ordering::Relaxed);
    HOT.inline.store(inline.cast_mut(), Ordering::Release);
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

/// The constants, read from the line (only after [`inline`] gave a state, so after [`publish`]).
#[inline(always)]
pub(crate) fn constants() -> Constants {
    Constants {
        mpich: HOT.mpich.load(Ordering::Relaxed) != 0,
        world: HOT.world.load(Ordering::Relaxed),
        handle_mask: HOT.handle_mask.load(Ordering::Relaxed),
        in_place: HOT.in_place.load(Ordering::Relaxed),
        type_slots: HOT.type_slots.load(Ordering::Relaxed),
    }
}
