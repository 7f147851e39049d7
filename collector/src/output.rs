//! Writing the profile at `MPI_Finalize`: one file for the job, gathered through MPI itself.
//!
//! By default the file is written with MPI-IO ([`crate::mpiio`]); this module's rank-0 path is
//! the fallback (and `IBPROF_WRITER=rank0`).
//!
//! Protocol, on the collector's private duplicate of `MPI_COMM_WORLD`, identical on every rank
//! whatever fails, so that `MPI_Finalize` can never deadlock on it:
//! 1. rank 0 creates the file and broadcasts whether it could (if not: one message, no file);
//! 2. the section lengths are gathered to rank 0;
//! 3. rank 0 writes the header and its section, then receives each other rank's section in turn
//!    (in chunks of at most 1 GiB) and appends it. Memory on rank 0 is one section at a time.
//!
//! A write error on rank 0 is reported once; rank 0 still receives everything, so no sender
//! waits forever. With `IBPROF_PER_RANK=1` each rank also writes its own complete file, for
//! debugging; the gathered file is then their sections concatenated under one header.

use std::ffi::{c_int, c_void};
use std::io::{BufWriter, Write};
use std::time::Instant;

use crate::chunks::{recv_chunks, send_chunks};
use crate::config::Writer;
use crate::state::State;

const TAG: c_int = 0x1b9f;

/// Writes this rank's `section` where the configuration says: through MPI-IO
/// ([`crate::mpiio`]) unless `IBPROF_WRITER=rank0` or MPI-IO cannot open the file, else
/// through rank 0.
pub fn write(st: &State, section: &[u8]) {
    if st.config.per_rank {
        per_rank(st, section);
    }
    let out = &st.config.out;
    let started = Instant::now();
    match st.config.writer {
        Writer::Rank0 => gathered(st, section, out, started),
        Writer::MpiIo => {
            if !crate::mpiio::write(st, out, section, started) {
                gathered(st, section, out, started);
            }
        }
        Writer::Both => {
            if !crate::mpiio::write(st, out, section, started) && st.rank == 0 {
                eprintln!("ibprof: MPI-IO could not open {}; only the rank-0 copy is written", out.display());
            }
            let mut copy = out.clone().into_os_string();
            copy.push(".rank0");
            gathered(st, section, std::path::Path::new(&copy), Instant::now());
        }
    }
}

fn per_rank(st: &State, section: &[u8]) {
    let path = st.config.per_rank_path(st.rank);
    let result = crate::safe_file::create_regular(&path).and_then(|f| {
        let mut w = BufWriter::new(f);
        w.write_all(&st.header())?;
        w.write_all(section)?;
        w.flush()
    });
    if let Err(e) = result {
        eprintln!("ibprof: rank {}: cannot write profile {}: {e}", st.rank, path.display());
    }
}

fn gathered(st: &State, section: &[u8], path: &std::path::Path, started: Instant) {
    let m = st.mpi;
    let (comm, byte) = (st.private, m.c.byte);
    let root = st.rank == 0;

    let mut file = None;
    let mut ok: c_int = 1;
    if root {
        match crate::safe_file::create_regular(path) {
            Ok(f) => file = Some(BufWriter::new(f)),
            Err(e) => {
                eprintln!("ibprof: cannot write profile {}: {e}; no profile written", path.display());
                ok = 0;
            }
        }
    }
    // SAFETY: every buffer below is valid for the byte count given with MPI_BYTE.
    unsafe {
        (m.f.bcast)(&mut ok as *mut c_int as *mut c_void, 4, byte, 0, comm);
    }
    if ok == 0 {
        return;
    }
    let len = section.len() as u64;
    let mut lens = vec![0u64; if root { st.size as usize } else { 1 }];
    unsafe {
        (m.f.gather)(
            &len as *const u64 as *const c_void,
            8,
            byte,
            lens.as_mut_ptr() as *mut c_void,
            8,
            byte,
            0,
            comm,
        );
    }
    if !root {
        send_chunks(st, comm, 0, TAG, section);
        return;
    }
    let mut failed: Option<std::io::Error> = None;
    let mut put = |bytes: &[u8]| {
        if failed.is_none()
            && let Some(w) = file.as_mut()
            && let Err(e) = w.write_all(bytes)
        {
            failed = Some(e);
        }
    };
    put(&st.header());
    put(section);
    let mut buf = Vec::new();
    for (r, &n) in lens.iter().enumerate().skip(1) {
        buf.clear();
        buf.resize(n as usize, 0);
        recv_chunks(st, comm, r as c_int, TAG, &mut buf);
        put(&buf);
    }
    if failed.is_none()
        && let Some(Err(e)) = file.as_mut().map(|w| w.flush())
    {
        failed = Some(e);
    }
    match failed {
        Some(e) => eprintln!("ibprof: error writing profile {}: {e}; the file is incomplete", path.display()),
        None => eprintln!(
            "ibprof: wrote {} ({} ranks, through rank 0, {:.1} ms)",
            path.display(),
            st.size,
            started.elapsed().as_secs_f64() * 1e3
        ),
    }
}
