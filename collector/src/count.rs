//! Point-to-point counting and the helpers that collectives share.
//!
//! Conventions: a rank's bytes to itself are counted for point-to-point calls (the application
//! sent a message) but not for collectives (MPI copies them locally). Sends to `MPI_PROC_NULL`
//! and zero-byte messages count nothing.

use std::ffi::{c_int, c_void};

use crate::comms::CommInfo;
use crate::counters::Each;
use crate::ffi::Handle;
use crate::requests::CommRef;
use crate::state::State;

/// A communicator as the counters see it.
#[derive(Clone, Copy)]
pub enum View<'a> {
    World,
    Sub(&'a CommInfo),
}

impl<'a> View<'a> {
    /// World rank of point-to-point peer `r` (remote group for an intercommunicator).
    #[inline(always)]
    pub fn peer(self, r: c_int) -> Option<u32> {
        match self {
            View::World => u32::try_from(r).ok(),
            View::Sub(c) => c.peer(r),
        }
    }

    /// World rank of local rank `r`.
    #[inline(always)]
    pub fn member(self, r: c_int) -> Option<u32> {
        match self {
            View::World => u32::try_from(r).ok(),
            View::Sub(c) => c.member(r),
        }
    }

    /// This process's rank in the communicator.
    #[inline(always)]
    pub fn me(self, st: &State) -> c_int {
        match self {
            View::World => st.rank as c_int,
            View::Sub(c) => c.rank as c_int,
        }
    }

    #[inline(always)]
    pub fn size(self, st: &State) -> usize {
        match self {
            View::World => st.size as usize,
            View::Sub(c) => c.size(),
        }
    }

    #[inline(always)]
    pub fn each(self, st: &'a State) -> &'a Each {
        match self {
            View::World => &st.world_each,
            View::Sub(c) => &c.each,
        }
    }

    /// One collective call's even share: `sent` bytes to and `recv` bytes from each other
    /// member, one message each way per member (the histogram counts them now; the counters
    /// spread them over the members when a dump is taken).
    #[inline(always)]
    pub fn add_each(self, st: &State, sent: u64, recv: u64) {
        self.each(st).add(sent, recv);
        let others = self.size(st).saturating_sub(1) as u64;
        st.peers.sizes.add(sent, others, true);
        st.peers.sizes.add(recv, others, false);
    }

    pub fn is_inter(self) -> bool {
        matches!(self, View::Sub(c) if c.is_inter())
    }
}

impl State {
    /// The view of `comm`: `MPI_COMM_WORLD` directly, any other through the attribute cache.
    #[inline(always)]
    pub fn view(&self, comm: Handle) -> Option<View<'_>> {
        if self.mpi.c.is_world(comm) {
            Some(View::World)
        } else {
            self.comms.get(self.mpi, comm).map(View::Sub)
        }
    }

    /// A reference to `comm` that a request can keep until it completes.
    pub fn comm_ref(&self, comm: Handle) -> Option<CommRef> {
        if self.mpi.c.is_world(comm) {
            Some(CommRef::World)
        } else {
            self.comms.get_arc(self.mpi, comm).map(CommRef::Sub)
        }
    }

    /// Size of one element of `dt`, in bytes.
    #[inline(always)]
    pub fn type_bytes(&self, dt: Handle) -> u64 {
        self.types.size(self.mpi, dt)
    }

    /// `count` elements of `dt`, in bytes; the type is not looked at when the count is zero
    /// (applications pass junk types with empty buffers).
    #[inline(always)]
    pub fn bytes(&self, count: c_int, dt: Handle) -> u64 {
        if count <= 0 { 0 } else { (count as u64).saturating_mul(self.type_bytes(dt)) }
    }

    /// A point-to-point send of `count` × `dt` to rank `dest` of `comm`.
    #[inline]
    pub fn count_send(&self, comm: Handle, dest: c_int, count: c_int, dt: Handle) {
        if dest < 0 || count <= 0 {
            return;
        }
        let Some(peer) = self.view(comm).and_then(|v| v.peer(dest)) else { return };
        self.peers.add_sent(peer, self.bytes(count, dt));
    }

    /// The world peer and byte count of a send, for a persistent request.
    pub fn send_target(&self, comm: Handle, dest: c_int, count: c_int, dt: Handle) -> Option<(u32, u64)> {
        if dest < 0 || count <= 0 {
            return None;
        }
        let peer = self.view(comm)?.peer(dest)?;
        Some((peer, self.bytes(count, dt)))
    }

    /// A completed receive on `comm`, from its status.
    ///
    /// # Safety
    /// `status` must point at a filled `MPI_Status` of the running ABI.
    pub unsafe fn count_received(&self, comm: View<'_>, status: *const c_void) {
        let c = &self.mpi.c;
        // SAFETY: per the contract, `status` is a whole MPI_Status; MPI_SOURCE is an int.
        let source = unsafe { *(status as *const u8).add(c.abi.status_source_offset()).cast::<c_int>() };
        if source < 0 {
            return; // MPI_PROC_NULL, or an inactive request's empty status.
        }
        let mut bytes: i64 = 0;
        // SAFETY: as above.
        if unsafe { (self.mpi.f.get_elements_x)(status, c.byte, &mut bytes) } != 0 || bytes <= 0 {
            return;
        }
        if let Some(peer) = comm.peer(source) {
            self.peers.add_recv(peer, bytes as u64);
        }
    }

    /// As [`State::count_received`], through a request's communicator reference.
    ///
    /// # Safety
    /// As for [`State::count_received`].
    pub unsafe fn count_received_ref(&self, comm: &CommRef, status: *const c_void) {
        let view = match comm {
            CommRef::World => View::World,
            CommRef::Sub(c) => View::Sub(c),
        };
        unsafe { self.count_received(view, status) }
    }
}

/// Reads `n` counts from an MPI count array, or none if the pointer is null.
///
/// # Safety
/// A non-null `p` must point at `n` ints.
#[inline]
pub unsafe fn counts<'a>(p: *const c_int, n: usize) -> &'a [c_int] {
    if p.is_null() { &[] } else { unsafe { std::slice::from_raw_parts(p, n) } }
}
