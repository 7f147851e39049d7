//! How a collective's counting finds its communicator and datatype sizes.
//!
//! Every collective wrapper first counts with [`Prepared`]: only what the collector prepared at
//! `MPI_Init` (`MPI_COMM_WORLD`'s record, the predefined datatypes' sizes), never a call out of
//! the collector, so the wrapper compiles to straight-line code that needs no stack frame of its
//! own. Where that lookup cannot answer (another communicator, a derived datatype), nothing has
//! been counted yet and the wrapper counts again with [`Full`], out of line, which asks MPI.

use crate::comms::CommInfo;
use crate::ffi::Handle;
use crate::state::State;

/// A way to look up a communicator's record and a datatype's size. `None` from [`Prepared`]
/// means "not prepared: count with [`Full`]"; from [`Full`], "nothing to count".
pub trait Lookup: Copy {
    fn comm(self, st: &State, comm: Handle) -> Option<&CommInfo>;

    fn type_bytes(self, st: &State, dt: Handle) -> Option<u64>;

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

/// `MPI_COMM_WORLD` and predefined datatypes only; no call out of the collector.
#[derive(Clone, Copy)]
pub struct Prepared;

/// Any communicator (through the attribute cache) and any datatype (asking MPI).
#[derive(Clone, Copy)]
pub struct Full;

impl Lookup for Prepared {
    #[inline(always)]
    fn comm(self, st: &State, comm: Handle) -> Option<&CommInfo> {
        st.mpi.c.is_world(comm).then_some(&st.world)
    }

    #[inline(always)]
    fn type_bytes(self, st: &State, dt: Handle) -> Option<u64> {
        st.types.predefined(dt).map(u64::from)
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
    fn full(self) -> Option<Full> {
        Some(self)
    }
}
