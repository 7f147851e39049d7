//! Attribute callbacks for the communicator cache ([`crate::comms`]).

use std::ffi::{c_int, c_void};

use crate::ffi::Handle;
use crate::guard::guard;
use crate::state::state_any;

/// MPI calls this when a communicator with our attribute is freed.
///
/// # Safety
/// Called by MPI with the attribute value we attached.
pub unsafe extern "C" fn delete_comm_info(
    _comm: Handle,
    _keyval: c_int,
    attr: *mut c_void,
    _extra: *mut c_void,
) -> c_int {
    guard("forgetting a freed communicator", || {
        if let Some(st) = state_any() {
            unsafe { st.comms.forget(attr, &st.peers) }
        }
    });
    0
}

/// `MPI_Comm_dup` does not copy our attribute: the duplicate gets its own entry on first use.
///
/// # Safety
/// Called by MPI with a valid `flag` pointer.
pub unsafe extern "C" fn no_copy(
    _old: Handle,
    _keyval: c_int,
    _extra: *mut c_void,
    _attr_in: *mut c_void,
    _attr_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    if !flag.is_null() {
        unsafe { *flag = 0 };
    }
    0
}
