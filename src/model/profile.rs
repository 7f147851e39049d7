//! A traffic profile in memory: what the ibprof v1 format holds (see `docs/formats/ibprof.md`).
//!
//! Every dump is cumulative since the rank's start time; per-region deltas are derived.
//! Bytes are plain byte counts (`u64`).

use std::fmt;

use super::ids::{Guid, Lid};

/// Which collector backend produced the counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProfileSource {
    /// Logical bytes per peer, from PMPI wrappers.
    Pmpi,
    /// Actual per-peer bytes from Open MPI's monitoring components.
    OmpiMonitoring,
    /// Per (local port, destination LID) bytes from the PERUSE InfiniBand send event.
    Peruse,
}

impl ProfileSource {
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileSource::Pmpi => "pmpi",
            ProfileSource::OmpiMonitoring => "ompi-monitoring",
            ProfileSource::Peruse => "peruse",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "pmpi" => Some(ProfileSource::Pmpi),
            "ompi-monitoring" => Some(ProfileSource::OmpiMonitoring),
            "peruse" => Some(ProfileSource::Peruse),
            _ => None,
        }
    }
}

/// A Unix time in microseconds, written as `seconds.micros` (e.g. `1700000000.250000`).
/// Kept as an integer so that a parse → write round trip is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EpochMicros(pub i64);

/// Parsed and printed by the `ibprof-format` crate, so that the model and the file agree.
impl EpochMicros {
    /// Parses `1700000000`, `1700000000.25` or `1700000000.250000` (at most 6 decimals).
    pub fn parse(s: &str) -> Option<Self> {
        ibprof_format::parse_time(s).map(EpochMicros)
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl fmt::Display for EpochMicros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&ibprof_format::Time(self.0), f)
    }
}

/// A whole profile: the job line and one section per rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// Ranks the job had (`job ranks N`); sections may cover fewer (one file per rank).
    pub job_ranks: u32,
    pub mpi: Option<String>,
    pub source: Option<ProfileSource>,
    pub ranks: Vec<RankSection>,
}

/// One rank's identity, local ports and cumulative dumps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankSection {
    pub rank: u32,
    pub host: String,
    pub pid: Option<u32>,
    pub starttime: EpochMicros,
    pub ports: Vec<LocalPort>,
    pub dumps: Vec<Dump>,
}

/// A rank's local InfiniBand port (`port I … guid … lid … [lmc M]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalPort {
    pub index: u32,
    pub device: Option<String>,
    pub portnum: Option<u8>,
    pub guid: Guid,
    pub lid: Lid,
    pub lmc: u8,
}

/// One cumulative dump (`region N [name "…"] dumptime T`) and its counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dump {
    pub region: u32,
    pub name: Option<String>,
    pub dumptime: EpochMicros,
    pub peers: Vec<PeerBytes>,
    pub lids: Vec<LidBytes>,
    /// Messages to and from the peers whose lines counted them (`sent_msgs`/`recv_msgs`),
    /// sorted by peer. Kept apart from `peers` so that a profile without counts pays nothing,
    /// and so that "not counted" (absent) is never read as zero messages.
    pub messages: Vec<PeerMessages>,
    /// The message-size histogram (`msgsize` lines), by bin; empty when none was recorded.
    pub sizes: Vec<SizeCounts>,
}

/// Messages (MPI sends and receives) to and from a world rank, counted as the bytes are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeerMessages {
    pub peer: u32,
    pub sent: u64,
    pub recv: u64,
}

/// Messages sent and received whose size falls in power-of-two bin `bin`: `2^bin ..= 2^(bin+1) − 1`
/// bytes (`ibprof_format::size_bin`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeCounts {
    pub bin: u8,
    pub sent: u64,
    pub recv: u64,
}

impl Dump {
    /// True when the dump counts messages for at least one peer.
    pub fn counts_messages(&self) -> bool {
        !self.messages.is_empty()
    }

    /// The messages counted for `peer`, if its line counted them.
    pub fn messages_of(&self, peer: u32) -> Option<&PeerMessages> {
        self.messages.binary_search_by_key(&peer, |m| m.peer).ok().map(|at| &self.messages[at])
    }
}

/// Rank-level (MPI) bytes to and from a world rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeerBytes {
    pub peer: u32,
    pub sent: u64,
    pub recv: u64,
}

/// Port-level bytes on local port `port` toward (`sent`) and pulled from (`recv`) LID `lid`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LidBytes {
    pub port: u32,
    pub lid: Lid,
    pub sent: u64,
    pub recv: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_micros_round_trip_exactly() {
        for text in ["1700000000.250000", "0.000001", "1799999999.999999"] {
            let t = EpochMicros::parse(text).unwrap();
            assert_eq!(t.to_string(), text);
        }
        assert_eq!(EpochMicros::parse("1700000000.25"), Some(EpochMicros(1_700_000_000_250_000)));
        assert_eq!(EpochMicros::parse("1700000000"), Some(EpochMicros(1_700_000_000_000_000)));
        assert_eq!(EpochMicros::parse("17.1234567"), None);
        assert_eq!(EpochMicros::parse("x"), None);
        assert_eq!(EpochMicros::parse(""), None);
    }
}
