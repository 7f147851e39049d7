//! Requests whose bytes are known only later: receives (counted from the status when they
//! complete, so `MPI_ANY_SOURCE` and short messages come out exact) and persistent sends
//! (counted at every `MPI_Start`).
//!
//! Sends are counted when posted and never enter this table. While it is empty, the completion
//! wrappers (`MPI_Wait*`, `MPI_Test*`) cost one relaxed load.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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

    /// The communicator of a receive that has just completed; a non-persistent one is forgotten.
    pub fn complete_recv(&self, req: Handle) -> Option<CommRef> {
        if self.is_empty() {
            return None;
        }
        let mut map = self.lock();
        let out = match map.get(&req) {
            Some(Tracked::Recv { comm, persistent: true }) => Some(comm.clone()),
            Some(Tracked::Recv { persistent: false, .. }) => match map.remove(&req) {
                Some(Tracked::Recv { comm, .. }) => Some(comm),
                _ => None,
            },
            _ => None,
        };
        self.len.store(map.len(), Ordering::Relaxed);
        out
    }

    /// True if `req` is a receive we wait for.
    pub fn is_recv(&self, req: Handle) -> bool {
        matches!(self.get(req), Some(Tracked::Recv { .. }))
    }

    /// Positions of the receives among `handles` (one lock for the whole array).
    pub fn recv_positions(&self, handles: &[Handle]) -> Vec<usize> {
        if self.is_empty() {
            return Vec::new();
        }
        let map = self.lock();
        handles
            .iter()
            .enumerate()
            .filter(|(_, h)| matches!(map.get(h), Some(Tracked::Recv { .. })))
            .map(|(i, _)| i)
            .collect()
    }

    /// `MPI_Request_free`: forget `req`.
    pub fn remove(&self, req: Handle) {
        if self.is_empty() {
            return;
        }
        let mut map = self.lock();
        map.remove(&req);
        self.len.store(map.len(), Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Handle, Tracked>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_receive_is_forgotten_when_it_completes() {
        let r = Requests::default();
        r.insert(Handle(7), Tracked::Recv { comm: CommRef::World, persistent: false });
        assert!(r.is_recv(Handle(7)));
        assert!(r.complete_recv(Handle(7)).is_some());
        assert!(r.complete_recv(Handle(7)).is_none());
        assert!(r.is_empty());
    }

    #[test]
    fn a_persistent_receive_stays_until_freed() {
        let r = Requests::default();
        r.insert(Handle(9), Tracked::Recv { comm: CommRef::World, persistent: true });
        assert!(r.complete_recv(Handle(9)).is_some());
        assert!(r.complete_recv(Handle(9)).is_some());
        r.remove(Handle(9));
        assert!(r.is_empty());
    }

    #[test]
    fn receive_positions_are_found_among_other_requests() {
        let r = Requests::default();
        r.insert(Handle(5), Tracked::Recv { comm: CommRef::World, persistent: false });
        r.insert(Handle(6), Tracked::Send { peer: 0, bytes: 1 });
        assert_eq!(r.recv_positions(&[Handle(6), Handle(1), Handle(5)]), vec![2]);
    }

    #[test]
    fn persistent_sends_are_not_receives() {
        let r = Requests::default();
        r.insert(Handle(3), Tracked::Send { peer: 1, bytes: 8 });
        assert!(!r.is_recv(Handle(3)));
        assert!(r.complete_recv(Handle(3)).is_none());
        assert!(matches!(r.get(Handle(3)), Some(Tracked::Send { peer: 1, bytes: 8 })));
    }
}
