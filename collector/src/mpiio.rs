//! Writing the gathered profile with MPI-IO: every rank writes its own section at its offset,
//! so rank 0 no longer receives `ranks²` bytes one section at a time.
//!
//! Protocol on the private communicator, the same on every rank:
//! 1. `MPI_File_open` (collective) with create + write-only; any rank's failure (an allreduce)
//!    closes the file and returns `false`, and the caller writes through rank 0 instead;
//! 2. the file is truncated (`MPI_File_set_size` 0);
//! 3. rank 0's buffer is the header followed by its section; offsets come from `MPI_Exscan` of
//!    the buffer lengths (a saturating sum, [`Reduction::sum_u64`]);
//! 4. `MPI_File_write_at_all` in rounds of at most 1 GiB per rank (the count is an `int`), as
//!    many rounds on every rank (an allreduce of the most any rank needs);
//! 5. `MPI_File_close`, and an allreduce of the errors so rank 0 reports once.
//!
//! The bytes are those of the rank-0 writer: the same header, the sections in rank order.

use std::ffi::{CString, c_int, c_void};

use crate::ffi::tools::{MODE_CREATE, MODE_WRONLY, tools};
use crate::ffi::{HandleCell, Mpi, StatusCell};
use crate::ops::Reduction;
use crate::state::State;

const CHUNK: usize = 1 << 30;

/// Writes the profile to `path` with MPI-IO; `false` if MPI-IO could not open the file (nothing
/// was written, and every rank returns `false`).
pub fn write(st: &State, path: &std::path::Path, section: &[u8], started: std::time::Instant) -> bool {
    let m = st.mpi;
    let Some(io) = tools().ok().and_then(|t| t.file.as_ref()) else { return false };
    let Ok(sum) = Reduction::sum_u64(m) else { return false };
    let comm = st.private;
    let name = CString::new(path.as_os_str().as_encoded_bytes()).unwrap_or_default();
    let mut file = HandleCell::default();
    // SAFETY: a NUL-terminated name; the out-handle is an 8-byte cell (MPI_File is a pointer in
    // both ABIs).
    let rc =
        unsafe { (io.open)(comm, name.as_ptr(), MODE_CREATE | MODE_WRONLY, io.info_null, file.as_mut_ptr()) };
    if any(m, st, rc != 0) {
        if rc == 0 {
            // SAFETY: the file was opened here.
            unsafe { (io.close)(file.as_mut_ptr()) };
        }
        sum.free();
        return false;
    }
    let fh = crate::ffi::Handle(file.0 as usize);
    let mut failed = unsafe { (io.set_size)(fh, 0) } != 0;
    let mine: Vec<u8> =
        if st.rank == 0 { [st.header().as_slice(), section].concat() } else { section.to_vec() };
    let offset = exscan(m, st, &sum, mine.len() as u64);
    let rounds = max_rounds(m, st, mine.len().div_ceil(CHUNK));
    for round in 0..rounds {
        let start = (round * CHUNK).min(mine.len());
        let end = (start + CHUNK).min(mine.len());
        // Never a dangling pointer for an empty write (0x1 is Open MPI's MPI_IN_PLACE).
        let chunk = if start < end { &mine[start..end] } else { &[0u8][..0] };
        let at = i64::try_from(offset.saturating_add(start as u64)).unwrap_or(i64::MAX);
        let mut status = StatusCell::default();
        let buf = if chunk.is_empty() { [0u8].as_ptr() } else { chunk.as_ptr() };
        // SAFETY: `buf` is valid for `chunk.len()` bytes of MPI_BYTE.
        let rc = unsafe {
            (io.write_at_all)(
                fh,
                at,
                buf as *const c_void,
                chunk.len() as c_int,
                m.c.byte,
                status.as_mut_ptr(),
            )
        };
        failed |= rc != 0;
    }
    // SAFETY: the file is open.
    failed |= unsafe { (io.close)(file.as_mut_ptr()) } != 0;
    sum.free();
    if any(m, st, failed) {
        if st.rank == 0 {
            eprintln!("ibprof: error writing profile {} with MPI-IO; the file is incomplete", path.display());
        }
    } else if st.rank == 0 {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        eprintln!("ibprof: wrote {} ({} ranks, MPI-IO, {ms:.1} ms)", path.display(), st.size);
    }
    true
}

/// True on every rank if it is true on any.
fn any(m: &Mpi, st: &State, mine: bool) -> bool {
    let (value, mut out) = (i64::from(mine), 0i64);
    // SAFETY: one long long in, one out.
    unsafe {
        (m.f.allreduce)(
            &value as *const i64 as *const c_void,
            &mut out as *mut i64 as *mut c_void,
            1,
            m.c.long_long,
            m.c.op_max,
            st.private,
        );
    }
    out != 0
}

fn max_rounds(m: &Mpi, st: &State, mine: usize) -> usize {
    let (value, mut out) = (mine as i64, 0i64);
    // SAFETY: as in `any`.
    unsafe {
        (m.f.allreduce)(
            &value as *const i64 as *const c_void,
            &mut out as *mut i64 as *mut c_void,
            1,
            m.c.long_long,
            m.c.op_max,
            st.private,
        );
    }
    usize::try_from(out).unwrap_or(0)
}

/// The sum of the lower ranks' lengths (0 on rank 0, where `MPI_Exscan` leaves it undefined).
fn exscan(m: &Mpi, st: &State, sum: &Reduction, mine: u64) -> u64 {
    let mut out = 0u64;
    // SAFETY: one element of the 8-byte type in, one out.
    unsafe {
        (m.f.exscan)(
            &mine as *const u64 as *const c_void,
            &mut out as *mut u64 as *mut c_void,
            1,
            sum.datatype,
            sum.op,
            st.private,
        );
    }
    if st.rank == 0 { 0 } else { out }
}
