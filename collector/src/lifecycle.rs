//! The collector's life in a process: `MPI_Init` builds the [`State`] (backends, ports, in-situ
//! tracer) and publishes it, `MPI_Finalize` takes the last dump and writes the profile.

use std::ffi::{c_char, c_int};
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use crate::comms::{CommInfo, CommTable};
use crate::config::Config;
use crate::counters::{LidCounters, PeerCounters};
use crate::ffi::{HandleCell, Mpi, mpi};
use crate::local_port::LocalPort;
use crate::requests::Requests;
use crate::scope::Scope;
use crate::state::{ANY, STARTED, STATE, State, now_micros, state};
use crate::typesize::TypeSizes;
use crate::{backend, comm_attr, dumps, guard, hot, output, sysfs};

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
    match build() {
        Ok(st) => {
            let leaked: &'static mut State = Box::leak(Box::new(st));
            let st: &'static State = leaked;
            report_config(st);
            guard::guard("opening the profile", || crate::mpiio::open_early(st));
            ANY.store(st as *const State as *mut State, Ordering::Release);
            STATE.store(st as *const State as *mut State, Ordering::Release);
            publish_hot(st);
            st.scope.resume();
        }
        Err(e) => eprintln!("ibprof: not profiling this process: {e}"),
    }
}

/// Fills [`crate::hot`]'s line from the state, which counts inline unless a backend counts below
/// MPI.
fn publish_hot(st: &'static State) {
    let c = &st.mpi.c;
    let constants = hot::Constants {
        mpich: st.mpi.abi() == crate::ffi::Abi::Mpich,
        world: c.comm_world.0,
        handle_mask: c.handle_mask,
        in_place: c.in_place,
        type_slots: st.types.slots(),
    };
    let inline = if st.track_inside { std::ptr::null() } else { st as *const State };
    hot::publish(&constants, inline.cast());
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
    st.scope.pause();
    hot::withdraw();
    STATE.store(std::ptr::null_mut(), Ordering::Release);
    if let Some(insitu) = &st.insitu {
        let insitu = insitu.lock().unwrap_or_else(|p| p.into_inner());
        guard::guard("reducing the in-situ loads", || crate::insitu_finish::finish(st, &insitu));
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

/// Builds the state once MPI is initialised.
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
    let comms = CommTable::new(mpi, comm_attr::delete_comm_info, comm_attr::no_copy)?;
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
        world: CommInfo::world(rank, size),
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

/// Rank 0 names the settings it did not understand, once.
fn report_config(st: &State) {
    if st.rank == 0 && !st.config.unknown_names.is_empty() {
        eprintln!(
            "ibprof: IBPROF names not understood and ignored: {} (known: P2P, BCAST, ALLTOALL, … see README)",
            st.config.unknown_names.join(", ")
        );
    }
    if st.rank == 0 {
        for setting in &st.config.ignored {
            eprintln!("ibprof: setting not understood: {setting}");
        }
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
