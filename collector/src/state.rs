//! The collector's per-process state: built in `MPI_Init`, dumped at regions, written out in
//! `MPI_Finalize`.
//!
//! Until `MPI_Init` has run through us (and after `MPI_Finalize`), [`state`] is `None` and every
//! wrapper just forwards to MPI.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use ibprof_format::{Job, Rank};

use crate::comms::{CommInfo, CommTable};
use crate::config::Config;
use crate::counters::{LidCounters, PeerCounters};
use crate::dump_data::{DumpData, DumpRecord};
use crate::ffi::{Handle, Mpi};
use crate::guard;
use crate::local_port::LocalPort;
use crate::requests::Requests;
use crate::scope::Scope;
use crate::typesize::TypeSizes;

/// Everything the collector keeps for one MPI process.
pub struct State {
    pub mpi: &'static Mpi,
    pub config: Config,
    pub rank: u32,
    pub size: u32,
    pub host: String,
    pub pid: u32,
    pub starttime: i64,
    pub library: Option<String>,
    pub scope: Scope,
    pub types: TypeSizes,
    pub peers: PeerCounters,
    /// `MPI_COMM_WORLD`'s members and the even shares of its collectives.
    pub world: CommInfo,
    pub comms: CommTable,
    pub requests: Requests,
    pub lids: LidCounters,
    pub ports: Mutex<Vec<LocalPort>>,
    pub backends: Vec<Box<dyn Backend>>,
    /// Collective wrappers mark the thread as inside a selected collective (a backend counts
    /// below MPI and `IBPROF=` restricts it to those collectives).
    pub track_inside: bool,
    /// A duplicate of `MPI_COMM_WORLD` for the collector's own traffic at finalize.
    pub private: Handle,
    pub(crate) dumps: Mutex<Vec<DumpRecord>>,
    /// In-situ tracing (`IBPROF_RAILS`), if asked for.
    pub insitu: Option<Mutex<crate::insitu::InSitu>>,
}

/// One source of counters.
pub trait Backend: Send + Sync {
    /// The `source` word of the `job` line (`pmpi`, `ompi-monitoring`, `peruse`).
    fn source(&self) -> &'static str;

    /// Adds this backend's counters, cumulative since `MPI_Init`, into `dump`.
    fn collect(&self, st: &State, dump: &mut DumpData);

    /// True if the backend sees traffic below MPI (inside collectives), so that `IBPROF=` must
    /// be applied by marking the selected collectives' scope.
    fn counts_below_mpi(&self) -> bool {
        false
    }

    /// True if the backend's peer counters know only what this rank sent; the `recv` columns
    /// are then filled at finalize from the other ranks' `sent` ([`crate::dumps`]).
    fn knows_only_sent(&self) -> bool {
        false
    }

    /// Called once in `MPI_Finalize`, before the last dump, while MPI still works.
    fn finish(&self, _st: &State) {}
}

pub(crate) static STATE: AtomicPtr<State> = AtomicPtr::new(std::ptr::null_mut());
pub(crate) static STARTED: AtomicBool = AtomicBool::new(false);
/// The same state, kept after `MPI_Finalize` for MPI's late attribute callbacks.
pub(crate) static ANY: AtomicPtr<State> = AtomicPtr::new(std::ptr::null_mut());

/// The collector's state while MPI is initialised through us.
#[inline(always)]
pub(crate) fn state() -> Option<&'static State> {
    let p = STATE.load(Ordering::Acquire);
    // SAFETY: a non-null pointer is the leaked `State` built in `start`; it is never freed.
    if p.is_null() { None } else { Some(unsafe { &*p }) }
}

/// The state, if collective wrappers may count before forwarding: published, and no backend
/// counts below MPI (`track_inside`). Read from [`crate::hot`]'s line.
#[inline(always)]
pub(crate) fn inline_state() -> Option<&'static State> {
    let p = crate::hot::inline().cast::<State>();
    // SAFETY: a non-null pointer is the leaked `State` that `lifecycle::start` published.
    if p.is_null() { None } else { Some(unsafe { &*p }) }
}

/// The state even after `MPI_Finalize` (for callbacks MPI makes while finalising).
pub fn state_any() -> Option<&'static State> {
    let p = ANY.load(Ordering::Acquire);
    // SAFETY: as in `state`.
    if p.is_null() { None } else { Some(unsafe { &*p }) }
}

impl State {
    /// The `source` of the job line: the most specific active backend.
    pub fn source(&self) -> &'static str {
        self.backends.last().map(|b| b.source()).unwrap_or("pmpi")
    }

    /// Takes a cumulative dump as the next region.
    pub fn dump(&self, name: Option<&str>) {
        let mut data = DumpData { peers: vec![(0, 0); self.size as usize], ..DumpData::default() };
        for b in &self.backends {
            b.collect(self, &mut data);
        }
        let time = now_micros();
        let mut log = self.dumps.lock().unwrap_or_else(|p| p.into_inner());
        let region = log.len() as u32;
        log.push(DumpRecord::new(region, name, time, data));
        if let (Some(insitu), Some(dump)) = (&self.insitu, log.last()) {
            let mut insitu = insitu.lock().unwrap_or_else(|p| p.into_inner());
            guard::guard("tracing a region in situ", || insitu.at_dump(dump));
        }
    }

    /// This rank's whole section: identity, ports, dumps.
    pub fn section(&self, dumps: &[DumpRecord]) -> Vec<u8> {
        let mut out = Vec::new();
        let rank = Rank {
            rank: self.rank,
            host: self.host.as_str().into(),
            pid: Some(self.pid),
            starttime: self.starttime,
        };
        ibprof_format::push_rank(&mut out, &rank);
        for p in self.ports.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            ibprof_format::push_port(&mut out, &p.record());
        }
        for d in dumps {
            d.write(&mut out);
        }
        out
    }

    /// The file's prelude (`ibprof 1` and the `job` line).
    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mpi = self.library.as_deref().map(Into::into);
        ibprof_format::push_prelude(&mut out, &Job { ranks: self.size, mpi, source: Some(self.source()) });
        out
    }
}

/// Microseconds since the Unix epoch, now (negative before it, as the format allows).
pub(crate) fn now_micros() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_micros()).unwrap_or(i64::MAX),
    }
}
