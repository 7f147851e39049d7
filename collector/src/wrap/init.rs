//! `MPI_Init*`, `MPI_Finalize`, `MPI_Pcontrol`, and the region API of `ibprof.h`.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use std::ffi::{CStr, c_char, c_int};

use crate::ffi::mpi;
use crate::guard::guard;
use crate::lifecycle;
use crate::state::state;

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    let m = mpi();
    guard("preparing MPI_Init", lifecycle::before_init);
    let rc = unsafe { (m.f.init)(argc, argv) };
    if rc == 0 {
        guard("starting the profile", lifecycle::start);
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Init_thread(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    required: c_int,
    provided: *mut c_int,
) -> c_int {
    let m = mpi();
    guard("preparing MPI_Init_thread", lifecycle::before_init);
    let rc = unsafe { (m.f.init_thread)(argc, argv, required, provided) };
    if rc == 0 {
        guard("starting the profile", lifecycle::start);
    }
    rc
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Finalize() -> c_int {
    let m = mpi();
    guard("finishing the profile", lifecycle::finish);
    unsafe { (m.f.finalize)() }
}

/// `int MPI_Pcontrol(const int level, ...)`. Only `level` is read, which is ABI-safe for a
/// variadic caller on x86-64 and AArch64 Linux.
///
/// Level 0 stops counting; any level ≥ 1 starts it again and marks a region (a cumulative dump
/// named `MPI_Pcontrol(level)`). Negative levels are ignored.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn MPI_Pcontrol(level: c_int) -> c_int {
    if let Some(st) = state() {
        guard("MPI_Pcontrol", || match level {
            0 => st.scope.pause(),
            l if l > 0 => {
                st.scope.resume();
                st.dump(Some(&format!("MPI_Pcontrol({l})")));
            }
            _ => {}
        });
    }
    match mpi().x.pcontrol {
        Some(f) => unsafe { f(level) },
        None => 0,
    }
}

/// Marks a region boundary: a cumulative dump named `name` (may be NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibprof_region(name: *const c_char) {
    if let Some(st) = state() {
        let name = (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned());
        guard("ibprof_region", || st.dump(name.as_deref()));
    }
}
