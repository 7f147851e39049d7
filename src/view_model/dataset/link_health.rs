//! What the counters say about each link end beside its bytes (issue 22, item 5), as columns of
//! the `counters` table, so filter, highlight, compare and diff treat them as any attribute:
//! - `xmit_wait`: PortXmitWait ticks of the port sending into the end;
//! - `utilisation`: observed bytes as a % of what the link carries in the counters' interval;
//! - `stall`: the interval's share (%) the sender waited, by its port's recorded
//!   `PortSamplesControl.Tick` or else the assumed per-ASIC one
//!   ([`crate::routing::link_rates::tick_note`]);
//! - `wait_ratio`: OPA's XmitWait / (XmitWait + XmitData words), 0–1;
//! - `errors`: the error counters of the sending port, summed;
//! - `capacity`: the link's data rate per direction, bytes per second.
//!
//! A value that cannot be known (no counter, no capacity, no interval) is missing, never 0.

use crate::model::capacity::Capacity;
use crate::model::{Cluster, LinkEnd};
use crate::routing::Observed;
use crate::routing::link_rates::{LinkRates, errors_per_end};

pub const XMIT_WAIT: &str = "xmit_wait";
pub const UTILISATION: &str = "utilisation";
pub const STALL: &str = "stall";
pub const WAIT_RATIO: &str = "wait_ratio";
pub const ERRORS: &str = "errors";
pub const CAPACITY: &str = "capacity";

/// The attributes that are a % (0–100 on the legend, with the seed's thresholds).
pub fn is_percent_attribute(name: &str) -> bool {
    name == UTILISATION || name == STALL
}

/// The columns, in this order, each one value per link end in `ends`' order.
pub const NAMES: [&str; 6] = [XMIT_WAIT, UTILISATION, STALL, WAIT_RATIO, ERRORS, CAPACITY];

/// The six columns for `ends` (rail, end), `NaN` where unknown.
pub fn health_columns(cluster: &Cluster, observed: &Observed, ends: &[(usize, LinkEnd)]) -> [Vec<f64>; 6] {
    let rates = LinkRates::new(cluster, observed);
    let errors = errors_per_end(cluster, observed);
    let known = |v: Option<f64>| v.unwrap_or(f64::NAN);
    let mut out: [Vec<f64>; 6] = Default::default();
    for column in &mut out {
        column.reserve(ends.len());
    }
    for &(rail, end) in ends {
        let error = errors.get(rail).and_then(|r| r.get(end.index())).copied().flatten();
        let capacity = rates.capacity(rail, end).ok().map(Capacity::bytes_per_s);
        let row = [
            observed.xmit_wait_at(rail, end).map(|t| t as f64),
            rates.utilisation_percent(rail, end),
            rates.stall_percent(rail, end),
            rates.wait_ratio(rail, end),
            error.map(|e| e as f64),
            capacity,
        ];
        for (column, value) in out.iter_mut().zip(row) {
            column.push(known(value));
        }
    }
    out
}

/// Why a column is empty everywhere, if it is: what the user must give to fill it.
pub fn why_empty(cluster: &Cluster, observed: &Observed, attribute: &str) -> Option<String> {
    let rates = LinkRates::new(cluster, observed);
    let no_interval = rates.interval_s.is_none();
    let no_wait = observed.xmit_wait.is_empty();
    let no_capacity =
        cluster.rails.iter().enumerate().all(|(r, f)| {
            (0..f.link_end_count()).all(|i| rates.capacity(r, LinkEnd::from_index(i)).is_err())
        });
    let interval = "the counters span no known interval (one snapshot, or snapshots without times)";
    let capacity = "no link's width and speed is known from the topology";
    match attribute {
        UTILISATION | STALL if no_interval => Some(interval.into()),
        UTILISATION | STALL | CAPACITY if no_capacity => Some(capacity.into()),
        STALL | XMIT_WAIT | WAIT_RATIO if no_wait => Some("no counter snapshot read PortXmitWait".into()),
        ERRORS if observed.ports.is_empty() => Some("no counter snapshot read error counters".into()),
        _ => None,
    }
}
