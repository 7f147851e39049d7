//! What placing a profile's counters ran into: one warning per distinct problem with the bytes
//! it cost, and port-level records whose remote LID no port owns, aggregated by kind so a
//! million such records are a few lines, each with its count and bytes (issue 16).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::bytes::add_bytes;
use crate::model::{Lid, Warning};

/// Why a port-level record's remote LID is not an ordinary destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StrayLid {
    /// LID 0: no LID assigned.
    Unassigned,
    /// 0xc000–0xfffe: a multicast group, which the unicast tables do not route.
    Multicast,
    /// 0xffff: the permissive LID (directed-route management), not a destination.
    Permissive,
    /// A unicast LID no port in the fabric owns (left stale by a re-sweep, or another subnet).
    NotOwned,
    /// The port's own LID (or its LMC range): loopback inside the HCA.
    OwnLid,
}

impl StrayLid {
    /// The kind of `lid` for a record of a port: `owned` if some port owns it, `own` if that
    /// port is the recording one. `None` for an ordinary destination.
    pub fn of(lid: Lid, owned: bool, own: bool) -> Option<StrayLid> {
        match lid.0 {
            0 => Some(StrayLid::Unassigned),
            0xffff => Some(StrayLid::Permissive),
            l if l >= crate::model::ids::MULTICAST_START => Some(StrayLid::Multicast),
            _ if own => Some(StrayLid::OwnLid),
            _ if !owned => Some(StrayLid::NotOwned),
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            StrayLid::Unassigned => "LID 0 (unassigned)",
            StrayLid::Multicast => "multicast LIDs (0xc000 and above), which unicast tables do not route",
            StrayLid::Permissive => "the permissive LID 0xffff",
            StrayLid::NotOwned => {
                "LIDs no port in the fabric owns (stale after a re-sweep, or another subnet)"
            }
            StrayLid::OwnLid => "the recording port's own LID (loopback)",
        }
    }

    /// What happens to the bytes.
    pub fn fate(self) -> &'static str {
        match self {
            StrayLid::NotOwned => "traced to where the fabric drops them: undelivered",
            StrayLid::OwnLid => "they never leave the HCA: counted as intra-node, not traced",
            _ => "unplaced",
        }
    }
}

/// The records of one kind.
#[derive(Clone, Debug, Default)]
struct StrayTally {
    records: u64,
    sent: u64,
    recv: u64,
    lids: BTreeSet<u16>,
    /// The first few records: (rank, port, LID).
    examples: Vec<(u32, u32, Lid)>,
}

/// Examples named per kind.
const EXAMPLES: usize = 3;
/// LIDs named per kind.
const LIDS_SHOWN: usize = 5;

/// Placement problems seen: messages with the bytes they cost, and stray port-level records.
#[derive(Clone, Debug, Default)]
pub struct Problems {
    messages: BTreeMap<String, u64>,
    stray: BTreeMap<StrayLid, StrayTally>,
}

impl Problems {
    /// Notes `message`, adding `bytes` to what it cost.
    pub fn add(&mut self, message: String, bytes: u64) {
        add_bytes(self.messages.entry(message).or_insert(0), bytes);
    }

    /// Notes one port-level record of rank `rank`, port `port` to a stray `lid`.
    pub fn stray(&mut self, kind: StrayLid, rank: u32, port: u32, lid: Lid, sent: u64, recv: u64) {
        let tally = self.stray.entry(kind).or_default();
        tally.records += 1;
        add_bytes(&mut tally.sent, sent);
        add_bytes(&mut tally.recv, recv);
        tally.lids.insert(lid.0);
        if tally.examples.len() < EXAMPLES {
            tally.examples.push((rank, port, lid));
        }
    }

    pub fn merge(&mut self, other: Problems) {
        for (message, bytes) in other.messages {
            self.add(message, bytes);
        }
        for (kind, more) in other.stray {
            let tally = self.stray.entry(kind).or_default();
            tally.records += more.records;
            add_bytes(&mut tally.sent, more.sent);
            add_bytes(&mut tally.recv, more.recv);
            tally.lids.extend(more.lids);
            let room = EXAMPLES.saturating_sub(tally.examples.len());
            tally.examples.extend(more.examples.into_iter().take(room));
        }
    }

    /// Each distinct problem with the bytes it cost (a stray kind's message carries its own
    /// counts, with 0 here): what libibprof gathers from every rank and counts per message.
    pub fn counted(&self) -> Vec<(String, u64)> {
        let stray = self.stray.iter().map(|(kind, tally)| (stray_message(*kind, tally), 0));
        self.messages.iter().map(|(m, b)| (m.clone(), *b)).chain(stray).collect()
    }

    /// One warning per distinct problem and per kind of stray record.
    pub fn warnings(&self, source: &str) -> Vec<Warning> {
        let mut warnings: Vec<Warning> = self
            .messages
            .iter()
            .map(|(message, bytes)| {
                if *bytes > 0 {
                    Warning::in_file(source, format!("{message} ({bytes} bytes over all regions)"))
                } else {
                    Warning::in_file(source, message.clone())
                }
            })
            .collect();
        for (kind, tally) in &self.stray {
            warnings.push(Warning::in_file(source, stray_message(*kind, tally)));
        }
        warnings
    }
}

fn stray_message(kind: StrayLid, tally: &StrayTally) -> String {
    let mut lids: Vec<String> = tally.lids.iter().take(LIDS_SHOWN).map(|&l| Lid(l).to_string()).collect();
    if tally.lids.len() > LIDS_SHOWN {
        lids.push(format!("{} more", tally.lids.len() - LIDS_SHOWN));
    }
    let examples: Vec<String> =
        tally.examples.iter().map(|(rank, port, lid)| format!("rank {rank} port {port} -> {lid}")).collect();
    format!(
        "{} port-level record{} to {} [{}]: {} B sent, {} B received over all regions (e.g. {}); {}",
        tally.records,
        if tally.records == 1 { "" } else { "s" },
        kind.describe(),
        lids.join(", "),
        tally.sent,
        tally.recv,
        examples.join(", "),
        kind.fate()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_lids_are_told_apart_by_kind() {
        assert_eq!(StrayLid::of(Lid(0), false, false), Some(StrayLid::Unassigned));
        assert_eq!(StrayLid::of(Lid(0xffff), false, false), Some(StrayLid::Permissive));
        assert_eq!(StrayLid::of(Lid(0xc001), false, false), Some(StrayLid::Multicast));
        assert_eq!(StrayLid::of(Lid(0x0fff), false, false), Some(StrayLid::NotOwned));
        assert_eq!(StrayLid::of(Lid(0x0012), true, true), Some(StrayLid::OwnLid));
        assert_eq!(StrayLid::of(Lid(0x0012), true, false), None);
    }

    #[test]
    fn a_million_stray_records_are_one_warning_with_their_count_and_bytes() {
        let mut problems = Problems::default();
        for i in 0..1_000_000u32 {
            let lid = Lid(0x1000 + (i % 5000) as u16);
            problems.stray(StrayLid::NotOwned, i % 64, 0, lid, 2, 1);
        }
        let warnings = problems.warnings("p");
        assert_eq!(warnings.len(), 1);
        let message = &warnings[0].message;
        assert!(message.starts_with("1000000 port-level records to LIDs no port"), "{message}");
        assert!(message.contains("2000000 B sent, 1000000 B received"), "{message}");
        assert!(message.contains("4995 more"), "{message}");
    }

    #[test]
    fn merged_problems_keep_every_count() {
        let (mut a, mut b) = (Problems::default(), Problems::default());
        a.stray(StrayLid::Unassigned, 0, 0, Lid(0), 5, 0);
        b.stray(StrayLid::Unassigned, 1, 0, Lid(0), 7, 0);
        b.add("x".into(), 3);
        a.merge(b);
        let warnings = a.warnings("p");
        assert_eq!(warnings.len(), 2);
        assert!(warnings[1].message.starts_with("2 port-level records to LID 0"), "{}", warnings[1].message);
        assert!(warnings[1].message.contains("12 B sent"));
    }
}
