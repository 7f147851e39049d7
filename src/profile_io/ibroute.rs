//! Per-switch forwarding tables as infiniband-diags' `ibroute <lid>` and `dump_fts` print them:
//!
//! ```text
//! Unicast lids [0x0-0x2c] of switch Lid 2 guid 0x0002c90200010000 (MF0;tb-L1-00:SX6036/U1):
//!   Lid  Out   Destination
//!        Port     Info
//! 0x0001 001 : (Channel Adapter portguid 0x0002c90300010001: 'n0001 HCA-1')
//! 0x0003 028 : (Switch portguid 0x0002c90200010001: 'MF0;tb-L1-01:SX6036/U1')
//! 44 valid lids dumped
//! ```
//!
//! - `ibroute` names the switch by `Lid N` (decimal); `dump_fts` by `DR path slid 0; dlid 0;
//!   0,1,22`. Both give the node GUID and the description in `(…)`.
//! - Rows: LID in hex, output port in **decimal**; what follows (`: (destination)`, or nothing
//!   with `-n`) is ignored. Only valid routes are printed, so a LID without a row has no route
//!   (as in `opensm-lfts.dump`); with `-a` port 255 reads as unreachable.
//! - One file per switch, several switches concatenated (`dump_fts`, or `cat`), or a folder of
//!   per-switch files (the rail loader reads them all). `Multicast mlids` blocks (`-M`) are not
//!   unicast routes and are skipped with one note.
//! - Lines that are none of these (a captured stderr line) are skipped with a warning.

use rayon::prelude::*;

use crate::model::{Guid, LftEntry, Lid, PortNum, Warning};

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;
use super::stray;
use super::tables::{SwitchTable, SwitchTables, TableCollector, stated_rows};

const UNICAST: &str = "Unicast lids [";
const MULTICAST: &str = "Multicast mlids [";

/// True when the file starts like `ibroute`/`dump_fts` output (not OpenSM's `opensm-lfts.dump`,
/// whose header quotes the description `('…')` and whose rows carry `#` comments).
/// A line of `ibroute`/`dump_fts` output for format recognition: a block header (by DR path, or
/// naming the switch without `('…')`), its column header, or a row `0x0001 022 : (…)`.
pub fn claims_ibroute_line(line: &str) -> bool {
    line.starts_with("Lid  Out")
        || (line.starts_with(UNICAST) && (line.contains("DR path") || !line.contains("('")))
        || line.starts_with("0x") && line.contains(" : (")
}

pub fn looks_like_ibroute(input: &Input) -> bool {
    let mut lines = input.first_meaningful_lines(6);
    lines.any(|line| {
        line.starts_with("Lid  Out")
            || (line.starts_with(UNICAST) && (line.contains("DR path") || !line.contains("('")))
            || line.starts_with("0x") && line.contains(" : (")
    })
}

/// Bytes per chunk below which a file is parsed in one piece.
const CHUNK_BYTES: usize = 1 << 20;

/// What one chunk of a file gave, with line numbers counted from the chunk's first line.
struct Chunk {
    tables: Vec<(Guid, SwitchTable)>,
    warnings: Vec<Warning>,
    lines: usize,
    blocks: usize,
    multicast: usize,
}

/// Reads every unicast block. An error if there is none.
///
/// `dump_fts` of a 1,300-host rail is ~24 MB, so the text is cut at block headers into chunks
/// parsed in parallel; line numbers are shifted back afterwards, and a switch whose table is in
/// two chunks keeps the first, as within one chunk.
///
/// A [deferred](Input::deferred) file is streamed instead, as one chunk: only its tables are kept.
pub fn parse_ibroute(input: &Input) -> Result<(SwitchTables, Vec<Warning>), ParseError> {
    let (chunks, mut warnings, truncation) = if input.deferred_path().is_some() {
        let mut parser = ChunkParser::new(input.display());
        let summary = input.for_each_line(|number, line, _| parser.line(number, line))?;
        let truncation = summary.truncation_warning(input.display());
        (vec![parser.finish()], summary.warnings, truncation)
    } else {
        let text = input.text();
        let starts = chunk_starts(text);
        let chunks = starts.par_windows(2).map(|w| parse_chunk(&text[w[0]..w[1]], input.display())).collect();
        (chunks, Vec::new(), input.truncation_warning())
    };
    let mut tables = SwitchTables::new();
    let (mut offset, mut blocks, mut multicast) = (0usize, 0usize, 0usize);
    for chunk in chunks {
        for mut warning in chunk.warnings {
            warning.line = warning.line.map(|l| l + offset);
            warnings.push(warning);
        }
        for (guid, mut table) in chunk.tables {
            table.line += offset;
            match tables.get(&guid) {
                Some(first) => warnings.push(Warning::at(
                    input.display(),
                    table.line,
                    format!(
                        "switch {guid} has a second table (the first is at line {}); kept the first",
                        first.line
                    ),
                )),
                None => {
                    tables.insert(guid, table);
                }
            }
        }
        offset += chunk.lines;
        blocks += chunk.blocks;
        multicast += chunk.multicast;
    }
    if blocks == 0 {
        return Err(ParseError::invalid(input.display(), "no `Unicast lids [...] of switch` block found")
            .with_warnings(warnings));
    }
    if multicast > 0 {
        let message =
            format!("skipped {multicast} multicast (`Multicast mlids`) blocks: shoal traces unicast");
        warnings.push(Warning::in_file(input.display(), message));
    }
    warnings.extend(truncation);
    Ok((tables, warnings))
}

/// Byte offsets where chunks start (each at a `Unicast lids [` line but the first), plus the end.
fn chunk_starts(text: &str) -> Vec<usize> {
    let pieces = (text.len() / CHUNK_BYTES).clamp(1, 4 * rayon::current_num_threads());
    let mut starts = vec![0];
    for k in 1..pieces {
        let from = (k * text.len() / pieces).max(*starts.last().unwrap_or(&0));
        let Some(found) = text.get(from..).and_then(|rest| rest.find("\nUnicast lids [")) else {
            break;
        };
        let at = from + found + 1;
        if at > *starts.last().unwrap_or(&0) {
            starts.push(at);
        }
    }
    starts.push(text.len());
    starts
}

/// Parses one chunk; line numbers start at 1 in the chunk.
fn parse_chunk(text: &str, display: &str) -> Chunk {
    let mut parser = ChunkParser::new(display);
    for (index, line) in text.lines().enumerate() {
        parser.line(index + 1, line);
    }
    parser.finish()
}

/// The line-by-line state of a chunk (or of a whole streamed file).
struct ChunkParser {
    warnings: LineWarnings,
    tables: TableCollector,
    in_block: bool,
    blocks: usize,
    multicast: usize,
    lines: usize,
    skipping_multicast: bool,
}

impl ChunkParser {
    fn new(display: &str) -> Self {
        ChunkParser {
            warnings: LineWarnings::new(display),
            tables: TableCollector::default(),
            in_block: false,
            blocks: 0,
            multicast: 0,
            lines: 0,
            skipping_multicast: false,
        }
    }

    fn line(&mut self, number: usize, line: &str) {
        self.lines = number;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        let warnings = &mut self.warnings;
        if let Some(row) = line.strip_prefix("0x") {
            if self.skipping_multicast {
                return;
            }
            match parse_row(row.as_bytes()) {
                Some((lid, entry)) => {
                    if !self.in_block || !self.tables.row(number, lid, entry, warnings) {
                        warnings.line(number, "row outside a `Unicast lids` block; skipped");
                    }
                }
                None if stray::looks_like_stderr(line) => warnings.stray(number, line),
                None => warnings.line(number, format!("skipped row: `{}`", truncate(line))),
            }
        } else if let Some(header) = line.strip_prefix(UNICAST) {
            self.skipping_multicast = false;
            match parse_header(header) {
                Ok((guid, table)) => {
                    self.blocks += 1;
                    self.in_block = true;
                    self.tables.start(guid, SwitchTable { line: number, ..table }, warnings);
                }
                Err(reason) => {
                    self.in_block = false;
                    self.tables.close(warnings);
                    warnings.line(number, format!("bad block header ({reason}); its rows are skipped"));
                }
            }
        } else if line.starts_with(MULTICAST) {
            self.multicast += 1;
            self.skipping_multicast = true;
            self.in_block = false;
            self.tables.close(warnings);
        } else if line.ends_with("lids dumped") {
            self.in_block = false;
            self.tables.end_block(stated_rows(line), warnings);
        } else if !is_column_header(line) && !self.skipping_multicast {
            warnings.stray(number, line);
        }
    }

    fn finish(mut self) -> Chunk {
        let tables = self.tables.finish(&mut self.warnings).into_iter().collect();
        Chunk {
            tables,
            warnings: self.warnings.finish(),
            lines: self.lines,
            blocks: self.blocks,
            multicast: self.multicast,
        }
    }
}

/// The two column-header lines under each block header: `Lid  Out   Destination` and
/// `Port     Info`.
fn is_column_header(line: &str) -> bool {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("Lid") => words.eq(["Out", "Destination"]),
        Some("Port") => words.eq(["Info"]),
        _ => false,
    }
}

fn truncate(line: &str) -> String {
    line.chars().take(60).collect()
}

/// Parses what follows `Unicast lids [`:
/// `0x0-0x2c] of switch Lid 2 guid 0x… (desc):` or `… of switch DR path slid 0; dlid 0; 0,1 guid 0x… (desc):`.
fn parse_header(header: &str) -> Result<(Guid, SwitchTable), String> {
    let (_, rest) = header.split_once(']').ok_or("no `]`")?;
    let rest = rest.trim_start().strip_prefix("of switch").ok_or("no `of switch`")?.trim_start();
    let lid = match rest.strip_prefix("Lid") {
        Some(after) => {
            Some(after.split_whitespace().next().and_then(Lid::parse_dec).ok_or("bad switch Lid")?)
        }
        None => None,
    };
    let at = rest.find(" guid ").ok_or("no `guid`")?;
    let after = &rest[at + 6..];
    let guid = after.split_whitespace().next().and_then(Guid::parse_hex).ok_or("bad switch guid")?;
    let description = match (after.find('('), after.rfind(')')) {
        (Some(open), Some(close)) if close > open => Some(after[open + 1..close].trim().to_string()),
        _ => None,
    };
    Ok((guid, SwitchTable { line: 0, lid, description, ..Default::default() }))
}

/// `0001 001 : (…)` (after the `0x`): hex LID, whitespace, decimal port, then anything.
fn parse_row(row: &[u8]) -> Option<(Lid, LftEntry)> {
    let lid_len = row.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if lid_len == 0 || lid_len > 4 {
        return None;
    }
    let lid =
        row[..lid_len].iter().try_fold(0u16, |v, &b| Some(v * 16 + (b as char).to_digit(16)? as u16))?;
    let rest = &row[lid_len..];
    let spaces = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let rest = &rest[spaces..];
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if spaces == 0 || digits == 0 || digits > 3 || rest.get(digits).is_some_and(|b| !b.is_ascii_whitespace())
    {
        return None;
    }
    let port = rest[..digits].iter().fold(0u16, |v, &b| v * 10 + u16::from(b - b'0'));
    let entry = match u8::try_from(port).ok()? {
        crate::model::ids::DROP_PORT => LftEntry::Unreachable,
        port => LftEntry::Port(PortNum(port)),
    };
    Some((Lid(lid), entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    const IBROUTE: &str = "Unicast lids [0x0-0x2c] of switch Lid 2 guid 0x0002c90200010000 (MF0;tb-L1-00:SX6036/U1):\n\
          Lid  Out   Destination\n       Port     Info \n\
        0x0001 001 : (Channel Adapter portguid 0x0002c90300010001: 'n0001 HCA-1')\n\
        0x0003 028 : (Switch portguid 0x0002c90200010001: 'MF0;tb-L1-01:SX6036/U1')\n\
        2 valid lids dumped \n";
    const DUMP_FTS: &str = "Unicast lids [0x0-0x2c] of switch DR path slid 0; dlid 0; 0,1,22 guid 0x0002c90200010001 (MF0;tb-L1-01:SX6036/U1):\n\
          Lid  Out   Destination\n       Port     Info \n\
        0x0001 022 : (Channel Adapter portguid 0x0002c90300010001: 'n0001 HCA-1')\n\
        0x0057 028 : (path #2 out of 2: portguid 0x0002c90300010053)\n\
        2 valid lids dumped \n";
    const SW0: Guid = Guid(0x0002c90200010000);
    const SW1: Guid = Guid(0x0002c90200010001);

    fn parse(text: &str) -> (SwitchTables, Vec<Warning>) {
        parse_ibroute(&Input::from_text("t.txt", text)).unwrap()
    }

    #[test]
    fn ibroute_and_dump_fts_blocks_concatenate_with_decimal_ports() {
        let (tables, warnings) = parse(&format!("{IBROUTE}{DUMP_FTS}"));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(tables[&SW0].lid, Some(Lid(2)));
        assert_eq!(tables[&SW0].description.as_deref(), Some("MF0;tb-L1-00:SX6036/U1"));
        assert_eq!(tables[&SW0].lft.get(Lid(3)), LftEntry::Port(PortNum(28)));
        assert_eq!(tables[&SW0].lft.get(Lid(2)), LftEntry::Missing);
        assert_eq!(tables[&SW1].lid, None);
        assert_eq!(tables[&SW1].lft.get(Lid(0x57)), LftEntry::Port(PortNum(28)));
        assert_eq!(tables[&SW1].line, 7);
    }

    #[test]
    fn no_dests_rows_and_port_255_are_read() {
        let text = "Unicast lids [0x0-0x3] of switch Lid 2 guid 0x0002c90200010000 (sw):\n0x0001 001 \n0x0002 255 \n";
        let (tables, _) = parse(text);
        assert_eq!(tables[&SW0].lft.get(Lid(1)), LftEntry::Port(PortNum(1)));
        assert_eq!(tables[&SW0].lft.get(Lid(2)), LftEntry::Unreachable);
    }

    #[test]
    fn repeated_lids_stderr_lines_and_multicast_blocks_are_warned_and_skipped() {
        let text = format!(
            "{}0x0001 005 : (dup)\nibwarn: [7] mad_rpc: _do_madrpc failed; dport (Lid 2)\n\
             Multicast mlids [0xc000-0xc3ff] of switch Lid 2 guid 0x0002c90200010000 (sw):\n0xc000 1 2\n{DUMP_FTS}",
            IBROUTE.replace("2 valid lids dumped \n", "")
        );
        let (tables, warnings) = parse(&text);
        assert_eq!(tables[&SW0].lft.get(Lid(1)), LftEntry::Port(PortNum(1)));
        assert_eq!(tables.len(), 2);
        let shown: Vec<_> = warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(shown.len(), 3, "{shown:?}");
        assert_eq!(shown[0].0, Some(6));
        assert!(shown[0].1.contains("listed again"));
        assert_eq!(shown[1].0, Some(7));
        assert!(shown[1].1.contains("tool's error message"));
        assert!(shown[2].1.contains("multicast"));
    }

    #[test]
    fn a_big_file_parsed_in_chunks_keeps_file_line_numbers_and_the_first_of_two_tables() {
        let block = IBROUTE.replace("2 valid lids dumped \n", "");
        let filler = "0x0001 001 : (x)\n".repeat(70_000);
        let text = format!(
            "{block}{filler}2 valid lids dumped \n{DUMP_FTS}{}{block}ibwarn: [1] oops\n",
            filler.replace("0x0001 001", "0x0002 002")
        );
        let input = Input::from_text("big.txt", text.clone());
        assert!(chunk_starts(input.text()).len() > 2, "the test needs several chunks");
        let (tables, warnings) = parse_ibroute(&input).unwrap();
        let line_of = |needle: &str| text.lines().position(|l| l.starts_with(needle)).unwrap() + 1;
        assert_eq!(tables[&SW1].line, line_of("Unicast lids [0x0-0x2c] of switch DR path"));
        let last_header = text.lines().count() - 5;
        let shown: Vec<_> = warnings
            .iter()
            .filter(|w| !w.message.contains("listed again"))
            .map(|w| (w.line, w.message.as_str()))
            .collect();
        assert!(
            shown.iter().any(|(l, m)| *l == Some(last_header) && m.contains("second table")),
            "{shown:?}"
        );
        assert!(
            shown.iter().any(|(l, m)| *l == Some(text.lines().count()) && m.contains("tool debug output")),
            "{shown:?}"
        );
        assert_eq!(tables[&SW0].lft.get(Lid(3)), LftEntry::Port(PortNum(28)));
    }

    #[test]
    fn detection_tells_ibroute_from_opensm_lfts_dump() {
        assert!(looks_like_ibroute(&Input::from_text("x", IBROUTE)));
        assert!(looks_like_ibroute(&Input::from_text("x", DUMP_FTS)));
        let opensm = "Unicast lids [0-44] of switch Lid 2 guid 0x0002c90200010000 ('sw'):\n0x0001 001 # Channel Adapter portguid 0x1: 'n'\n";
        assert!(!looks_like_ibroute(&Input::from_text("x", opensm)));
    }
}
