//! ibdiagnet2's `ibdiagnet2.pm`: one block per port, counters as `name=0x…` lines:
//!
//! ```text
//! --------------------------------------------------------
//! Port=1 Lid=0x0002 GUID=0x0002c90200010000 Device=51000 Port Name=MF0;tb-L1-00:SX6036/U1/P1
//! --------------------------------------------------------
//! port_xmit_data=0x0000000019a00000
//! port_rcv_data=0x0000000019a00000
//! port_xmit_data_extended=0x0000000019a00000
//! port_rcv_data_extended=0x0000000019a00000
//! ```
//!
//! The other counters come under their snake-case names (`port_xmit_wait`,
//! `symbol_error_counter`, `port_xmit_wait_extended`, …), at `PortCounters`' widths unless
//! `_extended`.
//!
//! The GUID is the port's (a switch's port GUID is its node GUID); values are hexadecimal words,
//! `NA` where unsupported. `*_extended` (64-bit) wins over the 32-bit counter.

use crate::model::counters::{CounterWidth, PortOwner, Snapshot};
use crate::model::{Guid, Warning};

use super::super::error::ParseError;
use super::super::input::Input;
use super::sink::{Direction, SampleSink, is_not_available, parse_count};

/// True when a port header line of the `.pm` format appears.
pub fn looks_like_ibdiagnet_pm(input: &Input) -> bool {
    input.text().lines().take(40).any(|l| port_header(l).is_some())
}

/// `Port=1 Lid=0x0002 GUID=0x… Device=… Port Name=…` → (GUID, port).
fn port_header(line: &str) -> Option<(Guid, u8)> {
    let rest = line.trim().strip_prefix("Port=")?;
    let (port, rest) = rest.split_once(' ')?;
    let guid = rest.split_whitespace().find_map(|w| w.strip_prefix("GUID="))?;
    Some((Guid::parse_hex(guid)?, port.parse().ok()?))
}

pub fn parse_ibdiagnet_pm(input: &Input) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let mut sink = SampleSink::new(input.display());
    let mut current: Option<(Guid, u8)> = None;
    let summary = input.for_each_line(|number, line, _| {
        let line = line.trim();
        if line.starts_with("Port=") {
            current = port_header(line);
            if current.is_none() {
                sink.warnings.line(
                    number,
                    "a port header without a readable `Port=` and `GUID=`; its block is skipped",
                );
            }
            return;
        }
        let Some((name, value)) = line.split_once('=') else { return };
        let (direction, width) = match name {
            "port_xmit_data" => (Direction::Xmit, CounterWidth::Bits32),
            "port_rcv_data" => (Direction::Rcv, CounterWidth::Bits32),
            "port_xmit_data_extended" => (Direction::Xmit, CounterWidth::Bits64),
            "port_rcv_data_extended" => (Direction::Rcv, CounterWidth::Bits64),
            _ => {
                if let Some((guid, port)) = current {
                    sink.named(number, PortOwner::Guid(guid), port, name, value, Some(CounterWidth::Bits32));
                }
                return;
            }
        };
        let Some((guid, port)) = current else { return };
        if is_not_available(value) {
            return;
        }
        match parse_count(value) {
            Some(words) => sink.words(number, PortOwner::Guid(guid), port, direction, words, width),
            None => sink.warnings.line(number, format!("{name} `{value}` is not a number; skipped")),
        }
    })?;
    Ok(sink.finish_stream(input.display(), summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_counters_win_and_na_is_no_number() {
        let text = "----\nPort=3 Lid=0x0002 GUID=0x0002c90200010000 Device=51000 Port Name=sw/P3\n----\nport_xmit_data=0xffffffff\nport_rcv_data=NA\nport_xmit_data_extended=0x0000000100000000\n";
        let (s, w) = parse_ibdiagnet_pm(&Input::from_text("ibdiagnet2.pm", text)).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(s.ports[0].owner, PortOwner::Guid(Guid(0x0002c90200010000)));
        assert_eq!(s.ports[0].xmit.unwrap().bytes, 4 << 32);
        assert_eq!(s.ports[0].rcv, None);
    }

    #[test]
    fn xmit_wait_prefers_the_extended_counter_and_errors_keep_their_width() {
        use crate::model::port_counters::CounterKind;
        let text = "Port=3 Lid=0x0002 GUID=0x10 Device=1 Port Name=sw/P3\nport_xmit_wait=0xffffffff\nport_xmit_wait_extended=0x0000000200000000\nsymbol_error_counter=0xffff\n";
        let (s, w) = parse_ibdiagnet_pm(&Input::from_text("ibdiagnet2.pm", text)).unwrap();
        assert!(w.is_empty(), "{w:?}");
        let other = s.other_of(&s.ports[0]).unwrap();
        assert_eq!(other.get(CounterKind::PortXmitWait).unwrap().value, 2 << 32);
        assert!(other.get(CounterKind::SymbolErrorCounter).unwrap().saturated());
    }
}
