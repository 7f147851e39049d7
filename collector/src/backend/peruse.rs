//! PERUSE InfiniBand send events as a backend: bytes per (local port, remote LID).
//!
//! At `MPI_Init` we look up the PERUSE entry points (`PERUSE_Init`, `PERUSE_Query_event`,
//! `PERUSE_Event_comm_register`, `PERUSE_Event_activate`) in the process. If they resolve and
//! `PERUSE_Query_event("PERUSE_OPENIB_SEND")` knows the event, our callback is registered on
//! `MPI_COMM_WORLD`. Debian's Open MPI has no PERUSE compiled in (`--enable-peruse`), and the
//! openib event of the thesis was a private patch, so this backend usually says once that the
//! event is absent and the job falls back to pmpi.
//!
//! The event's payload is ours to define (the patch is lost): `spec->buf` points at an
//! `ibprof_openib_event_t` (see `include/ibprof.h`): source LID, destination LID, kind, bytes.
//! Kinds `SEND` and `RDMA_WRITE` count as `sent` by the port owning the source LID toward the
//! destination LID; `RDMA_READ` counts as `recv` (the local port pulled the data). Each transfer
//! is reported once, by its initiator, as the format requires.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Backend, DumpData};
use crate::ffi::Mpi;
use crate::ffi::abi::{Handle, dlsym_default};
use crate::guard::guard;
use crate::local_port::LocalPort;
use crate::state::{State, state};

/// The event name looked up with `PERUSE_Query_event`.
pub const EVENT: &CStr = c"PERUSE_OPENIB_SEND";

/// `ibprof_openib_event_t` of `include/ibprof.h`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenibEvent {
    pub src_lid: u16,
    pub dst_lid: u16,
    pub kind: u32,
    pub bytes: u64,
}

pub const KIND_SEND: u32 = 0;
pub const KIND_RDMA_WRITE: u32 = 1;
pub const KIND_RDMA_READ: u32 = 2;

/// The start of `peruse_comm_spec_t`: `{ MPI_Comm comm; void *buf; ... }`. `buf` sits at
/// offset 8 whether the communicator handle is a pointer or an `int`.
#[repr(C)]
pub struct CommSpecHead {
    pub comm: usize,
    pub buf: *const c_void,
}

type Callback = unsafe extern "C" fn(*mut c_void, isize, *const CommSpecHead, *mut c_void) -> c_int;
type InitFn = unsafe extern "C" fn() -> c_int;
type QueryFn = unsafe extern "C" fn(*const c_char, *mut c_int) -> c_int;
type RegisterFn = unsafe extern "C" fn(c_int, Handle, Callback, *mut c_void, *mut *mut c_void) -> c_int;
type ActivateFn = unsafe extern "C" fn(*mut c_void) -> c_int;

pub struct Peruse;

impl Peruse {
    /// Registers [`on_openib_event`] if the MPI library has the event.
    pub fn start(mpi: &Mpi) -> Result<Peruse, String> {
        let sym = |name: &CStr| {
            let p = dlsym_default(name);
            if p.is_null() {
                Err(format!("PERUSE is not compiled into this MPI library (no {name:?})"))
            } else {
                Ok(p)
            }
        };
        let (init, query, register, activate) = (
            sym(c"PERUSE_Init")?,
            sym(c"PERUSE_Query_event")?,
            sym(c"PERUSE_Event_comm_register")?,
            sym(c"PERUSE_Event_activate")?,
        );
        // SAFETY: the symbols are PERUSE's C functions with the signatures of Open MPI's peruse.h.
        unsafe {
            let init: InitFn = std::mem::transmute::<*mut c_void, InitFn>(init);
            let query: QueryFn = std::mem::transmute::<*mut c_void, QueryFn>(query);
            let register: RegisterFn = std::mem::transmute::<*mut c_void, RegisterFn>(register);
            let activate: ActivateFn = std::mem::transmute::<*mut c_void, ActivateFn>(activate);
            if init() != 0 {
                return Err("PERUSE_Init failed".into());
            }
            let mut event: c_int = 0;
            if query(EVENT.as_ptr(), &mut event) != 0 {
                return Err("the PERUSE event PERUSE_OPENIB_SEND is absent from this MPI library".into());
            }
            let mut handle: *mut c_void = std::ptr::null_mut();
            if register(event, mpi.c.comm_world, on_openib_event, std::ptr::null_mut(), &mut handle) != 0 {
                return Err("PERUSE_Event_comm_register(PERUSE_OPENIB_SEND) failed".into());
            }
            if activate(handle) != 0 {
                return Err("PERUSE_Event_activate(PERUSE_OPENIB_SEND) failed".into());
            }
        }
        Ok(Peruse)
    }
}

impl Backend for Peruse {
    fn source(&self) -> &'static str {
        "peruse"
    }

    fn collect(&self, st: &State, dump: &mut DumpData) {
        dump.lids = st.lids.snapshot();
    }

    fn counts_below_mpi(&self) -> bool {
        true
    }
}

/// The PERUSE callback: one record per InfiniBand transfer the library initiated.
///
/// # Safety
/// Called by PERUSE with a valid `spec` whose `buf` points at an [`OpenibEvent`].
pub unsafe extern "C" fn on_openib_event(
    _event: *mut c_void,
    _unique_id: isize,
    spec: *const CommSpecHead,
    _param: *mut c_void,
) -> c_int {
    guard("counting a PERUSE event", || {
        let Some(st) = state() else { return };
        if spec.is_null() {
            return;
        }
        let buf = unsafe { (*spec).buf } as *const OpenibEvent;
        if buf.is_null() {
            return;
        }
        record(st, unsafe { buf.read_unaligned() });
    });
    0
}

/// Counts one event, honouring `IBPROF=` (only inside selected collectives) and
/// `MPI_Pcontrol(0)`.
pub fn record(st: &State, ev: OpenibEvent) {
    let counting = if st.track_inside { crate::inside::Inside::now() } else { st.scope.active() };
    if !counting {
        return;
    }
    let port = port_index(st, ev.src_lid);
    match ev.kind {
        KIND_SEND | KIND_RDMA_WRITE => st.lids.add(port, ev.dst_lid, ev.bytes, 0),
        KIND_RDMA_READ => st.lids.add(port, ev.dst_lid, 0, ev.bytes),
        other => warn_once(&format!("unknown PERUSE_OPENIB_SEND kind {other}; such events are skipped")),
    }
}

/// The index of the local port owning `lid`; an unknown source LID gets a port entry of its own
/// (GUID 0, device `unknown`) so that its bytes are kept, and a warning.
fn port_index(st: &State, lid: u16) -> u32 {
    let mut ports = st.ports.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = ports.iter().find(|p| p.owns(lid)) {
        return p.index;
    }
    warn_once(&format!(
        "PERUSE event from LID 0x{lid:04x}, which no local port in sysfs has; listed as a port with GUID 0"
    ));
    let index = ports.len() as u32;
    ports.push(LocalPort { index, device: Some("unknown".into()), portnum: None, guid: 0, lid, lmc: 0 });
    index
}

fn warn_once(msg: &str) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!("ibprof: {msg}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_record_has_the_layout_of_the_c_header() {
        assert_eq!(std::mem::size_of::<OpenibEvent>(), 16);
        assert_eq!(std::mem::offset_of!(OpenibEvent, kind), 4);
        assert_eq!(std::mem::offset_of!(OpenibEvent, bytes), 8);
        assert_eq!(std::mem::offset_of!(CommSpecHead, buf), 8);
    }
}
