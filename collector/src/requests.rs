//! Requests whose bytes are known only later: receives (counted from the status when they
//! complete, so `MPI_ANY_SOURCE` and short messages come out exact) and persistent sends
//! (counted at every `MPI_Start`).
//!
//! Sends are counted when posted and never enter this table. While it is empty, the completion
//! wrappers (`MPI_Wait*`, `MPI_Test*`) cost one relaxed load.
//!
//! MPI reuses a request's handle value as soon as the request is freed, which happens inside
//! `MPI_Wait` — possibly while another thread posts a receive that gets the same value. So a
//! completion wrapper *takes* its entries out before calling MPI (the handles are still live
//! then, nobody else can hold them) and puts back those that did not complete.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::comms::CommInfo;
use crate::ffi::Handle;

/// The communicator a receive's status must be translated through.
#[derive(Clone, Debug)]
pub enum CommRef {
    World,
    Sub(Arc<CommInfo>),
}

/// What a tracked request stands for.
#[derive(Clone, Debug)]
pub enum Tracked {
    /// A receive; persistent ones stay tracked until `MPI_Request_free`.
    Recv { comm: CommRef, persistent: bool },
    /// A persistent send of `bytes` to world rank `peer`.
    Send { peer: u32, bytes: u64 },
    /// A persistent send or receive that counts nothing (e.g. to `MPI_PROC_NULL`).
    Nothing,
}

/// A receive taken out of the table for a completion call.
#[derive(Clone, Debug)]
pub struct Taken {
    /// Position in the caller's request array.
    pub index: usize,
    pub handle: Handle,
    pub comm: CommRef,
    pub persistent: bool,
}

/// Tracked requests by handle value.
#[derive(Debug, Default)]
pub struct Requests {
    map: Mutex<HashMap<Handle, Tracked>>,
    len: AtomicUsize,
}

impl Requests {
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len.load(Ordering::Relaxed) == 0
    }

    pub fn insert(&self, req: Handle, what: Tracked) {
        let mut map = self.lock();
        map.insert(req, what);
        self.len.store(map.len(), Ordering::Relaxed);
    }

    /// What `req` stands for, without forgetting it.
    pub fn get(&self, req: Handle) -> Option<Tracked> {
        if self.is_empty() {
            return None;
        }
        self.lock().get(&req).cloned()
    }

    /// Takes the receives among `handles` out of the table (one lock for the whole array).
    pub fn take_recvs(&self, handles: &[Handle]) -> Vec<Taken> {
        if self.is_empty() {
            return Vec::new();
        }
        let mut map = self.lock();
        let mut out = Vec::new();
        for (index, &handle) in handles.iter().enumerate() {
            if let Some(Tracked::Recv { .. }) = map.get(&handle)
                && let Some(Tracked::Recv { comm, persistent }) = map.remove(&handle)
            {
                out.push(Taken { index, handle, comm, persistent });
            }
        }
        self.len.store(map.len(), Ordering::Relaxed);
        out
    }

    /// Puts back a receive that did not complete, or a persistent one that did.
    pub fn put_back(&self, t: Taken) {
        self.insert(t.handle, Tracked::Recv { comm: t.comm, persistent: t.persistent });
    }

    /// `MPI_Request_free`: takes `req` out; put it back with [`Requests::insert`] if the call fails.
    pub fn take(&self, req: Handle) -> Option<Tracked> {
        if self.is_empty() {
            return None;
        }
        let mut map = self.lock();
        let out = map.remove(&req);
        self.len.store(map.len(), Ordering::Relaxed);
        out
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Handle, Tracked>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recv(persistent: bool) -> Tracked {
        Tracked::Recv { comm: CommRef::World, persistent }
    }

    #[test]
    fn taking_receives_leaves_sends_and_finds_positions() {
        let r = Requests::default();
        r.insert(Handle(5), recv(false));
        r.insert(Handle(6), Tracked::Send { peer: 0, bytes: 1 });
        let taken = r.take_recvs(&[Handle(6), Handle(1), Handle(5)]);
        assert_eq!(taken.iter().map(|t| (t.index, t.handle)).collect::<Vec<_>>(), vec![(2, Handle(5))]);
        assert!(r.take_recvs(&[Handle(5)]).is_empty(), "taken once");
        assert!(matches!(r.get(Handle(6)), Some(Tracked::Send { peer: 0, bytes: 1 })));
    }

    #[test]
    fn a_receive_put_back_can_be_taken_again() {
        let r = Requests::default();
        r.insert(Handle(9), recv(true));
        let t = r.take_recvs(&[Handle(9)]).pop().unwrap();
        assert!(t.persistent);
        r.put_back(t);
        assert_eq!(r.take_recvs(&[Handle(9)]).len(), 1);
        assert!(r.is_empty());
    }

    #[test]
    fn a_reused_handle_value_belongs_to_the_new_request_once_the_old_was_taken() {
        let r = Requests::default();
        r.insert(Handle(7), recv(false));
        let old = r.take_recvs(&[Handle(7)]);
        // MPI frees the old request inside MPI_Wait; another thread's Irecv gets value 7.
        r.insert(Handle(7), recv(false));
        assert_eq!(old.len(), 1);
        assert_eq!(r.take_recvs(&[Handle(7)]).len(), 1, "the new receive is still tracked");
    }

    #[test]
    fn freeing_forgets_a_request() {
        let r = Requests::default();
        r.insert(Handle(3), Tracked::Nothing);
        assert!(matches!(r.take(Handle(3)), Some(Tracked::Nothing)));
        assert!(r.is_empty());
    }
}
