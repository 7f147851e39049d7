//! `perfquery` output, one port or many concatenated:
//!
//! ```text
//! # Port extended counters: Lid 2 port 3 (CapMask: 0x1300 CapMask2: 0x0000000)
//! PortSelect:......................3
//! PortXmitData:....................123456789012
//! PortRcvData:.....................864
//! # Port counters: Lid 4 port 1 (CapMask: 0x1200)
//! PortXmitData:....................4294967295
//! ```
//!
//! Besides the data counters, a block's `PortXmitWait`, `PortXmitPkts`/`PortRcvPkts` and error
//! counters are kept at the block's width (`PortCounters`' own widths in a basic block, 64 bits
//! in an extended one).
//!
//! `perfquery -c LID PORT` prints the port's sampling settings; shoal keeps its `Tick` (hex, the
//! XmitWait tick length, [`SampleSink::tick`]) and nothing else of it:
//!
//! ```text
//! # PortSamplesControl: Lid 32 port 5
//! OpCode:..........................0xff
//! PortSelect:......................0
//! Tick:............................0x07
//! ```
//!
//! LIDs are **decimal** here. `# Port extended counters` blocks hold the 64-bit
//! `PortCountersExtended`, `# Port counters` blocks the 32-bit `PortCounters` (which stop at
//! `0xffffffff`). Port 255 is perfquery's sum over all ports and is skipped.

use crate::model::counters::{CounterWidth, PortOwner, Snapshot};
use crate::model::port_counters::CounterKind;
use crate::model::{Lid, Warning};

use super::super::error::ParseError;
use super::super::input::Input;
use super::sink::{Direction, SampleSink, parse_count};

const EXTENDED: &str = "# Port extended counters:";
const BASIC: &str = "# Port counters:";
const SAMPLES_CONTROL: &str = "# PortSamplesControl:";

/// True when a line starts a perfquery counters block.
pub fn looks_like_perfquery(input: &Input) -> bool {
    input
        .text()
        .lines()
        .take(40)
        .any(|l| l.starts_with(EXTENDED) || l.starts_with(BASIC) || l.starts_with(SAMPLES_CONTROL))
}

/// The port a block is about, and its counter width (`None`: a PortSamplesControl block).
#[derive(Clone, Copy)]
struct Block {
    lid: Lid,
    port: u8,
    width: Option<CounterWidth>,
}

pub fn parse_perfquery(input: &Input) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let mut sink = SampleSink::new(input.display());
    let mut block: Option<Block> = None;
    let summary = input.for_each_line(|number, line, _| {
        let line = line.trim_end();
        if let Some((rest, width)) = header(line) {
            block = block_of(rest, width);
            if block.is_none() {
                sink.warnings.line(number, "a counters header without `Lid L port P`; its block is skipped");
            }
            return;
        }
        let Some((name, value)) = line.split_once(':') else { return };
        let (name, value) = (name.trim(), value.trim().trim_start_matches('.'));
        let direction = match name {
            "PortXmitData" => Some(Direction::Xmit),
            "PortRcvData" => Some(Direction::Rcv),
            _ => None,
        };
        let Some(block) = block else {
            if direction.is_some() || CounterKind::from_name(name).is_some() {
                sink.warnings.line(number, format!("{name} before any `# Port counters` header; skipped"));
            }
            return;
        };
        let owner = PortOwner::Lid(block.lid);
        let Some(width) = block.width else {
            if name == "Tick" {
                sink.tick(number, owner, block.port, value);
            }
            return;
        };
        let Some(direction) = direction else {
            sink.named(number, owner, block.port, name, value, Some(width));
            return;
        };
        match parse_count(value) {
            Some(words) => sink.words(number, owner, block.port, direction, words, width),
            None => {
                sink.warnings.line(number, format!("{} `{value}` is not a number; skipped", direction.name()))
            }
        }
    })?;
    Ok(sink.finish_stream(input.display(), summary))
}

fn header(line: &str) -> Option<(&str, Option<CounterWidth>)> {
    if let Some(rest) = line.strip_prefix(EXTENDED) {
        Some((rest, Some(CounterWidth::Bits64)))
    } else if let Some(rest) = line.strip_prefix(SAMPLES_CONTROL) {
        Some((rest, None))
    } else {
        line.strip_prefix(BASIC).map(|rest| (rest, Some(CounterWidth::Bits32)))
    }
}

/// `Lid 2 port 3 (CapMask: …)` → LID 2, port 3.
fn block_of(rest: &str, width: Option<CounterWidth>) -> Option<Block> {
    let mut words = rest.split_whitespace();
    (words.next()? == "Lid").then_some(())?;
    let lid = Lid::parse_dec(words.next()?)?;
    (words.next()? == "port").then_some(())?;
    let port = words.next()?.parse().ok()?;
    Some(Block { lid, port, width })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortNum;

    fn parse(text: &str) -> (Snapshot, Vec<Warning>) {
        parse_perfquery(&Input::from_text("pq.txt", text)).unwrap()
    }

    #[test]
    fn extended_blocks_give_64_bit_bytes_per_lid_and_port() {
        let (s, w) = parse(
            "# Port extended counters: Lid 2 port 3 (CapMask: 0x1300 CapMask2: 0x0000000)\n\
             PortSelect:......................3\n\
             PortXmitData:....................123456789012\n\
             PortRcvData:.....................864\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(s.ports[0].owner, PortOwner::Lid(Lid(2)));
        assert_eq!(s.ports[0].port, PortNum(3));
        assert_eq!(s.ports[0].xmit.unwrap().bytes, 4 * 123456789012);
        assert_eq!(s.ports[0].rcv.unwrap().bytes, 4 * 864);
    }

    #[test]
    fn a_basic_block_at_the_32_bit_maximum_is_saturated() {
        let (s, _) = parse(
            "# Port counters: Lid 4 port 1 (CapMask: 0x1200)\nPortXmitData:....................4294967295\n",
        );
        let xmit = s.ports[0].xmit.unwrap();
        assert!(xmit.saturated);
        assert_eq!(xmit.width, CounterWidth::Bits32);
    }

    #[test]
    fn xmit_wait_and_error_counters_of_a_basic_block_keep_their_widths() {
        let (s, w) = parse(
            "# Port counters: Lid 4 port 1 (CapMask: 0x1200)\nSymbolErrorCounter:..............7\n\
             LinkDownedCounter:...............3\nQP1Dropped:......................9\n\
             PortXmitPkts:....................1229\nPortXmitWait:....................12345\n",
        );
        assert!(w.is_empty(), "{w:?}");
        let other = s.other_of(&s.ports[0]).unwrap();
        let count = |k| other.get(k).unwrap();
        assert_eq!(count(CounterKind::PortXmitWait).value, 12345);
        assert_eq!(count(CounterKind::PortXmitWait).width, CounterWidth::Bits32);
        assert_eq!(count(CounterKind::SymbolErrorCounter).width, CounterWidth::Bits16);
        assert_eq!(count(CounterKind::LinkDownedCounter).width, CounterWidth::Bits8);
        assert_eq!(count(CounterKind::PortXmitPkts).value, 1229);
        assert_eq!(other.iter().count(), 4, "QP1Dropped is none of the counters kept");
    }

    #[test]
    fn a_samples_control_block_gives_its_port_s_tick_and_no_counter() {
        // The layout NVIDIA's ibdiagnet manual shows for `perfquery -c 32 5`.
        let (s, w) = parse(
            "# PortSamplesControl: Lid 32 port 5\nOpCode:..........................0xff\n\
             PortSelect:......................0\nTick:............................0x07\n\
             CounterWidth:....................0x04\nCounterSelect0:..................0x0000\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(s.ports.is_empty());
        let t = s.ticks[0];
        assert_eq!((t.owner, t.port, t.tick, t.line), (PortOwner::Lid(Lid(32)), PortNum(5), 7, 4));
    }

    #[test]
    fn a_tick_outside_eight_bits_is_named_with_its_line() {
        let (s, w) = parse("# PortSamplesControl: Lid 32 port 5\nTick:............................0x1ff\n");
        assert!(s.ticks.is_empty());
        assert_eq!(w[0].line, Some(2));
        assert!(w[0].message.contains("`0x1ff`") && w[0].message.contains("outside"), "{}", w[0]);
    }

    #[test]
    fn garbage_values_and_headless_counters_are_named() {
        let (s, w) = parse("PortXmitData:....1\n# Port counters: Lid 4 port 1\nPortRcvData:....lots\n");
        assert!(s.ports.is_empty());
        assert!(w[0].message.contains("before any"));
        assert!(w[1].message.contains("`lots` is not a number"));
    }
}
