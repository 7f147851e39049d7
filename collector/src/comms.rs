//! Communicators other than `MPI_COMM_WORLD`: their members as world ranks.
//!
//! The translation is cached on the communicator itself, as an MPI attribute. MPI calls our delete
//! callback whenever the communicator goes away (`MPI_Comm_free` from C or Fortran, disconnect), so
//! a handle value that MPI reuses never sees a stale table. The attribute is not copied by
//! `MPI_Comm_dup`; the duplicate gets its own entry on first use.

use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

use crate::counters::{Each, PeerCounters, Totals};
use crate::ffi::{Handle, HandleCell, Mpi};

/// A communicator's groups in world ranks, and its even-share counters.
#[derive(Debug)]
pub struct CommInfo {
    /// World rank of each rank of the local group.
    pub members: Box<[u32]>,
    /// World rank of each rank of the remote group, for an intercommunicator.
    pub remote: Option<Box<[u32]>>,
    /// This process's rank in the local group.
    pub rank: u32,
    /// Bytes that collectives sent to / received from each other member.
    pub each: Each,
}

impl CommInfo {
    /// `MPI_COMM_WORLD` as rank `rank` of `size` sees it: the same record as any other
    /// communicator's, so that counting needs no case for it.
    pub fn world(rank: u32, size: u32) -> CommInfo {
        CommInfo { members: (0..size).collect(), remote: None, rank, each: Each::default() }
    }

    /// World rank of the peer `r` of a point-to-point call (the remote group's for an
    /// intercommunicator).
    #[inline]
    pub fn peer(&self, r: c_int) -> Option<u32> {
        let group = self.remote.as_deref().unwrap_or(&self.members);
        usize::try_from(r).ok().and_then(|i| group.get(i)).copied()
    }

    /// World rank of local rank `r`.
    #[inline(always)]
    pub fn member(&self, r: c_int) -> Option<u32> {
        usize::try_from(r).ok().and_then(|i| self.members.get(i)).copied()
    }

    #[inline(always)]
    pub fn size(&self) -> usize {
        self.members.len()
    }

    #[inline(always)]
    pub fn is_inter(&self) -> bool {
        self.remote.is_some()
    }
}

/// The cache of [`CommInfo`], keyed by an MPI attribute.
pub struct CommTable {
    keyval: c_int,
    world_group: Handle,
    /// Serialises building an entry, so that two threads never both attach one.
    build: Mutex<()>,
    /// Every live entry, so that a dump can spread their even shares.
    live: Mutex<Vec<Arc<CommInfo>>>,
}

impl CommTable {
    /// Creates the attribute key; `delete` must call [`CommTable::forget`].
    pub fn new(
        mpi: &Mpi,
        delete: crate::ffi::pmpi::DeleteFn,
        copy: crate::ffi::pmpi::CopyFn,
    ) -> Result<CommTable, String> {
        let mut keyval: c_int = 0;
        let mut group = HandleCell::default();
        // SAFETY: valid out-pointers; MPI is initialised.
        unsafe {
            if (mpi.f.comm_create_keyval)(copy, delete, &mut keyval, std::ptr::null_mut()) != 0 {
                return Err("MPI_Comm_create_keyval failed".into());
            }
            if (mpi.f.comm_group)(mpi.c.comm_world, group.as_mut_ptr()) != 0 {
                return Err("MPI_Comm_group(MPI_COMM_WORLD) failed".into());
            }
        }
        Ok(CommTable {
            keyval,
            world_group: group.get(mpi.abi()),
            build: Mutex::new(()),
            live: Mutex::new(Vec::new()),
        })
    }

    /// The entry of `comm`, built and attached on first use.
    ///
    /// The reference stays valid until the communicator is freed, which MPI forbids while a call
    /// on it is running.
    pub fn get(&self, mpi: &Mpi, comm: Handle) -> Option<&CommInfo> {
        if let Some(p) = self.attached(mpi, comm) {
            return Some(unsafe { &*p });
        }
        let _guard = self.build.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(p) = self.attached(mpi, comm) {
            return Some(unsafe { &*p });
        }
        let info = Arc::new(self.describe(mpi, comm)?);
        let raw = Arc::into_raw(Arc::clone(&info)) as *mut c_void;
        // SAFETY: `raw` is a leaked Arc reference owned by the attribute from here on; the
        // delete callback takes it back.
        if unsafe { (mpi.f.comm_set_attr)(comm, self.keyval, raw) } != 0 {
            drop(unsafe { Arc::from_raw(raw as *const CommInfo) });
            return None;
        }
        self.live.lock().unwrap_or_else(|p| p.into_inner()).push(info);
        Some(unsafe { &*(raw as *const CommInfo) })
    }

    /// A counted reference to the entry of `comm`, for requests that outlive the call.
    pub fn get_arc(&self, mpi: &Mpi, comm: Handle) -> Option<Arc<CommInfo>> {
        let info = self.get(mpi, comm)? as *const CommInfo;
        // SAFETY: `info` came from `Arc::into_raw` and the attribute still holds that reference.
        unsafe {
            Arc::increment_strong_count(info);
            Some(Arc::from_raw(info))
        }
    }

    fn attached(&self, mpi: &Mpi, comm: Handle) -> Option<*const CommInfo> {
        let mut value: *mut c_void = std::ptr::null_mut();
        let mut flag: c_int = 0;
        // SAFETY: out-pointers are valid; `value` receives the attribute pointer.
        let rc = unsafe {
            (mpi.f.comm_get_attr)(comm, self.keyval, &mut value as *mut *mut c_void as *mut c_void, &mut flag)
        };
        (rc == 0 && flag != 0 && !value.is_null()).then_some(value as *const CommInfo)
    }

    fn describe(&self, mpi: &Mpi, comm: Handle) -> Option<CommInfo> {
        let mut rank: c_int = 0;
        let mut inter: c_int = 0;
        // SAFETY: valid out-pointers on a communicator the application just used.
        unsafe {
            if (mpi.f.comm_rank)(comm, &mut rank) != 0 || (mpi.f.comm_test_inter)(comm, &mut inter) != 0 {
                return None;
            }
        }
        let members = self.translate(mpi, comm, false)?;
        let remote = if inter != 0 { Some(self.translate(mpi, comm, true)?) } else { None };
        Some(CommInfo { members, remote, rank: u32::try_from(rank).ok()?, each: Each::default() })
    }

    fn translate(&self, mpi: &Mpi, comm: Handle, remote: bool) -> Option<Box<[u32]>> {
        let mut group = HandleCell::default();
        let mut n: c_int = 0;
        // SAFETY: valid out-pointers; the group is freed below.
        unsafe {
            let get = if remote { mpi.f.comm_remote_group } else { mpi.f.comm_group };
            if get(comm, group.as_mut_ptr()) != 0 {
                return None;
            }
            let g = group.get(mpi.abi());
            let ranks: Vec<c_int> =
                if (mpi.f.group_size)(g, &mut n) == 0 { (0..n).collect() } else { vec![] };
            let mut world = vec![0 as c_int; ranks.len()];
            let ok =
                (mpi.f.group_translate_ranks)(g, n, ranks.as_ptr(), self.world_group, world.as_mut_ptr());
            (mpi.f.group_free)(group.as_mut_ptr());
            if ok != 0 || ranks.len() != n as usize {
                return None;
            }
            // A member outside MPI_COMM_WORLD (spawned or connected jobs) has no world rank; it
            // maps to u32::MAX, which every counter ignores.
            Some(world.into_iter().map(|w| u32::try_from(w).unwrap_or(u32::MAX)).collect())
        }
    }

    /// Called from the attribute delete callback: keeps the freed communicator's even shares.
    ///
    /// # Safety
    /// `attr` must be a value this table attached.
    pub unsafe fn forget(&self, attr: *mut c_void, peers: &PeerCounters) {
        if attr.is_null() {
            return;
        }
        // SAFETY: the attribute owned one Arc reference; we take it back here.
        let info = unsafe { Arc::from_raw(attr as *const CommInfo) };
        let mut live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        live.retain(|c| !Arc::ptr_eq(c, &info));
        info.each.fold_into(
            &info.members,
            info.members.get(info.rank as usize).copied().unwrap_or(u32::MAX),
            peers,
        );
    }

    /// Adds the per-peer counters and every live communicator's even shares into `totals` (bytes)
    /// and `msgs` (messages), and the histogram with their messages into `sizes`.
    ///
    /// All are read under the lock that [`CommTable::forget`] folds under, so a communicator
    /// freed meanwhile is counted exactly once.
    pub fn totals_into(
        &self,
        peers: &PeerCounters,
        me: u32,
        totals: &mut Totals,
        msgs: &mut Totals,
    ) -> Vec<(u64, u64)> {
        let live = self.live.lock().unwrap_or_else(|p| p.into_inner());
        peers.add_into(totals, msgs);
        let mut sizes = peers.sizes.snapshot();
        for c in live.iter().filter(|c| !c.is_inter()) {
            c.each.spread_into(c.members.iter().copied(), me, totals, msgs);
            c.each.sizes_into(c.size().saturating_sub(1) as u64, &mut sizes);
        }
        sizes
    }
}
