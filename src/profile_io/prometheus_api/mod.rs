//! Port counters from a Prometheus server that scrapes an InfiniBand exporter (issue 26):
//! treydock/infiniband_exporter's `infiniband_{switch,hca}_port_…_total{guid,port}` and
//! guilbaults/infiniband-exporter's `infiniband_port…_total{local_guid,local_port}` (names as
//! [`super::counters::prometheus`] reads them in a scrape), over a time range at a step.
//!
//! The range is read through remote read first ([`remote_read`]: the stored chunks, ~1.4 bytes
//! a sample, where `query_range`'s JSON of a day of every k = 36 port is 5 GB and 25 s of the
//! server's time), each step's value taken as `query_range` takes it. Where the server refuses
//! remote read, a warning says so and `query_range` is asked:
//! `/api/v1/series` says which series exist in the range (none is an error naming the URL);
//! `/api/v1/query_range` gives their values at each step, streamed series by series into
//! [`crate::routing::history`]'s columns, resets corrected as `increase()` corrects them
//! ([`snapshots`], whose `snapshots_of` gives the same points as one snapshot a step: what
//! the fold is pinned against). The server is the store: nothing is kept but the answer.

mod http;
pub mod matrix;
pub mod remote_read;
pub mod snapshots;
pub mod time;

use serde::{Deserialize, Serialize};

use crate::model::Warning;

use super::error::ParseError;
use http::Api;
use matrix::MatrixSeed;
use remote_read::Outcome;
use remote_read::steps::Steps;
use snapshots::{Series, millis};
use time::rfc3339_of;

/// The series shoal asks for: every counter of the two exporters, and node_exporter's (which
/// name no GUID: counted in a warning). Prometheus anchors the regular expression.
pub const SELECTOR: &str = r#"{__name__=~"infiniband_.+_total|node_infiniband_.+_total"}"#;
/// [`SELECTOR`]'s regular expression of names, as remote read's matcher takes it.
pub const NAME_REGEX: &str = "infiniband_.+_total|node_infiniband_.+_total";
/// The most steps a `query_range` answers (its own limit: 11,000 intervals a series).
const QUERY_RANGE_MAX_STEPS: i64 = 11_001;

/// Where and when to read: a server, a range in Unix seconds and a step in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromRange {
    pub url: String,
    pub from: f64,
    pub to: f64,
    pub step: f64,
}

/// The step when none is given: one minute, a common scrape interval.
pub const DEFAULT_STEP_SECS: f64 = 60.0;

/// What a streamed range answer was, besides its series.
#[derive(Clone, Debug)]
pub struct RangeAnswer {
    /// The query's URL, as warnings name it.
    pub source: String,
    /// What the server warned of.
    pub warnings: Vec<Warning>,
}

/// The query's URL for a server (what [`RangeAnswer::source`] will be).
pub fn range_source(url: &str) -> String {
    format!("{}/api/v1/query_range", url.trim_end_matches('/'))
}

/// An error naming the query when the range is empty or its step not positive.
pub fn check_range(range: &PromRange) -> Result<(), ParseError> {
    if range.to <= range.from || range.step <= 0.0 {
        let (from, to) = (rfc3339_of(range.from), rfc3339_of(range.to));
        return Err(ParseError::invalid(
            range_source(&range.url),
            format!("empty range: from {from} to {to} at a {} s step", range.step),
        ));
    }
    Ok(())
}

/// Asks the server for the range and hands each series of its answer to `each` as it
/// streams in: through remote read ([`remote_read`]), or `query_range` where the server
/// refuses that (with a warning naming the refusal). An empty range, a server without
/// exporter series, a refusal or an answer without samples is an error naming the URL and what
/// came back. `prepare` makes each series ready for `each` (on the decoding's cores where the
/// answer is decoded in parallel).
pub fn stream_range<T: Send>(
    range: &PromRange,
    prepare: &(dyn Fn(Series) -> T + Sync),
    each: &mut dyn FnMut(T),
) -> Result<RangeAnswer, ParseError> {
    check_range(range)?;
    let api = Api::new(&range.url)?;
    let mut warnings = Vec::new();
    if let Some(steps) = remote_steps(range) {
        match remote_read::read_range(&api, NAME_REGEX, steps, prepare, each)? {
            Outcome::Read(read) if read.points > 0 => {
                return Ok(RangeAnswer { source: read.source, warnings: read.warnings });
            }
            // Nothing stored: `query_range`'s path lists the series and says what is missing.
            Outcome::Read(_) => {}
            Outcome::Refused(said) => warnings.push(Warning::in_file(
                api.url(remote_read::READ_ENDPOINT),
                format!(
                    "the server refused remote read ({said}); reading through query_range instead, which is several times slower for long ranges"
                ),
            )),
        }
    }
    let mut answer = stream_query_range(&api, range, &mut |series| each(prepare(series)))?;
    warnings.append(&mut answer.warnings);
    Ok(RangeAnswer { warnings, ..answer })
}

/// The range's steps as `query_range` takes them, or `None` where it would refuse the range
/// as too long (left to it, so that the server's own words say why).
fn remote_steps(range: &PromRange) -> Option<Steps> {
    let (from_ms, to_ms, step_ms) = (millis(range.from), millis(range.to), millis(range.step));
    if step_ms <= 0 || to_ms < from_ms || (to_ms - from_ms) / step_ms >= QUERY_RANGE_MAX_STEPS {
        return None;
    }
    let steps = usize::try_from((to_ms - from_ms) / step_ms + 1).ok()?;
    Some(Steps { from_ms, step_ms, steps })
}

/// The range through `query_range`, its series listed first.
fn stream_query_range(
    api: &Api,
    range: &PromRange,
    each: &mut dyn FnMut(Series),
) -> Result<RangeAnswer, ParseError> {
    let (from, to) = (rfc3339_of(range.from), rfc3339_of(range.to));
    let window = [("start", format_seconds(range.from)), ("end", format_seconds(range.to))];
    let series_params = [("match[]", SELECTOR.to_string()), window[0].clone(), window[1].clone()];
    let (listed, mut server_said) = api.get::<Vec<serde_json::Value>>("/api/v1/series", &series_params)?;
    if listed.is_empty() {
        return Err(ParseError::invalid(
            api.url("/api/v1/series"),
            format!(
                "the server holds no InfiniBand exporter series from {from} to {to} (it answered an empty list for {SELECTOR})"
            ),
        ));
    }
    let mut params = vec![("query", SELECTOR.to_string()), ("step", format_seconds(range.step))];
    params.extend(window);
    let (matrix, more) = api.get_seeded("/api/v1/query_range", &params, MatrixSeed(each))?;
    server_said.extend(more);
    let source = api.url("/api/v1/query_range");
    if matrix.result_type != "matrix" || matrix.points == 0 {
        return Err(ParseError::invalid(
            &source,
            format!(
                "no samples from {from} to {to} at a {} s step ({} series listed; the answer's result was {} `{}`)",
                range.step,
                listed.len(),
                matrix.series,
                matrix.result_type
            ),
        ));
    }
    let warnings = server_said
        .into_iter()
        .map(|w| Warning::in_file(&source, format!("the server warns: {w}")))
        .collect();
    Ok(RangeAnswer { source, warnings })
}

/// Seconds as the API takes them (up to milliseconds, no exponent).
fn format_seconds(seconds: f64) -> String {
    let text = format!("{seconds:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
