//! The few protobuf messages of remote read, by hand (prompb/remote.proto, prompb/types.proto
//! of Prometheus 2.42): the `ReadRequest` shoal sends, snappy-framed as the server requires,
//! and the `ChunkedReadResponse` of each frame it gets back, read in place (labels and chunk
//! bytes borrow the frame).

/// `LabelMatcher.Type.RE`: the value is a regular expression, anchored by the server.
pub const MATCH_REGEX: u64 = 2;
/// `ReadRequest.ResponseType.STREAMED_XOR_CHUNKS`.
const STREAMED_XOR_CHUNKS: u64 = 1;
/// `Chunk.Encoding.XOR`.
pub const XOR_ENCODING: u64 = 1;

/// One query of a `ReadRequest`: a time range (ms, both ends included) and label matchers
/// (type, name, value), with the step as a hint.
pub struct ReadQuery<'a> {
    pub start_ms: i64,
    pub end_ms: i64,
    pub matchers: &'a [(u64, &'a str, &'a str)],
    pub step_ms: i64,
}

/// The `ReadRequest` for one query that accepts only streamed XOR chunks, snappy-compressed.
pub fn read_request(query: &ReadQuery) -> Vec<u8> {
    let mut q = Vec::new();
    put_varint_field(&mut q, 1, query.start_ms as u64);
    put_varint_field(&mut q, 2, query.end_ms as u64);
    for &(kind, name, value) in query.matchers {
        let mut m = Vec::new();
        put_varint_field(&mut m, 1, kind);
        put_bytes_field(&mut m, 2, name.as_bytes());
        put_bytes_field(&mut m, 3, value.as_bytes());
        put_bytes_field(&mut q, 3, &m);
    }
    let mut hints = Vec::new();
    put_varint_field(&mut hints, 1, query.step_ms as u64);
    put_varint_field(&mut hints, 3, query.start_ms as u64);
    put_varint_field(&mut hints, 4, query.end_ms as u64);
    put_bytes_field(&mut q, 4, &hints);
    let mut request = Vec::new();
    put_bytes_field(&mut request, 1, &q);
    put_varint_field(&mut request, 2, STREAMED_XOR_CHUNKS);
    snappy_block(&request)
}

/// A snappy block of one literal (valid snappy, uncompressed: the request is a few hundred
/// bytes, and the server only decodes it).
pub fn snappy_block(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 16);
    put_uvarint(&mut out, data.len() as u64);
    if data.is_empty() {
        return out;
    }
    let n = data.len() - 1;
    if n < 60 {
        out.push((n as u8) << 2);
    } else {
        // Tag 60 + k: the length − 1 follows in k + 1 little-endian bytes.
        let bytes = (n as u32).to_le_bytes();
        let width = bytes.iter().rposition(|&b| b != 0).map_or(1, |i| i + 1);
        out.push(((59 + width) as u8) << 2);
        out.extend(&bytes[..width]);
    }
    out.extend(data);
    out
}

fn put_uvarint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn put_varint_field(out: &mut Vec<u8>, field: u64, value: u64) {
    put_uvarint(out, field << 3);
    put_uvarint(out, value);
}

fn put_bytes_field(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    put_uvarint(out, (field << 3) | 2);
    put_uvarint(out, bytes.len() as u64);
    out.extend(bytes);
}

/// One `ChunkedSeries`: its labels and chunks, borrowing the frame.
#[derive(Debug, Default, PartialEq)]
pub struct ChunkedSeries<'a> {
    pub labels: Vec<(&'a str, &'a str)>,
    pub chunks: Vec<Chunk<'a>>,
}

/// One `Chunk`: its time bounds (ms), encoding and bytes.
#[derive(Debug, Default, PartialEq)]
pub struct Chunk<'a> {
    pub min_ms: i64,
    pub max_ms: i64,
    pub encoding: u64,
    pub data: &'a [u8],
}

/// The series of one `ChunkedReadResponse` (its `query_index` is 0: shoal sends one query).
pub fn chunked_read_response(bytes: &[u8]) -> Result<Vec<ChunkedSeries<'_>>, String> {
    let mut series = Vec::new();
    for field in Fields(bytes) {
        if let (1, Value::Bytes(b)) = field? {
            series.push(chunked_series(b)?);
        }
    }
    Ok(series)
}

fn chunked_series(bytes: &[u8]) -> Result<ChunkedSeries<'_>, String> {
    let mut series = ChunkedSeries::default();
    for field in Fields(bytes) {
        match field? {
            (1, Value::Bytes(b)) => series.labels.push(label(b)?),
            (2, Value::Bytes(b)) => series.chunks.push(chunk(b)?),
            _ => {}
        }
    }
    Ok(series)
}

fn label(bytes: &[u8]) -> Result<(&str, &str), String> {
    let (mut name, mut value) = ("", "");
    for field in Fields(bytes) {
        match field? {
            (1, Value::Bytes(b)) => name = text(b)?,
            (2, Value::Bytes(b)) => value = text(b)?,
            _ => {}
        }
    }
    Ok((name, value))
}

fn text(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|e| format!("a label is not UTF-8 ({e})"))
}

fn chunk(bytes: &[u8]) -> Result<Chunk<'_>, String> {
    let mut chunk = Chunk::default();
    for field in Fields(bytes) {
        match field? {
            (1, Value::Varint(v)) => chunk.min_ms = v as i64,
            (2, Value::Varint(v)) => chunk.max_ms = v as i64,
            (3, Value::Varint(v)) => chunk.encoding = v,
            (4, Value::Bytes(b)) => chunk.data = b,
            _ => {}
        }
    }
    Ok(chunk)
}

/// A field's value by wire type (fixed-width values are skipped: these messages have none).
enum Value<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

/// The fields of a message, in order; an error (and the end) at the first malformed one.
struct Fields<'a>(&'a [u8]);

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, Value<'a>), String>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.0.is_empty() {
            return None;
        }
        let field = self.field();
        if field.is_err() {
            self.0 = &[];
        }
        Some(field)
    }
}

impl<'a> Fields<'a> {
    fn field(&mut self) -> Result<(u64, Value<'a>), String> {
        let key = self.uvarint()?;
        let value = match key & 7 {
            0 => Value::Varint(self.uvarint()?),
            1 => self.skip(8)?,
            2 => {
                let len = self.uvarint()?;
                let len = usize::try_from(len).ok().filter(|&n| n <= self.0.len()).ok_or_else(|| {
                    format!("a field of {len} bytes where {} remain: truncated protobuf", self.0.len())
                })?;
                let (bytes, rest) = self.0.split_at(len);
                self.0 = rest;
                Value::Bytes(bytes)
            }
            5 => self.skip(4)?,
            wire => return Err(format!("wire type {wire} of field {} is not protobuf", key >> 3)),
        };
        Ok((key >> 3, value))
    }

    fn skip(&mut self, n: usize) -> Result<Value<'a>, String> {
        self.0 = self.0.get(n..).ok_or("a fixed-width field is truncated")?;
        Ok(Value::Fixed)
    }

    fn uvarint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for (index, &byte) in self.0.iter().enumerate().take(10) {
            value |= u64::from(byte & 0x7f) << (7 * index);
            if byte < 0x80 {
                self.0 = &self.0[index + 1..];
                return Ok(value);
            }
        }
        Err("a varint is truncated or over 10 bytes".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_literal_and_a_long_one_are_valid_snappy() {
        assert_eq!(snappy_block(b"abc"), [3, 2 << 2, b'a', b'b', b'c']);
        let long = vec![7u8; 300];
        let block = snappy_block(&long);
        // Length 300 as a uvarint, then tag 61 (two length bytes), 299 little-endian.
        assert_eq!(&block[..5], &[0xac, 0x02, 61 << 2, 0x2b, 0x01]);
        assert_eq!(&block[5..], &long[..]);
    }

    #[test]
    fn a_truncated_message_is_an_error_not_a_shorter_answer() {
        // chunked_series (field 1, 10 bytes) with only 3 bytes present.
        let error = chunked_read_response(&[0x0a, 10, 1, 2, 3]).unwrap_err();
        assert!(error.contains("truncated protobuf"), "{error}");
        assert!(chunked_read_response(&[0x0a, 0x80]).is_err());
        assert!(chunked_read_response(&[0x0b]).unwrap_err().contains("wire type 3"));
    }
}
