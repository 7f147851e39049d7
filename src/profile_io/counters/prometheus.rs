//! Prometheus text exposition as the common InfiniBand exporters write it. Three metric families
//! carry data counters:
//!
//! | exporter | metrics | port labels | unit |
//! |---|---|---|---|
//! | treydock/infiniband_exporter | `infiniband_{switch,hca}_port_{transmit,receive}_data_bytes_total` | `guid`, `port` | bytes |
//! | guilbaults/infiniband-exporter | `infiniband_port{xmit,rcv}data_total` | `local_guid`, `local_port` | 4-byte words |
//! | node_exporter (infiniband collector) | `node_infiniband_port_data_{transmitted,received}_bytes_total` | `device`, `port` | bytes |
//!
//! The same exporters' XmitWait, packet and error counters (see [`other_family`]) are kept too;
//! they do not say which width they read, so a value at a `PortCounters` maximum is taken as
//! that counter, saturated.
//!
//! node_exporter's series name a host's device (`mlx5_0`), not a GUID, so they cannot be placed
//! on the fabric: they are counted in a warning. Values may be written as floats
//! (`1.78791657177235e+14`): an integral float is exact below 2^53; above, the exporter has
//! already rounded it, which a warning says.

use crate::model::counters::{CounterWidth, DataCounter, PortOwner, Snapshot, TakenAt, TimeSource};
use crate::model::port_counters::{Count, CounterKind};
use crate::model::{EpochMicros, Guid, Warning};

use super::super::error::ParseError;
use super::super::input::Input;
use super::sink::{Direction, SampleSink};

/// Largest integer every f64 below represents exactly.
const EXACT_FLOAT: f64 = 9_007_199_254_740_992.0;

#[derive(Clone, Copy)]
enum Family {
    /// Bytes, labels `guid`/`port`.
    Bytes,
    /// Words, labels `local_guid`/`local_port`.
    Words,
    /// Bytes per host device: no GUID.
    HostDevice,
}

fn family(metric: &str) -> Option<(Family, Direction)> {
    Some(match metric {
        "infiniband_switch_port_transmit_data_bytes_total"
        | "infiniband_hca_port_transmit_data_bytes_total" => (Family::Bytes, Direction::Xmit),
        "infiniband_switch_port_receive_data_bytes_total"
        | "infiniband_hca_port_receive_data_bytes_total" => (Family::Bytes, Direction::Rcv),
        "infiniband_portxmitdata_total" => (Family::Words, Direction::Xmit),
        "infiniband_portrcvdata_total" => (Family::Words, Direction::Rcv),
        "node_infiniband_port_data_transmitted_bytes_total" => (Family::HostDevice, Direction::Xmit),
        "node_infiniband_port_data_received_bytes_total" => (Family::HostDevice, Direction::Rcv),
        _ => return None,
    })
}

/// The family and counter of a metric of the other counters: treydock's
/// `infiniband_{switch,hca}_port_transmit_wait_total`, `…_port_symbol_error_total`, …;
/// guilbaults' `infiniband_portxmitwait_total`, `infiniband_symbolerrorcounter_total`, …;
/// node_exporter's `node_infiniband_port_transmit_wait_total`, … (no GUID).
fn other_family(metric: &str) -> Option<(Family, CounterKind, bool)> {
    let base = metric.strip_suffix("_total")?;
    let (family, name) = if let Some(name) = base.strip_prefix("node_infiniband_") {
        (Family::HostDevice, name)
    } else if let Some(name) =
        base.strip_prefix("infiniband_switch_").or_else(|| base.strip_prefix("infiniband_hca_"))
    {
        (Family::Bytes, name)
    } else {
        (Family::Words, base.strip_prefix("infiniband_")?)
    };
    let (kind, wide) = CounterKind::from_name(name)?;
    Some((family, kind, wide))
}

/// True when a sample or a `# TYPE` line names one of the data metrics above.
pub fn looks_like_prometheus(input: &Input) -> bool {
    input.text().lines().take(400).any(|l| {
        let l = l.strip_prefix("# TYPE ").or_else(|| l.strip_prefix("# HELP ")).unwrap_or(l);
        let name = l.split(|c: char| c == '{' || c.is_whitespace()).next().unwrap_or("");
        family(name).is_some() || other_family(name).is_some_and(|(f, ..)| !matches!(f, Family::HostDevice))
    })
}

/// What one metric is: its family (which labels name the port, which unit) and its counter.
#[derive(Clone, Copy)]
pub struct SeriesKind {
    family: Family,
    what: Result<Direction, (CounterKind, bool)>,
}

/// The kind of an exporter metric, `None` for any other metric.
pub fn series_kind(metric: &str) -> Option<SeriesKind> {
    match (family(metric), other_family(metric)) {
        (Some((family, direction)), _) => Some(SeriesKind { family, what: Ok(direction) }),
        (None, Some((family, kind, wide))) => Some(SeriesKind { family, what: Err((kind, wide)) }),
        (None, None) => None,
    }
}

impl SeriesKind {
    /// The labels naming the port's GUID and number; `None` for node_exporter's host devices.
    pub fn port_labels(self) -> Option<(&'static str, &'static str)> {
        match self.family {
            Family::Bytes => Some(("guid", "port")),
            Family::Words => Some(("local_guid", "local_port")),
            Family::HostDevice => None,
        }
    }

    /// Records one value of this metric for a port (`line`: where it was read, for warnings).
    pub fn record(self, sink: &mut SampleSink, line: usize, owner: PortOwner, port: u8, count: u64) {
        match (self.family, self.what) {
            (_, Err(kind)) => sink.counted(line, owner, port, kind, count, None),
            (Family::Bytes, Ok(direction)) => {
                sink.counter(line, owner, port, direction, DataCounter::from_bytes(count))
            }
            (_, Ok(direction)) => sink.words(line, owner, port, direction, count, CounterWidth::Bits64),
        }
    }
}

/// What one value of an exporter series counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// A data counter, in bytes (a words series is scaled).
    Data(Direction, u64),
    Other(CounterKind, Count),
}

impl SeriesKind {
    /// The direction of a data counter's bytes; `None` for any other counter.
    pub fn direction(self) -> Option<Direction> {
        self.what.ok()
    }

    /// One value as the counter it is, read as [`SeriesKind::record`] reads it; `None` when
    /// it does not fit (words past 64 bits of bytes, more than the counter's width holds).
    pub fn counted(self, count: u64) -> Option<Counted> {
        match (self.family, self.what) {
            (_, Err((kind, wide))) => {
                let width = if wide { CounterWidth::Bits64 } else { super::sink::guessed_width(kind, count) };
                (count <= width.max()).then_some(Counted::Other(kind, Count { value: count, width }))
            }
            (Family::Bytes, Ok(direction)) => Some(Counted::Data(direction, count)),
            (_, Ok(direction)) => Some(Counted::Data(direction, count.checked_mul(4)?)),
        }
    }
}

/// The GUID and port of a series, its labels read by `label`, if both are readable.
pub fn port_of(
    label: impl Fn(&str) -> Option<String>,
    (guid_label, port_label): (&str, &str),
) -> Option<(Guid, u8)> {
    let guid = label(guid_label).and_then(|g| Guid::parse_hex(&g))?;
    let port = label(port_label).and_then(|p| p.parse::<u8>().ok())?;
    Some((guid, port))
}

pub fn parse_prometheus(input: &Input) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let mut sink = SampleSink::new(input.display());
    let (mut host_series, mut rounded) = (0usize, 0usize);
    let mut latest: Option<i64> = None;
    let summary = input.for_each_line(|number, line, _| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        let name_end = line.find(|c: char| c == '{' || c.is_whitespace()).unwrap_or(line.len());
        let Some(kind) = series_kind(&line[..name_end]) else { return };
        let Some((labels, value, stamp)) = split_sample(&line[name_end..]) else {
            sink.warnings.line(number, "a sample without a value (or with unclosed labels); skipped");
            return;
        };
        let Some(names) = kind.port_labels() else {
            host_series += 1;
            return;
        };
        let Some((guid, port)) = port_of(|name| label(labels, name), names) else {
            let (guid_label, port_label) = names;
            sink.warnings
                .line(number, format!("no readable `{guid_label}` and `{port_label}` labels; skipped"));
            return;
        };
        let Some((count, exact)) = parse_value(value) else {
            sink.warnings
                .line(number, format!("value `{value}` is not a non-negative whole number; skipped"));
            return;
        };
        rounded += usize::from(!exact);
        latest = latest.max(stamp);
        kind.record(&mut sink, number, PortOwner::Guid(guid), port, count);
    })?;
    if host_series > 0 {
        sink.warnings.file(host_device_warning(host_series));
    }
    if rounded > 0 {
        sink.warnings.file(rounded_warning(rounded));
    }
    let (mut snapshot, warnings) = sink.finish_stream(input.display(), summary);
    snapshot.taken =
        latest.map(|ms| TakenAt { time: EpochMicros(ms.saturating_mul(1000)), from: TimeSource::InFile });
    Ok((snapshot, warnings))
}

/// The warning for node_exporter's series, which name a host device and no GUID.
pub fn host_device_warning(count: usize) -> String {
    format!("{count} node_exporter series name a host device, not a GUID: they cannot be placed on link ends")
}

/// The warning for values above 2^53 written as floats.
pub fn rounded_warning(count: usize) -> String {
    format!(
        "{count} values were written as floats above 2^53: the exporter rounded them (to within a few parts in 10^16)"
    )
}

/// `{a="b",c="d"} 12 1700000000000` → (`a="b",c="d"`, `12`, the timestamp in milliseconds since
/// the epoch if the sample has one).
fn split_sample(rest: &str) -> Option<(&str, &str, Option<i64>)> {
    let (labels, after) = match rest.strip_prefix('{') {
        Some(inner) => {
            let close = closing_brace(inner)?;
            (&inner[..close], &inner[close + 1..])
        }
        None => ("", rest),
    };
    let mut fields = after.split_whitespace();
    let value = fields.next()?;
    Some((labels, value, fields.next().and_then(|t| t.parse().ok())))
}

/// The index of the `}` closing a label set, skipping quoted values (which may hold braces).
fn closing_brace(inner: &str) -> Option<usize> {
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in inner.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '}' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

/// The value of label `name` (unescaped), if present.
fn label(labels: &str, name: &str) -> Option<String> {
    let mut rest = labels;
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=')?;
        let after = after.strip_prefix('"')?;
        let mut value = String::new();
        let mut chars = after.char_indices();
        let end = loop {
            let (i, c) = chars.next()?;
            match c {
                '\\' => value.push(chars.next()?.1),
                '"' => break i,
                c => value.push(c),
            }
        };
        if key.trim() == name {
            return Some(value);
        }
        rest = after[end + 1..].trim_start_matches([',', ' ']);
    }
    None
}

/// A whole non-negative count and whether it is exact.
pub fn parse_value(text: &str) -> Option<(u64, bool)> {
    if let Ok(v) = text.parse::<u64>() {
        return Some((v, true));
    }
    let v: f64 = text.parse().ok()?;
    if !v.is_finite() || v < 0.0 || v.fract() != 0.0 || v >= u64::MAX as f64 {
        return None;
    }
    Some((v as u64, v <= EXACT_FLOAT))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortNum;

    #[test]
    fn trey_dock_series_are_bytes_per_guid_and_port() {
        let text = "# TYPE infiniband_switch_port_transmit_data_bytes_total counter\ninfiniband_switch_port_transmit_data_bytes_total{guid=\"0x7cfe9003009ce5b0\",port=\"2\",switch=\"ib-i1l1s01\"} 1.04026280056104e+14\n";
        let input = Input::from_text("metrics.prom", text);
        assert!(looks_like_prometheus(&input));
        let (s, w) = parse_prometheus(&input).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(s.ports[0].owner, PortOwner::Guid(Guid(0x7cfe9003009ce5b0)));
        assert_eq!(s.ports[0].port, PortNum(2));
        assert_eq!(s.ports[0].xmit.unwrap().bytes, 104026280056104);
    }

    #[test]
    fn guilbaults_series_are_words() {
        let text = "infiniband_portrcvdata_total{component=\"switch\",local_guid=\"0x506b4b03005d3101\",local_name=\"sw {1}\",local_port=\"2\",remote_guid=\"0x1\"} 5.149057134655e+012\n";
        let (s, _) = parse_prometheus(&Input::from_text("m", text)).unwrap();
        assert_eq!(s.ports[0].rcv.unwrap().bytes, 4 * 5149057134655);
    }

    #[test]
    fn exporters_xmit_wait_and_error_series_are_kept_per_port() {
        let text = "infiniband_switch_port_transmit_wait_total{guid=\"0x10\",port=\"1\",switch=\"s\"} 4.1864608e+07\n\
                    infiniband_switch_port_symbol_error_total{guid=\"0x10\",port=\"1\",switch=\"s\"} 65535\n\
                    infiniband_linkdownedcounter_total{local_guid=\"0x20\",local_port=\"2\"} 3\n";
        let (s, w) = parse_prometheus(&Input::from_text("m", text)).unwrap();
        assert!(w.is_empty(), "{w:?}");
        let first = s.other_of(&s.ports[0]).unwrap();
        assert_eq!(first.get(CounterKind::PortXmitWait).unwrap().value, 41864608);
        assert!(first.get(CounterKind::SymbolErrorCounter).unwrap().saturated());
        let second = s.other_of(&s.ports[1]).unwrap();
        assert_eq!(second.get(CounterKind::LinkDownedCounter).unwrap().value, 3);
    }

    #[test]
    fn host_device_series_and_bad_values_are_reported() {
        let text = "node_infiniband_port_data_transmitted_bytes_total{device=\"mlx5_0\",port=\"1\"} 2.2e+10\ninfiniband_hca_port_receive_data_bytes_total{guid=\"0x2\",port=\"1\"} NaN\n";
        let (s, w) = parse_prometheus(&Input::from_text("m", text)).unwrap();
        assert!(s.ports.is_empty());
        assert!(w.iter().any(|w| w.message.contains("host device")), "{w:?}");
        assert!(w.iter().any(|w| w.message.contains("`NaN`")), "{w:?}");
    }
}
