//! The rows of a Boxfish table ([`super::boxfish_table`]): whitespace-separated values, parsed
//! in parallel chunks straight into typed columns.
//!
//! Each chunk writes its numbers into its own stretch of the finished column, reserved for the
//! most rows its bytes can hold; the stretches are then closed up in place. So a number is
//! written once and its page touched once: copying chunks' columns together cost as much as
//! parsing them (page faults on the 2-core VM). Text columns are per chunk, joined at the end.

use memchr::memchr;
use rayon::prelude::*;

use super::line_warnings::{LineWarnings, MAX_LINE_WARNINGS};
use crate::model::{Column, TextColumn};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Int,
    Float,
    Text,
}

/// Rows in chunks of about this many bytes are parsed in parallel.
pub(super) const CHUNK_BYTES: usize = 512 * 1024;

/// Parses rows (whole lines), in parallel chunks cut at line ends, and joins the chunks'
/// columns and warnings in file order. `lines_before` is the number of the line before the
/// first row.
pub(super) fn parse_rows(
    body: &str,
    lines_before: usize,
    names: &[String],
    kinds: &[Kind],
    warnings: &mut LineWarnings,
) -> Vec<Column> {
    let chunks = cut(body, lines_before, kinds.len());
    let rooms: Vec<usize> = chunks.iter().map(|c| c.rows_at_most).collect();
    let mut columns: Vec<Column> = kinds.iter().map(|&k| reserved_column(k, rooms.iter().sum())).collect();
    let parsed: Vec<ParsedChunk> = {
        let mut stretches = stretches(&mut columns, &chunks);
        let work: Vec<_> = chunks.iter().zip(stretches.drain(..)).collect();
        work.into_par_iter().map(|(chunk, sinks)| parse_chunk(chunk, sinks, names)).collect()
    };
    let kept: Vec<usize> = parsed.iter().map(|p| p.rows).collect();
    let mut texts: Vec<Vec<TextColumn>> = kinds.iter().map(|_| Vec::new()).collect();
    for chunk in parsed {
        for (number, message) in chunk.problems {
            warnings.line(number, message);
        }
        warnings.unlisted(chunk.unlisted);
        for (parts, text) in texts.iter_mut().zip(chunk.texts) {
            parts.extend(text);
        }
    }
    columns.par_iter_mut().zip(texts).for_each(|(column, parts)| match column {
        Column::Int(v) => close_up(v, &rooms, &kept),
        Column::Float(v) => close_up(v, &rooms, &kept),
        Column::Text(v) => parts.into_iter().for_each(|part| v.extend(part)),
    });
    columns
}

/// Cuts `body` into chunks of about [`CHUNK_BYTES`] at line ends.
fn cut(body: &str, lines_before: usize, columns: usize) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let (mut rest, mut line) = (body, lines_before);
    while !rest.is_empty() {
        let cut = if rest.len() <= CHUNK_BYTES {
            rest.len()
        } else {
            memchr(b'\n', &rest.as_bytes()[CHUNK_BYTES..]).map_or(rest.len(), |i| CHUNK_BYTES + i + 1)
        };
        let (text, tail) = rest.split_at(cut);
        let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count() + usize::from(!text.ends_with('\n'));
        // A kept row has a value and a separator (or the line's end) per column, so a chunk
        // holds at most len / (2 × columns) rows, rounded up: bounded by its bytes, whatever
        // its line count.
        let rows_at_most = text.len().div_ceil(2 * columns.max(1)).min(lines);
        chunks.push(Chunk { text, lines_before: line, rows_at_most });
        line += lines;
        rest = tail;
    }
    chunks
}

fn reserved_column(kind: Kind, rows: usize) -> Column {
    match kind {
        // Zeroed memory comes from the system untouched: only the rows written cost pages.
        Kind::Int => Column::Int(vec![0; rows]),
        Kind::Float => Column::Float(vec![0.0; rows]),
        Kind::Text => Column::Text(TextColumn::new()),
    }
}

/// Where one chunk puts one column's values.
enum Sink<'a> {
    Int(&'a mut [i64]),
    Float(&'a mut [f64]),
    Text(TextColumn),
}

/// Each chunk's sinks: its stretch of every numeric column, and a text column of its own.
fn stretches<'a>(columns: &'a mut [Column], chunks: &[Chunk<'_>]) -> Vec<Vec<Sink<'a>>> {
    let mut per_chunk: Vec<Vec<Sink<'a>>> = chunks.iter().map(|_| Vec::new()).collect();
    for column in columns.iter_mut() {
        match column {
            Column::Int(v) => split(v, chunks, &mut per_chunk, Sink::Int),
            Column::Float(v) => split(v, chunks, &mut per_chunk, Sink::Float),
            Column::Text(_) => per_chunk.iter_mut().for_each(|s| s.push(Sink::Text(TextColumn::new()))),
        }
    }
    per_chunk
}

fn split<'a, T>(
    mut rest: &'a mut [T],
    chunks: &[Chunk<'_>],
    per_chunk: &mut [Vec<Sink<'a>>],
    sink: impl Fn(&'a mut [T]) -> Sink<'a>,
) {
    for (chunk, sinks) in chunks.iter().zip(per_chunk) {
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut(chunk.rows_at_most);
        sinks.push(sink(mine));
        rest = tail;
    }
}

/// Moves each chunk's `kept` rows down to follow the previous chunk's, then cuts the column to
/// the rows kept.
fn close_up<T: Copy>(v: &mut Vec<T>, reserved: &[usize], kept: &[usize]) {
    let (mut from, mut to) = (0, 0);
    for (&room, &rows) in reserved.iter().zip(kept) {
        if from != to {
            v.copy_within(from..from + rows, to);
        }
        from += room;
        to += rows;
    }
    v.truncate(to);
    if v.capacity() > 2 * to + 1024 {
        v.shrink_to_fit(); // a file of mostly blank or bad lines
    }
}

/// Appends `more` rows to `columns` (both built for the same kinds), a column per task.
pub(super) fn append(columns: &mut [Column], more: Vec<Column>) {
    columns.par_iter_mut().zip(more).for_each(|(column, part)| match (column, part) {
        (Column::Int(v), Column::Int(w)) => v.extend(w),
        (Column::Float(v), Column::Float(w)) => v.extend(w),
        (Column::Text(v), Column::Text(w)) => v.extend(w),
        _ => {} // every window builds the same kinds
    });
}

/// A piece of the rows: whole lines, the number of the line before the first, and the most
/// rows its bytes can hold.
struct Chunk<'a> {
    text: &'a str,
    lines_before: usize,
    rows_at_most: usize,
}

/// What a chunk kept: its rows, its text columns (one per text column), its first problem rows
/// as (line, message), and how many more it had (only counted: a chunk of junk keeps
/// [`MAX_LINE_WARNINGS`] messages, not one per line).
struct ParsedChunk {
    rows: usize,
    texts: Vec<Option<TextColumn>>,
    problems: Vec<(usize, String)>,
    unlisted: usize,
}

/// One chunk of rows, written into its sinks; a row that fails half way is overwritten by the
/// next (and cut off its text columns).
fn parse_chunk(chunk: &Chunk<'_>, mut sinks: Vec<Sink<'_>>, names: &[String]) -> ParsedChunk {
    let (mut problems, mut unlisted, mut rows) = (Vec::new(), 0, 0usize);
    let text = chunk.text;
    let (mut start, mut number) = (0, chunk.lines_before);
    while start < text.len() {
        let end = memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
        // `\n` and `\r` are ASCII: both cuts are char boundaries.
        let line = text.get(start..end).unwrap_or_default();
        let line = line.strip_suffix('\r').unwrap_or(line);
        start = end + 1;
        number += 1;
        match parse_row(line, rows, &mut sinks, names) {
            Ok(true) => rows += 1,
            Ok(false) => {} // a blank or comment line
            Err(message) => {
                if problems.len() < MAX_LINE_WARNINGS {
                    problems.push((number, message));
                } else {
                    unlisted += 1;
                }
                for sink in &mut sinks {
                    if let Sink::Text(v) = sink {
                        v.truncate(rows);
                    }
                }
            }
        }
    }
    let texts = sinks.into_iter().map(|s| if let Sink::Text(v) = s { Some(v) } else { None }).collect();
    ParsedChunk { rows, texts, problems, unlisted }
}

/// Writes one line's values as row `row` of the sinks: `Ok(true)` for a row, `Ok(false)` for a
/// line without values, `Err` naming what is wrong.
fn parse_row(line: &str, row: usize, sinks: &mut [Sink<'_>], names: &[String]) -> Result<bool, String> {
    let mut fields = Fields { line, at: 0 };
    let mut filled = 0;
    for (sink, name) in sinks.iter_mut().zip(names) {
        // Most cells are plain integers: those are scanned and converted in one pass.
        if let Sink::Int(v) = sink
            && let Some(x) = fields.plain_int()
        {
            // A row with a value per column fits its chunk's room (see `cut`); `get_mut` guards.
            let Some(cell) = v.get_mut(row) else {
                return Err("more rows than the bytes can hold; the row is skipped".into());
            };
            *cell = x;
            filled += 1;
            continue;
        }
        let Some(field) = fields.next() else { break };
        let ok = match sink {
            Sink::Int(v) => parse_int(field).zip(v.get_mut(row)).map(|(x, cell)| *cell = x).is_some(),
            Sink::Float(v) => {
                field.parse::<f64>().ok().zip(v.get_mut(row)).map(|(x, cell)| *cell = x).is_some()
            }
            Sink::Text(v) => {
                v.push(field);
                true
            }
        };
        if !ok {
            let want = if matches!(sink, Sink::Int(_)) { "an integer" } else { "a number" };
            return Err(format!("`{field}` in column `{name}` is not {want}; the row is skipped"));
        }
        filled += 1;
    }
    if filled > 0 && filled < names.len() {
        return Err(format!("{filled} values for {} columns; the row is skipped", names.len()));
    }
    if filled == names.len() && fields.next().is_some() {
        let extra = 1 + std::iter::from_fn(|| fields.next()).count();
        return Err(format!(
            "{} values for {} columns; the row is skipped",
            names.len() + extra,
            names.len()
        ));
    }
    Ok(filled > 0)
}

/// Whitespace-separated fields of one line, scanned byte by byte; `#` ends the line (a comment).
struct Fields<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.line.as_bytes();
        let mut at = self.at;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at == bytes.len() || bytes[at] == b'#' {
            self.at = bytes.len();
            return None;
        }
        let start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() && bytes[at] != b'#' {
            at += 1;
        }
        self.at = at;
        // Both ends sit next to ASCII (whitespace, `#`) or the line's ends: char boundaries.
        self.line.get(start..at)
    }
}

impl Fields<'_> {
    /// The next field if it is a plain integer of at most 18 digits (`7`, `-12`), consumed;
    /// otherwise `None` and nothing consumed (the caller reads it with [`Fields::next`]).
    #[inline]
    fn plain_int(&mut self) -> Option<i64> {
        let bytes = self.line.as_bytes();
        let mut at = self.at;
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let (value, used) = leading_int(&bytes[at..])?;
        let ends = bytes.get(at + used).is_none_or(|&b| b.is_ascii_whitespace() || b == b'#');
        ends.then(|| {
            self.at = at + used;
            value
        })
    }
}

/// The plain integer `bytes` start with (a sign, then 1 to 18 digits: no overflow) and how many
/// bytes it took; `None` without digits or with more than 18.
#[inline]
fn leading_int(bytes: &[u8]) -> Option<(i64, usize)> {
    let negative = bytes.first() == Some(&b'-');
    let sign = usize::from(negative || bytes.first() == Some(&b'+'));
    let (mut value, mut used) = (0i64, sign);
    // One pass: this is the inner loop of every numeric cell.
    while let Some(digit) = bytes.get(used).map(|b| b.wrapping_sub(b'0')).filter(|&d| d <= 9) {
        if used - sign == 18 {
            return None;
        }
        value = value * 10 + i64::from(digit);
        used += 1;
    }
    (used > sign).then_some((if negative { -value } else { value }, used))
}

/// An integer, also when written as a whole float (`40000.0`, `4e4`).
#[inline]
pub fn parse_int(field: &str) -> Option<i64> {
    if let Some((value, used)) = leading_int(field.as_bytes())
        && used == field.len()
    {
        return Some(value);
    }
    let x: f64 = field.parse().ok()?;
    (x.is_finite() && x.fract() == 0.0 && x.abs() < 9.0e18).then_some(x as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(body: &str, kinds: &[Kind]) -> (Vec<Column>, Vec<(Option<usize>, String)>) {
        let names: Vec<String> = (0..kinds.len()).map(|i| format!("c{i}")).collect();
        let mut warnings = LineWarnings::new("t.yaml");
        let columns = parse_rows(body, 10, &names, kinds, &mut warnings);
        (columns, warnings.finish().into_iter().map(|w| (w.line, w.message)).collect())
    }

    #[test]
    fn the_narrowest_rows_fill_their_room_exactly_and_none_is_refused() {
        // "0 1\n" is the shortest row of two columns: the room `cut` reserves must hold them all,
        // also over several chunks and with a last line that has no line end.
        let mut body = "0 1\n".repeat(3 * CHUNK_BYTES / 4 + 5);
        body.push_str("7 8");
        let (columns, warnings) = rows(&body, &[Kind::Int, Kind::Int]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let Column::Int(last) = &columns[1] else { panic!("an int column") };
        assert_eq!(last.len(), 3 * CHUNK_BYTES / 4 + 6);
        assert_eq!(last.last(), Some(&8));
        assert!(last[..last.len() - 1].iter().all(|&v| v == 1));
    }

    #[test]
    fn rows_close_up_over_blank_comment_and_bad_lines_in_every_chunk() {
        let mut body = String::new();
        let mut want = (Vec::new(), Vec::new(), Vec::new());
        let mut bad_lines = Vec::new();
        for i in 0..200_000i64 {
            match i % 7 {
                0 => body.push_str("\n"),
                1 => body.push_str("# a comment\n"),
                2 => {
                    body.push_str(&format!("{i} x{i}\n"));
                    bad_lines.push(10 + i as usize + 1);
                }
                _ => {
                    body.push_str(&format!("{i} {i}.5 n{}\r\n", i % 3));
                    want.0.push(i);
                    want.1.push(i as f64 + 0.5);
                    want.2.push(format!("n{}", i % 3));
                }
            }
        }
        assert!(body.len() > 3 * CHUNK_BYTES, "several chunks");
        let (columns, warnings) = rows(&body, &[Kind::Int, Kind::Float, Kind::Text]);
        assert_eq!(columns[0], Column::Int(want.0));
        assert_eq!(columns[1], Column::Float(want.1));
        assert_eq!(columns[2], Column::text_of(want.2));
        let listed: Vec<Option<usize>> = warnings.iter().map(|w| w.0).filter(Option::is_some).collect();
        let first: Vec<Option<usize>> = bad_lines.iter().take(listed.len()).map(|&l| Some(l)).collect();
        assert_eq!(listed, first, "bad rows are named by their own lines, in order");
    }

    #[test]
    fn a_body_of_blank_lines_keeps_no_rows_and_little_memory() {
        let (columns, warnings) = rows(&"\n".repeat(2 * CHUNK_BYTES), &[Kind::Int, Kind::Float]);
        assert!(warnings.is_empty());
        for column in &columns {
            assert_eq!(column.len(), 0);
        }
        let Column::Int(v) = &columns[0] else { panic!("an int column") };
        assert!(v.capacity() <= 1024, "the room reserved is given back: {}", v.capacity());
    }
}
