//! A loads file: `shoal convert`'s `links.csv` (link-end bytes per region and `total`), plus
//! `#` comment lines that carry what the table cannot: region names and dump times, bytes that
//! were not delivered or not placed, problems met while tracing, and the top-K contributors of
//! each link end. libibprof writes it in situ (`IBPROF_LOADS`); `--loads` reads it. Documented
//! in `docs/formats/loads.md`.
//!
//! Columns are found by header name, so a table with more columns (a `job` column, observed
//! counters) still reads. With a `job` column (issue 12), job `all`'s rows are the totals and
//! the jobs' own `total` rows are skipped; the jobs' region rows are summed per link and
//! region, with one warning when more than one job has them. Unknown comment lines are ignored
//! (they are comments).

use std::path::Path;

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;
use crate::model::Warning;

/// One link's bytes in one region (`region: None` is the `total` row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadsRow {
    pub line: usize,
    pub rail: u8,
    pub a_guid: String,
    pub a_port: u8,
    pub b_guid: String,
    pub b_port: u8,
    pub region: Option<u32>,
    pub bytes_a_to_b: u64,
    pub bytes_b_to_a: u64,
}

/// `# region,N,NAME,DUMPTIME`: a region's name and dump time (µs since the epoch).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionNote {
    pub number: u32,
    pub name: Option<String>,
    pub dumptime_micros: Option<i64>,
}

/// `# undelivered,REGION,RAIL,REASON,BYTES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndeliveredNote {
    pub region: Option<u32>,
    pub rail: u8,
    pub reason: String,
    pub bytes: u64,
}

/// `# top,REGION,RAIL,A_GUID,A_PORT,B_GUID,B_PORT,DIRECTION,SRC_HOST,DST_HOST,BYTES`: one
/// contributor of one link end from the top-K summary (DIRECTION `a_to_b` or `b_to_a`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopNote {
    pub line: usize,
    pub region: Option<u32>,
    pub rail: u8,
    pub a_guid: String,
    pub a_port: u8,
    pub b_guid: String,
    pub b_port: u8,
    pub a_to_b: bool,
    pub src_host: String,
    pub dst_host: String,
    pub bytes: u64,
}

/// Everything a loads file holds, as text and numbers (mapped onto a fabric by
/// `routing::loads_input`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadsFile {
    pub path: String,
    pub rows: Vec<LoadsRow>,
    pub regions: Vec<RegionNote>,
    /// `# unplaced,REGION,BYTES`
    pub unplaced: Vec<(Option<u32>, u64)>,
    /// `# intra_node,REGION,BYTES`
    pub intra_node: Vec<(Option<u32>, u64)>,
    pub undelivered: Vec<UndeliveredNote>,
    /// `# problem,COUNT,MESSAGE`: something the writer met (a host missing from the map …).
    pub problems: Vec<(u64, String)>,
    /// `# topk,K`: the summary's size, when the writer kept one.
    pub top_k: Option<usize>,
    /// The job the rows name, when they name exactly one besides `all`.
    pub job: Option<String>,
    pub top: Vec<TopNote>,
}

const COLUMNS: [&str; 8] =
    ["rail", "a_guid", "a_port", "b_guid", "b_port", "region", "bytes_a_to_b", "bytes_b_to_a"];

/// Reads a loads file (plain or gzipped); a regular file is streamed, keeping only its rows.
pub fn read_loads_file(path: &Path) -> Result<(LoadsFile, Vec<Warning>), ParseError> {
    if super::stream::is_regular_file(path) {
        return parse_loads_file(&Input::deferred(path));
    }
    let (input, mut warnings) = Input::open(path)?;
    let (file, more) = parse_loads_file(&input)?;
    warnings.extend(more);
    Ok((file, warnings))
}

/// Parses a loads file already read.
pub fn parse_loads_file(input: &Input) -> Result<(LoadsFile, Vec<Warning>), ParseError> {
    let path = input.display().to_string();
    let mut warnings = LineWarnings::new(&path);
    let mut file = LoadsFile { path: path.clone(), ..Default::default() };
    let mut columns: Option<Vec<usize>> = None;
    let mut job_column = None;
    // The job of each row kept (empty without a job column).
    let mut row_jobs: Vec<String> = Vec::new();
    let mut failed = None;
    let summary = input.for_each_line(|line, text, _| {
        if failed.is_some() {
            return;
        }
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Some(comment) = text.strip_prefix('#') {
            comment_line(&mut file, &mut warnings, line, comment.trim());
            return;
        }
        let owned = csv_cells(text);
        let cells: Vec<&str> = owned.iter().map(String::as_str).collect();
        let Some(index) = &columns else {
            let found: Option<Vec<usize>> =
                COLUMNS.iter().map(|c| cells.iter().position(|h| h == c)).collect();
            let Some(found) = found else {
                let bom = if text.starts_with('\u{feff}') {
                    " (the line starts with a UTF-8 byte order mark the header was not read through)"
                } else {
                    ""
                };
                let message = format!("not a loads table: the header must name {}{bom}", COLUMNS.join(","));
                failed = Some(ParseError::syntax(&path, line, message));
                return;
            };
            job_column = cells.iter().position(|h| *h == "job");
            columns = Some(found);
            return;
        };
        let job = job_column.and_then(|j| cells.get(j)).map_or("", |j| unarmed(j));
        match data_row(&cells, index, line) {
            Ok(row) => {
                file.rows.push(row);
                row_jobs.push(job.to_string());
            }
            Err(message) => warnings.line(line, format!("{message}; row skipped")),
        }
    })?;
    if let Some(error) = failed {
        return Err(error.with_warnings(summary.warnings));
    }
    if columns.is_none() {
        return Err(ParseError::invalid(&path, "no loads table (no header line) in the file"));
    }
    keep_one_total(&mut file, &row_jobs, &mut warnings);
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((file, all))
}

/// With jobs: job `all`'s rows are the totals, so the jobs' own totals are dropped (not counted
/// twice); several jobs' region rows are summed, which one warning says.
fn keep_one_total(file: &mut LoadsFile, row_jobs: &[String], warnings: &mut LineWarnings) {
    let has_all = row_jobs.iter().any(|j| j == "all");
    let mut jobs: Vec<&str> =
        row_jobs.iter().map(String::as_str).filter(|j| !j.is_empty() && *j != "all").collect();
    jobs.sort_unstable();
    jobs.dedup();
    if let [one] = jobs.as_slice() {
        file.job = Some(one.to_string());
    }
    if jobs.len() > 1 {
        warnings.file(format!(
            "{} jobs ({}): their regions' bytes are summed per link and region",
            jobs.len(),
            jobs.join(", ")
        ));
    }
    if has_all {
        let rows = std::mem::take(&mut file.rows);
        file.rows = rows
            .into_iter()
            .zip(row_jobs)
            .filter(|(row, job)| row.region.is_some() || job.as_str() == "all" || job.is_empty())
            .map(|(row, _)| row)
            .collect();
    }
}

/// One line's cells, read by the `csv` crate as `shoal convert` and the loads writer quote them
/// (a comma or quote inside a job or host name), trimmed. A spreadsheet that saved the file with
/// a UTF-8 byte order mark leaves it before the first cell: it is dropped there.
fn csv_cells(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    // Without quotes or a carriage return, the cells are what lies between the commas: the
    // `csv` crate's reader (built per call, which costs more than the split) is not needed.
    if !text.contains(['"', '\r']) {
        return text.split(',').map(|cell| cell.trim().to_string()).collect();
    }
    csv_crate_cells(text)
}

/// [`csv_cells`] by the `csv` crate, for a line with quotes.
fn csv_crate_cells(text: &str) -> Vec<String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .buffer_capacity(text.len().clamp(64, 1 << 16))
        .from_reader(text.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => record.iter().map(String::from).collect(),
        // A `&str` is UTF-8 and one line holds one record; an empty line has no cells.
        Ok(false) | Err(_) => Vec::new(),
    }
}

/// A text cell as written before `export::csv_cell::safe_cell` disarmed a formula
/// start with `'`: the quote is dropped, so a job or host named `-x` reads back as `-x`.
fn unarmed(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest,
        _ => cell,
    }
}

fn data_row(cells: &[&str], index: &[usize], line: usize) -> Result<LoadsRow, String> {
    let cell =
        |i: usize| cells.get(index[i]).copied().ok_or_else(|| format!("missing column {}", COLUMNS[i]));
    let number = |i: usize| -> Result<u64, String> {
        let text = cell(i)?;
        text.parse::<u64>().map_err(|_| format!("{} `{text}` is not a whole number", COLUMNS[i]))
    };
    let small = |i: usize| -> Result<u8, String> {
        u8::try_from(number(i)?).map_err(|_| format!("{} is out of range", COLUMNS[i]))
    };
    Ok(LoadsRow {
        line,
        rail: small(0)?,
        a_guid: cell(1)?.to_string(),
        a_port: small(2)?,
        b_guid: cell(3)?.to_string(),
        b_port: small(4)?,
        region: parse_region(cell(5)?)?,
        bytes_a_to_b: number(6)?,
        bytes_b_to_a: number(7)?,
    })
}

/// A region label: a number, or `total` (`None`).
pub fn parse_region(text: &str) -> Result<Option<u32>, String> {
    if text == "total" {
        return Ok(None);
    }
    text.parse::<u32>().map(Some).map_err(|_| format!("region `{text}` is neither a number nor `total`"))
}

fn comment_line(file: &mut LoadsFile, warnings: &mut LineWarnings, line: usize, comment: &str) {
    let owned = csv_cells(comment);
    let fields: Vec<&str> = owned.iter().map(String::as_str).collect();
    let result = match fields.first().copied() {
        Some("region") => region_note(&fields).map(|n| file.regions.push(n)),
        Some("unplaced") => region_bytes(&fields).map(|v| file.unplaced.push(v)),
        Some("intra_node") => region_bytes(&fields).map(|v| file.intra_node.push(v)),
        Some("undelivered") => undelivered_note(&fields).map(|n| file.undelivered.push(n)),
        Some("problem") => problem_note(comment).map(|p| file.problems.push(p)),
        Some("topk") => fields
            .get(1)
            .and_then(|k| k.parse::<usize>().ok())
            .map(|k| file.top_k = Some(k))
            .ok_or_else(|| "topk needs a size".to_string()),
        Some("top") => top_note(&fields, line).map(|n| file.top.push(n)),
        _ => Ok(()),
    };
    if let Err(message) = result {
        warnings.line(line, format!("comment `{}` not understood: {message}", fields[0]));
    }
}

fn bytes_at(fields: &[&str], i: usize) -> Result<u64, String> {
    let text = fields.get(i).ok_or("too few fields")?;
    text.parse().map_err(|_| format!("`{text}` is not a byte count"))
}

fn region_at(fields: &[&str], i: usize) -> Result<Option<u32>, String> {
    parse_region(fields.get(i).ok_or("too few fields")?)
}

fn region_note(fields: &[&str]) -> Result<RegionNote, String> {
    let number = region_at(fields, 1)?.ok_or("a region note needs a number")?;
    let name = fields.get(2).filter(|n| !n.is_empty()).map(|n| n.to_string());
    let dumptime_micros = match fields.get(3).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(parse_seconds(t).ok_or_else(|| format!("dump time `{t}` is not seconds"))?),
    };
    Ok(RegionNote { number, name, dumptime_micros })
}

/// `SECONDS.MICROS` as the ibprof format writes times.
fn parse_seconds(text: &str) -> Option<i64> {
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let (whole, frac) = text.split_once('.').unwrap_or((text, "0"));
    if frac.len() > 6 || frac.is_empty() {
        return None;
    }
    let micros = format!("{frac:0<6}").parse::<i64>().ok()?;
    Some(sign * whole.parse::<i64>().ok()?.checked_mul(1_000_000)?.checked_add(micros)?)
}

fn region_bytes(fields: &[&str]) -> Result<(Option<u32>, u64), String> {
    Ok((region_at(fields, 1)?, bytes_at(fields, 2)?))
}

fn undelivered_note(fields: &[&str]) -> Result<UndeliveredNote, String> {
    let rail = bytes_at(fields, 2)?;
    Ok(UndeliveredNote {
        region: region_at(fields, 1)?,
        rail: u8::try_from(rail).map_err(|_| "rail out of range")?,
        reason: fields.get(3).ok_or("too few fields")?.to_string(),
        bytes: bytes_at(fields, 4)?,
    })
}

fn problem_note(comment: &str) -> Result<(u64, String), String> {
    let mut parts = comment.splitn(3, ',');
    parts.next();
    let count = parts.next().map(str::trim).and_then(|c| c.parse().ok()).ok_or("no count")?;
    Ok((count, parts.next().unwrap_or("").trim().to_string()))
}

fn top_note(fields: &[&str], line: usize) -> Result<TopNote, String> {
    if fields.len() != 11 {
        return Err(format!("expected 11 fields, found {}", fields.len()));
    }
    let small = |i: usize| -> Result<u8, String> {
        fields[i].parse::<u8>().map_err(|_| format!("`{}` is not a small number", fields[i]))
    };
    let a_to_b = match fields[7] {
        "a_to_b" => true,
        "b_to_a" => false,
        other => return Err(format!("direction `{other}` is neither a_to_b nor b_to_a")),
    };
    Ok(TopNote {
        line,
        region: region_at(fields, 1)?,
        rail: small(2)?,
        a_guid: fields[3].to_string(),
        a_port: small(4)?,
        b_guid: fields[5].to_string(),
        b_port: small(6)?,
        a_to_b,
        src_host: unarmed(fields[8]).to_string(),
        dst_host: unarmed(fields[9]).to_string(),
        bytes: bytes_at(fields, 10)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_without_quotes_splits_into_the_cells_the_csv_crate_reads() {
        for line in [
            "a,b,c",
            " 1 , 2 ,3 ",
            "0x0002c90300a0b0c0,1,->,,7",
            ",,",
            "   ",
            "x",
            "é , ü ,\u{a0}z\u{a0}",
            "-x,'=y,@z",
        ] {
            assert_eq!(csv_cells(line), csv_crate_cells(line), "{line:?}");
        }
        assert_eq!(csv_cells("a,\"b,c\",d"), ["a", "b,c", "d"], "a quoted comma stays in its cell");
        assert!(csv_cells("").is_empty(), "an empty line has no cells");
    }

    fn parse(text: &str) -> (LoadsFile, Vec<Warning>) {
        parse_loads_file(&Input::from_text("t.loads.csv", text)).unwrap()
    }

    #[test]
    fn columns_are_found_by_name_and_extra_columns_are_ignored() {
        let (file, warnings) = parse(
            "rail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a,observed_a_to_b,observed_b_to_a\n\
             0,0x1,1,0x2,3,1,,10,20,,\n0,0x1,1,0x2,3,total,,10,20,,\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(file.rows.len(), 2);
        assert_eq!((file.rows[0].region, file.rows[0].bytes_b_to_a), (Some(1), 20));
        assert_eq!(file.rows[1].region, None);
    }

    #[test]
    fn job_all_is_the_total_and_the_jobs_own_totals_are_not_counted_twice() {
        let (file, warnings) = parse(
            "rail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a\n\
             0,0x1,1,0x2,3,1,md,10,20\n0,0x1,1,0x2,3,total,md,10,20\n\
             0,0x1,1,0x2,3,total,io,5,0\n0,0x1,1,0x2,3,total,all,15,20\n",
        );
        let totals: Vec<u64> =
            file.rows.iter().filter(|r| r.region.is_none()).map(|r| r.bytes_a_to_b).collect();
        assert_eq!(totals, [15]);
        assert_eq!(file.job, None, "two jobs: no one name");
        assert_eq!(file.rows.len(), 2);
        assert!(warnings.iter().any(|w| w.message.contains("2 jobs (io, md)")), "{warnings:?}");
    }

    #[test]
    fn comment_lines_carry_regions_losses_and_the_top_k() {
        let (file, warnings) = parse(
            "# region,1,exchange,1700000000.5\n# unplaced,1,7\n# undelivered,total,1,unreachable,9\n\
             # problem,3,host x is not in the host map\n# topk,2\n\
             # top,1,0,0x1,1,0x2,3,a_to_b,h1,h2,100\n\
             rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(file.regions[0].dumptime_micros, Some(1_700_000_000_500_000));
        assert_eq!(file.unplaced, vec![(Some(1), 7)]);
        assert_eq!(file.undelivered[0].reason, "unreachable");
        assert_eq!(file.problems, vec![(3, "host x is not in the host map".to_string())]);
        assert_eq!(file.top_k, Some(2));
        assert_eq!((file.top[0].src_host.as_str(), file.top[0].bytes), ("h1", 100));
    }

    #[test]
    fn a_bad_row_is_a_line_warning_and_a_file_without_header_an_error() {
        let (file, warnings) = parse(
            "rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n0,0x1,1,0x2,3,one,1,2\n",
        );
        assert!(file.rows.is_empty());
        assert!(warnings[0].to_string().contains("region `one`"), "{warnings:?}");
        assert!(parse_loads_file(&Input::from_text("x", "# only comments\n")).is_err());
        assert!(parse_loads_file(&Input::from_text("x", "a,b\n")).is_err());
    }

    #[test]
    fn a_quoted_job_name_with_a_comma_reads_back_whole_and_a_disarmed_one_unarmed() {
        let (file, warnings) = parse(
            "rail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a\n\
             0,0x1,1,0x2,3,1,\"md, run 2\",10,20\n0,0x1,1,0x2,3,total,all,10,20\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(file.job.as_deref(), Some("md, run 2"));
        assert_eq!(file.rows[0].bytes_b_to_a, 20, "the comma did not shift the columns");
        let (file, _) = parse(
            "rail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a\n0,0x1,1,0x2,3,1,'-x,1,2\n",
        );
        assert_eq!(file.job.as_deref(), Some("-x"));
    }

    #[test]
    fn a_spreadsheets_byte_order_mark_before_the_header_is_read_through() {
        let (file, warnings) = parse(
            "\u{feff}rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n0,0x1,1,0x2,3,1,1,2\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(file.rows.len(), 1);
    }

    #[test]
    fn a_top_note_with_quoted_host_names_reads_back_the_names() {
        let (file, warnings) = parse(
            "# topk,18446744073709551615\n# top,1,0,0x1,1,0x2,3,a_to_b,\"h,1\",'=h2,100\n\
             rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n",
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(file.top_k, Some(usize::MAX));
        assert_eq!((file.top[0].src_host.as_str(), file.top[0].dst_host.as_str()), ("h,1", "=h2"));
    }
}
