//! The two MPI ABIs that one `libibprof.so` serves, told apart at run time.
//!
//! We cannot include the `mpi.h` of Open MPI and of MPICH at once, so the collector declares the
//! MPI C interface itself. The differences that matter:
//!
//! | what               | Open MPI (4.x)                  | MPICH family (MPICH, Intel MPI, MVAPICH) |
//! |--------------------|---------------------------------|------------------------------------------|
//! | handles            | pointers (8 bytes)              | `int` (4 bytes)                          |
//! | `MPI_COMM_WORLD`   | `&ompi_mpi_comm_world`          | `0x44000000`                             |
//! | `MPI_IN_PLACE`     | `(void*)1`                      | `(void*)-1`                              |
//! | `MPI_STATUS_IGNORE`| `NULL`                          | `(MPI_Status*)1`                         |
//! | `MPI_Status`       | 24 bytes, `MPI_SOURCE` at 0     | 20 bytes, `MPI_SOURCE` at 8              |
//! | `MPI_ANY_SOURCE` / `MPI_PROC_NULL` | -1 / -2         | -2 / -1                                  |
//!
//! A handle passed *by value* travels in a 64-bit register or an 8-byte stack slot on x86-64 and
//! AArch64 Linux, whether it is an `int` or a pointer. So every wrapper takes handles as
//! [`Handle`] (`usize`) and forwards them unchanged; only comparisons normalise an MPICH handle to
//! its low 32 bits ([`Abi::norm`]). Handles in *arrays* (requests, `MPI_Alltoallw` types) and
//! handles written through out-pointers have the ABI's own width and are read with
//! [`Abi::handle_at`]; out-pointers are given a zeroed 8-byte cell, which reads right on
//! little-endian targets (the only ones the collector builds for).

use std::ffi::{CStr, c_int, c_void};

#[cfg(not(target_endian = "little"))]
compile_error!("libibprof reads 4-byte MPICH handles from 8-byte cells and needs a little-endian target");

/// An MPI handle passed by value: a pointer (Open MPI) or an `int` (MPICH) in a 64-bit slot.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Handle(pub usize);

/// Which MPI ABI the process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abi {
    OpenMpi,
    Mpich,
}

impl Abi {
    /// Detects the ABI from the process's global symbols: Open MPI exports its predefined
    /// communicators as data (`ompi_mpi_comm_world`); everything else is taken as MPICH's ABI.
    pub fn detect() -> Abi {
        if dlsym_default(c"ompi_mpi_comm_world").is_null() { Abi::Mpich } else { Abi::OpenMpi }
    }

    /// A by-value handle with the bits that the ABI does not define cleared.
    #[inline(always)]
    pub fn norm(self, h: Handle) -> Handle {
        match self {
            Abi::OpenMpi => h,
            Abi::Mpich => Handle(h.0 as u32 as usize),
        }
    }

    /// Size in bytes of one handle stored in memory (arrays, out-parameters).
    #[inline(always)]
    pub fn handle_bytes(self) -> usize {
        match self {
            Abi::OpenMpi => 8,
            Abi::Mpich => 4,
        }
    }

    /// Reads handle `i` of an array of handles in this ABI's width.
    ///
    /// # Safety
    /// `base` must point at an array of at least `i + 1` handles.
    #[inline(always)]
    pub unsafe fn handle_at(self, base: *const c_void, i: usize) -> Handle {
        unsafe {
            match self {
                Abi::OpenMpi => Handle(*(base as *const usize).add(i)),
                Abi::Mpich => Handle(*(base as *const u32).add(i) as usize),
            }
        }
    }

    /// Size of `MPI_Status` in bytes.
    pub fn status_bytes(self) -> usize {
        match self {
            Abi::OpenMpi => 24,
            Abi::Mpich => 20,
        }
    }

    /// Byte offset of `MPI_SOURCE` in `MPI_Status`.
    pub fn status_source_offset(self) -> usize {
        match self {
            Abi::OpenMpi => 0,
            Abi::Mpich => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Abi::OpenMpi => "Open MPI",
            Abi::Mpich => "MPICH",
        }
    }
}

/// The predefined handles and constants of the running MPI, in its ABI.
#[derive(Clone, Copy, Debug)]
pub struct Consts {
    pub abi: Abi,
    /// The bits of a by-value handle that the ABI defines (see [`Abi::norm`]), so that a
    /// comparison needs no branch on the ABI.
    pub handle_mask: usize,
    pub comm_world: Handle,
    pub comm_null: Handle,
    pub byte: Handle,
    pub long_long: Handle,
    pub op_max: Handle,
    pub request_null: Handle,
    pub in_place: usize,
    pub status_ignore: usize,
    pub any_source: c_int,
    pub proc_null: c_int,
    pub undefined: c_int,
}

impl Consts {
    /// The constants of `abi`; for Open MPI they are the addresses of its global objects, looked
    /// up with `RTLD_DEFAULT` so that a copy relocated into the executable is the one we compare to.
    pub fn for_abi(abi: Abi) -> Result<Consts, String> {
        match abi {
            Abi::OpenMpi => {
                let sym = |name: &CStr| {
                    let p = dlsym_default(name);
                    if p.is_null() {
                        Err(format!("Open MPI symbol {} not found", name.to_string_lossy()))
                    } else {
                        Ok(Handle(p as usize))
                    }
                };
                Ok(Consts {
                    abi,
                    handle_mask: usize::MAX,
                    comm_world: sym(c"ompi_mpi_comm_world")?,
                    comm_null: sym(c"ompi_mpi_comm_null")?,
                    byte: sym(c"ompi_mpi_byte")?,
                    long_long: sym(c"ompi_mpi_long_long_int")?,
                    op_max: sym(c"ompi_mpi_op_max")?,
                    request_null: sym(c"ompi_request_null")?,
                    in_place: 1,
                    status_ignore: 0,
                    any_source: -1,
                    proc_null: -2,
                    undefined: -32766,
                })
            }
            Abi::Mpich => Ok(Consts {
                abi,
                handle_mask: u32::MAX as usize,
                comm_world: Handle(0x4400_0000),
                comm_null: Handle(0x0400_0000),
                byte: Handle(0x4c00_010d),
                long_long: Handle(0x4c00_0809),
                op_max: Handle(0x5800_0001),
                request_null: Handle(0x2c00_0000),
                in_place: usize::MAX,
                status_ignore: 1,
                any_source: -2,
                proc_null: -1,
                undefined: -32766,
            }),
        }
    }

    #[inline(always)]
    pub fn is_in_place(&self, buf: *const c_void) -> bool {
        buf as usize == self.in_place
    }

    #[inline(always)]
    pub fn is_world(&self, comm: Handle) -> bool {
        comm.0 & self.handle_mask == self.comm_world.0
    }

    /// True when a status pointer is `MPI_STATUS_IGNORE` / `MPI_STATUSES_IGNORE` (same value in
    /// both ABIs).
    #[inline(always)]
    pub fn ignores_status(&self, status: *const c_void) -> bool {
        status as usize == self.status_ignore
    }
}

/// `dlsym(RTLD_DEFAULT, name)`: the first definition in the global scope (executable first).
pub fn dlsym_default(name: &CStr) -> *mut c_void {
    // SAFETY: dlsym with a valid NUL-terminated name has no preconditions.
    unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) }
}

/// `dlsym(RTLD_NEXT, name)`: the next definition after this library, i.e. the MPI library's.
pub fn dlsym_next(name: &CStr) -> *mut c_void {
    // SAFETY: as above.
    unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) }
}

/// A zeroed cell for an out-parameter handle of either width.
#[repr(C, align(8))]
#[derive(Default)]
pub struct HandleCell(pub u64);

impl HandleCell {
    pub fn as_mut_ptr(&mut self) -> *mut c_void {
        &mut self.0 as *mut u64 as *mut c_void
    }

    pub fn get(&self, abi: Abi) -> Handle {
        abi.norm(Handle(self.0 as usize))
    }
}

/// Room for one `MPI_Status` of either ABI, for when the caller passed `MPI_STATUS_IGNORE`.
#[repr(C, align(8))]
#[derive(Default)]
pub struct StatusCell(pub [u64; 4]);

impl StatusCell {
    pub fn as_mut_ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr() as *mut c_void
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mpich_handles_lose_the_undefined_upper_half_when_compared() {
        let c = Consts::for_abi(Abi::Mpich).unwrap();
        assert!(c.is_world(Handle(0xdead_beef_4400_0000)));
        assert!(!c.is_world(Handle(0x4400_0001)));
    }

    #[test]
    fn handle_arrays_are_read_in_the_abis_width() {
        let ints: [u32; 3] = [7, 0x4c00_010d, 9];
        let ptrs: [usize; 2] = [0x1000, 0x2000];
        unsafe {
            assert_eq!(Abi::Mpich.handle_at(ints.as_ptr() as *const c_void, 1), Handle(0x4c00_010d));
            assert_eq!(Abi::OpenMpi.handle_at(ptrs.as_ptr() as *const c_void, 1), Handle(0x2000));
        }
    }

    #[test]
    fn a_four_byte_out_handle_reads_back_from_an_eight_byte_cell() {
        let mut cell = HandleCell::default();
        unsafe { *(cell.as_mut_ptr() as *mut u32) = 0x8400_0003 };
        assert_eq!(cell.get(Abi::Mpich), Handle(0x8400_0003));
    }

    #[test]
    fn in_place_differs_between_the_abis() {
        let m = Consts::for_abi(Abi::Mpich).unwrap();
        assert!(m.is_in_place(usize::MAX as *const c_void));
        assert!(!m.is_in_place(std::ptr::dangling::<c_void>()));
    }
}
