//! The collector's own reductions: user-defined `MPI_Op`s on contiguous byte types, so both MPI
//! ABIs need nothing but `MPI_BYTE`.
//!
//! - **saturating u64 sum**: `MPI_SUM` on `MPI_UINT64_T` wraps on overflow; a link end's bytes
//!   summed over 100,000 ranks must stop at `u64::MAX` instead, so the sum is ours.
//! - **top-K merge**: each element is `k` [`Contributor`] slots of one link end, merged as
//!   Misra–Gries summaries ([`shoal::routing::topk`]), which is what makes the attribution
//!   survive any reduction tree.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

use shoal::routing::topk::{Contributor, merge_slots};

use crate::ffi::tools::{UserFn, tools};
use crate::ffi::{Handle, HandleCell, Mpi};
use crate::guard::guard;

/// A user-defined operation and the contiguous datatype it reduces.
pub struct Reduction {
    pub op: Handle,
    pub datatype: Handle,
    /// Bytes of one element of `datatype`.
    pub element: usize,
}

impl Reduction {
    /// Saturating sums of `u64`s (one element = one `u64`).
    pub fn sum_u64(m: &Mpi) -> Result<Reduction, String> {
        Reduction::new(m, sum_u64, 8)
    }

    /// Merges of top-`k` summaries (one element = one link end's `k` slots).
    pub fn top_k(m: &Mpi, k: usize) -> Result<Reduction, String> {
        TOP_K.store(k, Ordering::Release);
        Reduction::new(m, merge_top_k, k * std::mem::size_of::<Contributor>())
    }

    fn new(m: &Mpi, function: UserFn, element: usize) -> Result<Reduction, String> {
        let t = tools().map_err(str::to_string)?;
        let size = c_int::try_from(element).map_err(|_| "element too large")?;
        let (mut op, mut datatype) = (HandleCell::default(), HandleCell::default());
        // SAFETY: out-handles are 8-byte cells; the function has MPI_User_function's signature.
        unsafe {
            if (t.type_contiguous)(size, m.c.byte, datatype.as_mut_ptr()) != 0
                || (t.type_commit)(datatype.as_mut_ptr()) != 0
            {
                return Err("cannot make a contiguous datatype".into());
            }
            if (t.op_create)(function, 1, op.as_mut_ptr()) != 0 {
                return Err("cannot create a reduction operation".into());
            }
        }
        Ok(Reduction { op: op.get(m.abi()), datatype: datatype.get(m.abi()), element })
    }

    /// Frees the operation and the datatype.
    pub fn free(self) {
        let Ok(t) = tools() else { return };
        let (mut op, mut datatype) = (HandleCell(self.op.0 as u64), HandleCell(self.datatype.0 as u64));
        // SAFETY: both handles were created by `new`.
        unsafe {
            (t.op_free)(op.as_mut_ptr());
            (t.type_free)(datatype.as_mut_ptr());
        }
    }
}

static TOP_K: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn sum_u64(input: *mut c_void, inout: *mut c_void, len: *mut c_int, _: *mut c_void) {
    guard("summing loads", || {
        // SAFETY: MPI passes two buffers of `*len` elements of 8 bytes each.
        unsafe {
            let n = usize::try_from(*len).unwrap_or(0);
            let (a, b) = (input as *const u64, inout as *mut u64);
            for i in 0..n {
                let sum = b.add(i).read_unaligned().saturating_add(a.add(i).read_unaligned());
                b.add(i).write_unaligned(sum);
            }
        }
    });
}

unsafe extern "C" fn merge_top_k(input: *mut c_void, inout: *mut c_void, len: *mut c_int, _: *mut c_void) {
    guard("merging top-K summaries", || {
        let k = TOP_K.load(Ordering::Acquire);
        if k == 0 {
            return;
        }
        // SAFETY: MPI passes two buffers of `*len` elements of `k` slots each.
        unsafe {
            let n = usize::try_from(*len).unwrap_or(0);
            let (a, b) = (input as *const Contributor, inout as *mut Contributor);
            let (mut mine, mut theirs) = (vec![Contributor::default(); k], vec![Contributor::default(); k]);
            for e in 0..n {
                for s in 0..k {
                    theirs[s] = a.add(e * k + s).read_unaligned();
                    mine[s] = b.add(e * k + s).read_unaligned();
                }
                merge_slots(&mut mine, &theirs);
                for (s, slot) in mine.iter().enumerate() {
                    b.add(e * k + s).write_unaligned(*slot);
                }
            }
        }
    });
}

/// `MPI_Reduce` of `values` (elements of `r`) to rank 0 of `comm`; `false` if MPI failed.
pub fn reduce_to_root<T: Copy>(m: &Mpi, r: &Reduction, values: &[T], out: &mut [T], comm: Handle) -> bool {
    let bytes = std::mem::size_of_val(values);
    let Ok(count) = c_int::try_from(bytes / r.element.max(1)) else { return false };
    // SAFETY: both buffers hold `count` elements of `r.datatype` (out is ignored off the root).
    unsafe {
        (m.f.reduce)(
            values.as_ptr() as *const c_void,
            out.as_mut_ptr() as *mut c_void,
            count,
            r.datatype,
            r.op,
            0,
            comm,
        ) == 0
    }
}
