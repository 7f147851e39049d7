//! `ibqueryerrors --data` (or `--counters`) output, with or without `--report-port`:
//!
//! ```text
//! Errors for 0x2c90200010001 "MF0;tb-L1-01:SX6036/U1"
//!    GUID 0x2c90200010001 port ALL: [SymbolErrorCounter == 3] [PortXmitData == 17652600496 (65.761GB)] …
//!    GUID 0x2c90200010001 port 5: [SymbolErrorCounter == 3] [PortXmitData == 429918176 (1.602GB)] [PortRcvData == …]
//!        Link info:      3   5[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>  0x0002c90300010033 …
//! Data Counters for 0x2c90300010052 "n0042 HCA-1"
//!    GUID 0x2c90300010052 port 1: [PortXmitData == 1584 (6.188KB)] [PortRcvData == 1656 (6.469KB)] …
//! ```
//!
//! Ports are named by GUID (a node's or a port's: the join tries both). `--data` prints only
//! ports with errors, `--counters` every port. The output does not say whether a value came from
//! the 64-bit or the 32-bit counters (ibqueryerrors uses the extended ones where the port has
//! them), so a value of exactly `0xffffffff` words is taken as a saturated 32-bit counter.
//! The same guess gives the other counters their width (`[SymbolErrorCounter == 65535]` is a
//! saturated 16-bit counter). `port ALL` lines are sums over a node's ports and are skipped.

use crate::model::counters::{CounterWidth, PortOwner, SATURATED_WORDS_32, Snapshot};
use crate::model::{Guid, Warning};

use super::super::error::ParseError;
use super::super::input::Input;
use super::sink::{ALL_PORTS, Direction, SampleSink, parse_count};

/// True when a line starts an ibqueryerrors node section.
pub fn looks_like_ibqueryerrors(input: &Input) -> bool {
    input.text().lines().take(40).any(|l| {
        l.starts_with("Errors for ") || l.starts_with("Data Counters for ") || l.starts_with("## Summary: ")
    })
}

pub fn parse_ibqueryerrors(input: &Input) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let mut sink = SampleSink::new(input.display());
    let summary = input.for_each_line(|number, line, _| {
        let Some(rest) = line.trim_start().strip_prefix("GUID ") else { return };
        let Some((port_part, counters)) = rest.split_once(':') else {
            sink.warnings.line(number, "a GUID line without `port P:`; skipped");
            return;
        };
        let mut words = port_part.split_whitespace();
        let guid = words.next().and_then(Guid::parse_hex);
        let port = match (words.next(), words.next()) {
            (Some("port"), Some("ALL")) => Some(ALL_PORTS),
            (Some("port"), Some(p)) => p.parse::<u8>().ok(),
            _ => None,
        };
        let (Some(guid), Some(port)) = (guid, port) else {
            sink.warnings
                .line(number, format!("cannot read the GUID and port of `{}`; skipped", port_part.trim()));
            return;
        };
        for (name, value) in items(counters) {
            sink.named(number, PortOwner::Guid(guid), port, name, value, None);
        }
        for (direction, value) in data_counters(counters) {
            match parse_count(value) {
                Some(words) => {
                    let width =
                        if words == SATURATED_WORDS_32 { CounterWidth::Bits32 } else { CounterWidth::Bits64 };
                    sink.words(number, PortOwner::Guid(guid), port, direction, words, width);
                }
                None => sink
                    .warnings
                    .line(number, format!("{} `{value}` is not a number; skipped", direction.name())),
            }
        }
    })?;
    Ok(sink.finish_stream(input.display(), summary))
}

/// The `[Name == N (…)]` items of a port line.
fn items(text: &str) -> impl Iterator<Item = (&str, &str)> + '_ {
    text.split('[').filter_map(|item| {
        let (name, value) = item.split_once("==")?;
        Some((name.trim(), value.trim_start().split([' ', ']']).next()?))
    })
}

/// The `[PortXmitData == N (…)]` and `[PortRcvData == N (…)]` items of a port line.
fn data_counters(text: &str) -> impl Iterator<Item = (Direction, &str)> + '_ {
    items(text).filter_map(|(name, value)| {
        let direction = match name {
            "PortXmitData" => Direction::Xmit,
            "PortRcvData" => Direction::Rcv,
            _ => return None,
        };
        Some((direction, value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortNum;
    use crate::model::port_counters::CounterKind;

    #[test]
    fn port_lines_give_bytes_per_guid_and_port_and_skip_all_ports() {
        let text = "Errors for 0x2c90200010001 \"MF0;tb-L1-01:SX6036/U1\"\n   GUID 0x2c90200010001 port ALL: [SymbolErrorCounter == 3] [PortXmitData == 17652600496 (65.761GB)]\n   GUID 0x2c90200010001 port 5: [SymbolErrorCounter == 3] [PortXmitData == 429918176 (1.602GB)] [PortRcvData == 12 (48B)] [PortXmitPkts == 46 (46.000)]\n       Link info:      3   5[  ] ==( 4X          10.0 Gbps Active/  LinkUp)==>  0x0002c90300010033     28    1[  ] \"n0026 HCA-1\"\n";
        let (s, w) = parse_ibqueryerrors(&Input::from_text("iqe.txt", text)).unwrap();
        assert_eq!(s.ports.len(), 1);
        assert_eq!(s.ports[0].owner, PortOwner::Guid(Guid(0x2c90200010001)));
        assert_eq!(s.ports[0].port, PortNum(5));
        assert_eq!(s.ports[0].xmit.unwrap().bytes, 4 * 429918176);
        assert_eq!(s.ports[0].rcv.unwrap().bytes, 48);
        assert!(w[0].message.contains("port 255"), "{w:?}");
        let other = s.other_of(&s.ports[0]).unwrap();
        let symbols = other.get(CounterKind::SymbolErrorCounter).unwrap();
        assert_eq!((symbols.value, symbols.width), (3, CounterWidth::Bits64));
        assert_eq!(other.get(CounterKind::PortXmitPkts).unwrap().value, 46);
    }

    #[test]
    fn a_value_of_exactly_0xffffffff_words_is_taken_as_saturated() {
        let text = "Data Counters for 0x2 \"x\"\n   GUID 0x2 port 1: [PortXmitData == 4294967295 (16GB)]\n";
        let (s, _) = parse_ibqueryerrors(&Input::from_text("iqe.txt", text)).unwrap();
        assert!(s.ports[0].xmit.unwrap().saturated);
    }
}
