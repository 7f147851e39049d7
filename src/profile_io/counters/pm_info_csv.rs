//! The `PM_INFO` section of ibdiagnet2's `ibdiagnet2.db_csv` (written with `--pc`/`-P`):
//!
//! ```text
//! START_PM_INFO
//! NodeGUID,PortGUID,PortNumber,LinkDownedCounter,…,PortXmitData,PortRcvData,…,PortXmitDataExtended,PortRcvDataExtended,…
//! 0x0002c90200010000,0x0002c90200010000,1,0,…,1719664640,1719664640,…,1719664640,1719664640,…
//! END_PM_INFO
//! ```
//!
//! The other counters' columns (`PortXmitWait`, `PortXmitWaitExt`, `PortXmitPkts`, the error
//! counters and their `…Ext`/`…Extended` forms) are kept too, the 64-bit one preferred.
//!
//! Columns are found by name. The 64-bit `PortXmitDataExtended`/`PortRcvDataExtended` are used
//! where a row has them; the 32-bit `PortXmitData`/`PortRcvData` otherwise (saturating at
//! `0xffffffff` words). Unsupported counters read `N/A`. Values are decimal (or `0x` hex).

use crate::model::counters::{CounterWidth, PortOwner, Snapshot};
use crate::model::port_counters::CounterKind;
use crate::model::{Guid, Warning};

use super::super::error::ParseError;
use super::super::input::Input;
use super::sink::{Direction, SampleSink, is_not_available, parse_count};

const START: &str = "START_PM_INFO";
const END: &str = "END_PM_INFO";

/// True for a db_csv file with a `PM_INFO` section.
pub fn has_pm_info(input: &Input) -> bool {
    input.text().lines().any(|l| l.trim_end() == START)
}

/// Column positions of one `PM_INFO` header.
#[derive(Default)]
struct Columns {
    guid: Option<usize>,
    port: Option<usize>,
    data: [[Option<usize>; 2]; 2], // [direction][32-bit, 64-bit]
    /// The columns of the other counters (`PortXmitWait`, `PortXmitWaitExt`, errors, …), each
    /// with its counter and whether it is the 64-bit form.
    other: Vec<(usize, (CounterKind, bool))>,
}

impl Columns {
    fn from_header(header: &str) -> Columns {
        let mut c = Columns::default();
        for (i, name) in header.split(',').map(str::trim).enumerate() {
            match name {
                "NodeGUID" | "NodeGuid" => c.guid = Some(i),
                "PortNumber" | "PortNum" => c.port = Some(i),
                "PortXmitData" => c.data[0][0] = Some(i),
                "PortXmitDataExtended" => c.data[0][1] = Some(i),
                "PortRcvData" => c.data[1][0] = Some(i),
                "PortRcvDataExtended" => c.data[1][1] = Some(i),
                other => {
                    if let Some(kind) = CounterKind::from_name(other) {
                        c.other.push((i, kind));
                    }
                }
            }
        }
        c
    }
}

pub fn parse_pm_info(input: &Input) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let mut sink = SampleSink::new(input.display());
    let mut columns: Option<Columns> = None;
    let (summary, found) = input.for_each_section_line((START, END), |number, line| {
        let Some(c) = &columns else {
            let c = Columns::from_header(line);
            if c.guid.is_none() || c.port.is_none() {
                sink.warnings.line(
                    number,
                    "the PM_INFO header names no NodeGUID or PortNumber column; section skipped",
                );
                return false;
            }
            columns = Some(c);
            return true;
        };
        row(&mut sink, number, c, &line.split(',').collect::<Vec<_>>());
        true
    })?;
    if !found {
        let message = "a db_csv without a START_PM_INFO section: no port counters (run ibdiagnet2 with --pc)";
        return Err(ParseError::invalid(input.display(), message).with_warnings(summary.warnings));
    }
    if columns.is_none() {
        sink.warnings.file("no PM_INFO rows (was ibdiagnet2 run with --pc?)");
    }
    Ok(sink.finish_stream(input.display(), summary))
}

fn row(sink: &mut SampleSink, number: usize, c: &Columns, fields: &[&str]) {
    let field = |i: Option<usize>| i.and_then(|i| fields.get(i)).map(|f| f.trim());
    let guid = field(c.guid).and_then(Guid::parse_hex);
    let port = field(c.port).and_then(parse_count).and_then(|p| u8::try_from(p).ok());
    let (Some(guid), Some(port)) = (guid, port) else {
        sink.warnings.line(number, "a PM_INFO row without a readable NodeGUID and PortNumber; skipped");
        return;
    };
    for &(i, kind) in &c.other {
        let value = fields.get(i).map_or("", |f| f.trim());
        sink.text(number, PortOwner::Guid(guid), port, kind, value, Some(CounterWidth::Bits32));
    }
    for (d, direction) in [Direction::Xmit, Direction::Rcv].into_iter().enumerate() {
        let [narrow, wide] = c.data[d];
        let chosen = [(wide, CounterWidth::Bits64), (narrow, CounterWidth::Bits32)]
            .into_iter()
            .find_map(|(col, width)| field(col).filter(|v| !is_not_available(v)).map(|v| (v, width)));
        let Some((value, width)) = chosen else { continue };
        match parse_count(value) {
            Some(words) => sink.words(number, PortOwner::Guid(guid), port, direction, words, width),
            None => {
                sink.warnings.line(number, format!("{} `{value}` is not a number; skipped", direction.name()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_64_bit_column_wins_and_n_a_falls_back_to_the_32_bit_one() {
        let text = "START_NODES\nNodeDesc\nEND_NODES\nSTART_PM_INFO\nNodeGUID,PortGUID,PortNumber,PortXmitData,PortRcvData,PortXmitDataExtended,PortRcvDataExtended\n0x10,0x10,1,4294967295,7,8589934592,N/A\nEND_PM_INFO\n";
        let (s, w) = parse_pm_info(&Input::from_text("ibdiagnet2.db_csv", text)).unwrap();
        assert!(w.is_empty(), "{w:?}");
        let p = s.ports[0];
        assert_eq!(p.owner, PortOwner::Guid(Guid(0x10)));
        assert_eq!(p.xmit.unwrap().bytes, 4 * 8589934592);
        assert!(!p.xmit.unwrap().saturated);
        assert_eq!(p.rcv.unwrap().width, CounterWidth::Bits32);
        assert_eq!(p.rcv.unwrap().bytes, 28);
    }

    #[test]
    fn xmit_wait_ext_wins_and_a_saturated_32_bit_one_is_kept_only_alone() {
        let text = "START_PM_INFO\nNodeGUID,PortGUID,PortNumber,SymbolErrorCounter,PortXmitWait,PortXmitWaitExt,SymbolErrorCounterExt\n0x10,0x10,1,65535,4294967295,123456789012,0\n0x10,0x10,2,0,4294967295,N/A,N/A\nEND_PM_INFO\n";
        let (s, w) = parse_pm_info(&Input::from_text("ibdiagnet2.db_csv", text)).unwrap();
        assert!(w.is_empty(), "{w:?}");
        let first = s.other_of(&s.ports[0]).unwrap();
        assert_eq!(first.get(CounterKind::PortXmitWait).unwrap().value, 123456789012);
        assert_eq!(first.get(CounterKind::SymbolErrorCounter).unwrap().width, CounterWidth::Bits16);
        let second = s.other_of(&s.ports[1]).unwrap();
        assert!(second.get(CounterKind::PortXmitWait).unwrap().saturated());
    }

    #[test]
    fn a_db_csv_without_pm_info_says_how_to_get_it() {
        let error = parse_pm_info(&Input::from_text("x.db_csv", "START_NODES\nEND_NODES\n")).unwrap_err();
        assert!(error.to_string().contains("--pc"), "{error}");
    }
}
