//! A range query's series turned into counter snapshots, one per step time.
//!
//! Counter resets are handled as Prometheus's `increase()` and `rate()` handle them: within one
//! series, a value below the one before it means the counter restarted from zero (an exporter
//! or a switch restarted, a port was cleared), so the value before is added to every later
//! value. Each snapshot's counters then only grow, and after − before between any two steps is
//! what `increase()` over them gives (without its extrapolation to the range's edges: shoal
//! counts between the samples it has). Every reset is named in a warning.

use std::collections::HashMap;

use crate::model::counters::{PortOwner, Snapshot, TakenAt, TimeSource};
use crate::model::{EpochMicros, Guid, Warning};

use super::super::counters::prometheus::{
    SeriesKind, host_device_warning, parse_value, port_of, rounded_warning, series_kind,
};
use super::super::counters::sink::SampleSink;
use super::time::rfc3339_of;

/// One series of a range query's matrix: its labels and its `[time, "value"]` points.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Series {
    pub metric: HashMap<String, String>,
    #[serde(default)]
    pub values: Vec<Point>,
}

/// One point of a series: its time (Unix seconds) and its value, read as a count while the
/// answer is parsed, so a day of every port holds no string per point (`Err` keeps the text of
/// a value that is no count, for its warning).
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Milliseconds since the epoch, as the server holds times (the JSON's seconds, rounded).
    pub ms: i64,
    /// The count and whether it is exact ([`parse_value`]).
    pub value: Result<(u64, bool), Box<str>>,
}

impl Point {
    pub fn new(t: f64, text: &str) -> Point {
        Point { ms: millis(t), value: parse_value(text).ok_or_else(|| text.into()) }
    }
}

/// `[1700000000.5, "1234"]`, the value read where it lies in the answer.
impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Point, D::Error> {
        struct PointVisitor;
        impl<'de> serde::de::Visitor<'de> for PointVisitor {
            type Value = Point;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a [time, \"value\"] pair")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Point, A::Error> {
                use serde::de::Error;
                let t: f64 = seq.next_element()?.ok_or_else(|| A::Error::invalid_length(0, &self))?;
                let ValueText(value) =
                    seq.next_element()?.ok_or_else(|| A::Error::invalid_length(1, &self))?;
                Ok(Point { ms: millis(t), value })
            }
        }
        deserializer.deserialize_seq(PointVisitor)
    }
}

/// A point's value text, parsed from the answer's own buffer (no copy of the text).
struct ValueText(Result<(u64, bool), Box<str>>);

impl<'de> serde::Deserialize<'de> for ValueText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ValueText, D::Error> {
        struct TextVisitor;
        impl serde::de::Visitor<'_> for TextVisitor {
            type Value = ValueText;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a value as text")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<ValueText, E> {
                Ok(ValueText(parse_value(text).ok_or_else(|| text.into())))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

/// How many resets a warning lists one by one before it counts the rest.
const LISTED_RESETS: usize = 20;

/// Snapshots at every time the series have a point, in time order, plus warnings (`source`
/// names the server's query in them).
pub fn snapshots_of(source: &str, series: &[Series]) -> (Vec<Snapshot>, Vec<Warning>) {
    let times = step_times(series);
    let mut sinks: Vec<SampleSink> = times.iter().map(|_| SampleSink::new(source)).collect();
    let mut notes = Notes::default();
    for (number, one) in series.iter().enumerate() {
        record_series(number + 1, one, &times, &mut sinks, &mut notes);
    }
    let mut warnings = notes.warnings(source);
    let snapshots = sinks
        .into_iter()
        .zip(&times)
        .map(|(sink, &ms)| {
            let name = format!("{source} at {}", rfc3339_of(ms as f64 / 1000.0));
            let (mut snapshot, more) = sink.finish(&name);
            warnings.extend(more);
            snapshot.taken = Some(TakenAt { time: EpochMicros(ms * 1000), from: TimeSource::Server });
            snapshot
        })
        .collect();
    (snapshots, warnings)
}

/// Every point's time in milliseconds, sorted, each once.
fn step_times(series: &[Series]) -> Vec<i64> {
    let mut times: Vec<i64> = series.iter().flat_map(|s| s.values.iter().map(|p| p.ms)).collect();
    times.sort_unstable();
    times.dedup();
    times
}

/// Seconds to whole milliseconds, rounded half away from zero (as `f64::round`, without its
/// libm call: this runs once per point of a day's answer).
pub fn millis(seconds: f64) -> i64 {
    let ms = seconds * 1000.0;
    (ms + if ms < 0.0 { -0.5 } else { 0.5 }) as i64
}

/// What the series told besides their values.
#[derive(Default)]
pub struct Notes {
    host_series: usize,
    /// Series number and metric of series without readable GUID and port labels.
    unplaced: Vec<(usize, String)>,
    bad_values: Vec<(usize, String, String)>,
    rounded: usize,
    resets: Vec<Reset>,
}

/// A counter that went down between two points.
struct Reset {
    metric: String,
    owner: PortOwner,
    port: u8,
    at_ms: i64,
    before: u64,
    after: u64,
}

/// An exporter series' metric, kind and port, once its labels are read; `None` for another
/// metric, or a series without port labels (counted in `notes`).
pub fn series_port(
    number: usize,
    series: &Series,
    notes: &mut Notes,
) -> Option<(String, SeriesKind, Guid, u8)> {
    let metric = series.metric.get("__name__").cloned().unwrap_or_default();
    let kind = series_kind(&metric)?;
    let Some(names) = kind.port_labels() else {
        notes.host_series += 1;
        return None;
    };
    let Some((guid, port)) = port_of(|name| series.metric.get(name).cloned(), names) else {
        notes.unplaced.push((number, metric));
        return None;
    };
    Some((metric, kind, guid, port))
}

/// Each point's time (ms) and count, resets corrected as `increase()` corrects them: after a
/// drop, the value before it is added to every later value. Resets and values that are no
/// count go to `notes`.
pub fn corrected_points(
    number: usize,
    series: &Series,
    (metric, guid, port): (&str, Guid, u8),
    notes: &mut Notes,
    mut put: impl FnMut(i64, u64),
) {
    let (mut previous, mut offset) = (None::<u64>, 0u64);
    for point in &series.values {
        let (raw, exact) = match &point.value {
            Ok(count) => *count,
            Err(text) => {
                notes.bad_values.push((number, metric.to_string(), text.to_string()));
                continue;
            }
        };
        notes.rounded += usize::from(!exact);
        if let Some(before) = previous.filter(|&before| raw < before) {
            offset = offset.saturating_add(before);
            let (metric, owner, at_ms) = (metric.to_string(), PortOwner::Guid(guid), point.ms);
            notes.resets.push(Reset { metric, owner, port, at_ms, before, after: raw });
        }
        previous = Some(raw);
        put(point.ms, raw.saturating_add(offset));
    }
}

/// Records one series' points into the snapshots of their times, resets corrected.
fn record_series(number: usize, series: &Series, times: &[i64], sinks: &mut [SampleSink], notes: &mut Notes) {
    let Some((metric, kind, guid, port)) = series_port(number, series, notes) else { return };
    let owner = PortOwner::Guid(guid);
    corrected_points(number, series, (&metric, guid, port), notes, |ms, count| {
        if let Ok(at) = times.binary_search(&ms) {
            kind.record(&mut sinks[at], number, owner, port, count);
        }
    });
}

impl Notes {
    /// Takes in the notes of one series read on its own (as series 0): it is series `number`.
    pub fn absorb(&mut self, other: Notes, number: usize) {
        self.host_series += other.host_series;
        self.unplaced.extend(other.unplaced.into_iter().map(|(_, metric)| (number, metric)));
        self.bad_values.extend(other.bad_values.into_iter().map(|(_, metric, text)| (number, metric, text)));
        self.rounded += other.rounded;
        self.resets.extend(other.resets);
    }

    pub fn warnings(&self, source: &str) -> Vec<Warning> {
        let mut out = Vec::new();
        if self.host_series > 0 {
            out.push(Warning::in_file(source, host_device_warning(self.host_series)));
        }
        if let Some((number, metric)) = self.unplaced.first() {
            out.push(Warning::in_file(
                source,
                format!(
                    "{} series without GUID and port labels skipped (the first: series {number}, {metric})",
                    self.unplaced.len()
                ),
            ));
        }
        for (number, metric, value) in &self.bad_values {
            out.push(Warning::at(
                source,
                *number,
                format!("{metric}: value `{value}` is not a whole count; skipped"),
            ));
        }
        if self.rounded > 0 {
            out.push(Warning::in_file(source, rounded_warning(self.rounded)));
        }
        out.extend(self.reset_warnings(source));
        out
    }

    fn reset_warnings(&self, source: &str) -> Vec<Warning> {
        let mut out: Vec<Warning> = self
            .resets
            .iter()
            .take(LISTED_RESETS)
            .map(|r| {
                let owner = match r.owner {
                    PortOwner::Guid(g) => g.to_string(),
                    PortOwner::Lid(l) => l.to_string(),
                };
                Warning::in_file(
                    source,
                    format!(
                        "counter reset: {} of {owner} port {} went from {} to {} at {}; counted from zero \
                         after it, as Prometheus's increase() does",
                        r.metric,
                        r.port,
                        r.before,
                        r.after,
                        rfc3339_of(r.at_ms as f64 / 1000.0)
                    ),
                )
            })
            .collect();
        if self.resets.len() > LISTED_RESETS {
            out.push(Warning::in_file(
                source,
                format!(
                    "{} more counter resets, each counted from zero as increase() does",
                    self.resets.len() - LISTED_RESETS
                ),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Guid;
    use crate::model::port_counters::CounterKind;

    fn series(metric: &str, labels: &[(&str, &str)], values: &[(f64, &str)]) -> Series {
        let mut map: HashMap<String, String> =
            labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        map.insert("__name__".into(), metric.into());
        Series { metric: map, values: values.iter().map(|(t, v)| Point::new(*t, v)).collect() }
    }

    const TREY: &str = "infiniband_switch_port_transmit_data_bytes_total";

    #[test]
    fn each_step_time_becomes_a_dated_snapshot_of_every_series_there() {
        let labels = [("guid", "0x10"), ("port", "3"), ("switch", "s")];
        let data = series(TREY, &labels, &[(100.0, "1000"), (160.0, "1600"), (220.0, "2600")]);
        let wait = series("infiniband_switch_port_transmit_wait_total", &labels, &[(160.0, "7")]);
        let (snapshots, warnings) = snapshots_of("http://p", &[data, wait]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(snapshots.len(), 3);
        assert_eq!(snapshots[1].taken.unwrap().time, EpochMicros(160_000_000));
        assert_eq!(snapshots[1].source, "http://p at 1970-01-01T00:02:40Z");
        let bytes: Vec<u64> = snapshots.iter().map(|s| s.ports[0].xmit.unwrap().bytes).collect();
        assert_eq!(bytes, [1000, 1600, 2600]);
        let other = snapshots[1].other_of(&snapshots[1].ports[0]).unwrap();
        assert_eq!(other.get(CounterKind::PortXmitWait).unwrap().value, 7);
    }

    #[test]
    fn a_counter_that_drops_restarted_from_zero_and_the_reset_is_named() {
        // 1000 → 1600, reset, 200 → 500: increase() over the range is 600 + 200 + 300 = 1100.
        let labels = [("local_guid", "0x20"), ("local_port", "1")];
        let words = series(
            "infiniband_portxmitdata_total",
            &labels,
            &[(0.0, "1000"), (60.0, "1600"), (120.0, "200"), (180.0, "500")],
        );
        let (snapshots, warnings) = snapshots_of("http://p", &[words]);
        let words: Vec<u64> = snapshots.iter().map(|s| s.ports[0].xmit.unwrap().bytes / 4).collect();
        assert_eq!(words, [1000, 1600, 1800, 2100]);
        assert_eq!(words[3] - words[0], 1100);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let text = &warnings[0].message;
        assert!(
            text.contains("counter reset: infiniband_portxmitdata_total of 0x0000000000000020 port 1"),
            "{text}"
        );
        assert!(
            text.contains("from 1600 to 200 at 1970-01-01T00:02:00Z") && text.contains("increase()"),
            "{text}"
        );
    }

    #[test]
    fn series_without_guid_labels_are_counted_not_placed() {
        let bare = series(TREY, &[("port", "1")], &[(0.0, "5")]);
        let host = series(
            "node_infiniband_port_data_transmitted_bytes_total",
            &[("device", "mlx5_0")],
            &[(0.0, "5")],
        );
        let (snapshots, warnings) = snapshots_of("http://p", &[bare.clone(), bare, host]);
        assert!(snapshots.iter().all(|s| s.ports.is_empty()));
        let text: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(text.iter().any(|t| t.starts_with("2 series without GUID and port labels")), "{text:?}");
        assert!(text.iter().any(|t| t.starts_with("1 node_exporter series")), "{text:?}");
    }

    #[test]
    fn points_are_read_as_counts_while_the_answer_is_parsed() {
        let answer = r#"{"metric":{"__name__":"m"},"values":[[1700000000.5,"1234"],[1700000060,"1.5e3"],[1700000120,"NaN"]]}"#;
        let series: Series = serde_json::from_str(answer).unwrap();
        assert_eq!(series.values[0], Point { ms: 1_700_000_000_500, value: Ok((1234, true)) });
        assert_eq!(series.values[1].value, Ok((1500, true)));
        assert_eq!(series.values[2].value, Err("NaN".into()));
        let from_reader: Series = serde_json::from_reader(answer.as_bytes()).unwrap();
        assert_eq!(from_reader.values, series.values);
        assert!(serde_json::from_str::<Series>(r#"{"metric":{},"values":[[1]]}"#).is_err());
    }

    #[test]
    fn a_value_that_is_no_count_is_skipped_by_name() {
        let labels = [("guid", "0x10"), ("port", "1")];
        let (snapshots, warnings) =
            snapshots_of("http://p", &[series(TREY, &labels, &[(0.0, "NaN"), (60.0, "4")])]);
        assert_eq!(snapshots[1].ports[0].owner, PortOwner::Guid(Guid(0x10)));
        assert!(warnings[0].message.contains("`NaN`"), "{warnings:?}");
    }
}
