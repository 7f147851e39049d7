//! What every counter reader shares: collecting port samples (a port may be described over
//! several lines or twice), skipping aggregates, and parsing counter numbers.

use std::collections::{HashMap, HashSet};

use crate::model::counters::{CounterWidth, DataCounter, PortOwner, PortSample, PortTick, Snapshot};
use crate::model::port_counters::{Count, CounterKind, OtherCounters};
use crate::model::{PortNum, Warning};

use super::super::line_warnings::LineWarnings;
use super::super::lines::LineSummary;

/// The port number the tools use for "all ports of this node, added up".
pub const ALL_PORTS: u8 = 255;

/// Which data counter a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Xmit,
    Rcv,
}

/// Collects the samples of one file, with its warnings.
pub struct SampleSink {
    pub warnings: LineWarnings,
    samples: Vec<PortSample>,
    other: Vec<OtherCounters>,
    by_key: HashMap<(PortOwner, PortNum), usize>,
    /// Nodes whose all-ports sums were skipped.
    aggregates: HashSet<PortOwner>,
    ticks: Vec<PortTick>,
}

impl SampleSink {
    pub fn new(file: &str) -> Self {
        SampleSink {
            warnings: LineWarnings::new(file),
            samples: Vec::new(),
            other: Vec::new(),
            by_key: HashMap::new(),
            aggregates: HashSet::new(),
            ticks: Vec::new(),
        }
    }

    /// Records a port's `PortSamplesControl.Tick` (`0x07`, or decimal). The field has 8 bits
    /// (0x00 = 1 symbol time … 0xff = 256): a value outside them, or no number, is named and the
    /// port keeps the assumed per-ASIC tick.
    pub fn tick(&mut self, line: usize, owner: PortOwner, port: u8, text: &str) {
        let text = text.trim();
        let value = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => text.parse::<u64>().ok(),
        };
        match value.map(u8::try_from) {
            Some(Ok(tick)) => self.ticks.push(PortTick { owner, port: PortNum(port), tick, line }),
            Some(Err(_)) => self.warnings.line(
                line,
                format!(
                    "PortSamplesControl.Tick `{text}` of port {port} is outside the specification's 8-bit \
                     range (0x00–0xff); the assumed per-ASIC tick is used for it"
                ),
            ),
            None => self.warnings.line(
                line,
                format!("PortSamplesControl.Tick `{text}` of port {port} is not a number; skipped"),
            ),
        }
    }

    /// Records one counter of a port. The port's other counter may come on another line. A
    /// 64-bit value replaces a 32-bit one of the same port (`perfquery` and `perfquery -x` output
    /// concatenated); any other repeat is a warning and the first value stays.
    pub fn counter(
        &mut self,
        line: usize,
        owner: PortOwner,
        port: u8,
        direction: Direction,
        counter: DataCounter,
    ) {
        if port == ALL_PORTS {
            self.aggregates.insert(owner);
            return;
        }
        let index = self.sample_index(line, owner, port);
        let sample = &mut self.samples[index];
        let slot = match direction {
            Direction::Xmit => &mut sample.xmit,
            Direction::Rcv => &mut sample.rcv,
        };
        match slot {
            None => *slot = Some(counter),
            Some(old) if old.width == CounterWidth::Bits32 && counter.width == CounterWidth::Bits64 => {
                *slot = Some(counter);
            }
            Some(old) if old.width == CounterWidth::Bits64 && counter.width == CounterWidth::Bits32 => {}
            Some(_) => self.warnings.line(
                line,
                format!(
                    "{} of port {port} given again (first at line {}); kept the first",
                    direction.name(),
                    sample.line
                ),
            ),
        }
    }

    /// The index of a port's sample, made on first sight.
    fn sample_index(&mut self, line: usize, owner: PortOwner, port: u8) -> usize {
        *self.by_key.entry((owner, PortNum(port))).or_insert_with(|| {
            self.samples.push(PortSample {
                owner,
                port: PortNum(port),
                xmit: None,
                rcv: None,
                line,
                other: None,
            });
            self.samples.len() - 1
        })
    }

    /// Records one of a port's other counters (XmitWait, packets, errors); see
    /// [`OtherCounters::set`] for which of two widths is kept.
    pub fn other(&mut self, line: usize, owner: PortOwner, port: u8, kind: CounterKind, count: Count) {
        if port == ALL_PORTS {
            self.aggregates.insert(owner);
            return;
        }
        let index = self.sample_index(line, owner, port);
        let slot = match self.samples[index].other {
            Some(slot) => slot as usize,
            None => {
                let Ok(slot) = u32::try_from(self.other.len()) else { return };
                self.other.push(OtherCounters::default());
                self.samples[index].other = Some(slot);
                slot as usize
            }
        };
        if !self.other[slot].set(kind, count) {
            let first = self.samples[index].line;
            self.warnings.line(
                line,
                format!("{} of port {port} given again (first at line {first}); kept the first", kind.name()),
            );
        }
    }

    /// Records a counter by the tool's name for it, if it is one of the other counters:
    /// `narrow` is the width the format gives its non-extended counters (`None`: the format
    /// does not say, see [`guessed_width`]). Returns false for a name that is none of them.
    pub fn named(
        &mut self,
        line: usize,
        owner: PortOwner,
        port: u8,
        name: &str,
        value: &str,
        narrow: Option<CounterWidth>,
    ) -> bool {
        let Some(kind) = CounterKind::from_name(name) else { return false };
        self.text(line, owner, port, kind, value, narrow);
        true
    }

    /// Records a counter already named (a table's column, resolved once from its header) from
    /// its text: `N/A` is no value, anything else must be a number.
    pub fn text(
        &mut self,
        line: usize,
        owner: PortOwner,
        port: u8,
        kind: (CounterKind, bool),
        value: &str,
        narrow: Option<CounterWidth>,
    ) {
        if is_not_available(value) {
            return;
        }
        match parse_count(value) {
            Some(number) => self.counted(line, owner, port, kind, number, narrow),
            None => self
                .warnings
                .line(line, format!("{} `{}` is not a number; skipped", kind.0.name(), value.trim())),
        }
    }

    /// Records a number already read for counter `kind` (`wide`: the tool named its 64-bit
    /// form); `narrow` as in [`SampleSink::named`].
    pub fn counted(
        &mut self,
        line: usize,
        owner: PortOwner,
        port: u8,
        (kind, wide): (CounterKind, bool),
        number: u64,
        narrow: Option<CounterWidth>,
    ) {
        let width = match (wide, narrow) {
            (true, _) | (false, Some(CounterWidth::Bits64)) => CounterWidth::Bits64,
            (false, Some(_)) => kind.basic_width(),
            (false, None) => guessed_width(kind, number),
        };
        if number > width.max() {
            let bits = width.bits();
            self.warnings.line(
                line,
                format!("{} {number} is more than its {bits}-bit counter holds; skipped", kind.name()),
            );
            return;
        }
        self.other(line, owner, port, kind, Count { value: number, width });
    }

    /// Records a counter given in 4-byte words.
    pub fn words(
        &mut self,
        line: usize,
        owner: PortOwner,
        port: u8,
        direction: Direction,
        words: u64,
        width: CounterWidth,
    ) {
        match DataCounter::from_words(words, width) {
            Some(counter) => self.counter(line, owner, port, direction, counter),
            None => self.warnings.line(
                line,
                format!("{} {words} words is more bytes than 64 bits hold; skipped", direction.name()),
            ),
        }
    }

    /// [`SampleSink::finish`] after a pass over a stream: its over-long lines, invalid UTF-8
    /// and a last line without a line end are warnings too.
    pub fn finish_stream(mut self, source: &str, summary: LineSummary) -> (Snapshot, Vec<Warning>) {
        if let Some(w) = summary.truncation_warning(source) {
            self.warnings.push(w);
        }
        let (snapshot, mut warnings) = self.finish(source);
        warnings.splice(0..0, summary.warnings);
        (snapshot, warnings)
    }

    pub fn finish(mut self, source: &str) -> (Snapshot, Vec<Warning>) {
        if !self.aggregates.is_empty() {
            let count = self.aggregates.len();
            self.warnings.file(format!(
                "skipped {count} all-ports aggregate{} (port 255): a sum over a node's ports is no link end",
                if count == 1 { "" } else { "s" }
            ));
        }
        let missing =
            self.samples.iter().filter(|s| s.xmit.is_none() && s.rcv.is_none() && s.other.is_none()).count();
        if missing > 0 {
            self.warnings.file(format!("{missing} ports had no data counter"));
        }
        let (ports, other, ticks) = (self.samples, self.other, self.ticks);
        let snapshot = Snapshot { source: source.to_string(), ports, other, taken: None, ticks };
        (snapshot, self.warnings.finish())
    }
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Xmit => "PortXmitData",
            Direction::Rcv => "PortRcvData",
        }
    }
}

/// A counter as the tools print it: decimal, or hexadecimal with `0x`.
pub fn parse_count(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The width of a value from a tool that does not say which attribute it read (ibqueryerrors
/// and the exporters use the extended counters where a port has them): exactly the maximum of
/// the counter's `PortCounters` width is taken as that counter, saturated; any other value as
/// 64-bit.
pub fn guessed_width(kind: CounterKind, value: u64) -> CounterWidth {
    let narrow = kind.basic_width();
    if value == narrow.max() { narrow } else { CounterWidth::Bits64 }
}

/// True for the placeholders tools print for a counter a port does not support.
pub fn is_not_available(text: &str) -> bool {
    matches!(text.trim(), "N/A" | "NA" | "n/a" | "-" | "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Lid;

    #[test]
    fn a_64_bit_value_replaces_a_32_bit_one_of_the_same_port() {
        let mut sink = SampleSink::new("f");
        let owner = PortOwner::Lid(Lid(2));
        sink.words(1, owner, 3, Direction::Xmit, 0xffff_ffff, CounterWidth::Bits32);
        sink.words(9, owner, 3, Direction::Xmit, 0x1_0000_0000, CounterWidth::Bits64);
        sink.words(12, owner, 3, Direction::Xmit, 5, CounterWidth::Bits32);
        let (snapshot, warnings) = sink.finish("f");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(snapshot.ports[0].xmit.unwrap().bytes, 4 * 0x1_0000_0000);
    }

    #[test]
    fn aggregates_and_repeats_are_reported() {
        let mut sink = SampleSink::new("f");
        let owner = PortOwner::Lid(Lid(2));
        sink.words(1, owner, 255, Direction::Xmit, 7, CounterWidth::Bits64);
        sink.words(2, owner, 1, Direction::Xmit, 7, CounterWidth::Bits64);
        sink.words(3, owner, 1, Direction::Xmit, 8, CounterWidth::Bits64);
        let (snapshot, warnings) = sink.finish("f");
        assert_eq!(snapshot.ports.len(), 1);
        assert_eq!(snapshot.ports[0].xmit.unwrap().bytes, 28);
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].message.contains("kept the first"));
        assert!(warnings[1].message.contains("port 255"));
    }

    #[test]
    fn other_counters_are_kept_by_attribute_with_their_width() {
        let mut sink = SampleSink::new("f");
        let owner = PortOwner::Lid(Lid(2));
        assert!(sink.named(1, owner, 1, "PortXmitWait", "4294967295", Some(CounterWidth::Bits32)));
        assert!(sink.named(2, owner, 1, "PortXmitWaitExt", "0x10000000000", None));
        assert!(sink.named(3, owner, 1, "SymbolErrorCounter", "7", Some(CounterWidth::Bits32)));
        assert!(sink.named(4, owner, 1, "LinkDownedCounter", "300", Some(CounterWidth::Bits32)));
        assert!(!sink.named(5, owner, 1, "QP1Dropped", "1", Some(CounterWidth::Bits32)));
        let (snapshot, warnings) = sink.finish("f");
        let other = snapshot.other_of(&snapshot.ports[0]).unwrap();
        assert_eq!(
            other.get(CounterKind::PortXmitWait),
            Some(Count { value: 1 << 40, width: CounterWidth::Bits64 })
        );
        assert_eq!(
            other.get(CounterKind::SymbolErrorCounter),
            Some(Count { value: 7, width: CounterWidth::Bits16 })
        );
        assert_eq!(other.get(CounterKind::LinkDownedCounter), None);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("more than its 8-bit counter holds"), "{warnings:?}");
    }

    #[test]
    fn a_tool_that_hides_the_width_gives_its_maximum_as_the_narrow_saturated_counter() {
        assert_eq!(guessed_width(CounterKind::PortXmitWait, 0xffff_ffff), CounterWidth::Bits32);
        assert_eq!(guessed_width(CounterKind::SymbolErrorCounter, 65535), CounterWidth::Bits16);
        assert_eq!(guessed_width(CounterKind::SymbolErrorCounter, 65536), CounterWidth::Bits64);
    }

    #[test]
    fn counts_read_in_decimal_or_hex() {
        assert_eq!(parse_count("0x10"), Some(16));
        assert_eq!(parse_count("10"), Some(10));
        assert_eq!(parse_count("ten"), None);
    }
}
