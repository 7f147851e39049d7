//! What is counted: the `IBPROF=` selection of collectives, as the original ibprof had it.
//!
//! `IBPROF` unset (or `ALL`) counts everything. `IBPROF=ALLTOALL,BCAST` counts only the bytes of
//! those collectives (their non-blocking forms included); add `P2P` to keep point-to-point too.
//! The selection is a bit mask, so the test in every wrapper is one relaxed load and an `and`.

use crate::hot::{live, set_live};

/// A kind of MPI call whose bytes can be selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    P2p,
    Barrier,
    Bcast,
    Reduce,
    Allreduce,
    Gather,
    Gatherv,
    Scatter,
    Scatterv,
    Allgather,
    Allgatherv,
    Alltoall,
    Alltoallv,
    Alltoallw,
    ReduceScatter,
    ReduceScatterBlock,
    Scan,
    Exscan,
}

impl Kind {
    pub const ALL: [Kind; 18] = [
        Kind::P2p,
        Kind::Barrier,
        Kind::Bcast,
        Kind::Reduce,
        Kind::Allreduce,
        Kind::Gather,
        Kind::Gatherv,
        Kind::Scatter,
        Kind::Scatterv,
        Kind::Allgather,
        Kind::Allgatherv,
        Kind::Alltoall,
        Kind::Alltoallv,
        Kind::Alltoallw,
        Kind::ReduceScatter,
        Kind::ReduceScatterBlock,
        Kind::Scan,
        Kind::Exscan,
    ];

    #[inline(always)]
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }

    /// The name used in `IBPROF=` (the MPI function's name without `MPI_`, upper case).
    pub fn name(self) -> &'static str {
        match self {
            Kind::P2p => "P2P",
            Kind::Barrier => "BARRIER",
            Kind::Bcast => "BCAST",
            Kind::Reduce => "REDUCE",
            Kind::Allreduce => "ALLREDUCE",
            Kind::Gather => "GATHER",
            Kind::Gatherv => "GATHERV",
            Kind::Scatter => "SCATTER",
            Kind::Scatterv => "SCATTERV",
            Kind::Allgather => "ALLGATHER",
            Kind::Allgatherv => "ALLGATHERV",
            Kind::Alltoall => "ALLTOALL",
            Kind::Alltoallv => "ALLTOALLV",
            Kind::Alltoallw => "ALLTOALLW",
            Kind::ReduceScatter => "REDUCE_SCATTER",
            Kind::ReduceScatterBlock => "REDUCE_SCATTER_BLOCK",
            Kind::Scan => "SCAN",
            Kind::Exscan => "EXSCAN",
        }
    }
}

/// Every kind selected.
pub const ALL_KINDS: u32 = (1 << Kind::ALL.len()) - 1;

/// Parses an `IBPROF=` value into a mask, plus the names it did not know.
///
/// Names are case-insensitive, separated by commas or spaces, and may carry an `MPI_` prefix or a
/// leading `I` of the non-blocking form (`IALLTOALL` selects `ALLTOALL`). `ALL` selects everything.
pub fn parse_selection(text: &str) -> (u32, Vec<String>) {
    let mut mask = 0;
    let mut unknown = Vec::new();
    for word in text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
        let upper = word.to_ascii_uppercase();
        let name = upper.strip_prefix("MPI_").unwrap_or(&upper);
        if name == "ALL" {
            mask |= ALL_KINDS;
            continue;
        }
        let found = Kind::ALL.iter().find(|k| k.name() == name).or_else(|| {
            let blocking = name.strip_prefix('I')?;
            Kind::ALL.iter().find(|k| **k != Kind::P2p && k.name() == blocking)
        });
        match found {
            Some(k) => mask |= k.bit(),
            None => unknown.push(word.to_string()),
        }
    }
    (mask, unknown)
}

// The live selection, which every wrapper reads first, is in [`crate::hot`]'s line, so that the
// read is one load addressed from the code rather than the end of a chain of pointers (on 2
// ranks, each pointer followed showed in a 1 KiB collective's time). It is 0 until the
// collector's state is published ([`Scope::resume`] at `MPI_Init`) and again once it is
// withdrawn, or while paused.

/// Whether `kind` is counted now.
#[inline(always)]
pub(crate) fn counting(kind: Kind) -> bool {
    live() & kind.bit() != 0
}

/// The `IBPROF=` selection, switched off and on by `MPI_Pcontrol(0)` / `(1)` through the live
/// mask (one per process: there is one collector state).
#[derive(Debug)]
pub struct Scope {
    selected: u32,
}

impl Scope {
    /// The selection `selected`, not yet live.
    pub fn new(selected: u32) -> Scope {
        Scope { selected }
    }

    #[inline(always)]
    pub(crate) fn counts(&self, kind: Kind) -> bool {
        counting(kind)
    }

    /// True unless profiling is paused by `MPI_Pcontrol(0)` (or nothing is selected).
    #[inline(always)]
    pub(crate) fn active(&self) -> bool {
        live() != 0
    }

    pub fn selected(&self) -> u32 {
        self.selected
    }

    /// `MPI_Pcontrol(0)`, and the state's withdrawal: stop counting.
    pub(crate) fn pause(&self) {
        set_live(0);
    }

    /// The state's publication, and `MPI_Pcontrol(1)`: count the selection.
    pub(crate) fn resume(&self) {
        set_live(self.selected);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_names_are_case_insensitive_and_take_prefixes() {
        let (mask, unknown) = parse_selection("alltoall, MPI_Bcast IALLREDUCE");
        assert_eq!(mask, Kind::Alltoall.bit() | Kind::Bcast.bit() | Kind::Allreduce.bit());
        assert!(unknown.is_empty());
    }

    #[test]
    fn unknown_names_are_reported_and_the_rest_kept() {
        let (mask, unknown) = parse_selection("ALLTOALL,SENDRECV_MAGIC");
        assert_eq!(mask, Kind::Alltoall.bit());
        assert_eq!(unknown, vec!["SENDRECV_MAGIC".to_string()]);
    }

    #[test]
    fn all_selects_every_kind_and_p2p_is_not_a_nonblocking_alias() {
        assert_eq!(parse_selection("ALL").0, ALL_KINDS);
        assert_eq!(parse_selection("IP2P").0, 0);
        assert_eq!(parse_selection("REDUCE_SCATTER_BLOCK").0, Kind::ReduceScatterBlock.bit());
    }

    #[test]
    fn a_selection_counts_once_live_and_pause_stops_every_kind_until_resumed() {
        let s = Scope::new(Kind::Bcast.bit());
        assert!(!s.counts(Kind::Bcast), "not live before it is published");
        s.resume();
        assert!(s.counts(Kind::Bcast) && !s.counts(Kind::Alltoall));
        s.pause();
        assert!(!s.counts(Kind::Bcast));
        s.resume();
        assert!(s.counts(Kind::Bcast));
    }
}
