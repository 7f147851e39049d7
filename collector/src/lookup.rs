//! How a collective's counting finds its communicator and datatype sizes.
//!
//! Every collective wrapper first counts with [`Prepared`]: only what the collector prepared at
//! `MPI_Init` (`MPI_COMM_WORLD`'s record, the predefined datatypes' sizes), never a call out of
//! the collector, so the wrapper compiles to straight-line code that needs no stack frame of its
//! own. Where that lookup cannot answer (another communicator, a derived datatype), nothing has
//! been counted yet and the wrapper counts again with [`Full`], out of line, which asks MPI.

use crate::comms::CommInfo;
use crate::ffi::Handle;
use crate::hot;
use crate::state::State;
use crate::typesize::predefined_in;

/// A way to look up a communicator's record and a datatype's size. `None` from [`Prepared`]
/// means "not prepared: count with [`Full`]"; from [`Full`], "nothing to count".
pub(crate) trait Lookup: Copy {
    fn comm(self, st: &State, comm: Handle) -> Option<&CommInfo>;

    /// The record of `comm` for counting a collective: `Some(None)` for an intercommunicator
    /// (not counted).
    #[inline(always)]
    fn intra(self, st: &State, comm: Handle) -> Option<Option<&CommInfo>> {
        self.comm(st, comm).map(|c| (!c.is_inter()).then_some(c))
    }

    /// The world rank of rank `r` of `v`, a record this lookup gave; `None` if there is none.
    #[inline(always)]
    fn member(self, v: &CommInfo, r: std::ffi::c_int) -> Option<u32> {
        v.member(r)
    }

    /// Whether `buf` is `MPI_IN_PLACE`.
    #[inline(always)]
    fn is_in_place(self, st: &State, buf: *const std::ffi::c_void) -> bool {
        st.mpi.c.is_in_place(buf)
    }

    fn type_bytes(self, st: &State, dt: Handle) -> Option<u64>;

    /// `count` elements of `dt`, in bytes, for a call's second datatype (one whose count or type
    /// differs from the first's): [`Prepared`] declines, so that its inline path holds the
    /// registers of one type lookup only (the types of a matched pair nearly always agree).
    fn second_bytes(self, st: &State, count: std::ffi::c_int, dt: Handle) -> Option<u64>;

    /// `Some` only for a lookup that may call MPI: for the collectives that read datatypes
    /// inside their per-member loop, where a miss would come too late.
    fn full(self) -> Option<Full>;

    /// `count` elements of `dt`, in bytes; the type is not looked at when the count is zero
    /// (applications pass junk types with empty buffers).
    #[inline(always)]
    fn bytes(self, st: &State, count: std::ffi::c_int, dt: Handle) -> Option<u64> {
        if count <= 0 { Some(0) } else { Some((count as u64).saturating_mul(self.type_bytes(st, dt)?)) }
    }
}

/// `MPI_COMM_WORLD` and predefined datatypes only; no call out of the collector. It carries the
/// constants it compares against, read from [`crate::hot`]'s line by [`Prepared::now`].
#[derive(Clone, Copy)]
pub(crate) struct Prepared(hot::Constants);

impl Prepared {
    #[inline(always)]
    pub(crate) fn now() -> Prepared {
        Prepared(hot::constants())
    }
}

/// Any communicator (through the attribute cache) and any datatype (asking MPI).
#[derive(Clone, Copy)]
pub(crate) struct Full;

impl Lookup for Prepared {
    #[inline(always)]
    fn comm(self, st: &State, comm: Handle) -> Option<&CommInfo> {
        (comm.0 & self.0.handle_mask == self.0.world).then_some(&st.world)
    }

    /// `MPI_COMM_WORLD` is never an intercommunicator.
    #[inline(always)]
    fn intra(self, st: &State, comm: Handle) -> Option<Option<&CommInfo>> {
        self.comm(st, comm).map(Some)
    }

    /// Rank `r` of `MPI_COMM_WORLD` is world rank `r`: no table to read. A rank past the
    /// world's end is left to the per-peer counters, which hold one entry per world rank and
    /// ignore any other.
    #[inline(always)]
    fn member(self, _: &CommInfo, r: std::ffi::c_int) -> Option<u32> {
        u32::try_from(r).ok()
    }

    #[inline(always)]
    fn is_in_place(self, _: &State, buf: *const std::ffi::c_void) -> bool {
        buf as usize == self.0.in_place
    }

    #[inline(always)]
    fn type_bytes(self, _: &State, dt: Handle) -> Option<u64> {
        // SAFETY: the line holds Open MPI's slots whenever a wrapper counts inline.
        unsafe { predefined_in(self.0.mpich, self.0.type_slots, dt) }.map(u64::from)
    }

    #[inline(always)]
    fn second_bytes(self, _: &State, _: std::ffi::c_int, _: Handle) -> Option<u64> {
        None
    }

    #[inline(always)]
    fn full(self) -> Option<Full> {
        None
    }
}

impl Lookup for Full {
    #[inline(always)]
    fn comm(self, st: &State, comm: Handle) -> Option<&CommInfo> {
        st.view(comm)
    }

    #[inline(always)]
    fn type_bytes(self, st: &State, dt: Handle) -> Option<u64> {
        Some(st.type_bytes(dt))
    }

    #[inline(always)]
    fn second_bytes(self, st: &State, count: std::ffi::c_int, dt: Handle) -> Option<u64> {
        self.bytes(st, count, dt)
    }

    #[inline(always)]
    fn full(self) -> Option<Full> {
        Some(self)
    }
}
