//! The ibprof v1 traffic profile format (`docs/formats/ibprof.md`), written and tokenised by one
//! piece of code for both of its sides: the collector (`collector/`, `libibprof.so`) and shoal
//! (`src/profile_io/ibprof/`). Before this crate each had its own writer, and they quoted
//! strings differently.
//!
//! - [`record`]: the records of a file, as plain data.
//! - [`write`]: the writer, one function per record (`push_*`), appending to a `Vec<u8>`.
//! - [`quote`]: when a string is quoted, how it is escaped, and how the reader unescapes it.
//! - [`tokens`], [`numbers`]: the lexical layer every reader shares.
//! - [`canonical`]: a fast path for counter lines spelled exactly as [`write`] spells them.
//! - [`strict`]: a reader that accepts only well-formed records in their place (for tests and
//!   tools); shoal's own reader is lenient and warns instead.
//!
//! ```
//! use ibprof_format::{Job, PeerCounts, Rank, Region, push_peer, push_prelude, push_rank, push_region};
//!
//! let mut out = Vec::new();
//! push_prelude(&mut out, &Job { ranks: 2, mpi: Some("Open MPI 4.1.4".into()), source: Some("pmpi".into()) });
//! push_rank(&mut out, &Rank { rank: 0, host: "n0001".into(), pid: None, starttime: 1_700_000_000_000_000 });
//! push_region(&mut out, &Region { number: 1, name: Some("sample sort".into()), dumptime: 1_700_000_001_500_000 });
//! push_peer(&mut out, &PeerCounts { peer: 1, sent: 4096, recv: 0, msgs: None });
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "ibprof 1\njob ranks 2 mpi \"Open MPI 4.1.4\" source pmpi\n\
//!      rank 0 host n0001 starttime 1700000000.000000\n\
//!      region 1 name \"sample sort\" dumptime 1700000001.500000\n\
//!      peer 1 sent 4096 recv 0\n"
//! );
//! ```

#![forbid(unsafe_code)]

pub mod canonical;
pub mod numbers;
pub mod quote;
pub mod record;
pub mod strict;
pub mod tokens;
pub mod write;

pub use canonical::Canonical;
pub use numbers::{Time, parse_hex, parse_time, parse_u32, parse_u64};
pub use quote::push_string;
pub use record::{
    Job, LidCounts, MsgCounts, PeerCounts, Port, Rank, Record, Region, SIZE_BINS, SizeBin, size_bin,
};
pub use tokens::{Token, Tokens};
pub use write::{
    HEADER, push_job, push_lid, push_peer, push_port, push_prelude, push_rank, push_record, push_region,
    push_size_bin,
};
