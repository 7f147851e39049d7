//! Jobs from Slurm's accounting: `sacct --parsable2` output, e.g.
//!
//! ```text
//! sacct --allusers --parsable2 --starttime 2026-11-24 \
//!       --format JobID,JobName,User,NodeList,Start,End,State > jobs.txt
//! ```
//!
//! One header line names the columns, `|`-separated, in any order (more columns may come);
//! JobID, JobName, User, NodeList, Start, End and State are needed. Job steps (`4101.batch`,
//! `4101.extern`, `4101.0`) are parts of a job, not jobs: skipped. NodeList is a hostlist
//! ([`super::hostlist`]). Start and End are as sacct prints them, `2026-11-24T10:00:00`, in
//! the time zone of the machine that ran sacct, which its output does not say: shoal reads them
//! as UTC, so run sacct with `TZ=UTC` (a time with `Z` or an offset is read as written).
//! `Unknown` (a running job's end) and `None` are no time.

use std::path::Path;

use crate::model::Warning;

use super::super::error::ParseError;
use super::super::input::Input;
use super::super::line_warnings::LineWarnings;
use super::super::prometheus_api::time::{days_from_civil, hms, parse_time, ymd};
use super::hostlist::expand;

/// One job as the scheduler accounted it.
#[derive(Clone, Debug, PartialEq)]
pub struct SlurmJob {
    pub id: String,
    pub name: String,
    pub user: String,
    /// NodeList as written.
    pub node_list: String,
    /// NodeList expanded, in its order.
    pub hosts: Vec<String>,
    /// Unix seconds; `None` when sacct printed `Unknown` or `None`.
    pub start: Option<f64>,
    pub end: Option<f64>,
    pub state: String,
    /// The line it was read from (1-based), for warnings.
    pub line: usize,
}

/// The columns shoal needs, as sacct names them.
pub const COLUMNS: [&str; 7] = ["JobID", "JobName", "User", "NodeList", "Start", "End", "State"];

/// Reads a `sacct --parsable2` file.
pub fn read_sacct(path: &Path) -> Result<(Vec<SlurmJob>, Vec<Warning>), ParseError> {
    let (input, mut warnings) = Input::open(path)?;
    let (jobs, more) = parse_sacct(&input)?;
    warnings.extend(more);
    Ok((jobs, warnings))
}

/// Parses `sacct --parsable2` text; an error when the header lacks a needed column.
pub fn parse_sacct(input: &Input) -> Result<(Vec<SlurmJob>, Vec<Warning>), ParseError> {
    let mut lines = input.lines().filter(|(_, l)| !l.trim().is_empty());
    let Some((header_line, header)) = lines.next() else {
        return Err(ParseError::invalid(input.display(), "empty: no sacct --parsable2 header"));
    };
    let names: Vec<&str> = header.trim_end_matches(['\r', '\n']).split('|').collect();
    let mut at = [0usize; 7];
    for (slot, column) in at.iter_mut().zip(COLUMNS) {
        *slot = names.iter().position(|n| n.trim().eq_ignore_ascii_case(column)).ok_or_else(|| {
            ParseError::syntax(
                input.display(),
                header_line,
                format!(
                    "the header has no {column} column (sacct --parsable2 --format {} is needed; the header: `{}`)",
                    COLUMNS.join(","),
                    header.trim()
                ),
            )
        })?;
    }
    let mut warnings = LineWarnings::new(input.display());
    let mut jobs = Vec::new();
    for (number, line) in lines {
        let fields: Vec<&str> = line.trim_end_matches('\r').split('|').collect();
        if fields.len() != names.len() {
            warnings.line(
                number,
                format!("{} fields where the header has {}; skipped", fields.len(), names.len()),
            );
            continue;
        }
        let field = |i: usize| fields[at[i]].trim();
        if let Some(job) = job_of(number, &field, &mut warnings) {
            jobs.push(job);
        }
    }
    Ok((jobs, warnings.finish()))
}

/// One row as a job, or `None` (a step, or a row that cannot be read: warned).
fn job_of<'a>(
    number: usize,
    field: &dyn Fn(usize) -> &'a str,
    warnings: &mut LineWarnings,
) -> Option<SlurmJob> {
    let id = field(0);
    if id.contains('.') {
        return None; // a job step: its job has its own row
    }
    let node_list = field(3);
    if node_list.is_empty() || node_list.eq_ignore_ascii_case("None assigned") {
        warnings.line(number, format!("job {id} ran on no node (NodeList `{node_list}`); skipped"));
        return None;
    }
    let hosts = match expand(node_list) {
        Ok(hosts) => hosts,
        Err(e) => {
            warnings.line(number, format!("job {id}: NodeList {e}; skipped"));
            return None;
        }
    };
    let mut time = |column: usize| match sacct_time(field(column)) {
        Ok(t) => t,
        Err(e) => {
            warnings.line(number, format!("job {id}: {} {e}; read as unknown", COLUMNS[column]));
            None
        }
    };
    let (start, end) = (time(4), time(5));
    Some(SlurmJob {
        id: id.to_string(),
        name: field(1).to_string(),
        user: field(2).to_string(),
        node_list: node_list.to_string(),
        hosts,
        start,
        end,
        state: field(6).to_string(),
        line: number,
    })
}

/// A sacct time: `YYYY-MM-DDTHH:MM:SS` read as UTC, or one with a zone, or `Unknown`/`None`.
fn sacct_time(text: &str) -> Result<Option<f64>, String> {
    if text.is_empty() || text.eq_ignore_ascii_case("Unknown") || text.eq_ignore_ascii_case("None") {
        return Ok(None);
    }
    if text.len() == 19 && text.as_bytes().get(10) == Some(&b'T') {
        let (date, clock) = (ymd(&text[..10]), hms(&text[11..]));
        if let (Some((y, m, d)), Some((h, min, s))) = (date, clock) {
            let seconds = days_from_civil(y, m, d) * 86_400 + i64::from(h * 3600 + min * 60 + s);
            return Ok(Some(seconds as f64));
        }
    }
    parse_time(text).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "JobID|JobName|User|NodeList|Start|End|State";

    fn parse(text: &str) -> (Vec<SlurmJob>, Vec<Warning>) {
        parse_sacct(&Input::from_text("jobs.txt", text)).unwrap()
    }

    #[test]
    fn jobs_read_their_hosts_and_utc_times_and_steps_are_not_jobs() {
        let text = format!(
            "{HEADER}\n4101|lammps|alice|cn[0001-0003]|2023-11-14T22:13:20|2023-11-14T23:13:20|COMPLETED\n\
             4101.batch|batch||cn0001|2023-11-14T22:13:20|2023-11-14T23:13:20|COMPLETED\n\
             4101.0|lmp||cn[0001-0003]|2023-11-14T22:13:21|2023-11-14T23:13:19|COMPLETED\n\
             4102|io|bob|cn0004|2023-11-14T22:30:00|Unknown|RUNNING\n"
        );
        let (jobs, warnings) = parse(&text);
        assert!(warnings.is_empty(), "{warnings:?}");
        let ids: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["4101", "4102"]);
        assert_eq!(jobs[0].hosts, ["cn0001", "cn0002", "cn0003"]);
        assert_eq!((jobs[0].start, jobs[0].end), (Some(1_700_000_000.0), Some(1_700_003_600.0)));
        assert_eq!((jobs[1].user.as_str(), jobs[1].end, jobs[1].line), ("bob", None, 5));
    }

    #[test]
    fn columns_are_found_by_the_header_in_any_order() {
        let text = "State|NodeList|JobID|Elapsed|User|JobName|End|Start\nCOMPLETED|n1|7|00:01:00|eve|x|2023-11-14T22:14:20Z|2023-11-14T22:13:20Z\n";
        let (jobs, _) = parse(text);
        assert_eq!((jobs[0].id.as_str(), jobs[0].name.as_str(), jobs[0].hosts.len()), ("7", "x", 1));
        assert_eq!(jobs[0].end, Some(1_700_000_060.0));
    }

    #[test]
    fn a_header_without_a_needed_column_is_an_error_naming_it() {
        let error =
            parse_sacct(&Input::from_text("j.txt", "JobID|JobName|User|Start|End|State\n")).unwrap_err();
        assert!(error.to_string().contains("j.txt:1: the header has no NodeList column"), "{error}");
    }

    #[test]
    fn an_unreadable_nodelist_or_row_is_named_with_its_line() {
        let text = format!(
            "{HEADER}\n1|a|u|n[3-1]|Unknown|Unknown|FAILED\n2|b|u|n1|2023-11-14T22:13:20\n\
             3|c|u|None assigned|None|Unknown|PENDING\n4|d|u|n2|yesterday|Unknown|RUNNING\n"
        );
        let (jobs, warnings) = parse(&text);
        assert_eq!(jobs.len(), 1);
        let said: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert!(said.iter().any(|w| w.contains(":2") && w.contains("job 1: NodeList `n[3-1]`")), "{said:?}");
        assert!(
            said.iter().any(|w| w.contains(":3") && w.contains("5 fields where the header has 7")),
            "{said:?}"
        );
        assert!(said.iter().any(|w| w.contains(":4") && w.contains("ran on no node")), "{said:?}");
        assert!(said.iter().any(|w| w.contains(":5") && w.contains("Start `yesterday`")), "{said:?}");
    }
}
