//! Prometheus's XOR chunks (Gorilla's encoding, `tsdb/chunkenc/xor.go` of Prometheus 2.42):
//! a big-endian u16 sample count, then a bit stream. The first sample is a varint time and a
//! 64-bit float; the second a uvarint time delta and an XOR'd value; every later one a
//! delta-of-delta of time (prefix `0`, `10`+14 bits, `110`+17, `1110`+20, `1111`+64) and a
//! value XOR'd with the one before (`0`: the same; `10`: within the last leading/trailing
//! zeros; `11`: 5 bits leading zeros, 6 bits significant bits (0 meaning 64), the bits).

/// Decodes a chunk's samples, `(ms, value)` in order, onto `out`; an error when the bits end
/// before the count says or a field is impossible.
pub fn decode_xor(data: &[u8], out: &mut Vec<(i64, f64)>) -> Result<(), String> {
    let (count, stream) = match data {
        [high, low, rest @ ..] => (usize::from(u16::from_be_bytes([*high, *low])), rest),
        _ => return Err(format!("an XOR chunk of {} bytes has no sample count", data.len())),
    };
    let mut bits = Bits { bytes: stream, pos: 0 };
    let truncated = |n: usize| format!("an XOR chunk of {count} samples ends after {n}");
    let mut state = Xor { t: 0, delta: 0, value: 0, leading: 0, trailing: 0 };
    for n in 0..count {
        let ok = match n {
            0 => state.first(&mut bits),
            1 => state.second(&mut bits),
            _ => state.next(&mut bits),
        };
        ok.ok_or_else(|| truncated(n))??;
        out.push((state.t, f64::from_bits(state.value)));
    }
    Ok(())
}

/// The decoder's state: the last time, time delta, value bits and XOR window.
struct Xor {
    t: i64,
    delta: i64,
    value: u64,
    leading: u32,
    trailing: u32,
}

/// `None`: the bits ran out; `Some(Err)`: a field is impossible.
type Step = Option<Result<(), String>>;

impl Xor {
    fn first(&mut self, bits: &mut Bits) -> Step {
        let zigzag = bits.uvarint()?;
        self.t = ((zigzag >> 1) as i64) ^ -((zigzag & 1) as i64);
        self.value = bits.read(64)?;
        Some(Ok(()))
    }

    fn second(&mut self, bits: &mut Bits) -> Step {
        self.delta = bits.uvarint()? as i64;
        self.t = self.t.wrapping_add(self.delta);
        self.xor_value(bits)
    }

    fn next(&mut self, bits: &mut Bits) -> Step {
        // The prefix, up to four 1 bits ended by a 0, seen at once.
        let prefix = ((bits.peek(4) << 60).leading_ones() as usize).min(4);
        bits.skip(if prefix == 4 { 4 } else { prefix + 1 })?;
        let dod = match prefix {
            0 => 0,
            4 => bits.read(64)? as i64,
            _ => {
                let size = [14, 17, 20][prefix - 1];
                let raw = bits.read(size)?;
                // As xor.go reads it: above half the range is negative (exactly half is not).
                if raw > 1 << (size - 1) { raw as i64 - (1 << size) } else { raw as i64 }
            }
        };
        self.delta = self.delta.wrapping_add(dod);
        self.t = self.t.wrapping_add(self.delta);
        self.xor_value(bits)
    }

    fn xor_value(&mut self, bits: &mut Bits) -> Step {
        // The control bits, `0` or `10` or `11`, seen at once.
        let control = bits.peek(2);
        if control < 0b10 {
            return bits.skip(1).map(Ok);
        }
        bits.skip(2)?;
        if control == 0b11 {
            let window = bits.read(11)?;
            let leading = (window >> 6) as u32;
            let significant = match (window & 63) as u32 {
                0 => 64,
                n => n,
            };
            if leading + significant > 64 {
                return Some(Err(format!(
                    "an XOR chunk's value has {leading} leading zeros and {significant} significant bits"
                )));
            }
            (self.leading, self.trailing) = (leading, 64 - leading - significant);
        }
        let significant = 64 - self.leading - self.trailing;
        self.value ^= bits.read(significant)? << self.trailing;
        Some(Ok(()))
    }
}

/// A big-endian bit stream.
struct Bits<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Bits<'_> {
    /// The next `n` bits (at most 64) as the low bits of a number; `None` past the end.
    fn read(&mut self, n: u32) -> Option<u64> {
        if n == 0 {
            return Some(0);
        }
        let end = self.pos + n as usize;
        if end > self.bytes.len() * 8 {
            return None;
        }
        let (byte, shift) = (self.pos / 8, (self.pos % 8) as u32);
        // Eight whole bytes where the stream has them (all but its end): one load, no copy.
        let mut bits = match self.bytes.get(byte..byte + 8) {
            Some(eight) => u64::from_be_bytes(eight.try_into().expect("eight bytes")),
            None => {
                let mut word = [0u8; 8];
                let take = self.bytes.len() - byte;
                word[..take].copy_from_slice(&self.bytes[byte..]);
                u64::from_be_bytes(word)
            }
        } << shift;
        if shift + n > 64 {
            bits |= u64::from(self.bytes[byte + 8]) >> (8 - shift);
        }
        self.pos = end;
        Some(bits >> (64 - n))
    }

    /// The next `n` bits (at most 56) without taking them, zeros past the end.
    fn peek(&self, n: u32) -> u64 {
        let (byte, shift) = (self.pos / 8, (self.pos % 8) as u32);
        let word = match self.bytes.get(byte..byte + 8) {
            Some(eight) => u64::from_be_bytes(eight.try_into().expect("eight bytes")),
            None => {
                let mut word = [0u8; 8];
                let rest = self.bytes.get(byte..).unwrap_or_default();
                word[..rest.len()].copy_from_slice(rest);
                u64::from_be_bytes(word)
            }
        };
        (word << shift) >> (64 - n)
    }

    /// Takes `n` bits; `None` past the end.
    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.pos + n;
        (end <= self.bytes.len() * 8).then(|| self.pos = end)
    }

    /// A uvarint of whole bytes read from the stream (not aligned after the first sample).
    fn uvarint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for index in 0..10 {
            let byte = self.read(8)?;
            value |= (byte & 0x7f) << (7 * index);
            if byte < 0x80 {
                return Some(value);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_read_across_byte_and_word_edges() {
        let bytes = [0b1011_0000, 0xff, 0, 0, 0, 0, 0, 0, 0b1000_0000];
        let mut bits = Bits { bytes: &bytes, pos: 0 };
        assert_eq!(bits.read(1), Some(1));
        assert_eq!(bits.read(3), Some(0b011));
        assert_eq!(bits.read(4), Some(0));
        assert_eq!(bits.read(8), Some(0xff));
        bits.pos = 4;
        assert_eq!(bits.read(64), Some(0x0ff0_0000_0000_0008));
        assert_eq!(bits.read(5), None);
        assert_eq!(bits.read(4), Some(0));
    }

    #[test]
    fn bits_are_seen_without_being_taken_and_zeros_follow_the_end() {
        let bytes = [0b1110_0000, 0b0000_0001];
        let mut bits = Bits { bytes: &bytes, pos: 0 };
        assert_eq!((bits.peek(4), bits.peek(4)), (0b1110, 0b1110), "a peek takes nothing");
        assert_eq!(bits.skip(15), Some(()));
        assert_eq!(bits.peek(4), 0b1000, "the last bit, then zeros");
        assert_eq!(bits.skip(2), None, "one bit is left");
        assert_eq!(bits.read(1), Some(1));
    }

    #[test]
    fn a_chunk_shorter_than_its_count_is_an_error() {
        // Two samples promised, one given: time 0 (varint 0) and a 64-bit value of zeros.
        let mut data = vec![0, 2, 0];
        data.extend([0u8; 8]);
        let mut out = Vec::new();
        let error = decode_xor(&data, &mut out).unwrap_err();
        assert_eq!(error, "an XOR chunk of 2 samples ends after 1");
        assert_eq!(out, [(0, 0.0)]);
        assert!(decode_xor(&[1], &mut out).is_err());
    }
}
