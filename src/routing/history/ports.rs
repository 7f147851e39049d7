//! The other counters of each port over a history (XmitWait, packets, errors): totalled as
//! [`crate::routing::observe`] totals them, reading by reading, without a column per step.

use std::collections::BTreeMap;

use crate::model::LinkEnd;
use crate::model::port_counters::{Count, CounterKind, OtherCounters};

use super::super::counter_delta::{Reading, Refusal, delta};
use super::super::counter_join::PortPlace;
use super::super::observed::ObservedPort;
use super::super::observed_report::Problems;

/// One counter of one port: its first reading, its last, and the deltas summed between.
#[derive(Clone, Copy, Debug)]
struct Run {
    kind: CounterKind,
    first: Count,
    last: Count,
    last_step: usize,
    readings: usize,
    /// The deltas summed; `Err` at the first refused one.
    total: Result<u64, Refusal>,
}

/// Each port's runs, by place (the order [`crate::routing::Observed::ports`] lists them).
#[derive(Default)]
pub struct PortRuns {
    ports: BTreeMap<PortPlace, (LinkEnd, Vec<Run>)>,
}

impl PortRuns {
    /// Records a reading at `step`; false (and nothing changed) when the port's counter was
    /// read at that step or a later one already.
    pub fn record(
        &mut self,
        place: PortPlace,
        sends: LinkEnd,
        kind: CounterKind,
        step: usize,
        count: Count,
    ) -> bool {
        let (_, runs) = self.ports.entry(place).or_insert_with(|| (sends, Vec::new()));
        let Some(at) = runs.iter().position(|r| r.kind == kind) else {
            let total = Ok(0);
            runs.push(Run { kind, first: count, last: count, last_step: step, readings: 1, total });
            return true;
        };
        let run = &mut runs[at];
        if step <= run.last_step {
            return false;
        }
        if let Ok(sum) = run.total {
            run.total =
                delta(Reading::from(count), Some(Reading::from(run.last))).map(|d| sum.saturating_add(d));
        }
        (run.last, run.last_step, run.readings) = (count, step, run.readings + 1);
        true
    }

    /// Every port's totals (`differences`: more than one step was read; otherwise each counter
    /// as it stands), refusals and lone readings named in `problems`.
    pub fn finish(self, differences: bool, problems: &mut Problems) -> Vec<ObservedPort> {
        let mut out = Vec::with_capacity(self.ports.len());
        for (place, (sends, runs)) in self.ports {
            if differences && runs.iter().all(|r| r.readings < 2) {
                problems.single.push(place);
                continue;
            }
            let mut counts = OtherCounters::default();
            for run in runs {
                let value = match differences {
                    true if run.readings < 2 => Err(Refusal::OneSided),
                    true => run.total,
                    false => delta(Reading::from(run.first), None),
                };
                match value {
                    Ok(value) => {
                        counts.set(run.kind, Count { value, width: run.first.width });
                    }
                    Err(refusal) => problems.push(refusal, place, run.kind.name()),
                }
            }
            out.push(ObservedPort { place, sends, counts });
        }
        out
    }
}
