//! Writing the gathered profile with MPI-IO, through one writer per block of ranks.
//!
//! Every rank's section lands at its offset in one file, written by the first rank of its block
//! of `IBPROF_IO_BLOCK` consecutive ranks (64 by default, about one writer per node), so rank 0
//! no longer receives `ranks²` bytes, and the file system sees one open per writer rather than
//! one per rank. Writers open the file on `MPI_COMM_SELF` and write with `MPI_File_write_at`
//! (independent I/O): the sections are contiguous, so the collective two-phase machinery only
//! adds rounds, and on an oversubscribed node every round every rank must join costs a
//! scheduling slice (measured: a collective open alone took 5.6 s on 64 MPICH ranks, 2 cores).
//!
//! Protocol on the private communicator; every message has a matching receive whatever fails:
//! 1. rank 0 has opened (or created) the file at `MPI_Init` ([`open_early`]), else opens it
//!    now, and broadcasts whether it could (if not: every rank returns `false` and the rank-0
//!    writer takes over and reports);
//! 2. section lengths are gathered to rank 0; if there are other writers, it writes a 16-byte
//!    stamp just past the end the profile will have and sends each writer its *plan*: the
//!    block's offset, the stamp, and its members' lengths;
//! 3. a writer opens the file and reads the stamp back: a file it cannot open, or whose stamp
//!    differs (an output path on a node-local file system), makes it *forward* its block to
//!    rank 0 instead, which writes it; either way it first tells rank 0 which;
//! 4. block members send their sections to their writer, which writes them in order, coalesced
//!    into writes of up to 8 MiB (at most 1 GiB per call: the count is an `int`), then tells
//!    rank 0 whether every write succeeded;
//! 5. rank 0 writes its own block, serves forwarded blocks, collects the writers' results,
//!    sets the file's size to the profile's end if it is not (cutting the stamp and whatever an
//!    older, longer file held beyond it) and reports once.
//!
//! The bytes are those of the rank-0 writer: the same header, the sections in rank order.

use std::ffi::{CString, c_int, c_void};
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use crate::config::Writer;

use crate::chunks::{recv_chunks, send_chunks};
use crate::ffi::tools::{FileIo, MODE_CREATE, MODE_RDWR, MODE_WRONLY, tools};
use crate::ffi::{Handle, HandleCell, Mpi, StatusCell};
use crate::state::State;

const TAG_PLAN: c_int = 0x1ba0;
const TAG_SECTION: c_int = 0x1ba1;
const TAG_FORWARD: c_int = 0x1ba2;
const TAG_STATUS: c_int = 0x1ba3;
/// Writes are coalesced up to this size.
const COALESCE: usize = 8 << 20;
/// At most this many bytes per MPI call (the count is an `int`).
const CHUNK: usize = 1 << 30;
const STAMP_LEN: usize = 16;

/// A writer's word to rank 0 before its block: it writes the block itself, or forwards it.
const WRITES: u64 = 0;
const FORWARDS: u64 = 1;

/// Writes the profile to `path` with MPI-IO; `false` on every rank if rank 0 could not create
/// the file with MPI-IO (nothing was written; the caller writes through rank 0 instead).
pub fn write(st: &State, path: &Path, section: &[u8], started: Instant) -> bool {
    let Some(io) = tools().ok().and_then(|t| t.file.as_ref()) else { return false };
    let blocks = Blocks { ranks: st.size, block: st.config.io_block.max(1) };
    let name = CString::new(path.as_os_str().as_encoded_bytes()).unwrap_or_default();
    // A path that is a link or no regular file is not handed to MPI-IO: the rank-0 writer then
    // refuses it by name.
    let vetted = st.rank == 0 && crate::safe_file::open_regular(path).is_ok();
    let created = if vetted { take_early().or_else(|| create(io, &name)) } else { None };
    if !bcast_flag(st, created.is_some() || st.rank != 0) {
        return false;
    }
    let lens = gather_lengths(st, section.len() as u64);
    let rank = st.rank;
    match created {
        Some(file) => rank0(st, io, file, &blocks, &lens, section, path, started),
        None if blocks.is_writer(rank) => writer(st, io, &name, &blocks, section),
        None => send_chunks(st, st.private, blocks.writer_of(rank) as c_int, TAG_SECTION, section),
    }
    true
}

/// Blocks of `block` consecutive ranks; the first rank of each writes it.
struct Blocks {
    ranks: u32,
    block: u32,
}

impl Blocks {
    fn is_writer(&self, rank: u32) -> bool {
        rank.is_multiple_of(self.block)
    }

    fn writer_of(&self, rank: u32) -> u32 {
        rank - rank % self.block
    }

    /// The ranks of `writer`'s block, itself included.
    fn members(&self, writer: u32) -> std::ops::Range<u32> {
        writer..writer.saturating_add(self.block).min(self.ranks)
    }

    fn writers(&self) -> impl Iterator<Item = u32> + use<> {
        (0..self.ranks).step_by(self.block as usize)
    }
}

/// What rank 0 tells a writer: where its block starts, where the profile ends (the stamp sits
/// there), the stamp, and its members' lengths (its own excluded).
#[derive(Debug, PartialEq)]
struct Plan {
    offset: u64,
    end: u64,
    stamp: [u8; STAMP_LEN],
    lens: Vec<u64>,
}

impl Plan {
    fn encoded_len(members: usize) -> usize {
        16 + STAMP_LEN + 8 * members.saturating_sub(1)
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + STAMP_LEN + 8 * self.lens.len());
        out.extend_from_slice(&self.offset.to_le_bytes());
        out.extend_from_slice(&self.end.to_le_bytes());
        out.extend_from_slice(&self.stamp);
        for len in &self.lens {
            out.extend_from_slice(&len.to_le_bytes());
        }
        out
    }

    fn decode(bytes: &[u8]) -> Plan {
        let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        let mut stamp = [0; STAMP_LEN];
        stamp.copy_from_slice(&bytes[16..16 + STAMP_LEN]);
        Plan {
            offset: word(&bytes[..8]),
            end: word(&bytes[8..16]),
            stamp,
            lens: bytes[16 + STAMP_LEN..].chunks_exact(8).map(word).collect(),
        }
    }
}

/// Rank 0's file, created and emptied, with the stamp it will check writers against.
struct Created {
    file: Handle,
    stamp: [u8; STAMP_LEN],
}

/// Rank 0's file, opened at `MPI_Init` ([`open_early`]) and used at `MPI_Finalize`.
static EARLY: Mutex<Option<usize>> = Mutex::new(None);

/// Rank 0 opens the profile's file at `MPI_Init`: the first `MPI_File_open` of a process loads
/// the MPI-IO components (about 2 ms quiet, up to 9 ms with 64 ranks on 2 cores under Open MPI),
/// a cost better paid inside `MPI_Init` than while every rank waits at `MPI_Finalize`. A path
/// that cannot be opened yet (a folder the job makes) is simply tried again at the end.
pub fn open_early(st: &State) {
    if st.rank != 0 || !st.config.profile_wanted || st.config.writer == Writer::Rank0 {
        return;
    }
    let Some(io) = tools().ok().and_then(|t| t.file.as_ref()) else { return };
    let name = CString::new(st.config.out.as_os_str().as_encoded_bytes()).unwrap_or_default();
    // MPI-IO follows links and opens anything: the path is vetted first (see `safe_file`).
    if crate::safe_file::open_regular(&st.config.out).is_err() {
        return;
    }
    if let Some(file) = open(io, &name, MODE_CREATE | MODE_WRONLY) {
        *EARLY.lock().unwrap_or_else(|p| p.into_inner()) = Some(file.0);
    }
}

fn take_early() -> Option<Created> {
    let file = EARLY.lock().unwrap_or_else(|p| p.into_inner()).take()?;
    Some(Created { file: Handle(file), stamp: stamp() })
}

/// Creates the file, or opens an old one: not truncated here, because every byte before the
/// profile's end is written and the final `MPI_File_set_size` cuts what lies beyond (one
/// truncation, of a file that may be large, rather than two).
fn create(io: &FileIo, name: &CString) -> Option<Created> {
    let file = open(io, name, MODE_CREATE | MODE_WRONLY)?;
    Some(Created { file, stamp: stamp() })
}

/// Sixteen bytes unlikely to be in a stale file: this process and this moment.
fn stamp() -> [u8; STAMP_LEN] {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut out = [0; STAMP_LEN];
    out[..8].copy_from_slice(&(nanos as u64).to_le_bytes());
    out[8..12].copy_from_slice(&std::process::id().to_le_bytes());
    out[12..].copy_from_slice(b"ibpf");
    out
}

fn open(io: &FileIo, name: &CString, mode: c_int) -> Option<Handle> {
    let mut file = HandleCell::default();
    // SAFETY: a NUL-terminated name; the out-handle is an 8-byte cell (MPI_File is a pointer in
    // both ABIs).
    let rc = unsafe { (io.open)(io.comm_self, name.as_ptr(), mode, io.info_null, file.as_mut_ptr()) };
    (rc == 0).then_some(Handle(file.0 as usize))
}

fn close(io: &FileIo, file: Handle) -> bool {
    let mut cell = HandleCell(file.0 as u64);
    // SAFETY: the file is open; close takes the handle's address.
    unsafe { (io.close)(cell.as_mut_ptr()) == 0 }
}

#[allow(clippy::too_many_arguments)]
fn rank0(
    st: &State,
    io: &FileIo,
    created: Created,
    blocks: &Blocks,
    lens: &[u64],
    section: &[u8],
    path: &Path,
    started: Instant,
) {
    let header = st.header();
    let offsets = offsets(header.len() as u64, lens);
    let end = offsets.last().copied().unwrap_or(0);
    // The stamp is for other writers to check; a job of one block has none.
    let others = blocks.writers().count() > 1;
    let mut failed = others && !write_all_at(st.mpi, io, created.file, end, &created.stamp);
    for w in blocks.writers().skip(1) {
        let members = blocks.members(w);
        let lens = lens[members.start as usize + 1..members.end as usize].to_vec();
        let plan = Plan { offset: offsets[w as usize], end, stamp: created.stamp, lens };
        send_chunks(st, st.private, w as c_int, TAG_PLAN, &plan.encode());
    }
    let mut out = Coalesced::new(st.mpi, io, created.file, 0);
    out.put(&header);
    out.put(section);
    let length = |r: u32| (r, lens.get(r as usize).copied().unwrap_or(0));
    receive_sections(st, blocks.members(0).skip(1).map(length), None, |s| out.put(s));
    failed |= !out.finish();
    let (mut writers_failed, mut forwarded) = (0, 0);
    for w in blocks.writers().skip(1) {
        if read_word(st, w) == FORWARDS {
            forwarded += 1;
            let mut out = Coalesced::new(st.mpi, io, created.file, offsets[w as usize]);
            receive_sections(st, blocks.members(w).map(length), Some(w), |s| out.put(s));
            failed |= !out.finish();
        } else if read_word(st, w) != 0 {
            writers_failed += 1;
        }
    }
    // Trims the stamp and an older file's tail; a new file already ends at `end`.
    if size(io, created.file).is_none_or(|size| size != end) {
        // SAFETY: the file is open.
        failed |= unsafe { (io.set_size)(created.file, end as i64) } != 0;
    }
    failed |= !close(io, created.file);
    // Success from every call is not bytes on disk (a `/proc` file under Open MPI): check.
    failed |= !crate::safe_file::holds(path, end);
    let writers = blocks.writers().count();
    if forwarded > 0 {
        eprintln!(
            "ibprof: {forwarded} of {writers} writers could not open {} as rank 0 made it (a path not shared between nodes?); rank 0 wrote their blocks",
            path.display()
        );
    }
    if failed || writers_failed > 0 {
        eprintln!(
            "ibprof: error writing profile {} with MPI-IO ({writers_failed} of {writers} writers failed); the file is incomplete",
            path.display(),
        );
    } else {
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let plural = if writers == 1 { "" } else { "s" };
        eprintln!(
            "ibprof: wrote {} ({} ranks, MPI-IO, {writers} writer{plural}, {ms:.1} ms)",
            path.display(),
            st.size
        );
    }
}

/// Where each rank's section starts, and (last) the end of the profile.
fn offsets(header: u64, lens: &[u64]) -> Vec<u64> {
    let mut at = header;
    let mut out = Vec::with_capacity(lens.len() + 1);
    for len in lens {
        out.push(at);
        at = at.saturating_add(*len);
    }
    out.push(at);
    out
}

/// Receives the sections of `(rank, length)` in order and hands each to `put`: each from its
/// own rank, or all from `via` (a writer forwarding its block).
fn receive_sections(
    st: &State,
    sections: impl Iterator<Item = (u32, u64)>,
    via: Option<u32>,
    mut put: impl FnMut(&[u8]),
) {
    let mut buf = Vec::new();
    for (r, len) in sections {
        buf.clear();
        buf.resize(len as usize, 0);
        let (from, tag) = via.map_or((r, TAG_SECTION), |w| (w, TAG_FORWARD));
        recv_chunks(st, st.private, from as c_int, tag, &mut buf);
        put(&buf);
    }
}

fn writer(st: &State, io: &FileIo, name: &CString, blocks: &Blocks, section: &[u8]) {
    let members = blocks.members(st.rank);
    let mut message = vec![0u8; Plan::encoded_len(members.len())];
    recv_chunks(st, st.private, 0, TAG_PLAN, &mut message);
    let Plan { offset, end, stamp, lens } = Plan::decode(&message);
    let file = open(io, name, MODE_RDWR).filter(|&f| {
        let ok = !cannot_open_for_test() && read_at(st.mpi, io, f, end) == Some(stamp);
        if !ok {
            close(io, f);
        }
        ok
    });
    let others = members.skip(1).zip(lens);
    let Some(file) = file else {
        // Rank 0 writes this block: the writer's own section, then its members' as they come.
        send_word(st, FORWARDS);
        send_chunks(st, st.private, 0, TAG_FORWARD, section);
        receive_sections(st, others, None, |s| send_chunks(st, st.private, 0, TAG_FORWARD, s));
        return;
    };
    send_word(st, WRITES);
    let mut out = Coalesced::new(st.mpi, io, file, offset);
    out.put(section);
    receive_sections(st, others, None, |s| out.put(s));
    let ok = out.finish() & close(io, file);
    send_word(st, u64::from(!ok));
}

/// The file's size in bytes, if MPI-IO says.
fn size(io: &FileIo, file: Handle) -> Option<u64> {
    let mut size = 0i64;
    // SAFETY: the file is open; one MPI_Offset (64-bit in both ABIs) out.
    let rc = unsafe { (io.get_size)(file, &mut size) };
    (rc == 0).then_some(size).and_then(|s| u64::try_from(s).ok())
}

/// The stamp-sized bytes at `at`, if they could be read.
fn read_at(m: &Mpi, io: &FileIo, file: Handle, at: u64) -> Option<[u8; STAMP_LEN]> {
    let mut bytes = [0u8; STAMP_LEN];
    let mut status = StatusCell::default();
    let at = i64::try_from(at).ok()?;
    // SAFETY: `bytes` is writable for STAMP_LEN bytes of MPI_BYTE.
    let rc = unsafe {
        (io.read_at)(
            file,
            at,
            bytes.as_mut_ptr() as *mut c_void,
            STAMP_LEN as c_int,
            m.c.byte,
            status.as_mut_ptr(),
        )
    };
    (rc == 0).then_some(bytes)
}

/// Writes `bytes` at `at` in calls of at most [`CHUNK`] bytes; false if any call failed.
fn write_all_at(m: &Mpi, io: &FileIo, file: Handle, at: u64, bytes: &[u8]) -> bool {
    let mut ok = true;
    for (i, chunk) in bytes.chunks(CHUNK).enumerate() {
        let Ok(offset) = i64::try_from(at.saturating_add((i * CHUNK) as u64)) else { return false };
        let mut status = StatusCell::default();
        // SAFETY: `chunk` is readable for its length (≤ 1 GiB, fits an int) of MPI_BYTE.
        let rc = unsafe {
            (io.write_at)(
                file,
                offset,
                chunk.as_ptr() as *const c_void,
                chunk.len() as c_int,
                m.c.byte,
                status.as_mut_ptr(),
            )
        };
        ok &= rc == 0;
    }
    ok
}

/// Consecutive sections written from one offset on, gathered into writes of up to [`COALESCE`]
/// bytes so that many small sections are not one system call each.
struct Coalesced<'a> {
    m: &'a Mpi,
    io: &'a FileIo,
    file: Handle,
    at: u64,
    pending: Vec<u8>,
    ok: bool,
}

impl<'a> Coalesced<'a> {
    fn new(m: &'a Mpi, io: &'a FileIo, file: Handle, at: u64) -> Coalesced<'a> {
        Coalesced { m, io, file, at, pending: Vec::new(), ok: true }
    }

    fn put(&mut self, bytes: &[u8]) {
        if self.pending.len() + bytes.len() > COALESCE {
            self.flush();
        }
        if bytes.len() >= COALESCE {
            self.ok &= write_all_at(self.m, self.io, self.file, self.at, bytes);
            self.at = self.at.saturating_add(bytes.len() as u64);
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            self.ok &= write_all_at(self.m, self.io, self.file, self.at, &self.pending);
            self.at = self.at.saturating_add(self.pending.len() as u64);
            self.pending.clear();
        }
    }

    /// Writes what is pending; true if every write succeeded.
    fn finish(mut self) -> bool {
        self.flush();
        self.ok
    }
}

/// Rank 0's flag on every rank.
fn bcast_flag(st: &State, mine: bool) -> bool {
    let mut flag = c_int::from(mine);
    // SAFETY: one int of MPI_BYTEs, the same count on every rank.
    unsafe {
        (st.mpi.f.bcast)(&mut flag as *mut c_int as *mut c_void, 4, st.mpi.c.byte, 0, st.private);
    }
    flag != 0
}

/// Every rank's section length on rank 0 (empty elsewhere).
fn gather_lengths(st: &State, mine: u64) -> Vec<u64> {
    let mut lens = vec![0u64; if st.rank == 0 { st.size as usize } else { 0 }];
    let recv = if lens.is_empty() { std::ptr::null_mut() } else { lens.as_mut_ptr() as *mut c_void };
    // SAFETY: 8 bytes from every rank into `size` slots of 8 bytes on the root.
    unsafe {
        (st.mpi.f.gather)(
            &mine as *const u64 as *const c_void,
            8,
            st.mpi.c.byte,
            recv,
            8,
            st.mpi.c.byte,
            0,
            st.private,
        );
    }
    lens
}

/// Debug builds only: `IBPROF_TEST_WRITERS_CANNOT_OPEN=1` makes every writer but rank 0 act as
/// if it could not open the file, so tests reach the forwarding path on one machine.
fn cannot_open_for_test() -> bool {
    cfg!(debug_assertions) && std::env::var_os("IBPROF_TEST_WRITERS_CANNOT_OPEN").is_some_and(|v| v == "1")
}

fn send_word(st: &State, word: u64) {
    send_chunks(st, st.private, 0, TAG_STATUS, &word.to_le_bytes());
}

fn read_word(st: &State, from: u32) -> u64 {
    let mut bytes = [0u8; 8];
    recv_chunks(st, st.private, from as c_int, TAG_STATUS, &mut bytes);
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_give_every_rank_one_writer_and_a_short_last_block() {
        let b = Blocks { ranks: 8, block: 3 };
        assert_eq!(b.writers().collect::<Vec<_>>(), [0, 3, 6]);
        assert_eq!((0..8).map(|r| b.writer_of(r)).collect::<Vec<_>>(), [0, 0, 0, 3, 3, 3, 6, 6]);
        assert_eq!(b.members(6), 6..8);
        assert_eq!(Blocks { ranks: 64, block: 64 }.writers().count(), 1);
    }

    #[test]
    fn offsets_start_after_the_header_and_end_at_the_profiles_length() {
        assert_eq!(offsets(10, &[5, 0, 7]), [10, 15, 15, 22]);
        assert_eq!(offsets(3, &[u64::MAX, 1]), [3, u64::MAX, u64::MAX], "saturates, never wraps");
    }

    #[test]
    fn a_plan_reads_back_as_sent() {
        let plan = Plan { offset: 40, end: 9000, stamp: *b"0123456789abcdef", lens: vec![7, 0, 12] };
        let bytes = plan.encode();
        assert_eq!(bytes.len(), Plan::encoded_len(4));
        assert_eq!(Plan::decode(&bytes), plan);
    }
}
