//! OpenSM PerfMgr's `perfmgr dump_counters` file (console command; written to
//! `event_db_dump_file`, by default `/var/log/opensm_port_counters.log`), in both forms:
//!
//! Human (`dump_counters`):
//! ```text
//! "MF0;tb-L1-00:SX6036/U1" 0x2c90200010000 active TRUE port 1
//!      Last Reset           : Mon Nov 23 22:43:17 2026
//!      xmit_data            : 430121720 (1.602GB)
//!      rcv_data             : 430121864 (1.602GB)
//! ```
//! Machine (`dump_counters mach`): per node a tab-separated header `Name GUID Active Port …
//! xmit_data rcv_data …` and one row per port.
//!
//! Both forms also carry `xmit_wait`, `xmit_pkts`/`rcv_pkts` and the error counters under
//! PerfMgr's short names (`symbol_err_cnt`, `link_downed`, …), kept as 64-bit values.
//!
//! The GUID is the node's. PerfMgr keeps 64-bit totals of the deltas it read since its last
//! reset, in 4-byte words like the counters themselves.

use crate::model::counters::{CounterWidth, PortOwner, Snapshot};
use crate::model::port_counters::CounterKind;
use crate::model::{Guid, Warning};

use super::super::error::ParseError;
use super::super::input::Input;
use super::super::lines::LineSummary;
use super::sink::{Direction, SampleSink, parse_count};

/// Which form a PerfMgr dump is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerfMgrForm {
    Human,
    Machine,
}

const MACH_HEADER: &str = "Name\tGUID\tActive\tPort\t";

pub fn perfmgr_form(input: &Input) -> Option<PerfMgrForm> {
    input.text().lines().take(40).find_map(|l| {
        if l.starts_with(MACH_HEADER) {
            Some(PerfMgrForm::Machine)
        } else {
            human_header(l).map(|_| PerfMgrForm::Human)
        }
    })
}

/// `"NAME" 0xGUID active TRUE port 1` → (GUID, port). The name may hold spaces and quotes, so
/// the line is read from its end.
fn human_header(line: &str) -> Option<(Guid, u8)> {
    if !line.starts_with('"') {
        return None;
    }
    let mut words = line.rsplitn(6, ' ');
    let port = words.next()?.parse().ok()?;
    (words.next()? == "port").then_some(())?;
    let _active = words.next()?;
    (words.next()? == "active").then_some(())?;
    let guid = Guid::parse_hex(words.next()?)?;
    Some((guid, port))
}

pub fn parse_perfmgr(input: &Input, form: PerfMgrForm) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let mut sink = SampleSink::new(input.display());
    let summary = match form {
        PerfMgrForm::Human => human(input, &mut sink),
        PerfMgrForm::Machine => machine(input, &mut sink),
    }?;
    Ok(sink.finish_stream(input.display(), summary))
}

fn human(input: &Input, sink: &mut SampleSink) -> Result<LineSummary, ParseError> {
    let mut current = None;
    input.for_each_line(|number, line, _| {
        if line.starts_with('"') {
            current = human_header(line);
            if current.is_none() {
                sink.warnings
                    .line(number, "a port header without `0xGUID active … port P`; its block is skipped");
            }
            return;
        }
        let Some((name, value)) = line.split_once(':') else { return };
        let Some((guid, port)) = current else { return };
        let value = value.split_whitespace().next().unwrap_or("");
        let direction = match name.trim() {
            "xmit_data" => Direction::Xmit,
            "rcv_data" => Direction::Rcv,
            other => {
                sink.named(number, PortOwner::Guid(guid), port, other, value, Some(CounterWidth::Bits64));
                return;
            }
        };
        record(sink, number, guid, port, direction, value);
    })
}

fn machine(input: &Input, sink: &mut SampleSink) -> Result<LineSummary, ParseError> {
    // (guid, port, xmit_data, rcv_data) column positions of the last header, and its field count.
    let mut columns: Option<[usize; 4]> = None;
    // The columns of the counters besides data, resolved once per header.
    let mut others: Vec<(usize, (CounterKind, bool))> = Vec::new();
    let mut width = 0;
    input.for_each_line(|number, line, _| {
        if line.is_empty() {
            return;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if line.starts_with(MACH_HEADER) {
            others = fields
                .iter()
                .enumerate()
                .filter_map(|(i, f)| Some((i, CounterKind::from_name(f.trim())?)))
                .collect();
            let at = |name: &str| fields.iter().position(|f| f.trim() == name);
            width = fields.len();
            columns = match (at("GUID"), at("Port"), at("xmit_data"), at("rcv_data")) {
                (Some(g), Some(p), Some(x), Some(r)) => Some([g, p, x, r]),
                _ => {
                    sink.warnings
                        .line(number, "a header without GUID, Port, xmit_data and rcv_data; rows skipped");
                    None
                }
            };
            return;
        }
        let Some([g, p, x, r]) = columns else { return };
        // A node description holding a TAB shifts every later column onto another's (issue 24).
        if fields.len() != width {
            let message = format!("{} fields where the header has {width}; row skipped", fields.len());
            sink.warnings.line(number, message);
            return;
        }
        let guid = fields.get(g).and_then(|f| Guid::parse_hex(f));
        let port = fields.get(p).and_then(|f| f.trim().parse::<u8>().ok());
        let (Some(guid), Some(port)) = (guid, port) else {
            sink.warnings.line(number, "a row without a readable GUID and port; skipped");
            return;
        };
        for (column, direction) in [(x, Direction::Xmit), (r, Direction::Rcv)] {
            record(sink, number, guid, port, direction, fields.get(column).copied().unwrap_or(""));
        }
        for &(i, kind) in &others {
            let value = fields.get(i).copied().unwrap_or("");
            sink.text(number, PortOwner::Guid(guid), port, kind, value, Some(CounterWidth::Bits64));
        }
    })
}

fn record(sink: &mut SampleSink, number: usize, guid: Guid, port: u8, direction: Direction, value: &str) {
    match parse_count(value) {
        Some(words) => {
            sink.words(number, PortOwner::Guid(guid), port, direction, words, CounterWidth::Bits64)
        }
        None => sink
            .warnings
            .line(number, format!("{} `{}` is not a number; skipped", direction.name(), value.trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PortNum;

    #[test]
    fn human_blocks_give_words_times_four() {
        let text = "\"MF0;tb-L1-00:SX6036/U1\" 0x2c90200010000 active TRUE port 1\n     Last Reset           : Mon Nov 23 22:43:17 2026\n     xmit_data            : 430121720 (1.602GB)\n     rcv_data             : 12 (48B)\n";
        let input = Input::from_text("pm.log", text);
        assert_eq!(perfmgr_form(&input), Some(PerfMgrForm::Human));
        let (s, w) = parse_perfmgr(&input, PerfMgrForm::Human).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(s.ports[0].owner, PortOwner::Guid(Guid(0x2c90200010000)));
        assert_eq!(s.ports[0].port, PortNum(1));
        assert_eq!(s.ports[0].xmit.unwrap().bytes, 4 * 430121720);
    }

    #[test]
    fn both_forms_keep_xmit_wait_and_errors_by_their_short_names() {
        let human = "\"sw\" 0x10 active TRUE port 1\n     symbol_err_cnt       : 3\n     link_integrity_err   : 1\n     xmit_wait            : 77\n     xmit_data            : 5 (20B)\n";
        let mach = "Name\tGUID\tActive\tPort\tlink_int_err\txmit_wait\txmit_data\trcv_data\nsw\t0x10\tTRUE\t1\t1\t77\t5\t6\n";
        for (text, form) in [(human, PerfMgrForm::Human), (mach, PerfMgrForm::Machine)] {
            let (s, w) = parse_perfmgr(&Input::from_text("pm.log", text), form).unwrap();
            assert!(w.is_empty(), "{w:?}");
            let other = s.other_of(&s.ports[0]).unwrap();
            assert_eq!(other.get(CounterKind::PortXmitWait).unwrap().value, 77);
            assert_eq!(other.get(CounterKind::PortXmitWait).unwrap().width, CounterWidth::Bits64);
            assert_eq!(other.get(CounterKind::LocalLinkIntegrityErrors).unwrap().value, 1);
        }
    }

    #[test]
    fn machine_rows_are_read_by_their_header() {
        let text =
            "\nName\tGUID\tActive\tPort\tLast Reset\txmit_data\trcv_data\nsw one\t0x10\tTRUE\t2\tMon\t5\t6\n";
        let input = Input::from_text("pm.log", text);
        assert_eq!(perfmgr_form(&input), Some(PerfMgrForm::Machine));
        let (s, _) = parse_perfmgr(&input, PerfMgrForm::Machine).unwrap();
        assert_eq!(s.ports[0].port, PortNum(2));
        assert_eq!(s.ports[0].rcv.unwrap().bytes, 24);
    }

    #[test]
    fn a_machine_row_with_more_fields_than_its_header_is_skipped_with_a_warning() {
        let text = "\nName\tGUID\tActive\tPort\tLast Reset\txmit_data\trcv_data\n\
                    evil\tname\t0x10\tTRUE\t2\tMon\t5\t6\nok\t0x11\tTRUE\t1\tMon\t7\t8\n";
        let input = Input::from_text("pm.log", text);
        let (s, w) = parse_perfmgr(&input, PerfMgrForm::Machine).unwrap();
        assert_eq!(s.ports.len(), 1, "only the well-formed row");
        assert_eq!(s.ports[0].owner, PortOwner::Guid(Guid(0x11)));
        assert!(
            w.iter().any(|w| w.line == Some(3) && w.message.contains("8 fields where the header has 7")),
            "{w:?}"
        );
    }
}
