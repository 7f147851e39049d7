//! Open MPI's monitoring components as a backend (`IBPROF_OMPI_MONITORING=1`): the bytes Open
//! MPI really sent to each peer, after collectives were broken into point-to-point messages.
//!
//! How: before `MPI_Init` we set `OMPI_MCA_pml_monitoring_enable=2` (unless the user set it), so
//! Open MPI stacks its monitoring PML. That PML reports every message it sends by calling
//! `mca_common_monitoring_record_pml(world_rank, bytes, tag)` in
//! `libmca_common_monitoring.so`. The preloaded collector defines that symbol too, so the call
//! reaches us first: we count, then forward to Open MPI's own function. This gives the counts at
//! any region boundary, which Open MPI itself only writes at finalize (and which MPI_T cannot
//! read in 4.1, ompi#9260).
//!
//! The monitoring sees only what a rank *sends*: bytes and messages (`sent_msgs`, one per
//! message the PML sent, Open MPI's `pml_monitoring_messages_count`); the `recv` and
//! `recv_msgs` columns are filled at finalize from the other ranks' `sent` and `sent_msgs` (see
//! [`crate::dumps::fill_recv_from_senders`]). With `IBPROF=`, only
//! messages sent inside the selected blocking collectives count (plus point-to-point messages,
//! tag ≥ 0, when `P2P` is selected). One-sided traffic is not counted.

use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

use super::{Backend, DumpData};
use crate::counters::PeerCounters;
use crate::ffi::{Abi, Mpi};
use crate::guard::guard;
use crate::inside::Inside;
use crate::scope::Kind;
use crate::state::{State, state};

type RecordPml = unsafe extern "C" fn(c_int, usize, c_int);

const LIBRARY: &std::ffi::CStr = c"libmca_common_monitoring.so.50";

/// Bytes sent per world rank, as the monitoring PML reported them.
static SENT: OnceLock<PeerCounters> = OnceLock::new();

/// Sets the MCA parameter that switches the monitoring PML on; Open MPI reads it in `MPI_Init`.
pub fn before_init() {
    let key = "OMPI_MCA_pml_monitoring_enable";
    if std::env::var_os(key).is_none() {
        // SAFETY: called in MPI_Init*, before MPI or the collector start any thread.
        unsafe { std::env::set_var(key, "2") };
    }
}

pub struct OmpiMonitoring;

impl OmpiMonitoring {
    pub fn start(mpi: &Mpi) -> Result<OmpiMonitoring, String> {
        if mpi.abi() != Abi::OpenMpi {
            return Err("it exists only in Open MPI".into());
        }
        if real().is_none() {
            return Err("Open MPI did not load its monitoring components (pml_monitoring_enable)".into());
        }
        let mut size: c_int = 0;
        // SAFETY: valid out-pointer; MPI is initialised.
        unsafe { (mpi.f.comm_size)(mpi.c.comm_world, &mut size) };
        SENT.get_or_init(|| PeerCounters::new(usize::try_from(size).unwrap_or(0)));
        Ok(OmpiMonitoring)
    }
}

impl Backend for OmpiMonitoring {
    fn source(&self) -> &'static str {
        "ompi-monitoring"
    }

    fn collect(&self, _st: &State, dump: &mut DumpData) {
        if let Some(sent) = SENT.get() {
            // What this rank sent: bytes and messages (one per record_pml call, as Open MPI's
            // own `pml_monitoring_messages_count` counts them). Both `recv` columns are filled
            // from the senders at finalize ([`crate::dumps::fill_recv_from_senders`]).
            let (mut totals, mut msgs) = (vec![(0, 0); sent.len()], vec![(0, 0); sent.len()]);
            sent.add_into(&mut totals, &mut msgs);
            if dump.peers.len() < totals.len() {
                dump.peers.resize(totals.len(), (0, 0));
            }
            for (d, t) in dump.peers.iter_mut().zip(totals) {
                d.0 += t.0;
            }
            let counted = dump.msgs.get_or_insert_with(Vec::new);
            counted.resize(counted.len().max(msgs.len()), (0, 0));
            for (d, m) in counted.iter_mut().zip(msgs) {
                d.0 += m.0;
            }
        }
    }

    fn counts_below_mpi(&self) -> bool {
        true
    }

    fn knows_only_sent(&self) -> bool {
        true
    }
}

/// Open MPI's own `mca_common_monitoring_record_pml`, found in the loaded monitoring library.
fn real() -> Option<RecordPml> {
    static REAL: OnceLock<usize> = OnceLock::new();
    let addr = *REAL.get_or_init(|| {
        // SAFETY: RTLD_NOLOAD only looks the library up; dlsym on its handle finds its own
        // definition, not ours.
        unsafe {
            let handle = libc::dlopen(LIBRARY.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD);
            if handle.is_null() {
                return 0;
            }
            libc::dlsym(handle, c"mca_common_monitoring_record_pml".as_ptr()) as usize
        }
    });
    // SAFETY: a non-zero address is the C function with the declared signature.
    (addr != 0).then(|| unsafe { std::mem::transmute::<*mut c_void, RecordPml>(addr as *mut c_void) })
}

/// Interposes Open MPI's monitoring hook: count, then let Open MPI record as usual.
///
/// # Safety
/// Called by Open MPI's monitoring PML with its own arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mca_common_monitoring_record_pml(world_rank: c_int, data_size: usize, tag: c_int) {
    guard("counting a monitored message", || {
        let (Some(st), Some(sent)) = (state(), SENT.get()) else { return };
        let counting = if st.track_inside {
            Inside::now() || (tag >= 0 && st.scope.counts(Kind::P2p))
        } else {
            st.scope.active()
        };
        if counting && let Ok(peer) = u32::try_from(world_rank) {
            sent.add_sent(peer, data_size as u64);
        }
    });
    if let Some(f) = real() {
        unsafe { f(world_rank, data_size, tag) }
    }
}
