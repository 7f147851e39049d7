//! `shoal hot --by stall|utilisation|errors` (issue 22, item 8): link ends ranked by the stall %
//! of their sender (by XmitWait ticks where no % can be computed), by utilisation, or ports by
//! the error counters that moved.

use shoal::model::{Cluster, LinkEnd};
use shoal::routing::Observed;
use shoal::routing::health::health;
use shoal::routing::link_rates::{LinkRates, tick_note};
use shoal::units::format_bytes;
use shoal::view_model::dataset::FabricData;

use super::common::link_name;

/// What is ranked from the counters alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterRank {
    Stall,
    Utilisation,
    Errors,
}

/// Prints the `top` link ends (ports, for errors) by `rank`.
pub fn print_by_counters(fabric: &FabricData, rank: CounterRank, top: usize) {
    let observed = fabric.observed.clone().unwrap_or_default();
    match rank {
        CounterRank::Errors => errors(&fabric.cluster, &observed, top),
        CounterRank::Stall => ends(&fabric.cluster, &observed, top, true),
        CounterRank::Utilisation => ends(&fabric.cluster, &observed, top, false),
    }
}

/// Link ends ranked by stall % (ticks where no % is known) or utilisation %.
fn ends(cluster: &Cluster, observed: &Observed, top: usize, stall: bool) {
    let rates = LinkRates::new(cluster, observed);
    let mut rows: Vec<(usize, LinkEnd, Option<f64>, u64)> = Vec::new();
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        for index in 0..fabric.link_end_count() {
            let end = LinkEnd::from_index(index);
            let (percent, raw) = if stall {
                (rates.stall_percent(rail, end), observed.xmit_wait_at(rail, end))
            } else {
                (rates.utilisation_percent(rail, end), observed.at(rail, end))
            };
            match raw {
                Some(raw) if raw > 0 => rows.push((rail, end, percent, raw)),
                _ => {}
            }
        }
    }
    rows.sort_by(|a, b| {
        let key = |r: &(usize, LinkEnd, Option<f64>, u64)| (r.2.unwrap_or(-1.0), r.3);
        key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal)
    });
    let (what, unit) = if stall { ("stall", "XmitWait ticks") } else { ("utilisation", "observed") };
    println!("Link ends by {what} ({} with a value)", rows.len());
    println!("{:>4}  {:>4}  {:>10}  {:>14}  link end", "#", "rail", what, unit);
    for (i, (rail, end, percent, raw)) in rows.iter().take(top).enumerate() {
        let percent = percent.map_or("-".to_string(), |p| format!("{p:.2} %"));
        let raw = if stall { raw.to_string() } else { format_bytes(*raw) };
        let name = link_name(cluster, *rail, *end).unwrap_or_default();
        println!("{:>4}  {rail:>4}  {percent:>10}  {raw:>14}  {name}", i + 1);
    }
    if stall && rows.iter().any(|r| r.2.is_some()) {
        eprintln!("shoal: {}", tick_note(observed));
    }
    if rows.iter().all(|r| r.2.is_none()) && !rows.is_empty() {
        eprintln!("shoal: no % (one snapshot, no interval, or no link capacity): ranked by the raw counts");
    }
}

/// Ports ranked by the sum of their error counters that moved.
fn errors(cluster: &Cluster, observed: &Observed, top: usize) {
    let found = health(cluster, Some(observed));
    // (rail, GUID, port) → (total, the counters that moved).
    let mut by_port: std::collections::BTreeMap<(usize, u64, u8), (u64, Vec<String>)> = Default::default();
    for e in &found.errors {
        let entry = by_port.entry((e.rail, e.guid.0, e.port)).or_default();
        entry.0 = entry.0.saturating_add(e.count);
        entry.1.push(format!("{} {}", e.counter.name(), e.count));
    }
    let mut ports: Vec<_> = by_port.into_iter().map(|(key, (total, list))| (key, total, list)).collect();
    ports.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!("Ports by error counts ({} with errors)", ports.len());
    for (i, ((rail, guid, port), total, list)) in ports.iter().take(top).enumerate() {
        println!("{:>4}  rail {rail}  0x{guid:016x} port {port}: {total} ({})", i + 1, list.join(", "));
    }
}
