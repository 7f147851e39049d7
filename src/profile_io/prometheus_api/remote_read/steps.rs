//! A series' stored samples turned into the points `query_range` answers for it: at each step
//! time T, the latest sample at or before T, if it lies within the lookback (T − 5 min, both
//! ends included, as Prometheus 2's `vectorSelectorSingle` takes it) and is not a stale marker
//! (a stale marker ends the series there, as a gap). Values become counts as the JSON's text
//! would: the same [`parse_value`] of the same shortest decimal text.

use super::super::super::counters::prometheus::parse_value;
use super::super::snapshots::Point;

/// Prometheus's default `--query.lookback-delta`.
pub const LOOKBACK_MS: i64 = 5 * 60 * 1000;

/// The value bits of Prometheus's stale marker (`value.StaleNaN`).
const STALE_NAN: u64 = 0x7ff0_0000_0000_0002;

/// The range's step times: `from_ms + k × step_ms` for `k < steps`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps {
    pub from_ms: i64,
    pub step_ms: i64,
    pub steps: usize,
}

impl Steps {
    /// Where the stored samples must be read from and to (ms, both included).
    pub fn window(&self) -> (i64, i64) {
        (self.from_ms - LOOKBACK_MS, self.from_ms + self.step_ms * (self.steps as i64 - 1))
    }
}

/// The points of `samples` (in time order) at each step where `query_range` gives one.
pub fn step_points(samples: &[(i64, f64)], steps: Steps) -> Vec<Point> {
    // One point a sample, as a scrape at the step gives; more where samples are sparser.
    let mut points = Vec::with_capacity(samples.len().min(steps.steps));
    let mut next = 0; // the first sample after the step time
    for k in 0..steps.steps {
        let at = steps.from_ms + steps.step_ms * k as i64;
        while next < samples.len() && samples[next].0 <= at {
            next += 1;
        }
        let Some(&(t, value)) = next.checked_sub(1).map(|i| &samples[i]) else { continue };
        if t < at - LOOKBACK_MS || value.to_bits() == STALE_NAN {
            continue;
        }
        points.push(Point { ms: at, value: count_of(value) });
    }
    points
}

/// A value as [`Point::new`] reads the JSON's text of it (Go's shortest `'f'` format, which
/// Rust's `Display` of an `f64` writes alike): integers up to 2^53 directly, others by text.
#[inline]
pub fn count_of(value: f64) -> Result<(u64, bool), Box<str>> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    // `value as u64` truncates: equal back only for a whole number (no libm call per point).
    if (0.0..=EXACT).contains(&value) && (value as u64) as f64 == value {
        return Ok((value as u64, true));
    }
    count_of_text(value)
}

/// A value that is no whole number up to 2^53, read through its text.
#[cold]
#[inline(never)]
fn count_of_text(value: f64) -> Result<(u64, bool), Box<str>> {
    let text = match value {
        v if v.is_nan() => "NaN".to_string(),
        f64::INFINITY => "+Inf".to_string(),
        f64::NEG_INFINITY => "-Inf".to_string(),
        v => v.to_string(),
    };
    parse_value(&text).ok_or_else(|| text.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: Steps = Steps { from_ms: 600_000, step_ms: 60_000, steps: 8 };

    fn counts(points: &[Point]) -> Vec<(f64, u64)> {
        points.iter().map(|p| (p.ms as f64 / 1000.0, p.value.as_ref().unwrap().0)).collect()
    }

    #[test]
    fn each_step_takes_the_latest_sample_at_or_before_it_within_five_minutes() {
        // Samples at 590 s, 600 s (on a step), 655 s; then none until 1,000 s.
        let samples = [(590_000, 1.0), (600_000, 2.0), (655_000, 3.0), (1_000_000, 9.0)];
        let points = step_points(&samples, GRID);
        // 660 … 900: 655 s's value, the last at 900 s is 245 s old. 960 s: still within 305 s?
        // No: 960 − 655 = 305 s > 300 s, a gap. 1,020 s: the sample at 1,000 s.
        let expected = [(600.0, 2), (660.0, 3), (720.0, 3), (780.0, 3), (840.0, 3), (900.0, 3), (1020.0, 9)];
        assert_eq!(counts(&points), expected);
    }

    #[test]
    fn the_lookback_includes_a_sample_exactly_five_minutes_old() {
        let points = step_points(&[(300_000, 4.0)], GRID);
        assert_eq!(counts(&points), [(600.0, 4)]);
    }

    #[test]
    fn a_stale_marker_ends_the_series_until_the_next_sample() {
        let stale = f64::from_bits(STALE_NAN);
        let samples = [(600_000, 1.0), (630_000, stale), (700_000, 5.0)];
        assert_eq!(counts(&step_points(&samples, GRID))[..3], [(600.0, 1), (720.0, 5), (780.0, 5)]);
    }

    #[test]
    fn values_become_counts_as_the_json_text_of_them_would() {
        assert_eq!(count_of(1234.0), Ok((1234, true)));
        // 2^60 + 2^8: its shortest decimal text is 1152921504606847000, read as that integer.
        let big = (1u64 << 60) as f64 + 256.0;
        assert_eq!(count_of(big), parse_value(&big.to_string()).ok_or("".into()));
        assert_eq!(count_of(f64::NAN), Err("NaN".into()));
        assert_eq!(count_of(f64::INFINITY), Err("+Inf".into()));
        assert_eq!(count_of(-3.0), Err("-3".into()));
        assert_eq!(count_of(1.5), Err("1.5".into()));
    }
}
