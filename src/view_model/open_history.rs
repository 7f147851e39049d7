//! A Prometheus range read alone (no counter files beside it): its answer folded into the
//! fabric's link-end columns as it streams in ([`crate::routing::history`]), so a day of every
//! port costs the columns, not the answer.

use crate::model::{Cluster, Warning};
use crate::profile_io::ParseError;
use crate::profile_io::prometheus_api::snapshots::Series;
use crate::profile_io::prometheus_api::{PromRange, check_range, range_source, stream_range};
use crate::routing::Observed;
use crate::routing::history::{HistoryFold, MAX_STEPS, StepGrid, prepare};

/// The range's counters joined to `cluster`'s link ends, with every warning.
pub fn fold_range(cluster: &Cluster, range: &PromRange) -> Result<(Observed, Vec<Warning>), ParseError> {
    check_range(range)?;
    let source = range_source(&range.url);
    // Made at the first series: a range of more steps than the server answers is the
    // server's to refuse (with its own words), and no column is allowed before.
    let make = || -> Result<HistoryFold<'_>, ParseError> {
        let grid = StepGrid::new(range.from, range.to, range.step).ok_or_else(|| {
            ParseError::invalid(
                &source,
                format!(
                    "a range of {} s at a {} s step has more than the {MAX_STEPS} points a series Prometheus answers; take a longer step",
                    range.to - range.from,
                    range.step
                ),
            )
        })?;
        Ok(HistoryFold::new(cluster, grid, &source))
    };
    let mut fold: Option<Result<HistoryFold, ParseError>> = None;
    // Series are made ready on the decoding's cores; a grid the fold refuses has none.
    let grid = StepGrid::new(range.from, range.to, range.step);
    let ready = |series: Series| grid.map(|grid| prepare(&series, grid));
    let answer = stream_range(range, &ready, &mut |prepared| {
        if let (Ok(fold), Some(prepared)) = (fold.get_or_insert_with(&make), prepared) {
            fold.add_prepared(prepared);
        }
    })?;
    let (observed, mut warnings) = fold.unwrap_or_else(make)?.finish();
    // The fold named its source before the server answered; name the endpoint that did.
    for warning in warnings.iter_mut().filter(|w| w.file == source) {
        warning.file.clone_from(&answer.source);
    }
    warnings.splice(0..0, answer.warnings);
    Ok((observed, warnings))
}
