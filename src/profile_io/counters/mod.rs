//! Port-counter files, recognised by content like every other input, each read into one
//! [`Snapshot`](crate::model::counters::Snapshot) (values in bytes) plus warnings.
//!
//! Formats: `perfquery` / `perfquery -x` output (one or many ports concatenated),
//! `ibqueryerrors --data`/`--counters` (± `--report-port`), ibdiagnet2's `db_csv` (`PM_INFO`)
//! and `ibdiagnet2.pm`, OpenSM PerfMgr's `dump_counters` (human and `mach`), and Prometheus
//! text from the InfiniBand exporters. See `docs/formats/counters.md`.

pub mod ibdiagnet_pm;
pub mod ibqueryerrors;
pub mod perfmgr;
pub mod perfquery;
pub mod pm_info_csv;
pub mod prometheus;
pub mod sink;

use std::path::Path;

use crate::model::counters::{Snapshot, TakenAt, TimeSource};
use crate::model::{EpochMicros, Warning};

use super::error::ParseError;
use super::input::Input;
use perfmgr::PerfMgrForm;

/// The counter formats shoal reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterFormat {
    Perfquery,
    Ibqueryerrors,
    DbCsvPmInfo,
    IbdiagnetPm,
    PerfMgr(PerfMgrForm),
    Prometheus,
}

impl CounterFormat {
    pub fn describe(self) -> &'static str {
        match self {
            CounterFormat::Perfquery => "perfquery output",
            CounterFormat::Ibqueryerrors => "ibqueryerrors output",
            CounterFormat::DbCsvPmInfo => "ibdiagnet2 db_csv PM_INFO",
            CounterFormat::IbdiagnetPm => "ibdiagnet2.pm",
            CounterFormat::PerfMgr(PerfMgrForm::Human) => "OpenSM PerfMgr dump",
            CounterFormat::PerfMgr(PerfMgrForm::Machine) => "OpenSM PerfMgr dump (mach)",
            CounterFormat::Prometheus => "Prometheus exposition",
        }
    }
}

/// The counter format of a file's text, if it is one.
pub fn counter_format(input: &Input) -> Option<CounterFormat> {
    if perfquery::looks_like_perfquery(input) {
        Some(CounterFormat::Perfquery)
    } else if ibqueryerrors::looks_like_ibqueryerrors(input) {
        Some(CounterFormat::Ibqueryerrors)
    } else if ibdiagnet_pm::looks_like_ibdiagnet_pm(input) {
        Some(CounterFormat::IbdiagnetPm)
    } else if let Some(form) = perfmgr::perfmgr_form(input) {
        Some(CounterFormat::PerfMgr(form))
    } else if super::ibdiagnet2_csv::looks_like_db_csv(input) && pm_info_csv::has_pm_info(input) {
        Some(CounterFormat::DbCsvPmInfo)
    } else if prometheus::looks_like_prometheus(input) {
        Some(CounterFormat::Prometheus)
    } else {
        None
    }
}

/// How much of a counter file's (decompressed) start tells its format.
const HEAD_BYTES: u64 = 256 << 10;

/// Reads a counter file (plain or gzip). A regular file is streamed: its format is told from
/// its head, then only the port samples are kept while it is read. A snapshot whose file has
/// no timestamps is dated by the file's modification time (none for a pipe).
pub fn read_counters(path: &Path) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    if super::stream::is_regular_file(path) {
        let display = super::stream::display_name(path);
        let head = Input::from_text(&display, super::stream::head(path, HEAD_BYTES)?);
        // A db_csv's PM_INFO section is far past its head: its reader says if there is none.
        let format = counter_format(&head)
            .or_else(|| super::ibdiagnet2_csv::looks_like_db_csv(&head).then_some(CounterFormat::DbCsvPmInfo))
            .ok_or_else(|| not_counters(&display))?;
        let (snapshot, warnings) = parse_as(&Input::deferred(path), format)?;
        return Ok((dated(snapshot, path), warnings));
    }
    let (input, mut warnings) = Input::open(path)?;
    let (snapshot, more) = parse_counters(&input)?;
    warnings.extend(more);
    Ok((dated(snapshot, path), warnings))
}

/// `snapshot`, dated by `path`'s modification time when the file gave no time of its own.
fn dated(mut snapshot: Snapshot, path: &Path) -> Snapshot {
    if snapshot.taken.is_none() {
        snapshot.taken = modified_at(path).map(|time| TakenAt { time, from: TimeSource::Modified });
    }
    snapshot
}

fn not_counters(display: &str) -> ParseError {
    ParseError::invalid(
        display,
        "not a counter file shoal knows (perfquery, ibqueryerrors, ibdiagnet2 db_csv with PM_INFO or .pm, \
         OpenSM PerfMgr dump_counters, Prometheus from an InfiniBand exporter)",
    )
}

/// A regular file's modification time.
fn modified_at(path: &Path) -> Option<EpochMicros> {
    let meta = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    let since = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(EpochMicros(i64::try_from(since.as_micros()).ok()?))
}

/// Reads counters from text already in memory; an error if it is no counter format.
pub fn parse_counters(input: &Input) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    let format = counter_format(input).ok_or_else(|| not_counters(input.display()))?;
    parse_as(input, format)
}

pub fn parse_as(input: &Input, format: CounterFormat) -> Result<(Snapshot, Vec<Warning>), ParseError> {
    match format {
        CounterFormat::Perfquery => perfquery::parse_perfquery(input),
        CounterFormat::Ibqueryerrors => ibqueryerrors::parse_ibqueryerrors(input),
        CounterFormat::DbCsvPmInfo => pm_info_csv::parse_pm_info(input),
        CounterFormat::IbdiagnetPm => ibdiagnet_pm::parse_ibdiagnet_pm(input),
        CounterFormat::PerfMgr(form) => perfmgr::parse_perfmgr(input, form),
        CounterFormat::Prometheus => prometheus::parse_prometheus(input),
    }
}
