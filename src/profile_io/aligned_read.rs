//! Reads that land on 64-byte boundaries of memory.
//!
//! The kernel copies file data out of the page cache three to four times slower into a
//! destination that is not 32-byte aligned: a 581 MB `.fdbs` took 0.26–0.37 s to read into a
//! buffer at 16 bytes past a page (where the allocator puts large blocks) and 0.08 s into one
//! at a 32-byte boundary or more (`readv` into an `mmap`ed buffer at offsets 0–4080, best of
//! three; the file's own offset made no difference). That copy was a tenth of a k = 36
//! render's CPU time (perf: `_copy_to_iter`). So every large read here starts aligned: a short
//! first read brings the write position to the next boundary, and the long reads follow it.

use std::io::{self, Read};

/// The boundary the long reads start on (a cache line; 32 was enough on the machine measured).
pub const ALIGN: usize = 64;

/// Bytes from `at` to the next [`ALIGN`] boundary (0 if it is on one).
fn lead(at: *const u8) -> usize {
    (at as usize).wrapping_neg() % ALIGN
}

/// Appends up to `limit` bytes of `reader` to `buf` (fewer only where the input ends), into its
/// spare capacity without zeroing it first; the bytes read.
pub fn append_aligned(reader: &mut impl Read, buf: &mut Vec<u8>, limit: usize) -> io::Result<usize> {
    buf.reserve_exact(limit);
    let head = lead(buf.as_ptr().wrapping_add(buf.len())).min(limit);
    let first = reader.by_ref().take(head as u64).read_to_end(buf)?;
    if first < head {
        return Ok(first);
    }
    Ok(first + reader.take((limit - head) as u64).read_to_end(buf)?)
}

/// Fills `buf` with `read` (a `read` or `read_at` call that returns how many bytes it put at
/// the start of the slice it is given) until it is full or `read` returns 0; the bytes read.
pub fn fill_aligned(
    buf: &mut [u8],
    mut read: impl FnMut(&mut [u8]) -> io::Result<usize>,
) -> io::Result<usize> {
    let head = lead(buf.as_ptr()).min(buf.len());
    let mut done = 0;
    while done < buf.len() {
        // Only the head first, so that every later read starts on a boundary.
        let end = if done < head { head } else { buf.len() };
        match read(&mut buf[done..end]) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// A reusable read buffer whose usable part starts on an [`ALIGN`] boundary.
pub struct AlignedPiece {
    bytes: Vec<u8>,
    start: usize,
    len: usize,
}

impl AlignedPiece {
    /// A piece of `len` usable bytes.
    pub fn new(len: usize) -> Self {
        let bytes = vec![0u8; len + ALIGN];
        let start = lead(bytes.as_ptr());
        AlignedPiece { bytes, start, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The usable bytes, starting on a boundary.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.bytes[self.start..self.start + self.len]
    }

    /// The first `n` usable bytes.
    pub fn head(&self, n: usize) -> &[u8] {
        &self.bytes[self.start..self.start + n.min(self.len)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(n: usize) -> Vec<u8> {
        (0..n).map(|i| b'a' + (i % 26) as u8).collect()
    }

    #[test]
    fn appending_keeps_every_byte_in_order_and_stops_at_the_limit() {
        let source = text(10_000);
        for carry in [0, 1, 7, 63, 64, 65, 200] {
            let mut buf = source[..carry].to_vec();
            let mut reader = &source[carry..];
            let got = append_aligned(&mut reader, &mut buf, 5_000).unwrap();
            assert_eq!(got, 5_000);
            assert_eq!(buf, source[..carry + 5_000]);
            let got = append_aligned(&mut reader, &mut buf, 10_000).unwrap();
            assert_eq!(got, 10_000 - carry - 5_000, "fewer only at the end of the input");
            assert_eq!(buf, source);
        }
        let mut empty: &[u8] = &[];
        let mut buf = b"xy".to_vec();
        assert_eq!(append_aligned(&mut empty, &mut buf, 100).unwrap(), 0);
        assert_eq!(buf, b"xy");
    }

    #[test]
    fn filling_starts_its_long_reads_on_a_boundary_and_keeps_the_bytes() {
        let source = text(5_000);
        let mut backing = vec![0u8; 4_000 + ALIGN];
        for offset in [0, 1, 16, 33, 63] {
            let buf = &mut backing[offset..offset + 4_000];
            let base = buf.as_ptr() as usize;
            let mut starts = Vec::new();
            let mut at = 0;
            // A reader that returns at most 1,000 bytes a call, as a pipe might.
            let got = fill_aligned(buf, |chunk| {
                starts.push(chunk.as_ptr() as usize - base);
                let n = chunk.len().min(1_000).min(source.len() - at);
                chunk[..n].copy_from_slice(&source[at..at + n]);
                at += n;
                Ok(n)
            })
            .unwrap();
            assert_eq!(got, 4_000);
            assert_eq!(buf, &source[..4_000]);
            // The head read comes first unless the buffer starts on a boundary.
            let long = if base % ALIGN == 0 { starts[0] } else { starts[1] };
            assert!(long < ALIGN && (base + long) % ALIGN == 0, "offset {offset}: {starts:?}");
        }
    }

    #[test]
    fn filling_stops_where_the_input_ends_and_retries_interruptions() {
        let mut buf = vec![0u8; 100];
        let mut calls = 0;
        let got = fill_aligned(&mut buf, |chunk| {
            calls += 1;
            match calls {
                1 => Err(io::Error::from(io::ErrorKind::Interrupted)),
                2 => {
                    chunk[0] = b'x';
                    Ok(1)
                }
                _ => Ok(0),
            }
        })
        .unwrap();
        assert_eq!((got, buf[0]), (1, b'x'));
    }

    #[test]
    fn a_piece_starts_on_a_boundary() {
        for len in [0, 1, 1000, 64 << 10] {
            let mut piece = AlignedPiece::new(len);
            assert_eq!(piece.len(), len);
            assert_eq!(piece.as_mut_slice().as_ptr() as usize % ALIGN, 0);
        }
    }
}
