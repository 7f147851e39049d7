//! Port counters from a Prometheus server that scrapes an InfiniBand exporter (issue 26):
//! treydock/infiniband_exporter's `infiniband_{switch,hca}_port_…_total{guid,port}` and
//! guilbaults/infiniband-exporter's `infiniband_port…_total{local_guid,local_port}` (names as
//! [`super::counters::prometheus`] reads them in a scrape), over a time range at a step.
//!
//! `/api/v1/series` says which series exist in the range (none is an error naming the URL);
//! `/api/v1/query_range` gives their values at each step; each step becomes one
//! [`Snapshot`], resets corrected as `increase()` corrects them ([`snapshots`]). The server
//! is the store: nothing is kept but the answer.

mod http;
pub mod snapshots;
pub mod time;

use serde::{Deserialize, Serialize};

use crate::model::Warning;
use crate::model::counters::Snapshot;

use super::error::ParseError;
use http::Api;
use snapshots::{Series, snapshots_of};
use time::rfc3339_of;

/// The series shoal asks for: every counter of the two exporters, and node_exporter's (which
/// name no GUID: counted in a warning). Prometheus anchors the regular expression.
pub const SELECTOR: &str = r#"{__name__=~"infiniband_.+_total|node_infiniband_.+_total"}"#;

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

/// `query_range`'s answer.
#[derive(Deserialize)]
struct Matrix {
    #[serde(rename = "resultType")]
    result_type: String,
    result: Vec<Series>,
}

/// The counters of every exporter port at each step of the range, oldest first.
pub fn read_range(range: &PromRange) -> Result<(Vec<Snapshot>, Vec<Warning>), ParseError> {
    let api = Api::new(&range.url)?;
    let (from, to) = (rfc3339_of(range.from), rfc3339_of(range.to));
    if range.to <= range.from || range.step <= 0.0 {
        return Err(ParseError::invalid(
            api.url("/api/v1/query_range"),
            format!("empty range: from {from} to {to} at a {} s step", range.step),
        ));
    }
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
    let (matrix, more) = api.get::<Matrix>("/api/v1/query_range", &params)?;
    server_said.extend(more);
    let source = api.url("/api/v1/query_range");
    if matrix.result_type != "matrix" || matrix.result.iter().all(|s| s.values.is_empty()) {
        return Err(ParseError::invalid(
            &source,
            format!(
                "no samples from {from} to {to} at a {} s step ({} series listed; the answer's result was {} `{}`)",
                range.step,
                listed.len(),
                matrix.result.len(),
                matrix.result_type
            ),
        ));
    }
    let (snapshots, mut warnings) = snapshots_of(&source, &matrix.result);
    warnings.splice(
        0..0,
        server_said.into_iter().map(|w| Warning::in_file(&source, format!("the server warns: {w}"))),
    );
    Ok((snapshots, warnings))
}

/// Seconds as the API takes them (up to milliseconds, no exponent).
fn format_seconds(seconds: f64) -> String {
    let text = format!("{seconds:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
