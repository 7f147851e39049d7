//! Sizes of the predefined datatypes without calling `MPI_Type_size` on the hot path.
//!
//! A call to `PMPI_Type_size_x` costs about 30 instructions, as much as the rest of a
//! collective's counting. Predefined datatypes are never freed, so their sizes can be known once:
//! - MPICH encodes a builtin type's size in its handle (`0x4c00SS..`: kind builtin, object
//!   datatype, size in bits 8–15), stable across MPICH 3.x/4.x and its derivatives;
//! - Open MPI's predefined types are global objects; their addresses, looked up at `MPI_Init`
//!   with `RTLD_DEFAULT` (so a copy relocated into the executable is the one found), go into a
//!   small read-only open-addressing table.
//!
//! Any other handle (derived types) asks MPI.

use std::ffi::CString;

use crate::ffi::abi::dlsym_default;
use crate::ffi::{Abi, Handle, Mpi};

const SLOTS: usize = 128;

/// Open MPI's predefined datatype objects (`ompi_mpi_<name>`).
const OMPI_PREDEFINED: &[&str] = &[
    "byte",
    "packed",
    "char",
    "signed_char",
    "unsigned_char",
    "wchar",
    "short",
    "unsigned_short",
    "int",
    "unsigned",
    "long",
    "unsigned_long",
    "long_long_int",
    "unsigned_long_long",
    "float",
    "double",
    "long_double",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "aint",
    "offset",
    "count",
    "c_bool",
    "c_float_complex",
    "c_double_complex",
    "c_long_double_complex",
    "cxx_bool",
    "float_int",
    "double_int",
    "long_int",
    "2int",
    "short_int",
    "long_double_int",
    "character",
    "logical",
    "integer",
    "real",
    "dblprec",
    "cplex",
    "dblcplex",
    "2real",
    "2dblprec",
    "2integer",
    "integer1",
    "integer2",
    "integer4",
    "integer8",
    "real4",
    "real8",
    "real16",
    "complex8",
    "complex16",
];

/// Read-only after `MPI_Init`.
pub struct TypeSizes {
    abi: Abi,
    /// `(handle, size)`; handle 0 marks an empty slot.
    slots: Box<[(usize, u32); SLOTS]>,
}

impl TypeSizes {
    pub fn new(mpi: &Mpi) -> TypeSizes {
        let mut t = TypeSizes { abi: mpi.abi(), slots: Box::new([(0, 0); SLOTS]) };
        if t.abi == Abi::OpenMpi {
            for name in OMPI_PREDEFINED {
                let Ok(sym) = CString::new(format!("ompi_mpi_{name}")) else { continue };
                let addr = dlsym_default(&sym) as usize;
                if addr != 0
                    && let Ok(size) = u32::try_from(ask(mpi, Handle(addr)))
                {
                    t.insert(addr, size);
                }
            }
        }
        t
    }

    fn insert(&mut self, handle: usize, size: u32) {
        let mut i = slot(handle);
        for _ in 0..SLOTS {
            if self.slots[i].0 == 0 || self.slots[i].0 == handle {
                self.slots[i] = (handle, size);
                return;
            }
            i = (i + 1) % SLOTS;
        }
    }

    /// Size of one element of `dt` in bytes.
    #[inline(always)]
    pub fn size(&self, mpi: &Mpi, dt: Handle) -> u64 {
        match self.predefined(dt) {
            Some(size) => u64::from(size),
            None => self.probed(dt).unwrap_or_else(|| ask(mpi, dt)),
        }
    }

    /// Size of one element of `dt` if it is a predefined type in its home slot (all of them, in
    /// the Open MPI builds seen so far), without calling MPI.
    #[inline(always)]
    pub fn predefined(&self, dt: Handle) -> Option<u32> {
        // SAFETY: `slots` points at this table's SLOTS entries.
        unsafe { predefined_in(self.abi == Abi::Mpich, self.slots(), dt) }
    }

    /// The first of the size slots, for [`crate::hot`]; valid as long as this table.
    pub fn slots(&self) -> *const (usize, u32) {
        self.slots.as_ptr()
    }

    /// A predefined Open MPI type that collided with another and lies past its home slot.
    #[cold]
    fn probed(&self, dt: Handle) -> Option<u64> {
        let mut i = slot(dt.0);
        for _ in 0..SLOTS {
            let (key, size) = self.slots[i];
            if key == dt.0 {
                return Some(u64::from(size));
            }
            if key == 0 {
                return None;
            }
            i = (i + 1) % SLOTS;
        }
        None
    }
}

/// Size of one element of `dt` if it is a predefined type: from the handle under MPICH, else from
/// its home slot in Open MPI's table `slots`.
///
/// # Safety
/// Unless `mpich`, `slots` must point at a table of `SLOTS` entries.
#[inline(always)]
pub(crate) unsafe fn predefined_in(mpich: bool, slots: *const (usize, u32), dt: Handle) -> Option<u32> {
    if mpich {
        // Two tests in turn rather than one combined condition: that kept more registers live,
        // and the inline counting path saved them on every call.
        let h = dt.0 as u32;
        if h >> 26 != 0x4c00_0000 >> 26 {
            return None;
        }
        std::num::NonZeroU32::new((h >> 8) & 0xff).map(u32::from)
    } else {
        // SAFETY: per the contract; `slot` is below SLOTS.
        let (key, size) = unsafe { *slots.add(slot(dt.0)) };
        (key == dt.0).then_some(size)
    }
}

/// Predefined Open MPI datatypes are 512-byte padded objects side by side.
#[inline(always)]
fn slot(handle: usize) -> usize {
    ((handle >> 9) ^ (handle >> 3)) % SLOTS
}

#[cold]
fn ask(mpi: &Mpi, dt: Handle) -> u64 {
    let mut size: i64 = 0;
    // SAFETY: a datatype the application passes with a non-zero count must be valid.
    unsafe { (mpi.f.type_size_x)(dt, &mut size) };
    u64::try_from(size).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_past_its_home_slot_is_found_by_probing_not_on_the_prepared_path() {
        let mut t = TypeSizes { abi: Abi::OpenMpi, slots: Box::new([(0, 0); SLOTS]) };
        let a = 0x1000;
        let b = a + (SLOTS << 9) * 8; // same slot as `a`
        assert_eq!(slot(a), slot(b));
        t.insert(a, 4);
        t.insert(b, 8);
        assert_eq!(t.predefined(Handle(a)), Some(4));
        assert_eq!(t.predefined(Handle(b)), None, "displaced: the full lookup probes for it");
        let probed = [a, b, a + 512].map(|h| t.probed(Handle(h)));
        assert_eq!(probed, [Some(4), Some(8), None]);
    }

    #[test]
    fn mpich_builtin_handles_carry_their_size() {
        for (h, size) in [(0x4c00_010du32, 1u32), (0x4c00_0405, 4), (0x4c00_083e, 8), (0x4c00_080b, 8)] {
            assert_eq!(h & 0xfc00_0000, 0x4c00_0000);
            assert_eq!((h >> 8) & 0xff, size);
        }
        // A derived type (direct handle) is not builtin.
        assert_ne!(0x8c00_0003u32 & 0xfc00_0000, 0x4c00_0000);
    }
}
