//! Writes ibprof v1 text (see `docs/formats/ibprof.md`; shoal's reader is
//! `src/profile_io/ibprof.rs`). Keep the two in step.
//!
//! ```text
//! ibprof 1
//! job ranks 4 mpi "Open MPI v4.1.4" source pmpi
//! rank 0 host n0001 pid 4242 starttime 1700000000.250000
//! port 0 device mlx5_0 portnum 1 guid 0x0002c90300a1b2c3 lid 0x0012 lmc 0
//! region 0 name exchange dumptime 1700000001.000000
//! peer 1 sent 4096 recv 4096
//! lid 0 0x0013 sent 4096 recv 0
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// A local InfiniBand port as written on a `port` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalPort {
    pub index: u32,
    pub device: Option<String>,
    pub portnum: Option<u8>,
    pub guid: u64,
    pub lid: u16,
    pub lmc: u8,
}

impl LocalPort {
    /// True if `lid` is one of this port's LIDs (`lid .. lid + 2^lmc`).
    pub fn owns(&self, lid: u16) -> bool {
        let span = 1u32 << self.lmc.min(7);
        (self.lid as u32..self.lid as u32 + span).contains(&(lid as u32))
    }
}

/// Microseconds since the Unix epoch, now.
pub fn now_micros() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_micros()).unwrap_or(i64::MAX),
    }
}

/// `seconds.micros` with exactly six decimals.
pub fn epoch(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let v = micros.unsigned_abs();
    format!("{sign}{}.{:06}", v / 1_000_000, v % 1_000_000)
}

/// A string as one token: bare when it can be, else double-quoted with `\"` and `\\` escapes.
/// Line breaks and other control characters become spaces, so a token never spans lines.
pub fn token(s: &str) -> Cow<'_, str> {
    let bare =
        !s.is_empty() && s.chars().all(|c| !c.is_whitespace() && !c.is_control() && !"\"\\#".contains(c));
    if bare {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    Cow::Owned(out)
}

pub fn header(out: &mut String, ranks: u32, mpi: Option<&str>, source: &str) {
    out.push_str("ibprof 1\n");
    let _ = write!(out, "job ranks {ranks}");
    if let Some(m) = mpi {
        let _ = write!(out, " mpi {}", quoted(m));
    }
    let _ = writeln!(out, " source {source}");
}

pub fn rank_line(out: &mut String, rank: u32, host: &str, pid: Option<u32>, starttime: i64) {
    let _ = write!(out, "rank {rank} host {}", token(host));
    if let Some(p) = pid {
        let _ = write!(out, " pid {p}");
    }
    let _ = writeln!(out, " starttime {}", epoch(starttime));
}

pub fn port_line(out: &mut String, p: &LocalPort) {
    let _ = write!(out, "port {}", p.index);
    if let Some(d) = &p.device {
        let _ = write!(out, " device {}", token(d));
    }
    if let Some(n) = p.portnum {
        let _ = write!(out, " portnum {n}");
    }
    let _ = writeln!(out, " guid 0x{:016x} lid 0x{:04x} lmc {}", p.guid, p.lid, p.lmc);
}

pub fn region_line(out: &mut String, region: u32, name: Option<&str>, dumptime: i64) {
    let _ = write!(out, "region {region}");
    if let Some(n) = name {
        let _ = write!(out, " name {}", quoted(n));
    }
    let _ = writeln!(out, " dumptime {}", epoch(dumptime));
}

pub fn peer_line(out: &mut String, peer: u32, sent: u64, recv: u64) {
    let _ = writeln!(out, "peer {peer} sent {sent} recv {recv}");
}

pub fn lid_line(out: &mut String, port: u32, lid: u16, sent: u64, recv: u64) {
    let _ = writeln!(out, "lid {port} 0x{lid:04x} sent {sent} recv {recv}");
}

/// Always quoted (names and version strings read better that way).
fn quoted(s: &str) -> String {
    match token(s) {
        Cow::Owned(q) => q,
        Cow::Borrowed(b) => format!("\"{b}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_have_exactly_six_decimals() {
        assert_eq!(epoch(1_700_000_000_250_000), "1700000000.250000");
        assert_eq!(epoch(1), "0.000001");
        assert_eq!(epoch(-1_500_000), "-1.500000");
    }

    #[test]
    fn strings_with_spaces_quotes_or_hashes_are_quoted_and_escaped() {
        assert_eq!(token("n0001"), "n0001");
        assert_eq!(token("a b"), "\"a b\"");
        assert_eq!(token(r#"say "hi"\"#), r#""say \"hi\"\\""#);
        assert_eq!(token("x#y"), "\"x#y\"");
        assert_eq!(token(""), "\"\"");
        assert_eq!(token("two\nlines"), "\"two lines\"");
    }

    #[test]
    fn a_section_reads_as_the_format_specifies() {
        let mut s = String::new();
        header(&mut s, 4, Some("Open MPI v4.1.4"), "pmpi");
        rank_line(&mut s, 0, "n0001", Some(42), 1_700_000_000_250_000);
        let port = LocalPort {
            index: 0,
            device: Some("mlx5_0".into()),
            portnum: Some(1),
            guid: 0x0002_c903_00a1_b2c3,
            lid: 0x12,
            lmc: 0,
        };
        port_line(&mut s, &port);
        region_line(&mut s, 0, Some("exchange phase"), 1_700_000_001_000_000);
        peer_line(&mut s, 1, 4096, 2048);
        lid_line(&mut s, 0, 0x13, 4096, 0);
        assert_eq!(
            s,
            "ibprof 1\n\
             job ranks 4 mpi \"Open MPI v4.1.4\" source pmpi\n\
             rank 0 host n0001 pid 42 starttime 1700000000.250000\n\
             port 0 device mlx5_0 portnum 1 guid 0x0002c90300a1b2c3 lid 0x0012 lmc 0\n\
             region 0 name \"exchange phase\" dumptime 1700000001.000000\n\
             peer 1 sent 4096 recv 2048\n\
             lid 0 0x0013 sent 4096 recv 0\n"
        );
    }

    #[test]
    fn a_port_owns_its_lmc_range() {
        let p = LocalPort { lid: 0x10, lmc: 2, ..LocalPort::default() };
        assert!(p.owns(0x10) && p.owns(0x13));
        assert!(!p.owns(0x14) && !p.owns(0x0f));
    }
}
