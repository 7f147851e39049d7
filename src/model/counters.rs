//! Port counters as a subnet's ports reported them: one snapshot, whatever tool wrote it.
//!
//! Units: every value here is in **bytes** (the readers multiply the 4-byte-word data counters of
//! the InfiniBand tools by four). A port is named by a GUID (node or port GUID) or by a LID, plus
//! its port number, as the tools name it; joining a snapshot to link ends is
//! [`crate::routing::observed`]'s job.

use super::ids::{Guid, Lid, PortNum};
pub use super::port_counters::CounterWidth;
use super::port_counters::OtherCounters;
use super::profile::EpochMicros;

/// How a snapshot names a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PortOwner {
    /// A node GUID or a port GUID (the join tries both).
    Guid(Guid),
    /// A LID (a switch's LID names all its ports); only meaningful on one rail.
    Lid(Lid),
}

/// The largest value of a 32-bit data counter, in words: a counter there has stopped counting.
pub const SATURATED_WORDS_32: u64 = 0xffff_ffff;

/// One data counter: its value in bytes, and whether it stopped counting (a 32-bit counter at
/// its maximum), in which case the value is only a lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataCounter {
    pub bytes: u64,
    pub width: CounterWidth,
    pub saturated: bool,
}

impl DataCounter {
    /// A counter read in 4-byte words, as PortXmitData/PortRcvData count. `None` if the bytes
    /// would not fit in 64 bits.
    pub fn from_words(words: u64, width: CounterWidth) -> Option<DataCounter> {
        let saturated = width == CounterWidth::Bits32 && words >= SATURATED_WORDS_32;
        Some(DataCounter { bytes: words.checked_mul(4)?, width, saturated })
    }

    /// A counter some exporter already scaled to bytes (64-bit).
    pub fn from_bytes(bytes: u64) -> DataCounter {
        DataCounter { bytes, width: CounterWidth::Bits64, saturated: false }
    }
}

/// The data counters of one port in a snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortSample {
    pub owner: PortOwner,
    pub port: PortNum,
    /// Bytes the port sent into its link.
    pub xmit: Option<DataCounter>,
    /// Bytes the port received from its link.
    pub rcv: Option<DataCounter>,
    /// Where the sample was read (1-based line), for warnings.
    pub line: usize,
    /// The port's other counters (XmitWait, packets, errors): an index into
    /// [`Snapshot::other`], so that a data-only port costs 8 bytes more, not 136.
    pub other: Option<u32>,
}

impl PortSample {
    pub fn key(&self) -> (PortOwner, PortNum) {
        (self.owner, self.port)
    }
}

/// A port's `PortSamplesControl.Tick` as a capture recorded it (`perfquery -c`): its XmitWait
/// counts one tick per (Tick + 1) symbol times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortTick {
    pub owner: PortOwner,
    pub port: PortNum,
    pub tick: u8,
    /// Where it was read (1-based line).
    pub line: usize,
}

/// Every port sample of one counter file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The file, as the user named it.
    pub source: String,
    pub ports: Vec<PortSample>,
    /// The other counters of the ports that have some ([`PortSample::other`]).
    pub other: Vec<OtherCounters>,
    /// When the counters were read, if known: a series of snapshots becomes a time strip.
    pub taken: Option<TakenAt>,
    /// The ports' XmitWait tick settings, where the file records them.
    pub ticks: Vec<PortTick>,
}

/// When a snapshot was taken, and where that time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakenAt {
    pub time: EpochMicros,
    pub from: TimeSource,
}

/// Where a snapshot's time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSource {
    /// The file's own timestamps (Prometheus sample timestamps: the latest).
    InFile,
    /// The file's modification time: the formats without timestamps (perfquery, ibqueryerrors,
    /// ibdiagnet2, PerfMgr, whose `Last Data Update` has no time zone) are written when read.
    Modified,
    /// The times of a time-series server's steps (Prometheus `query_range`).
    Server,
}

impl TimeSource {
    pub fn describe(self) -> &'static str {
        match self {
            TimeSource::InFile => "the files' own timestamps",
            TimeSource::Modified => "the files' modification times",
            TimeSource::Server => "the server's step times",
        }
    }
}

impl Snapshot {
    /// A port's other counters, if it has any.
    pub fn other_of(&self, sample: &PortSample) -> Option<&OtherCounters> {
        self.other.get(usize::try_from(sample.other?).ok()?)
    }

    /// True when every port is named by LID: such a snapshot belongs to one rail.
    pub fn names_only_lids(&self) -> bool {
        !self.ports.is_empty() && self.ports.iter().all(|p| matches!(p.owner, PortOwner::Lid(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_counters_count_four_byte_words() {
        let c = DataCounter::from_words(1000, CounterWidth::Bits64).unwrap();
        assert_eq!(c.bytes, 4000);
        assert!(!c.saturated);
    }

    #[test]
    fn a_32_bit_counter_at_its_maximum_is_saturated() {
        let c = DataCounter::from_words(SATURATED_WORDS_32, CounterWidth::Bits32).unwrap();
        assert!(c.saturated);
        let wide = DataCounter::from_words(SATURATED_WORDS_32, CounterWidth::Bits64).unwrap();
        assert!(!wide.saturated);
    }

    #[test]
    fn words_whose_bytes_overflow_are_refused() {
        assert_eq!(DataCounter::from_words(u64::MAX / 2, CounterWidth::Bits64), None);
    }
}
