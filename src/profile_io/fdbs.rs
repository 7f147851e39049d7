//! `.fdbs` unicast forwarding tables, as OpenSM (`opensm.fdbs`) and ibdiagnet (`ibdiagnet.fdbs`,
//! `ibdiagnet2.fdbs`) write them:
//!
//! ```text
//! dump_ucast_routes: Switch 0x0002c90200010000
//! LID    : Port : Hops : Optimal
//! 0x0001 : 001  : 01   : yes
//! 0x0002 : 000  : 00   : yes
//! 0x0003 : UNREACHABLE
//! ```
//!
//! - The header's function name changed over the years: `__osm_ucast_mgr_dump_ucast_routes:`
//!   (OpenSM before 2007), `ucast_mgr_dump_ucast_routes:` (briefly), `dump_ucast_routes:`
//!   (`osm_dump.c` today), `osm_ucast_mgr_dump_ucast_routes:` (ibdiagnet). Any word ending in
//!   `dump_ucast_routes:` followed by `Switch 0x<guid>` starts a block.
//! - Rows: the LID in hex (upper case from OpenSM, lower case from ibdiagnet2), the port in
//!   **decimal**, then hops and whether the path is optimal, which shoal ignores; the tail may also
//!   read `HOPS UNKNOWN` or `No 2 hop path possible via port 3!` and the port still stands.
//!   `UNREACHABLE` (or port 255) means no route.
//! - ibdiagnet2 writes `PLFT_NUM: n` lines on switches with private LFTs. Shoal traces pLFT 0,
//!   the table every port uses unless mapped otherwise: rows of other pLFTs are skipped, with one
//!   note per file.
//! - `#` lines, blank lines and the `LID : Port : …` column header are skipped. A row cut short by
//!   a truncated file (no second `:` after the port) is skipped with a warning.

use crate::model::{Guid, LftEntry, Lid, PortNum, Warning};

use std::path::Path;

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;
use super::lines::{Block, LineSink};
use super::stream::for_each_line_into;
use super::tables::{SwitchTable, SwitchTables, TableCollector};

/// Reads every switch block of a `.fdbs` file. An error if the file has no switch block at all.
/// A [deferred](Input::deferred) input is read here, line by line ([`read_fdbs_file`]).
pub fn parse_fdbs(input: &Input) -> Result<(SwitchTables, Vec<Warning>), ParseError> {
    if let Some(path) = input.deferred_path() {
        return read_fdbs_file(path);
    }
    let mut parser = FdbsParser::new(input.display());
    let truncated = input.unterminated_last_line();
    for (number, line) in input.lines() {
        parser.line(number, line, truncated == Some(number));
    }
    parser.finish(input.display(), input.truncation_warning())
}

/// Reads a `.fdbs` file (plain or gzip) without holding it whole: see [`super::stream`]. Same
/// results as [`parse_fdbs`] on the same bytes, and the same snapshot contract as `Input::open`.
pub fn read_fdbs_file(path: &Path) -> Result<(SwitchTables, Vec<Warning>), ParseError> {
    let display = path.display().to_string();
    let mut parser = FdbsParser::new(&display);
    let summary = for_each_line_into(path, &mut parser)?;
    let truncation = summary.unterminated_last_line.map(|line| {
        Warning::at(&display, line, "the file ends without a line end; its last line may be truncated")
    });
    let (tables, mut warnings) = parser.finish(&display, truncation)?;
    warnings.splice(0..0, summary.warnings);
    Ok((tables, warnings))
}

/// The line-by-line state of a `.fdbs` reader, fed from a whole [`Input`] or from a stream.
struct FdbsParser {
    warnings: LineWarnings,
    tables: TableCollector,
    plft: u32,
    plft_seen: bool,
    plft_skipped: usize,
    blocks: usize,
}

impl FdbsParser {
    fn new(display: &str) -> Self {
        FdbsParser {
            warnings: LineWarnings::new(display),
            tables: TableCollector::default(),
            plft: 0,
            plft_seen: false,
            plft_skipped: 0,
            blocks: 0,
        }
    }

    /// One line, without its line end; `unterminated` marks a last line with no line end.
    fn line(&mut self, number: usize, line: &str, unterminated: bool) {
        // Rows (almost every line) start at the margin; the row parsers ignore trailing blanks.
        let is_row = matches!(line.as_bytes(), [b'0', b'x' | b'X', ..]);
        let line = if is_row { line } else { line.trim() };
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        let warnings = &mut self.warnings;
        if let Some(row) = line.get(2..).filter(|_| matches!(line.as_bytes(), [b'0', b'x' | b'X', ..])) {
            if self.plft > 0 && self.tables.current().is_some() {
                self.plft_skipped += 1;
                return;
            }
            match parse_row(row, unterminated) {
                Ok((lid, entry)) => {
                    if !self.tables.row(number, lid, entry, warnings) {
                        warnings.line(number, "row before any `dump_ucast_routes: Switch` header; skipped");
                    }
                }
                Err(reason) => warnings.line(number, format!("skipped row: {reason}")),
            }
        } else if let Some(at) = line.find("dump_ucast_routes:") {
            let rest = line[at + "dump_ucast_routes:".len()..].trim_start();
            let guid = rest.strip_prefix("Switch").map(str::trim).and_then(|g| g.split_whitespace().next());
            match guid.and_then(Guid::parse_hex) {
                Some(guid) => {
                    self.blocks += 1;
                    self.plft = 0;
                    self.tables.start(guid, SwitchTable { line: number, ..Default::default() }, warnings);
                }
                None => {
                    self.tables.close(warnings);
                    warnings.line(
                        number,
                        "switch header without a valid `Switch 0x<guid>`; its rows are skipped",
                    );
                }
            }
        } else if let Some(n) = line.strip_prefix("PLFT_NUM:") {
            self.plft_seen = true;
            match n.trim().parse::<u32>() {
                Ok(n) => self.plft = n,
                Err(_) => warnings.line(number, format!("bad PLFT_NUM `{}`", n.trim())),
            }
        } else if line.starts_with("LID") {
            // column header
        } else {
            warnings.line(number, "unrecognised line; skipped");
        }
    }

    fn finish(
        mut self,
        display: &str,
        truncation: Option<Warning>,
    ) -> Result<(SwitchTables, Vec<Warning>), ParseError> {
        let tables = self.tables.finish(&mut self.warnings);
        if self.blocks == 0 {
            return Err(ParseError::invalid(display, "no `dump_ucast_routes: Switch 0x…` block found"));
        }
        if self.plft_seen {
            self.warnings.file(format!(
                "has private LFTs (PLFT_NUM); shoal traces pLFT 0 and skipped {} rows of other pLFTs",
                self.plft_skipped
            ));
        }
        if let Some(warning) = truncation {
            self.warnings.push(warning);
        }
        Ok((tables, self.warnings.finish()))
    }
}

impl LineSink for FdbsParser {
    fn line(&mut self, number: usize, line: &str, unterminated: bool) {
        FdbsParser::line(self, number, line, unterminated);
    }

    /// Rows as OpenSM prints them go straight into the open table (a k = 36 rail has 19 million);
    /// every other line, and any row where the block rules differ, goes through [`FdbsParser::line`].
    fn block(&mut self, block: &mut Block<'_>) {
        loop {
            if let Some(mut table) = self.tables.open().filter(|_| self.plft == 0) {
                while let Some((lid, entry, length)) = opensm_row(block.rest()) {
                    let number = block.skip_line(length);
                    table.row(number, lid, entry, &mut self.warnings);
                }
            }
            match block.next_line() {
                Some((number, line)) => FdbsParser::line(self, number, line, false),
                None => return,
            }
        }
    }
}

/// Each byte's value as a hex digit (`0`-`9`, `a`-`f`, `A`-`F`), 255 for any other byte.
const DIGIT: [u8; 256] = {
    let mut table = [255u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            d @ b'0'..=b'9' => d - b'0',
            d @ b'a'..=b'f' => d - b'a' + 10,
            d @ b'A'..=b'F' => d - b'A' + 10,
            _ => 255,
        };
        b += 1;
    }
    table
};

/// A row exactly as `osm_dump.c` prints it, `0x%04X : %03u  : …`, read at fixed offsets: the
/// LID, the entry and where the line ends (its `\n`, or the end of `bytes`). `None` for anything
/// else, which [`parse_row`] then reads the careful way; where both read a row they agree.
fn opensm_row(bytes: &[u8]) -> Option<(Lid, LftEntry, usize)> {
    /// Rows are 26 or 27 bytes; a longer tail is left to the careful path.
    const LONGEST: usize = 64;
    let head: &[u8; 15] = bytes.get(..15)?.try_into().ok()?;
    if head[0] != b'0' || head[1] | 0x20 != b'x' || head[6..9] != *b" : " || head[12..15] != *b"  :" {
        return None;
    }
    // Every digit is looked up, then checked once: no branch per digit.
    let digits = |bytes: &[u8], base: u32| {
        let mut value = 0;
        let mut bad = false;
        for &b in bytes {
            let digit = DIGIT[usize::from(b)];
            bad |= u32::from(digit) >= base;
            value = value * base + u32::from(digit);
        }
        (!bad).then_some(value)
    };
    let lid = digits(&head[2..6], 16)?;
    let port = digits(&head[9..12], 10)?;
    // The usual tails, ` 01   : yes` and ` 01   : no`, end at 26 and 25, without a search.
    let hops = bytes.get(15..23).is_some_and(|t| {
        t[0] == b' ' && t[1].is_ascii_digit() && t[2].is_ascii_digit() && t[3..] == *b"   : "
    });
    let length = if hops && bytes.get(23..27) == Some(b"yes\n") {
        26
    } else if hops && bytes.get(23..26) == Some(b"no\n") {
        25
    } else {
        match memchr::memchr(b'\n', &bytes[15..bytes.len().min(LONGEST)]) {
            Some(end) => 15 + end,
            None if bytes.len() < LONGEST => bytes.len(),
            None => return None,
        }
    };
    let entry = match u8::try_from(port).ok()? {
        crate::model::ids::DROP_PORT => LftEntry::Unreachable,
        port => LftEntry::Port(PortNum(port)),
    };
    Some((Lid(u16::try_from(lid).ok()?), entry, length))
}

/// Parses a row after its `0x`: `LLLL : PPP  : HH   : yes` or `LLLL : UNREACHABLE`.
fn parse_row(row: &str, last_unterminated: bool) -> Result<(Lid, LftEntry), String> {
    if let Some(parsed) = parse_row_fast(row.as_bytes()) {
        return Ok(parsed);
    }
    let (lid, rest) = row.split_once(':').ok_or("no `:` after the LID")?;
    let lid = Lid::parse_hex(lid).ok_or_else(|| format!("bad LID `0x{}`", lid.trim()))?;
    let rest = rest.trim_start();
    if rest.starts_with("UNREACHABLE") {
        return Ok((lid, LftEntry::Unreachable));
    }
    let (port, tail) = match rest.split_once(':') {
        Some((port, tail)) => (port.trim(), Some(tail)),
        None => (rest.trim(), None),
    };
    if tail.is_none() && last_unterminated {
        return Err(format!("the last line is truncated after port `{port}`"));
    }
    let port: u8 = port.parse().map_err(|_| format!("bad port `{port}` (expected 0 to 255)"))?;
    let entry = if port == crate::model::ids::DROP_PORT {
        LftEntry::Unreachable
    } else {
        LftEntry::Port(PortNum(port))
    };
    Ok((lid, entry))
}

/// The common row shapes, byte by byte (a rail has ~270,000 rows): `LLLL : PPP  : …` with the
/// second `:` present, or `LLLL : UNREACHABLE`. `None` sends the row to the careful path, which
/// accepts the same rows and explains the others.
fn parse_row_fast(row: &[u8]) -> Option<(Lid, LftEntry)> {
    let mut i = 0;
    let mut lid: u32 = 0;
    while let Some(digit) = row.get(i).and_then(|&b| (b as char).to_digit(16)) {
        lid = lid * 16 + digit;
        i += 1;
        if i > 4 {
            return None;
        }
    }
    let skip_spaces = |mut i: usize| {
        while row.get(i) == Some(&b' ') {
            i += 1;
        }
        i
    };
    i = skip_spaces(i);
    if i == 0 || row.get(i) != Some(&b':') {
        return None;
    }
    i = skip_spaces(i + 1);
    let lid = Lid(u16::try_from(lid).ok()?);
    let start = i;
    let mut port: u32 = 0;
    while let Some(&b) = row.get(i).filter(|b| b.is_ascii_digit()) {
        port = port * 10 + u32::from(b - b'0');
        i += 1;
        if i - start > 3 {
            return None;
        }
    }
    if i == start {
        return row[start..].starts_with(b"UNREACHABLE").then_some((lid, LftEntry::Unreachable));
    }
    if row.get(skip_spaces(i)) != Some(&b':') {
        return None;
    }
    match u8::try_from(port).ok()? {
        crate::model::ids::DROP_PORT => Some((lid, LftEntry::Unreachable)),
        port => Some((lid, LftEntry::Port(PortNum(port)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first rows of both switches of the testbed's real `opensm.fdbs`.
    const OPENSM: &str = include_str!("../../tests/fixtures/fragments/opensm.fdbs");

    fn parse(text: &str) -> (SwitchTables, Vec<Warning>) {
        parse_fdbs(&Input::from_text("t.fdbs", text)).unwrap()
    }

    const SW0: Guid = Guid(0x0002c90200010000);

    #[test]
    fn opensm_rows_give_decimal_ports_for_hex_lids() {
        let (tables, warnings) = parse(OPENSM);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(tables.len(), 2);
        let lft = &tables[&SW0].lft;
        assert_eq!(lft.get(Lid(0x2)), LftEntry::Port(PortNum(0)));
        assert_eq!(lft.get(Lid(0x3)), LftEntry::Port(PortNum(28)));
        assert_eq!(lft.get(Lid(0xA)), LftEntry::Port(PortNum(8)));
        assert_eq!(tables[&SW0].line, 1);
    }

    #[test]
    fn all_three_header_spellings_start_a_block() {
        let rows = "LID    : Port : Hops : Optimal\n0x0001 : 003  : 01   : yes\n";
        for header in
            ["dump_ucast_routes:", "osm_ucast_mgr_dump_ucast_routes:", "__osm_ucast_mgr_dump_ucast_routes:"]
        {
            let (tables, warnings) = parse(&format!("{header} Switch 0x0002c90200010000\n{rows}"));
            assert!(warnings.is_empty(), "{header}: {warnings:?}");
            assert_eq!(tables[&SW0].lft.get(Lid(1)), LftEntry::Port(PortNum(3)), "{header}");
        }
    }

    #[test]
    fn unreachable_rows_and_port_255_mean_no_route() {
        let text = "dump_ucast_routes: Switch 0x0002c90200010000\n\
                    0x0001 : UNREACHABLE\n0x0002 : 255  : 00   : yes\n0x0003 : 007  : HOPS UNKNOWN\n\
                    0x0004 : 002  : 03   : No 2 hop path possible via port 5!\n";
        let (tables, warnings) = parse(text);
        assert!(warnings.is_empty(), "{warnings:?}");
        let lft = &tables[&SW0].lft;
        assert_eq!(lft.get(Lid(1)), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(2)), LftEntry::Unreachable);
        assert_eq!(lft.get(Lid(3)), LftEntry::Port(PortNum(7)));
        assert_eq!(lft.get(Lid(4)), LftEntry::Port(PortNum(2)));
    }

    #[test]
    fn ibdiagnet2_lower_case_rows_with_comments_and_plft_lines_give_plft_zero_and_one_note() {
        let text = "# This database file was automatically generated by IBDIAG\n\n\
                    osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90200010000\nPLFT_NUM: 0\n\
                    LID    : Port : Hops : Optimal\n0x000a : 005  : 00   : yes\n0x000b : UNREACHABLE\n\
                    PLFT_NUM: 1\nLID    : Port : Hops : Optimal\n0x000a : 009  : 00   : yes\n\
                    osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90200010001\n0x000a : 001  : 00   : yes\n";
        let (tables, warnings) = parse(text);
        assert_eq!(tables[&SW0].lft.get(Lid(0xa)), LftEntry::Port(PortNum(5)));
        assert_eq!(tables[&SW0].lft.get(Lid(0xb)), LftEntry::Unreachable);
        assert_eq!(tables[&Guid(0x0002c90200010001)].lft.get(Lid(0xa)), LftEntry::Port(PortNum(1)));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].message.contains("skipped 1 rows of other pLFTs"), "{}", warnings[0]);
    }

    #[test]
    fn bad_rows_are_warned_with_their_line_and_the_rest_kept() {
        let text = "0x0001 : 001  : 01   : yes\ndump_ucast_routes: Switch 0x0002c90200010000\n\
                    0x0001 : 0x1  : 01   : yes\n0xZZ : 001 : 01 : yes\nhello\n0x0002 : 004  : 01   : yes\n\
                    0x0002 : 005  : 01   : yes\n";
        let (tables, warnings) = parse(text);
        assert_eq!(tables[&SW0].lft.get(Lid(2)), LftEntry::Port(PortNum(4)));
        assert_eq!(tables[&SW0].lft.len(), 1);
        let lines: Vec<_> = warnings.iter().map(|w| w.line.unwrap()).collect();
        assert_eq!(lines, vec![1, 3, 4, 5, 7]);
        assert!(warnings[1].message.contains("bad port `0x1`"), "{}", warnings[1]);
        assert!(warnings[4].message.contains("kept the first"), "{}", warnings[4]);
    }

    #[test]
    fn a_row_cut_short_at_the_end_of_the_file_is_skipped_with_a_warning() {
        let (tables, warnings) = parse(&format!("{OPENSM}0x0030 : 00"));
        assert_eq!(tables[&Guid(0x0002c90200010001)].lft.get(Lid(0x30)), LftEntry::Missing);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].message.contains("truncated after port `00`"), "{}", warnings[0]);
        assert!(warnings[1].message.contains("without a line end"), "{}", warnings[1]);
    }

    #[test]
    fn the_fast_row_path_agrees_with_the_careful_one() {
        let rows = [
            "0001 : 001  : 01   : yes",
            "00aB : 017  : HOPS UNKNOWN",
            "0003 : UNREACHABLE",
            "0004 : 255  : 00   : yes",
            "0005 : 1 : 2 : yes",
            "0006 : 256  : 01   : yes",
            "0007 : 003",
            "10000 : 001  : 01   : yes",
            " : 001 : 01",
            "0008 :",
            "0009 : x : 1",
        ];
        for row in rows {
            let fast = parse_row_fast(row.as_bytes());
            let careful = parse_row(row, false);
            if let Some(fast) = fast {
                assert_eq!(Ok(fast), careful, "{row}");
            }
        }
        assert!(parse_row_fast(b"0007 : 003").is_none());
        assert_eq!(parse_row("0007 : 003", false), Ok((Lid(7), LftEntry::Port(PortNum(3)))));
    }

    #[test]
    fn rows_read_at_fixed_offsets_give_what_the_line_reader_gives() {
        // Every kind of line around the shapes the fast path takes, then enough OpenSM rows to
        // cross the first pieces read, and a last row cut short.
        let mut text = String::from(
            "0x0001 : 001  : 01   : yes\ndump_ucast_routes: Switch 0x0002c90200010000\n\
             LID    : Port : Hops : Optimal\n0x0001 : 001  : 01   : yes\n0x0002 : 002  : 01   : no\n\n\
             0x0003 : 003  : 1\n1234567\n0x0004 : 004  : 01   : yes\r\n0x000a : 255  : 01   : yes\n\
             0x000b : UNREACHABLE\n0x000c : 007  : HOPS UNKNOWN\n0x000d : 1x3  : 01   : yes\n\
             0x0001 : 009  : 01   : yes\n0x000e : 300  : 01   : yes\n0x000f : 010  : 100  : yes\n\
             PLFT_NUM: 1\n0x0010 : 001  : 01   : yes\n",
        );
        text.push_str("0x0011 : 001  : ");
        text.push_str(&"x".repeat(super::super::lines::MAX_LINE_BYTES + 5));
        text.push_str("\ndump_ucast_routes: Switch 0x0002c90200010001\n");
        for lid in 1..20_000 {
            text.push_str(&format!("0x{lid:04X} : {:03}  : 01   : {}\n", lid % 37, ["yes", "no"][lid % 2]));
        }
        text.push_str("0x4E30 : 00");
        let file = crate::profile_io::test_files::temp("fixed.fdbs", text.as_bytes());
        let (whole, mut expected_warnings) = Input::open(&file).unwrap();
        let (expected, parsed_warnings) = parse_fdbs(&whole).unwrap();
        expected_warnings.extend(parsed_warnings);
        let (streamed, warnings) = read_fdbs_file(&file).unwrap();
        assert_eq!(streamed, expected);
        assert_eq!(warnings, expected_warnings);
        assert_eq!(streamed[&SW0].lft.get(Lid(4)), LftEntry::Port(PortNum(4)));
        assert_eq!(streamed[&SW0].lft.get(Lid(1)), LftEntry::Port(PortNum(1)));
        assert_eq!(streamed[&Guid(0x0002c90200010001)].lft.len(), 19_999);
        assert_eq!(streamed[&SW0].lft.get(Lid(0xf)), LftEntry::Port(PortNum(10)));
        let lines: Vec<_> = warnings.iter().filter_map(|w| w.line).collect();
        assert_eq!(lines, vec![19, 1, 8, 13, 14, 15, 20_020, 20_020], "{warnings:?}");
    }

    #[test]
    fn a_file_without_switch_blocks_is_an_error() {
        let err = parse_fdbs(&Input::from_text("x.fdbs", "# empty\n")).unwrap_err();
        assert!(err.to_string().contains("no `dump_ucast_routes"), "{err}");
    }

    #[test]
    fn a_row_with_bytes_that_are_not_utf8_is_warned_about_on_its_line() {
        let text = b"dump_ucast_routes: Switch 0x0002c90200010000\nLID    : Port : Hops : Optimal\n\
            0x0001 : 001  : 01   : yes\n0x0002 : 002  : 01   : y\xe9s\n0x0003 : 003  : 01   : yes\n";
        let file = crate::profile_io::test_files::temp("latin.fdbs", text);
        let (tables, warnings) = read_fdbs_file(&file).unwrap();
        let utf8: Vec<_> = warnings.iter().filter(|w| w.message.contains("UTF-8")).collect();
        assert_eq!(utf8.len(), 1, "{warnings:?}");
        assert_eq!(utf8[0].line, Some(4));
        assert_eq!(tables[&SW0].lft.get(Lid(3)), LftEntry::Port(PortNum(3)));
    }

    #[test]
    fn reading_a_file_in_pieces_gives_what_parsing_it_whole_gives() {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("sample-data/tworail/rail0/opensm.fdbs.gz");
        let (whole, _) = Input::open(&path).unwrap();
        let (expected, expected_warnings) = parse_fdbs(&whole).unwrap();
        let (streamed, warnings) = read_fdbs_file(&path).unwrap();
        assert_eq!(streamed, expected);
        assert_eq!(warnings, expected_warnings);
        assert!(streamed.len() > 10);
    }
}
