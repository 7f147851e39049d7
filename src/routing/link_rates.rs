//! What the counters mean against each link's capacity (issue 22, item 3): utilisation % =
//! bytes / (interval × capacity), and stall % = the time the XmitWait ticks stand for, as a
//! share of the interval. The interval is the time between the first and the last snapshot
//! ([`Observed::window`]): one snapshot, or snapshots without times, give no rate.

use crate::model::capacity::Capacity;
use crate::model::{Cluster, LinkEnd};

use super::observed::Observed;

/// The rates of a fabric's link ends over the counters' interval.
pub struct LinkRates<'a> {
    pub cluster: &'a Cluster,
    pub observed: &'a Observed,
    /// Seconds between the first and the last snapshot, if known.
    pub interval_s: Option<f64>,
}

impl<'a> LinkRates<'a> {
    pub fn new(cluster: &'a Cluster, observed: &'a Observed) -> Self {
        let interval_s = observed.window.as_ref().and_then(|w| w.seconds());
        LinkRates { cluster, observed, interval_s }
    }

    /// The capacity of the link an end belongs to, or why it is unknown.
    pub fn capacity(&self, rail: usize, end: LinkEnd) -> Result<Capacity, String> {
        let fabric = self.cluster.rails.get(rail).ok_or("no such rail")?;
        let link = fabric.graph.edge_weight(end.edge).ok_or("no such link")?;
        Capacity::of(link)
    }

    /// Observed bytes as a % of what the link could carry in the interval.
    pub fn utilisation_percent(&self, rail: usize, end: LinkEnd) -> Option<f64> {
        let bytes = self.observed.at(rail, end)?;
        utilisation_percent(bytes, self.capacity(rail, end).ok()?, self.interval_s?)
    }

    /// The interval's share (%) the end's sender waited with data and no credits, by its
    /// port's recorded tick or the assumed per-ASIC one
    /// ([`crate::model::capacity::LaneSpeed::bytes_per_tick`]).
    pub fn stall_percent(&self, rail: usize, end: LinkEnd) -> Option<f64> {
        let ticks = self.observed.xmit_wait_at(rail, end)?;
        let tick = self.observed.tick_at(rail, end);
        stall_percent(ticks, self.capacity(rail, end).ok()?, self.interval_s?, tick)
    }

    /// OPA's ratio XmitWait / (XmitWait + XmitData), XmitData in 4-byte words.
    pub fn wait_ratio(&self, rail: usize, end: LinkEnd) -> Option<f64> {
        let ticks = self.observed.xmit_wait_at(rail, end)? as f64;
        let words = self.observed.at(rail, end)? as f64 / 4.0;
        (ticks + words > 0.0).then(|| ticks / (ticks + words))
    }
}

/// Per link end (`[rail][LinkEnd::index()]`), the sum of the error counters of the port that
/// sends into it (after − before, or as they stand); `None` where that port read none.
pub fn errors_per_end(cluster: &Cluster, observed: &Observed) -> Vec<Vec<Option<u64>>> {
    let mut out: Vec<Vec<Option<u64>>> =
        cluster.rails.iter().map(|f| vec![None; f.link_end_count()]).collect();
    for port in &observed.ports {
        let sum = port
            .counts
            .iter()
            .filter(|(kind, _)| kind.is_error())
            .fold(0u64, |s, (_, count)| s.saturating_add(count.value));
        if let Some(slot) = out.get_mut(port.place.0).and_then(|r| r.get_mut(port.sends.index())) {
            *slot = Some(slot.unwrap_or(0).saturating_add(sum));
        }
    }
    out
}

/// `bytes` on a link of `capacity` over `seconds`, as a % of what it could carry.
pub fn utilisation_percent(bytes: u64, capacity: Capacity, seconds: f64) -> Option<f64> {
    (seconds > 0.0).then(|| 100.0 * bytes as f64 / (seconds * capacity.bytes_per_s()))
}

/// `ticks` of XmitWait on a link of `capacity`, as a % of `seconds`; `tick` is the sending
/// port's `PortSamplesControl.Tick` if recorded (else assumed).
pub fn stall_percent(ticks: u64, capacity: Capacity, seconds: f64, tick: Option<u8>) -> Option<f64> {
    let lost_bytes = ticks as f64 * capacity.speed.bytes_per_tick(capacity.lanes, tick);
    let stalled_s = lost_bytes / capacity.bytes_per_s();
    (seconds > 0.0).then(|| 100.0 * stalled_s / seconds)
}

/// The note every output that shows a stall % carries.
pub const TICK_ASSUMED: &str = "stall % assumes NVIDIA's per-ASIC XmitWait tick (ibdiagnet manual, \
     \"Congestion Assessment\"): 8 bytes per port on HDR and later (Quantum), 32 bytes per lane before \
     (Switch-IB, Switch-X); no PortSamplesControl.Tick was read";

/// What outputs showing a stall % say about its tick: [`TICK_ASSUMED`] when no capture recorded
/// a tick, else how many ports' recorded ticks were used.
pub fn tick_note(observed: &Observed) -> String {
    match observed.ticks.len() {
        0 => TICK_ASSUMED.to_string(),
        n => format!(
            "stall % uses the PortSamplesControl.Tick recorded for {n} port(s) (lost bytes = XmitWait × \
             (Tick + 1), × lanes before HDR); the others assume NVIDIA's per-ASIC tick"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::capacity::LaneSpeed;

    #[test]
    fn a_qdr_port_waiting_a_quarter_of_the_time_stalls_25_percent() {
        // 4x QDR: 4e9 bytes/s; one tick = 128 bytes = 32 ns. A second holds 31,250,000 ticks.
        let qdr = Capacity { lanes: 4, speed: LaneSpeed::Qdr };
        let stall = stall_percent(31_250_000 / 4, qdr, 1.0, None).unwrap();
        assert!((stall - 25.0).abs() < 1e-9, "{stall}");
    }

    #[test]
    fn an_ndr_tick_is_eight_bytes_of_the_port() {
        let ndr = Capacity { lanes: 4, speed: LaneSpeed::Ndr };
        // 50e9 bytes/s: 6.25e9 ticks of 8 bytes make one second.
        let stall = stall_percent(625_000_000, ndr, 1.0, None).unwrap();
        assert!((stall - 10.0).abs() < 1e-9, "{stall}");
        assert_eq!(stall_percent(1, ndr, 0.0, None), None, "no interval, no share");
    }

    #[test]
    fn a_recorded_tick_replaces_the_assumed_one() {
        // Tick 0x0f on 4x QDR: 16 bytes per lane, 64 per port, half the assumed 128.
        let qdr = Capacity { lanes: 4, speed: LaneSpeed::Qdr };
        let assumed = stall_percent(1_000_000, qdr, 1.0, None).unwrap();
        let read = stall_percent(1_000_000, qdr, 1.0, Some(0x0f)).unwrap();
        assert!((assumed - 2.0 * read).abs() < 1e-9, "{assumed} {read}");
        // Tick 7 on NDR is the assumed Quantum value: the same share.
        let ndr = Capacity { lanes: 4, speed: LaneSpeed::Ndr };
        assert_eq!(stall_percent(99, ndr, 1.0, Some(7)), stall_percent(99, ndr, 1.0, None));
    }
}
