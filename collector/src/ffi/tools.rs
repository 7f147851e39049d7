//! The MPI entry points only the collector's own end-of-job work needs (user-defined reduction
//! operations, derived datatypes, MPI-IO), resolved on first use. An MPI that lacks one of them
//! still runs the application; the feature that needs it says so and steps aside.

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use super::abi::{Abi, Handle, dlsym_default, dlsym_next};
use super::pmpi::mpi;

/// `MPI_User_function`: `(invec, inoutvec, len, datatype)`.
pub type UserFn = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut c_void);

// The tools' C signatures, named so each `transmute` from `dlsym` states its target type.
type OpCreateFn = unsafe extern "C" fn(UserFn, c_int, *mut c_void) -> c_int;
type OpFreeFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type TypeContiguousFn = unsafe extern "C" fn(c_int, Handle, *mut c_void) -> c_int;
type TypeCommitFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type TypeFreeFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type OpenFn = unsafe extern "C" fn(Handle, *const c_char, c_int, Handle, *mut c_void) -> c_int;
type SetSizeFn = unsafe extern "C" fn(Handle, i64) -> c_int;
type GetSizeFn = unsafe extern "C" fn(Handle, *mut i64) -> c_int;
type WriteAtFn = unsafe extern "C" fn(Handle, i64, *const c_void, c_int, Handle, *mut c_void) -> c_int;
type ReadAtFn = unsafe extern "C" fn(Handle, i64, *mut c_void, c_int, Handle, *mut c_void) -> c_int;
type CloseFn = unsafe extern "C" fn(*mut c_void) -> c_int;

/// `amode` bits, the same in Open MPI and MPICH (ROMIO's values).
pub const MODE_CREATE: c_int = 1;
pub const MODE_WRONLY: c_int = 4;
pub const MODE_RDWR: c_int = 8;

pub struct Tools {
    pub op_create: OpCreateFn,
    pub op_free: OpFreeFn,
    pub type_contiguous: TypeContiguousFn,
    pub type_commit: TypeCommitFn,
    pub type_free: TypeFreeFn,
    pub file: Option<FileIo>,
}

/// MPI-IO, when the library has it.
pub struct FileIo {
    pub open: OpenFn,
    pub set_size: SetSizeFn,
    pub get_size: GetSizeFn,
    pub write_at: WriteAtFn,
    pub read_at: ReadAtFn,
    pub close: CloseFn,
    /// `MPI_INFO_NULL`.
    pub info_null: Handle,
    /// `MPI_COMM_SELF`: writers open the file on their own, not collectively.
    pub comm_self: Handle,
}

/// The tools, or why they are missing.
pub fn tools() -> Result<&'static Tools, &'static str> {
    static TOOLS: OnceLock<Result<Tools, String>> = OnceLock::new();
    TOOLS.get_or_init(resolve).as_ref().map_err(|e| e.as_str())
}

fn resolve() -> Result<Tools, String> {
    let need = |name: &std::ffi::CStr| {
        let p = dlsym_next(name);
        if p.is_null() {
            Err(format!("{} not found in the MPI library", name.to_string_lossy()))
        } else {
            Ok(p)
        }
    };
    // SAFETY: each symbol is the MPI function of that name, with the C signature declared above
    // (handles by value as `Handle`, out-handles through 8-byte cells, as in `super::abi`).
    unsafe {
        Ok(Tools {
            op_create: std::mem::transmute::<*mut c_void, OpCreateFn>(need(c"PMPI_Op_create")?),
            op_free: std::mem::transmute::<*mut c_void, OpFreeFn>(need(c"PMPI_Op_free")?),
            type_contiguous: std::mem::transmute::<*mut c_void, TypeContiguousFn>(need(
                c"PMPI_Type_contiguous",
            )?),
            type_commit: std::mem::transmute::<*mut c_void, TypeCommitFn>(need(c"PMPI_Type_commit")?),
            type_free: std::mem::transmute::<*mut c_void, TypeFreeFn>(need(c"PMPI_Type_free")?),
            file: file_io(),
        })
    }
}

fn file_io() -> Option<FileIo> {
    let get = |name: &std::ffi::CStr| {
        let p = dlsym_next(name);
        (!p.is_null()).then_some(p)
    };
    let (info_null, comm_self) = match mpi().abi() {
        Abi::OpenMpi => (
            Handle(dlsym_default(c"ompi_mpi_info_null") as usize),
            Handle(dlsym_default(c"ompi_mpi_comm_self") as usize),
        ),
        Abi::Mpich => (Handle(0x1c00_0000), Handle(0x4400_0001)),
    };
    if info_null.0 == 0 || comm_self.0 == 0 {
        return None;
    }
    // SAFETY: as in `resolve`.
    unsafe {
        Some(FileIo {
            open: std::mem::transmute::<*mut c_void, OpenFn>(get(c"PMPI_File_open")?),
            set_size: std::mem::transmute::<*mut c_void, SetSizeFn>(get(c"PMPI_File_set_size")?),
            get_size: std::mem::transmute::<*mut c_void, GetSizeFn>(get(c"PMPI_File_get_size")?),
            write_at: std::mem::transmute::<*mut c_void, WriteAtFn>(get(c"PMPI_File_write_at")?),
            read_at: std::mem::transmute::<*mut c_void, ReadAtFn>(get(c"PMPI_File_read_at")?),
            close: std::mem::transmute::<*mut c_void, CloseFn>(get(c"PMPI_File_close")?),
            info_null,
            comm_self,
        })
    }
}
