//! The frames of a streamed remote-read answer, as Prometheus's `storage/remote/chunked.go`
//! writes them: the payload's length as a uvarint, its CRC32-Castagnoli as a big-endian u32,
//! then the payload (one `ChunkedReadResponse`). The reader only cuts frames; their checksums
//! are checked where they are decoded ([`check`]), in parallel.

use std::io::{BufRead, ErrorKind, Read};

/// The largest frame read: Prometheus's own client limit (`DefaultChunkedReadLimit`, 50 MB);
/// its server cuts frames near 1 MB (`--storage.remote.read-max-bytes-in-frame`). A constant:
/// never a size the server chose.
pub const FRAME_LIMIT: u64 = 50_000_000;

/// One frame as it came: its number in the answer (from 1), checksum and payload.
pub struct Frame {
    pub number: usize,
    pub crc: u32,
    pub payload: Vec<u8>,
}

/// Cuts a byte stream into frames.
pub struct FrameReader<R> {
    reader: R,
    frames: usize,
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(reader: R) -> FrameReader<R> {
        FrameReader { reader, frames: 0 }
    }

    /// The next frame, `None` at the end of the answer; an error says which frame is
    /// truncated or too large, and how.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, String> {
        let number = self.frames + 1;
        let Some(size) = self.uvarint().map_err(|e| format!("frame {number}: its length {e}"))? else {
            return Ok(None);
        };
        if size > FRAME_LIMIT {
            return Err(format!(
                "frame {number}: a length of {size} bytes, more than the {FRAME_LIMIT} a frame may have"
            ));
        }
        let mut crc = [0u8; 4];
        self.exact(&mut crc).map_err(|e| format!("frame {number}: its checksum {e}"))?;
        // At most FRAME_LIMIT (checked above), and filled as it arrives: a truncated answer
        // costs what it sent, not what its length claims.
        let mut payload = Vec::new();
        let read = (&mut self.reader).take(size).read_to_end(&mut payload);
        match read {
            Ok(n) if n as u64 == size => {}
            Ok(n) => return Err(format!("frame {number}: truncated after {n} of its {size} bytes")),
            Err(e) => return Err(format!("frame {number}: reading it failed: {e}")),
        }
        self.frames = number;
        Ok(Some(Frame { number, crc: u32::from_be_bytes(crc), payload }))
    }

    /// A uvarint; `None` at a clean end of the stream (before its first byte).
    fn uvarint(&mut self) -> Result<Option<u64>, String> {
        let mut value = 0u64;
        for index in 0..10 {
            let mut byte = [0u8; 1];
            match self.reader.read_exact(&mut byte) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::UnexpectedEof && index == 0 => return Ok(None),
                Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Err("is truncated".into()),
                Err(e) => return Err(format!("could not be read: {e}")),
            }
            value |= u64::from(byte[0] & 0x7f) << (7 * index);
            if byte[0] < 0x80 {
                return Ok(Some(value));
            }
        }
        Err("is not a uvarint (over 10 bytes)".into())
    }

    fn exact(&mut self, buf: &mut [u8]) -> Result<(), String> {
        self.reader.read_exact(buf).map_err(|e| match e.kind() {
            ErrorKind::UnexpectedEof => "is truncated".to_string(),
            _ => format!("could not be read: {e}"),
        })
    }
}

/// An error unless the frame's payload has its checksum.
pub fn check(frame: &Frame) -> Result<(), String> {
    let actual = crc32c(&frame.payload);
    if actual == frame.crc {
        return Ok(());
    }
    Err(format!(
        "frame {}: checksum mismatch (the frame says {:08x}, its {} bytes give {actual:08x}): corrupted",
        frame.number,
        frame.crc,
        frame.payload.len()
    ))
}

/// CRC32-C (Castagnoli, reflected polynomial 0x82F63B78): the processor's instruction where it
/// has one (a day of every port is ~700 MB of frames), else eight bytes at a time from tables.
pub fn crc32c(bytes: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sse4.2") {
        // SAFETY: the processor was just found to have SSE 4.2, which `crc32c_sse42` needs.
        return unsafe { crc32c_sse42(bytes) };
    }
    crc32c_tables(bytes)
}

/// CRC32-C with SSE 4.2's `crc32` instruction, eight bytes at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
fn crc32c_sse42(bytes: &[u8]) -> u32 {
    use std::arch::x86_64::{_mm_crc32_u8, _mm_crc32_u64};
    let mut crc = u64::from(!0u32);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        crc = _mm_crc32_u64(crc, u64::from_le_bytes(word.try_into().expect("eight bytes")));
    }
    let mut crc = crc as u32;
    for &byte in words.remainder() {
        crc = _mm_crc32_u8(crc, byte);
    }
    !crc
}

/// CRC32-C from slicing-by-8 tables.
fn crc32c_tables(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let low = crc ^ u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        crc = TABLES[7][(low & 0xff) as usize]
            ^ TABLES[6][((low >> 8) & 0xff) as usize]
            ^ TABLES[5][((low >> 16) & 0xff) as usize]
            ^ TABLES[4][(low >> 24) as usize]
            ^ TABLES[3][word[4] as usize]
            ^ TABLES[2][word[5] as usize]
            ^ TABLES[1][word[6] as usize]
            ^ TABLES[0][word[7] as usize];
    }
    for &byte in words.remainder() {
        crc = TABLES[0][((crc ^ u32::from(byte)) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// Slicing-by-8 tables: `TABLES[0]` the byte-wise table, `TABLES[k]` a byte k places further.
static TABLES: [[u32; 256]; 8] = tables();

const fn tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0x82F6_3B78 } else { crc >> 1 };
            bit += 1;
        }
        t[0][i] = crc;
        i += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut i = 0;
        while i < 256 {
            let previous = t[k - 1][i];
            t[k][i] = (previous >> 8) ^ t[0][(previous & 0xff) as usize];
            i += 1;
        }
        k += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_gives_the_castagnoli_check_values() {
        // The check value of CRC-32C (RFC 3720's iSCSI CRC) over "123456789".
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
        assert_eq!(crc32c(&[0u8; 32]), 0x8A91_36AA);
        assert_eq!(crc32c_tables(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn the_instruction_and_the_tables_agree_at_every_length_and_offset() {
        let bytes: Vec<u8> = (0..300u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for start in 0..9 {
            for end in (start..bytes.len()).step_by(7) {
                assert_eq!(crc32c(&bytes[start..end]), crc32c_tables(&bytes[start..end]), "{start}..{end}");
            }
        }
    }

    fn framed(payload: &[u8]) -> Vec<u8> {
        let mut out = vec![payload.len() as u8];
        out.extend(crc32c(payload).to_be_bytes());
        out.extend(payload);
        out
    }

    #[test]
    fn frames_are_cut_at_their_lengths_and_end_cleanly() {
        let mut bytes = framed(b"one");
        bytes.extend(framed(b"second"));
        let mut reader = FrameReader::new(&bytes[..]);
        let first = reader.next_frame().unwrap().unwrap();
        assert_eq!((first.number, &first.payload[..]), (1, &b"one"[..]));
        assert!(check(&first).is_ok());
        let second = reader.next_frame().unwrap().unwrap();
        assert_eq!((second.number, &second.payload[..]), (2, &b"second"[..]));
        assert!(reader.next_frame().unwrap().is_none());
    }

    #[test]
    fn a_truncated_or_oversized_frame_is_named() {
        let mut bytes = framed(b"one");
        bytes.extend(&framed(b"second")[..7]);
        let mut reader = FrameReader::new(&bytes[..]);
        reader.next_frame().unwrap();
        assert_eq!(reader.next_frame().err().unwrap(), "frame 2: truncated after 2 of its 6 bytes");
        let huge = [0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0];
        let error = FrameReader::new(&huge[..]).next_frame().err().unwrap();
        assert!(error.starts_with("frame 1: a length of 34359738367 bytes, more than"), "{error}");
        let error = FrameReader::new(&[5u8, 0, 0][..]).next_frame().err().unwrap();
        assert_eq!(error, "frame 1: its checksum is truncated");
    }

    #[test]
    fn a_flipped_byte_fails_the_checksum() {
        let mut bytes = framed(b"payload");
        bytes[7] ^= 0x20;
        let frame = FrameReader::new(&bytes[..]).next_frame().unwrap().unwrap();
        let error = check(&frame).unwrap_err();
        assert!(error.starts_with("frame 1: checksum mismatch"), "{error}");
    }
}
