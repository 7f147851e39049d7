//! Point-to-point counting and the helpers that collectives share.
//!
//! Conventions: a rank's bytes to itself are counted for point-to-point calls (the application
//! sent a message) but not for collectives (MPI copies them locally). Sends to `MPI_PROC_NULL`
//! and zero-byte messages count nothing.

use std::ffi::{c_int, c_void};

use crate::comms::CommInfo;
use crate::ffi::Handle;
use crate::requests::CommRef;
use crate::state::State;

impl State {
    /// The record of `comm`: `MPI_COMM_WORLD`'s directly, any other through the attribute cache.
    #[inline(always)]
    pub fn view(&self, comm: Handle) -> Option<&CommInfo> {
        if self.mpi.c.is_world(comm) { Some(&self.world) } else { self.comms.get(self.mpi, comm) }
    }

    /// One collective call's even share on `comm`: `sent` bytes to and `recv` bytes from each
    /// other member, one message each way per member (a dump spreads them over the members and
    /// into the histogram).
    #[inline(always)]
    pub fn add_each(&self, comm: &CommInfo, sent: u64, recv: u64) {
        comm.each.add(sent, recv);
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
    pub unsafe fn count_received(&self, comm: &CommInfo, status: *const c_void) {
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
            CommRef::World => &self.world,
            CommRef::Sub(c) => c,
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
