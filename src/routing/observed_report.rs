//! The warnings of [`super::observed`]: counters that gave no number, snapshots that pair
//! badly (a repeat, timestamps running backwards), ports that are on no link end. A few lines
//! each, naming the first ports, never one line per port.

use std::collections::BTreeMap;

use crate::model::counters::{Snapshot, TimeSource};
use crate::model::{Cluster, Warning};

use super::counter_delta::{Pairing, Refusal};
use super::counter_join::{PlacedSnapshot, PortPlace};

/// How many places a warning names before "and N more".
const SHOWN: usize = 5;

/// Counters that could not become a number, kept to name them in a few warnings.
#[derive(Default)]
pub struct Problems {
    refused: BTreeMap<Refusal, Vec<(PortPlace, &'static str)>>,
    /// Ports in only one snapshot while others are differenced.
    pub single: Vec<PortPlace>,
}

impl Problems {
    pub fn push(&mut self, refusal: Refusal, place: PortPlace, counter: &'static str) {
        self.refused.entry(refusal).or_default().push((place, counter));
    }

    pub fn report(mut self, cluster: &Cluster, warnings: &mut Vec<Warning>) {
        let name = |&(r, node, port): &PortPlace| {
            let node = cluster.rails.get(r).map_or("?", |f| f.node(node).description.as_str());
            format!("rail {r} \"{node}\" port {port}")
        };
        for (refusal, places) in &mut self.refused {
            places.sort_unstable();
            places.dedup();
            let shown: Vec<String> = places
                .iter()
                .take(SHOWN)
                .map(|(place, counter)| format!("{} {counter}", name(place)))
                .collect();
            let message = format!(
                "{} counter(s) {}: {}{}",
                places.len(),
                what(*refusal),
                shown.join(", "),
                more(places.len())
            );
            warnings.push(Warning::in_file("counters", message));
        }
        if !self.single.is_empty() {
            self.single.sort_unstable();
            let shown: Vec<String> = self.single.iter().take(SHOWN).map(name).collect();
            let message = format!(
                "{} port(s) are in only one snapshot while others are differenced: a counter as it stands is a \
                 total since its last reset, not what moved, so they have no value: {}{}",
                self.single.len(),
                shown.join(", "),
                more(self.single.len())
            );
            warnings.push(Warning::in_file("counters", message));
        }
    }
}

fn what(refusal: Refusal) -> &'static str {
    match refusal {
        Refusal::MixedWidths => {
            "read at different widths in consecutive snapshots (a 32-bit PortCounters value and a 64-bit \
             PortCountersExtended one, e.g. a db_csv ...Extended column N/A in one capture): a 32-bit value is never \
             subtracted from a 64-bit one, no value"
        }
        Refusal::Saturated => {
            "saturated (stuck at their width's maximum, e.g. 0xffffffff for a 32-bit counter; read the 64-bit ones, \
             perfquery -x): no value"
        }
        Refusal::Reset => "went down between the snapshots (reset): no value",
        Refusal::OneSided => "read in only one snapshot of a consecutive pair: no difference, no value",
    }
}

fn more(total: usize) -> String {
    let more = total.saturating_sub(SHOWN);
    if more > 0 { format!(" and {more} more") } else { String::new() }
}

/// Names a snapshot whose counters are exactly those of an earlier one: the same file given
/// twice gives observed 0 everywhere.
/// `inputs` are (rail given, snapshot) in the order given; `i` the one to judge.
pub fn report_repeat(inputs: &[(Option<usize>, &Snapshot)], i: usize, warnings: &mut Vec<Warning>) {
    let (rail, snapshot) = inputs[i];
    if snapshot.ports.is_empty() {
        return;
    }
    let same = inputs[..i]
        .iter()
        .find(|(r, e)| e.ports == snapshot.ports && e.other == snapshot.other && *r == rail);
    if let Some((_, earlier)) = same {
        let message = format!(
            "every counter equals those of {}: the same file given twice? Every difference from it is 0",
            earlier.source
        );
        warnings.push(Warning::in_file(&snapshot.source, message));
    }
}

/// Names consecutive snapshots of a rail whose own timestamps run backwards. Modification
/// times are no evidence of order (a checkout or a copy sets them), so they are not judged; a
/// span that is not positive gives no rate either way ([`super::observed::Interval::seconds`]).
pub fn report_pairing(pairing: &Pairing, placed: &[PlacedSnapshot], warnings: &mut Vec<Warning>) {
    let mut pairs: Vec<(u32, u32)> =
        pairing.rail_snapshots.iter().flat_map(|l| l.windows(2).map(|w| (w[0], w[1]))).collect();
    pairs.sort_unstable();
    pairs.dedup();
    for (from, to) in pairs {
        let (a, b) = (&placed[from as usize], &placed[to as usize]);
        let (Some(start), Some(end)) = (a.taken, b.taken) else { continue };
        let own = start.from != TimeSource::Modified && end.from != TimeSource::Modified;
        if own && end.time.0 < start.time.0 {
            let message = format!(
                "taken at {}, not after {} ({}): the timestamps run backwards (files given out of order?); that \
                 interval has no rate",
                end.time, a.source, start.time
            );
            warnings.push(Warning::in_file(&b.source, message));
        }
    }
}

pub fn report_unmatched(placed: &PlacedSnapshot, warnings: &mut Vec<Warning>) {
    if placed.unmatched.is_empty() {
        return;
    }
    let shown: Vec<&str> = placed.unmatched.iter().take(SHOWN).map(String::as_str).collect();
    let more = placed.unmatched.len() - shown.len();
    let tail = if more > 0 { format!("; and {more} more") } else { String::new() };
    let message = format!("{} port(s) match no link end: {}{tail}", placed.unmatched.len(), shown.join("; "));
    warnings.push(Warning::in_file(&placed.source, message));
}
