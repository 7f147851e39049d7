//! One Boxfish table file: a YAML header, then whitespace-separated rows (not CSV).
//!
//! ```text
//! ---
//! key: BGPCOUNTER_ORIGINAL        # optional meta document
//! ---
//! - [linkid, int32]               # one [name, dtype] pair per column
//! - [packets, int64]
//! ...                             # the header ends here
//! 0 9476
//! 1 1089
//! ```
//!
//! Only the header goes through YAML; rows are split and parsed by hand (a 157k-row table in a
//! few milliseconds). Two things Boxfish's own loader chokes on are accepted: blank lines in the
//! header (its `readline().split()[0]` fails on them) and whole numbers written as floats
//! (`40000.0`) in integer columns (numpy's `loadtxt` refuses them). A row that does not fit is
//! skipped with a warning naming its line.

use serde_json::Value;

use super::boxfish_rows::{CHUNK_BYTES, Kind, append, parse_rows};
use super::boxfish_yaml::yaml_options;
use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;
use crate::model::{Column, Warning};

/// A parsed table file, before it is given a domain and a key.
#[derive(Clone, Debug, PartialEq)]
pub struct RawTable {
    /// The optional meta document (`key: …`), as YAML read it.
    pub meta: Option<Value>,
    pub names: Vec<String>,
    pub columns: Vec<Column>,
}

/// A numpy dtype name → our column type; `None` for one we do not know.
fn kind_of(dtype: &str) -> Option<Kind> {
    let d = dtype.trim();
    let lower = d.to_ascii_lowercase();
    let digits_after = |prefix: &str| {
        d.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    if lower.starts_with("int")
        || lower.starts_with("uint")
        || matches!(lower.as_str(), "long" | "short" | "bool")
        || digits_after("i")
        || digits_after("u")
    {
        Some(Kind::Int)
    } else if lower.starts_with("float") || lower == "double" || digits_after("f") {
        Some(Kind::Float)
    } else if digits_after("S")
        || digits_after("U")
        || digits_after("a")
        || matches!(lower.as_str(), "str" | "string" | "text")
    {
        Some(Kind::Text)
    } else {
        None
    }
}

/// Parses a table file, streamed when [deferred](Input::deferred): the rows are parsed a window
/// at a time (in parallel chunks within it), so memory follows the columns kept, not the file.
/// An input in memory has its rows parsed straight from its text.
/// Fatal: no `...` line ending the header (within [`MAX_HEADER_BYTES`]), a header that is not
/// YAML, or no column list. Everything else is a warning.
pub fn parse_table(input: &Input) -> Result<(RawTable, Vec<Warning>), ParseError> {
    if input.deferred_path().is_none() {
        return parse_in_memory(input);
    }
    let path = input.display();
    let mut reader = TableReader::new(path);
    let mut next = 1;
    let summary = input.for_each_line(|number, line, _| {
        // Lines skipped for their length stay as blank lines: numbers hold.
        for skipped in next..number {
            reader.line(skipped, "");
        }
        next = number + 1;
        reader.line(number, line);
    })?;
    let (table, mut warnings) = reader.finish().map_err(|e| e.with_warnings(summary.warnings.clone()))?;
    warnings.splice(0..0, summary.warnings.iter().cloned());
    warnings.extend(summary.truncation_warning(path));
    Ok((table, warnings))
}

/// The header line by line, then every row at once from the text itself: no window, no copy.
fn parse_in_memory(input: &Input) -> Result<(RawTable, Vec<Warning>), ParseError> {
    let (path, text) = (input.display(), input.text());
    let mut reader = TableReader::new(path);
    let (mut start, mut number) = (0, 0);
    while start < text.len() && matches!(reader.state, State::Header(_)) {
        let end = memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
        // `\n` and `\r` are ASCII: the cuts are char boundaries.
        let line = text.get(start..end).unwrap_or_default();
        number += 1;
        reader.line(number, line.strip_suffix('\r').unwrap_or(line));
        start = end + 1;
    }
    if let State::Body(body) = &mut reader.state {
        let rows = text.get(start..).unwrap_or_default();
        body.columns = Some(parse_rows(rows, number, &body.names, &body.kinds, &mut reader.warnings));
    }
    let (table, mut warnings) = reader.finish()?;
    warnings.extend(input.truncation_warning());
    Ok((table, warnings))
}

/// The longest YAML header read before the table is refused (real headers are a few lines).
const MAX_HEADER_BYTES: usize = 1 << 20;

/// Rows are gathered into a window of about this size, then parsed in parallel chunks. Parsing
/// reserves room for the most rows the window's bytes can hold (about 4 bytes a byte, untouched
/// unless rows fill it), so the window stays small: a bomb of short bad rows streams in little
/// memory.
const WINDOW_BYTES: usize = 2 * CHUNK_BYTES;

struct TableReader<'p> {
    path: &'p str,
    warnings: LineWarnings,
    state: State,
}

enum State {
    /// The header so far.
    Header(String),
    /// The header was refused.
    Failed(ParseError),
    Body(Body),
}

struct Body {
    meta: Option<Value>,
    names: Vec<String>,
    kinds: Vec<Kind>,
    columns: Option<Vec<Column>>,
    /// Rows not parsed yet, and the number of the line before the first of them.
    window: String,
    lines_before: usize,
}

impl<'p> TableReader<'p> {
    fn new(path: &'p str) -> Self {
        TableReader { path, warnings: LineWarnings::new(path), state: State::Header(String::new()) }
    }

    fn line(&mut self, number: usize, line: &str) {
        match &mut self.state {
            State::Failed(_) => {}
            State::Header(header) if line.trim() == "..." => {
                let header = std::mem::take(header);
                self.state = match parse_header(&header, self.path, &mut self.warnings) {
                    Ok((meta, names, kinds)) => State::Body(Body {
                        meta,
                        names,
                        kinds,
                        columns: None,
                        // Room for a full window and one more line: it never doubles.
                        window: String::with_capacity(WINDOW_BYTES + super::lines::MAX_LINE_BYTES),
                        lines_before: number,
                    }),
                    Err(e) => State::Failed(e),
                };
            }
            State::Header(header) if header.len() + line.len() >= MAX_HEADER_BYTES => {
                let message =
                    format!("no `...` line ends the YAML header in its first {MAX_HEADER_BYTES} bytes");
                self.state = State::Failed(ParseError::invalid(self.path, message));
            }
            State::Header(header) => {
                header.push_str(line);
                header.push('\n');
            }
            State::Body(body) => {
                body.window.push_str(line);
                body.window.push('\n');
                if body.window.len() >= WINDOW_BYTES {
                    body.flush(&mut self.warnings);
                }
            }
        }
    }

    fn finish(mut self) -> Result<(RawTable, Vec<Warning>), ParseError> {
        match self.state {
            State::Header(_) => Err(ParseError::invalid(
                self.path,
                "no `...` line ends the YAML header, so this is not a Boxfish table",
            )),
            State::Failed(e) => Err(e),
            State::Body(mut body) => {
                body.flush(&mut self.warnings);
                let columns = match body.columns {
                    Some(columns) => columns,
                    None => parse_rows("", body.lines_before, &body.names, &body.kinds, &mut self.warnings),
                };
                Ok((RawTable { meta: body.meta, names: body.names, columns }, self.warnings.finish()))
            }
        }
    }
}

impl Body {
    /// Parses the rows gathered and appends them to the columns.
    fn flush(&mut self, warnings: &mut LineWarnings) {
        if self.window.is_empty() {
            return;
        }
        let more = parse_rows(&self.window, self.lines_before, &self.names, &self.kinds, warnings);
        self.lines_before += self.window.bytes().filter(|&b| b == b'\n').count();
        self.window.clear();
        match &mut self.columns {
            None => self.columns = Some(more),
            Some(columns) => append(columns, more),
        }
    }
}

/// What a table's header says: its meta document, column names and column kinds.
type Header = (Option<Value>, Vec<String>, Vec<Kind>);

/// The meta document, column names and kinds of a table's YAML header (the text before `...`).
fn parse_header(header: &str, path: &str, warnings: &mut LineWarnings) -> Result<Header, ParseError> {
    let docs: Vec<Value> = serde_saphyr::from_multiple_with_options(header, yaml_options(header))
        .map_err(|e| ParseError::invalid(path, format!("the YAML header does not parse: {e}")))?;
    let Some(list_at) = docs.iter().rposition(Value::is_array) else {
        return Err(ParseError::invalid(path, "the header has no `- [name, dtype]` column list"));
    };
    let meta = docs[..list_at].iter().rev().find(|d| d.is_object()).cloned();
    let mut names = Vec::new();
    let mut kinds = Vec::new();
    for entry in docs[list_at].as_array().into_iter().flatten() {
        let pair = entry.as_array().filter(|p| p.len() == 2);
        let Some([name, dtype]) = pair.map(|p| [&p[0], &p[1]]) else {
            return Err(ParseError::invalid(path, format!("a column entry is not `[name, dtype]`: {entry}")));
        };
        let name = scalar_text(name);
        let dtype = scalar_text(dtype);
        let kind = kind_of(&dtype).unwrap_or_else(|| {
            warnings.file(format!("column `{name}` has an unknown dtype `{dtype}`; it is read as text"));
            Kind::Text
        });
        names.push(name);
        kinds.push(kind);
    }
    if names.is_empty() {
        return Err(ParseError::invalid(path, "the column list is empty"));
    }
    if let Some(message) = super::plane_csv::duplicate_name(&names) {
        return Err(ParseError::invalid(path, message));
    }
    Ok((meta, names, kinds))
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::boxfish_rows::parse_int;
    use super::*;

    fn parse(text: &str) -> (RawTable, Vec<Warning>) {
        parse_table(&Input::from_text("t.yaml", text)).unwrap()
    }

    #[test]
    fn a_table_streamed_over_several_windows_reads_as_its_text_does() {
        let mut text = String::from("---\n- [id, int32]\n- [load, float64]\n- [name, str]\n...\n");
        let mut row = 0;
        while text.len() < 2 * WINDOW_BYTES + 1000 {
            match row % 50_000 {
                7 => text.push_str("bad row here x\n"),
                _ => text.push_str(&format!("{row} {}.5 n{row}\n", row % 97)),
            }
            row += 1;
        }
        let path = std::env::temp_dir().join(format!("shoal-table-windows-{}.yaml", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let streamed = parse_table(&Input::deferred(&path)).unwrap();
        std::fs::remove_file(&path).unwrap();
        let whole = parse_table(&Input::from_text(path.display().to_string(), text)).unwrap();
        assert_eq!(streamed.0, whole.0);
        let lines = |w: &[Warning]| w.iter().map(|w| (w.line, w.message.clone())).collect::<Vec<_>>();
        assert_eq!(lines(&streamed.1), lines(&whole.1));
        assert!(streamed.1.iter().any(|w| w.line == Some(13)), "{:?}", streamed.1);
    }

    #[test]
    fn blank_header_lines_and_whole_floats_in_int_columns_are_accepted() {
        let (t, w) =
            parse("---\nkey: X\n\n---\n\n- [linkid, int32]\n- [packets, int64]\n\n...\n0 40000.0\n1 7\n");
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(t.names, vec!["linkid", "packets"]);
        assert_eq!(t.columns[1], Column::Int(vec![40000, 7]));
        assert_eq!(t.meta.and_then(|m| m["key"].as_str().map(String::from)).as_deref(), Some("X"));
    }

    #[test]
    fn a_column_named_twice_is_an_error_naming_the_file() {
        let text = "- [linkid, int32]\n- [packets, int64]\n- [packets, int64]\n...\n0 1 2\n";
        let err = parse_table(&Input::from_text("t.yaml", text)).unwrap_err().to_string();
        assert_eq!(err, "t.yaml: column `packets` is named twice (columns 2 and 3); rename one");
    }

    #[test]
    fn axis_names_that_yaml_1_1_reads_as_booleans_stay_names() {
        let (t, _) = parse("- [y, int32]\n- [n, int32]\n- [on, int32]\n...\n1 2 3\n");
        assert_eq!(t.names, vec!["y", "n", "on"]);
    }

    #[test]
    fn the_meta_document_is_optional_and_names_may_hold_spaces() {
        let (t, _) = parse("- [patchid, int32]\n- [Avg Hops-Extents,float32]\n- [name, S32]\n...\n0 1.5 a\n");
        assert_eq!(t.meta, None);
        assert_eq!(t.names[1], "Avg Hops-Extents");
        assert_eq!(t.columns[1], Column::Float(vec![1.5]));
        assert_eq!(t.columns[2], Column::text_of(["a"]));
    }

    #[test]
    fn bad_rows_are_skipped_with_their_line_numbers() {
        let (t, w) = parse(
            "- [a, int32]\n- [b, float64]\n...\n1 2\n1 2 3\nx 2\n1 2.5.1\n3\n4 5 # ok\n6 7#ok\n# all comment\n",
        );
        assert_eq!(t.columns[0], Column::Int(vec![1, 4, 6]));
        let lines: Vec<_> = w.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![Some(5), Some(6), Some(7), Some(8)]);
        assert!(w[1].message.contains("`x` in column `a` is not an integer"), "{}", w[1].message);
    }

    #[test]
    fn a_fraction_in_an_int_column_is_not_rounded() {
        let (t, w) = parse("- [a, int32]\n...\n2.5\n3.0\n");
        assert_eq!(t.columns[0], Column::Int(vec![3]));
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn rows_parsed_in_parallel_chunks_keep_their_order_and_line_numbers() {
        let mut text = String::from("- [a, int32]\n...\n");
        let rows = 3 * CHUNK_BYTES / 7;
        for i in 0..rows {
            text.push_str(&if i == rows - 2 { "bad\n".to_string() } else { format!("{i}\n") });
        }
        let (t, w) = parse(&text);
        let Column::Int(a) = &t.columns[0] else { panic!("an int column") };
        assert_eq!(a.len(), rows - 1);
        assert!(a.windows(2).all(|p| p[0] < p[1]));
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].line, Some(2 + rows - 1), "the bad row's own line");
    }

    #[test]
    fn a_file_without_a_header_end_is_refused() {
        let err = parse_table(&Input::from_text("t.yaml", "- [a, int32]\n1\n")).unwrap_err();
        assert!(err.to_string().contains("no `...` line"), "{err}");
    }

    #[test]
    fn ints_parse_fast_and_as_floats() {
        assert_eq!(parse_int("-12"), Some(-12));
        assert_eq!(parse_int("4e4"), Some(40000));
        assert_eq!(parse_int("1.5"), None);
        assert_eq!(parse_int("-"), None);
    }
}
