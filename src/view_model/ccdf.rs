//! CCDFs of utilisation and stall per tier and direction (issue 22, item 5), with the Pearson r
//! between the two: the seed found that runtime follows stall, and that stall and utilisation
//! part ways where credits, not bandwidth, are short.
//!
//! A percentage is binned at [`BIN`] % (O(n): ten million samples cost one pass), so each
//! point — (x, share of samples ≥ x) — is exact at its bin's lower edge; values above 200 %
//! (clock skew between snapshots) fall in the last bin.

use super::congestion::EndPlaces;
use super::link_series::LinkSeries;

/// The bin width, in percent.
pub const BIN: f64 = 0.01;
const BINS: usize = 20_001;

/// A complementary CDF: points (x %, share of samples ≥ x), x increasing, share falling from 1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ccdf {
    pub samples: u64,
    pub points: Vec<[f64; 2]>,
}

/// The CCDF of percentages; `NaN` and negative values are not samples.
pub fn ccdf_percent(values: impl IntoIterator<Item = f32>) -> Ccdf {
    let mut bins = vec![0u64; BINS];
    let mut samples = 0u64;
    for v in values {
        if v >= 0.0 {
            let bin = ((f64::from(v) / BIN) as usize).min(BINS - 1);
            bins[bin] += 1;
            samples += 1;
        }
    }
    let mut points = Vec::new();
    let mut at_least = samples;
    for (bin, &count) in bins.iter().enumerate() {
        if count > 0 {
            points.push([bin as f64 * BIN, at_least as f64 / samples as f64]);
            at_least -= count;
        }
    }
    Ccdf { samples, points }
}

/// Pearson's r of pairs; `None` with fewer than two pairs or a constant side.
pub fn pearson(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<f64> {
    let (mut n, mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for (x, y) in pairs {
        n += 1.0;
        (sx, sy) = (sx + x, sy + y);
        (sxx, syy, sxy) = (sxx + x * x, syy + y * y, sxy + x * y);
    }
    let cov = sxy - sx * sy / n;
    let (vx, vy) = (sxx - sx * sx / n, syy - sy * sy / n);
    (n >= 2.0 && vx > 0.0 && vy > 0.0).then(|| (cov / (vx * vy).sqrt()).clamp(-1.0, 1.0))
}

/// One tier and direction's CCDFs.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassCcdf {
    pub tier: u32,
    pub up: bool,
    pub utilisation: Ccdf,
    pub stall: Ccdf,
    /// Pearson's r between utilisation and stall over the samples that have both.
    pub r: Option<f64>,
}

impl ClassCcdf {
    /// `tier 2 up`.
    pub fn label(&self) -> String {
        format!("tier {} {}", self.tier, if self.up { "up" } else { "down" })
    }
}

/// Per tier and direction (by tier, up first), every interval's samples of every end.
pub fn ccdf_by_class(places: &EndPlaces, series: &LinkSeries) -> Vec<ClassCcdf> {
    let mut out = Vec::new();
    let mut classes = places.classes.clone();
    classes.sort_by_key(|&(tier, up)| (tier, !up));
    for (tier, up) in classes {
        let of_class = |e: &usize| places.class_of(*e as u32) == Some((tier, up));
        let ends: Vec<usize> = (0..places.len()).filter(of_class).collect();
        let samples = |by: &[Vec<f32>]| -> Vec<f32> {
            by.iter().flat_map(|i| ends.iter().filter_map(|&e| i.get(e).copied())).collect()
        };
        let (u, s) = (samples(&series.utilisation), samples(&series.stall));
        let both = u.iter().zip(&s).filter(|(a, b)| a.is_finite() && b.is_finite());
        let r = pearson(both.map(|(a, b)| (f64::from(*a), f64::from(*b))));
        out.push(ClassCcdf { tier, up, utilisation: ccdf_percent(u), stall: ccdf_percent(s), r });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ccdf_gives_the_share_of_samples_at_or_above_each_value() {
        let c = ccdf_percent([0.0, 10.0, 10.0, 50.0, f32::NAN]);
        assert_eq!(c.samples, 4, "NaN is no sample");
        assert_eq!(c.points, vec![[0.0, 1.0], [10.0, 0.75], [50.0, 0.25]]);
    }

    #[test]
    fn pearson_r_is_one_for_a_line_minus_one_for_a_falling_line_and_none_for_a_constant() {
        let r = pearson([(1.0, 2.0), (2.0, 4.0), (3.0, 6.5)]).unwrap();
        assert!(r > 0.99 && r <= 1.0, "{r}");
        assert!((pearson([(1.0, 3.0), (2.0, 2.0), (3.0, 1.0)]).unwrap() + 1.0).abs() < 1e-12);
        assert_eq!(pearson([(1.0, 5.0), (2.0, 5.0)]), None);
        assert_eq!(pearson([(1.0, 5.0)]), None);
    }
}
