//! `opensm-lfts.dump`: OpenSM's dump of the linear forwarding tables it set (`osm_dump.c`,
//! `dump_ucast_lfts`):
//!
//! ```text
//! Unicast lids [0-44] of switch Lid 2 guid 0x0002c90200010000 ('MF0;tb-L1-00:SX6036/U1'):
//! 0x0001 001 # Channel Adapter portguid 0x0002c90300010001: 'n0001 HCA-1'
//! 0x0002 000 # Switch portguid 0x0002c90200010000: 'MF0;tb-L1-00:SX6036/U1'
//! 44 lids dumped
//! ```
//!
//! - The header's range is decimal today (`[0-44]`) and was hex before 2008 (`[0x0-0x2c]`); the
//!   switch `Lid` is decimal in both. The description in `('…')` is optional here.
//! - Rows: LID in hex, port in **decimal**; the comment after `#` is ignored. LIDs without a route
//!   are simply not printed (the writer skips ports past the switch's last port), so they read as
//!   missing; a port of 255 or the word `UNREACHABLE` reads as unreachable.
//! - `N lids dumped` closes a block. A block that is never closed means a truncated file: its rows
//!   are kept and a warning says so.

use crate::model::{Guid, LftEntry, Lid, PortNum, Warning};

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;
use super::tables::{SwitchTable, SwitchTables, TableCollector, stated_rows};

const HEADER: &str = "Unicast lids [";

/// Reads every switch block of an `opensm-lfts.dump`, streamed: only the tables are kept. An
/// error if it has no block at all.
pub fn parse_lfts_dump(input: &Input) -> Result<(SwitchTables, Vec<Warning>), ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut tables = TableCollector::default();
    let mut open: Option<(usize, Guid)> = None; // header line and switch of an unclosed block
    let mut blocks = 0usize;
    let summary = input.for_each_line(|number, line, unterminated| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        if let Some(row) = line.strip_prefix("0x").or_else(|| line.strip_prefix("0X")) {
            match parse_row(row, unterminated) {
                Ok((lid, entry)) => {
                    if open.is_none() || !tables.row(number, lid, entry, &mut warnings) {
                        warnings.line(number, "row outside a `Unicast lids` block; skipped");
                    }
                }
                Err(reason) => warnings.line(number, format!("skipped row: {reason}")),
            }
        } else if let Some(header) = line.strip_prefix(HEADER) {
            warn_unclosed(open.take(), &mut warnings);
            match parse_header(header) {
                Ok((guid, table)) => {
                    blocks += 1;
                    open = Some((number, guid));
                    tables.start(guid, SwitchTable { line: number, ..table }, &mut warnings);
                }
                Err(reason) => {
                    tables.close(&mut warnings);
                    warnings.line(number, format!("bad block header ({reason}); its rows are skipped"));
                }
            }
        } else if line.ends_with("lids dumped") {
            if open.take().is_none() {
                warnings.line(number, "`lids dumped` without an open block");
            }
            tables.end_block(stated_rows(line), &mut warnings);
        } else {
            warnings.line(number, "unrecognised line; skipped");
        }
    })?;
    warn_unclosed(open, &mut warnings);
    let tables = tables.finish(&mut warnings);
    if blocks == 0 {
        let gathered = summary.warnings.into_iter().chain(warnings.finish()).collect();
        return Err(ParseError::invalid(input.display(), "no `Unicast lids [...] of switch` block found")
            .with_warnings(gathered));
    }
    if let Some(warning) = summary.truncation_warning(input.display()) {
        warnings.push(warning);
    }
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((tables, all))
}

fn warn_unclosed(open: Option<(usize, Guid)>, warnings: &mut LineWarnings) {
    if let Some((line, guid)) = open {
        let message = format!(
            "the block of switch {guid} has no `lids dumped` line; the file may be truncated (rows kept)"
        );
        warnings.line(line, message);
    }
}

/// Parses what follows `Unicast lids [`: `0-44] of switch Lid 2 guid 0x… ('desc'):`.
fn parse_header(header: &str) -> Result<(Guid, SwitchTable), String> {
    let (range, rest) = header.split_once(']').ok_or("no `]`")?;
    let (low, high) = range.split_once('-').ok_or("no LID range")?;
    for bound in [low, high] {
        let bound = bound.trim();
        let ok = match bound.strip_prefix("0x") {
            Some(hex) => u16::from_str_radix(hex, 16).is_ok(),
            None => bound.parse::<u16>().is_ok(),
        };
        if !ok {
            return Err(format!("bad LID range `{range}`"));
        }
    }
    let rest = rest.trim_start().strip_prefix("of switch Lid").ok_or("no `of switch Lid`")?;
    let mut words = rest.split_whitespace();
    let lid = words.next().and_then(|l| l.parse::<u16>().ok()).ok_or("bad switch Lid")?;
    if words.next() != Some("guid") {
        return Err("no `guid`".into());
    }
    let guid = words.next().and_then(Guid::parse_hex).ok_or("bad switch guid")?;
    let description = match (rest.find("('"), rest.rfind("')")) {
        // `(')` holds both markers overlapping: no description (fuzz crash).
        (Some(open), Some(close)) if close >= open + 2 => Some(rest[open + 2..close].to_string()),
        _ => None,
    };
    Ok((guid, SwitchTable { line: 0, lid: Some(Lid(lid)), description, ..Default::default() }))
}

/// Parses a row after its `0x`: `0001 001 # comment`.
fn parse_row(row: &str, last_unterminated: bool) -> Result<(Lid, LftEntry), String> {
    let (fields, comment) = match row.split_once('#') {
        Some((fields, _)) => (fields, true),
        None => (row, false),
    };
    let mut words = fields.split_whitespace();
    let lid = words.next().unwrap_or("");
    let lid = Lid::parse_hex(lid).ok_or_else(|| format!("bad LID `0x{lid}`"))?;
    let port = words.next().ok_or("no port")?;
    if !comment && last_unterminated {
        return Err(format!("the last line is truncated after port `{port}`"));
    }
    let entry = if port.eq_ignore_ascii_case("UNREACHABLE") {
        LftEntry::Unreachable
    } else {
        match port.parse::<u8>() {
            Ok(crate::model::ids::DROP_PORT) => LftEntry::Unreachable,
            Ok(port) => LftEntry::Port(PortNum(port)),
            Err(_) => return Err(format!("bad port `{port}` (expected 0 to 255)")),
        }
    };
    Ok((lid, entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first rows of both switches of the testbed's real `opensm-lfts.dump`.
    const OPENSM: &str = include_str!("../../tests/fixtures/fragments/opensm-lfts.dump");
    const SW0: Guid = Guid(0x0002c90200010000);
    const SW1: Guid = Guid(0x0002c90200010001);

    fn parse(text: &str) -> (SwitchTables, Vec<Warning>) {
        parse_lfts_dump(&Input::from_text("t.dump", text)).unwrap()
    }

    #[test]
    fn opensm_blocks_give_decimal_ports_and_the_header_lid_and_description() {
        let (tables, warnings) = parse(OPENSM);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(tables.len(), 2);
        let sw0 = &tables[&SW0];
        assert_eq!((sw0.line, sw0.lid), (1, Some(Lid(2))));
        assert_eq!(sw0.description.as_deref(), Some("MF0;tb-L1-00:SX6036/U1"));
        assert_eq!(sw0.lft.get(Lid(3)), LftEntry::Port(PortNum(28)));
        assert_eq!(sw0.lft.get(Lid(0x30)), LftEntry::Missing);
        assert_eq!(tables[&SW1].lft.get(Lid(1)), LftEntry::Port(PortNum(22)));
    }

    #[test]
    fn old_hex_range_headers_and_unreachable_rows_are_read() {
        let text = "Unicast lids [0x0-0x2c] of switch Lid 2 guid 0x0002c90200010000 ('sw'):\n\
                    0x0001 255 # unknown node and type\n0x0002 UNREACHABLE\n0x0003 017 # x\n44 lids dumped\n";
        let (tables, warnings) = parse(text);
        assert!(warnings.is_empty(), "{warnings:?}");
        let lft = &tables[&SW0].lft;
        assert_eq!(lft.get(Lid(1)), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(2)), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(3)), LftEntry::Port(PortNum(17)));
    }

    #[test]
    fn a_truncated_file_keeps_its_rows_and_warns_about_the_unclosed_block_and_cut_row() {
        let cut = OPENSM.rfind("0x0005 024").unwrap();
        let text = format!("{}0x0005 02", &OPENSM[..cut]);
        let (tables, warnings) = parse(&text);
        assert_eq!(tables[&SW1].lft.len(), 4);
        let messages: Vec<_> = warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].1.contains("truncated after port `02`"));
        assert_eq!(messages[1].0, Some(8));
        assert!(messages[1].1.contains("no `lids dumped` line"));
        assert!(messages[2].1.contains("without a line end"));
    }

    #[test]
    fn bad_headers_skip_their_rows_with_warnings() {
        let text = "Unicast lids [0-44] of switch Lid x guid 0x1 ('a'):\n0x0001 001 # a\n44 lids dumped\n\
                    junk\n";
        let parsed = parse_lfts_dump(&Input::from_text("t.dump", text));
        let err = parsed.unwrap_err();
        assert!(err.to_string().contains("no `Unicast lids"), "{err}");
        let (tables, warnings) = parse(&format!("{OPENSM}{text}"));
        assert_eq!(tables.len(), 2);
        let lines: Vec<_> = warnings.iter().map(|w| w.line.unwrap()).collect();
        assert_eq!(lines, vec![15, 16, 17, 18]);
    }
}
