//! The records of an ibprof v1 file as plain data: what [`crate::write`] writes and
//! [`crate::strict`] reads. Strings are `Cow` so that a reader can borrow from the text and
//! own only what had escapes; times are microseconds since the Unix epoch.

use std::borrow::Cow;

/// The format version of the header line, `ibprof 1`.
pub const VERSION: u32 = 1;

/// The most ranks a job may have (`job ranks`, `rank R`, `peer R`): 2^24.
pub const MAX_RANKS: u32 = 1 << 24;

/// Local port indices of a rank are `0..MAX_PORTS`.
pub const MAX_PORTS: u32 = 256;

/// The largest LID mask control: InfiniBand's LMC has 3 bits.
pub const MAX_LMC: u32 = 7;

/// `job ranks N [mpi "…"] [source S]`: the job's size, MPI library and collector backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Job<'a> {
    pub ranks: u32,
    pub mpi: Option<Cow<'a, str>>,
    /// `pmpi`, `ompi-monitoring` or `peruse`.
    pub source: Option<&'a str>,
}

/// `rank R host H [pid P] starttime T`: starts a rank's section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rank<'a> {
    pub rank: u32,
    pub host: Cow<'a, str>,
    pub pid: Option<u32>,
    pub starttime: i64,
}

/// `port I [device D] [portnum N] guid 0x… lid 0x… [lmc M]`: a local InfiniBand port of the
/// rank, declared before its first region.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Port<'a> {
    pub index: u32,
    pub device: Option<Cow<'a, str>>,
    pub portnum: Option<u8>,
    pub guid: u64,
    pub lid: u16,
    /// Written only when not 0 (absent means 0).
    pub lmc: u8,
}

/// `region N [name "…"] dumptime T`: starts one cumulative dump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Region<'a> {
    pub number: u32,
    pub name: Option<Cow<'a, str>>,
    pub dumptime: i64,
}

/// `peer R sent B recv B [sent_msgs M recv_msgs M]`: MPI-level bytes (and messages, where the
/// collector counted them) exchanged with world rank R.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeerCounts {
    pub peer: u32,
    pub sent: u64,
    pub recv: u64,
    /// `None`: the file does not count messages (an older collector, or a backend that cannot),
    /// which is not the same as zero messages.
    pub msgs: Option<MsgCounts>,
}

/// Messages sent and received, counted as the bytes beside them are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MsgCounts {
    pub sent: u64,
    pub recv: u64,
}

/// Message sizes are binned by powers of two: bin K holds sizes `2^K ..= 2^(K+1) − 1` bytes, so
/// `0..SIZE_BINS` covers every non-zero `u64` (zero-byte messages count nothing).
pub const SIZE_BINS: u32 = 64;

/// The size bin of a message of `bytes` bytes; `None` for an empty message.
#[inline(always)]
pub fn size_bin(bytes: u64) -> Option<u32> {
    (bytes != 0).then(|| 63 - bytes.leading_zeros())
}

/// `msgsize K sent_msgs N recv_msgs N`: in a dump, the messages this rank sent and received
/// whose size falls in bin K (see [`size_bin`]), cumulative as every counter of a dump.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeBin {
    /// `0..SIZE_BINS`.
    pub bin: u32,
    pub msgs: MsgCounts,
}

/// `lid I 0xL sent B recv B`: port-level bytes on local port I with remote LID L.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LidCounts {
    pub port: u32,
    pub lid: u16,
    pub sent: u64,
    pub recv: u64,
}

/// One line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record<'a> {
    /// `ibprof 1`.
    Header,
    Job(Job<'a>),
    Rank(Rank<'a>),
    Port(Port<'a>),
    Region(Region<'a>),
    Peer(PeerCounts),
    Lid(LidCounts),
    Size(SizeBin),
}
