//! "Who shared my links" (issue 26): for one of the scheduler's jobs, the other jobs that ran
//! at the same time and whose footprints share link ends with its own, ranked by what the
//! counters saw on those shared ends — observed bytes, then XmitWait (stall) ticks.
//!
//! With a series of counter snapshots (a Prometheus range), the bytes are summed over the
//! intervals that lie within the two jobs' common time; with two snapshots, or intervals of
//! unknown time, over the whole counter window. XmitWait is the whole window's.

use crate::model::LinkEnd;
use crate::routing::Observed;

use super::dataset::FabricData;
use super::dataset::scheduled::ScheduledJob;

/// One job that shared link ends with the asked one.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedJob {
    /// Its index in `FabricData::scheduled`.
    pub job: usize,
    /// The link ends both footprints hold, all rails.
    pub shared_ends: usize,
    /// The two jobs' common time, Unix seconds (`end` infinite while both run).
    pub overlap: (f64, f64),
    /// Observed bytes on the shared ends in the common time; `None` without counters.
    pub bytes: Option<u64>,
    /// XmitWait ticks on the shared ends; `None` when no counter read XmitWait.
    pub stall_ticks: Option<u64>,
}

/// The jobs that overlapped `job` in time and share link ends with its footprint, the ones
/// whose shared ends carried the most bytes (then stalled the most) first.
pub fn shared_with(fabric: &FabricData, job: usize) -> Vec<SharedJob> {
    let Some(mine) = fabric.scheduled.get(job) else { return Vec::new() };
    let mut out: Vec<SharedJob> = (fabric.scheduled.iter().enumerate())
        .filter(|(i, other)| *i != job && mine.overlaps(other))
        .filter_map(|(i, other)| {
            let shared = shared_ends(mine, other);
            if shared.is_empty() {
                return None;
            }
            let overlap = overlap(mine, other);
            let observed = fabric.observed.as_ref();
            Some(SharedJob {
                job: i,
                shared_ends: shared.len(),
                overlap,
                bytes: observed.map(|o| bytes_within(o, &shared, overlap)),
                stall_ticks: observed.and_then(|o| stall(o, &shared)),
            })
        })
        .collect();
    out.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(b.stall_ticks.cmp(&a.stall_ticks)).then(a.job.cmp(&b.job)));
    out
}

/// (rail, end) of every end both footprints hold.
fn shared_ends(a: &ScheduledJob, b: &ScheduledJob) -> Vec<(usize, LinkEnd)> {
    (a.footprint.rails.iter().enumerate())
        .flat_map(|(rail, ends)| ends.iter().filter(move |&&e| b.crosses(rail, e)).map(move |&e| (rail, e)))
        .collect()
}

fn overlap(a: &ScheduledJob, b: &ScheduledJob) -> (f64, f64) {
    let start = a.start.unwrap_or(f64::NEG_INFINITY).max(b.start.unwrap_or(f64::NEG_INFINITY));
    let end = a.end.unwrap_or(f64::INFINITY).min(b.end.unwrap_or(f64::INFINITY));
    (start, end)
}

/// Bytes on `ends` in the intervals within `(start, end)`; the whole window's when the
/// counters make no series of known times.
fn bytes_within(observed: &Observed, ends: &[(usize, LinkEnd)], (start, end): (f64, f64)) -> u64 {
    let timed: Vec<_> = observed
        .series
        .iter()
        .filter_map(|i| Some((i.start?.time.0 as f64 / 1e6, i.end?.time.0 as f64 / 1e6, i)))
        .collect();
    if timed.is_empty() || timed.len() < observed.series.len() {
        return crate::model::bytes::sum_bytes(
            ends.iter().map(|&(rail, e)| observed.at(rail, e).unwrap_or(0)),
        );
    }
    timed
        .iter()
        .filter(|(from, to, _)| *from >= start && *to <= end)
        .flat_map(|(_, _, interval)| ends.iter().map(|&(rail, e)| interval.rails.value_at(rail, e.index())))
        .map(|v| v.unwrap_or(0))
        .fold(0, u64::saturating_add)
}

fn stall(observed: &Observed, ends: &[(usize, LinkEnd)]) -> Option<u64> {
    if observed.xmit_wait.is_empty() {
        return None;
    }
    Some(ends.iter().filter_map(|&(rail, e)| observed.xmit_wait_at(rail, e)).fold(0, u64::saturating_add))
}
