//! The collector's per-process state: built in `MPI_Init`, dumped at regions, written out in
//! `MPI_Finalize`.
//!
//! Until `MPI_Init` has run through us (and after `MPI_Finalize`), [`state`] is `None` and every
//! wrapper just forwards to MPI.

use std::ffi::{c_char, c_int};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use ibprof_format::{Job, Rank};

use crate::backend::{Backend, DumpData};
use crate::comms::CommTable;
use crate::config::Config;
use crate::counters::{Each, LidCounters, PeerCounters};
use crate::dumps::{self, DumpRecord};
use crate::ffi::{Handle, HandleCell, Mpi, mpi};
use crate::local_port::LocalPort;
use crate::requests::Requests;
use crate::scope::Scope;
use crate::typesize::TypeSizes;
use crate::{backend, guard, output, sysfs};

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
    /// Even shares of collectives on `MPI_COMM_WORLD`.
    pub world_each: Each,
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
    dumps: Mutex<Vec<DumpRecord>>,
    /// In-situ tracing (`IBPROF_RAILS`), if asked for.
    pub insitu: Option<Mutex<crate::insitu::InSitu>>,
}

static STATE: AtomicPtr<State> = AtomicPtr::new(std::ptr::null_mut());
static STARTED: AtomicBool = AtomicBool::new(false);
/// The same state, kept after `MPI_Finalize` for MPI's late attribute callbacks.
static ANY: AtomicPtr<State> = AtomicPtr::new(std::ptr::null_mut());

/// The collector's state while MPI is initialised through us.
#[inline(always)]
pub fn state() -> Option<&'static State> {
    let p = STATE.load(Ordering::Acquire);
    // SAFETY: a non-null pointer is the leaked `State` built in `start`; it is never freed.
    if p.is_null() { None } else { Some(unsafe { &*p }) }
}

/// The state even after `MPI_Finalize` (for callbacks MPI makes while finalising).
pub fn state_any() -> Option<&'static State> {
    let p = ANY.load(Ordering::Acquire);
    // SAFETY: as in `state`.
    if p.is_null() { None } else { Some(unsafe { &*p }) }
}

/// Called in `MPI_Init*` before the MPI library's own init (settings that MPI reads at init).
pub fn before_init() {
    guard::install_panic_hook();
    let config = Config::from_env();
    if config.ompi_monitoring && mpi().abi() == crate::ffi::Abi::OpenMpi {
        backend::ompi_monitoring::before_init();
    }
}

/// Called in `MPI_Init*` after the MPI library's init succeeded. Runs once per process.
pub fn start() {
    if STARTED.swap(true, Ordering::AcqRel) {
        return;
    }
    match State::build() {
        Ok(st) => {
            let leaked: &'static mut State = Box::leak(Box::new(st));
            let st: &'static State = leaked;
            st.report_config();
            guard::guard("opening the profile", || crate::mpiio::open_early(st));
            ANY.store(st as *const State as *mut State, Ordering::Release);
            STATE.store(st as *const State as *mut State, Ordering::Release);
        }
        Err(e) => eprintln!("ibprof: not profiling this process: {e}"),
    }
}

/// Called in `MPI_Finalize` before the MPI library's: the last dump, then the output.
///
/// Counting stops (the state is unpublished) before the collector's own communication, which
/// goes straight to `PMPI_*` on a private communicator and is identical on every rank.
pub fn finish() {
    let Some(st) = state() else { return };
    for b in &st.backends {
        guard::guard("backend finish", || b.finish(st));
    }
    guard::guard("final dump", || st.dump(Some("MPI_Finalize")));
    STATE.store(std::ptr::null_mut(), Ordering::Release);
    if let Some(insitu) = &st.insitu {
        let insitu = insitu.lock().unwrap_or_else(|p| p.into_inner());
        guard::guard("reducing the in-situ loads", || crate::insitu::finish(st, &insitu));
    }
    if !st.config.profile_wanted {
        return;
    }
    let mut taken = std::mem::take(&mut *st.dumps.lock().unwrap_or_else(|p| p.into_inner()));
    let sent_only = st.backends.iter().any(|b| b.knows_only_sent());
    guard::guard("completing recv columns", || dumps::fill_recv_from_senders(st, sent_only, &mut taken));
    let section = guard::guard("writing the rank section", || st.section(&taken)).unwrap_or_default();
    output::write(st, &section);
}

impl State {
    fn build() -> Result<State, String> {
        let mpi = mpi();
        let config = Config::from_env();
        let (mut rank, mut size): (c_int, c_int) = (0, 0);
        let mut private = HandleCell::default();
        // SAFETY: valid out-pointers; MPI is initialised.
        unsafe {
            if (mpi.f.comm_rank)(mpi.c.comm_world, &mut rank) != 0
                || (mpi.f.comm_size)(mpi.c.comm_world, &mut size) != 0
            {
                return Err("cannot query MPI_COMM_WORLD".into());
            }
            if (mpi.f.comm_dup)(mpi.c.comm_world, private.as_mut_ptr()) != 0 {
                return Err("cannot duplicate MPI_COMM_WORLD".into());
            }
        }
        let starttime = now_micros();
        let comms = CommTable::new(mpi, crate::wrap::attr::delete_comm_info, crate::wrap::attr::no_copy)?;
        let rank = u32::try_from(rank).map_err(|_| "negative rank")?;
        let size = u32::try_from(size).map_err(|_| "negative size")?;
        let backends = backend::select(mpi, &config, rank);
        let host = hostname();
        let ports = sysfs::local_ports(&config.sysfs_root);
        let private = private.get(mpi.abi());
        let model_ports = ports.iter().map(model_port).collect();
        let insitu = guard::guard("loading the fabric", || {
            crate::insitu::setup(mpi, &config, rank, &host, model_ports, private)
        })
        .flatten()
        .map(Mutex::new);
        let track_inside =
            config.selection != crate::scope::ALL_KINDS && backends.iter().any(|b| b.counts_below_mpi());
        Ok(State {
            mpi,
            rank,
            size,
            host,
            pid: std::process::id(),
            starttime,
            library: library_version(mpi),
            scope: Scope::new(config.selection),
            types: TypeSizes::new(mpi),
            peers: PeerCounters::new(size as usize),
            world_each: Each::default(),
            comms,
            requests: Requests::default(),
            lids: LidCounters::default(),
            ports: Mutex::new(ports),
            backends,
            track_inside,
            private,
            dumps: Mutex::new(Vec::new()),
            insitu,
            config,
        })
    }

    fn report_config(&self) {
        if self.rank == 0 && !self.config.unknown_names.is_empty() {
            eprintln!(
                "ibprof: IBPROF names not understood and ignored: {} (known: P2P, BCAST, ALLTOALL, … see README)",
                self.config.unknown_names.join(", ")
            );
        }
        if self.rank == 0 {
            for setting in &self.config.ignored {
                eprintln!("ibprof: setting not understood: {setting}");
            }
        }
    }

    /// The `source` of the job line: the most specific active backend.
    pub fn source(&self) -> &'static str {
        self.backends.last().map(|b| b.source()).unwrap_or("pmpi")
    }

    /// Takes a cumulative dump as the next region.
    pub fn dump(&self, name: Option<&str>) {
        let mut data = DumpData { peers: vec![(0, 0); self.size as usize], lids: Vec::new() };
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

/// A local port as shoal's model names it.
fn model_port(p: &LocalPort) -> shoal::model::LocalPort {
    shoal::model::LocalPort {
        index: p.index,
        device: p.device.clone(),
        portnum: p.portnum,
        guid: shoal::model::Guid(p.guid),
        lid: shoal::model::Lid(p.lid),
        lmc: p.lmc,
    }
}

/// Microseconds since the Unix epoch, now (negative before it, as the format allows).
fn now_micros() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_micros()).unwrap_or(i64::MAX),
    }
}

fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its length.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut c_char, buf.len()) };
    if rc != 0 {
        return "unknown".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The first line of `MPI_Get_library_version`, e.g. `Open MPI v4.1.4, package: …`.
fn library_version(mpi: &Mpi) -> Option<String> {
    let mut buf = vec![0u8; 8192];
    let mut len: c_int = 0;
    // SAFETY: MPI_MAX_LIBRARY_VERSION_STRING is 256 (Open MPI) or 8192 (MPICH); the buffer fits both.
    if unsafe { (mpi.f.get_library_version)(buf.as_mut_ptr() as *mut c_char, &mut len) } != 0 {
        return None;
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let text = String::from_utf8_lossy(&buf[..end]);
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(first.trim_end_matches(',').to_string())
}
