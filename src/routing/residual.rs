//! Link ends ranked by predicted bytes, observed bytes, or residual (observed − predicted, by
//! its size: a large negative residual, bytes predicted but not seen, matters as much as a large
//! positive one, bytes seen that the job did not send).

use crate::model::LinkEnd;

use super::loads::RegionLoads;
use super::observed::{Observed, residual};

/// What to rank link ends by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RankBy {
    #[default]
    Predicted,
    Observed,
    Residual,
}

/// One link end with what was predicted and what the counters saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedEnd {
    pub rail: usize,
    pub end: LinkEnd,
    /// `None` without a profile.
    pub predicted: Option<u64>,
    pub observed: Option<u64>,
    pub residual: Option<i64>,
}

/// The `top` link ends by `by`; ties by rail, then link end. Ranking by observed or residual
/// skips ends no counter covers; ends with nothing predicted nor observed are left out.
pub fn rank_ends(
    rails_link_ends: &[usize],
    predicted: Option<&RegionLoads>,
    observed: Option<&Observed>,
    by: RankBy,
    top: usize,
) -> Vec<RankedEnd> {
    let mut ends: Vec<(u64, RankedEnd)> = Vec::new();
    for (rail, &count) in rails_link_ends.iter().enumerate() {
        let load = predicted.and_then(|p| p.rails.get(rail));
        for index in 0..count {
            let end = LinkEnd::from_index(index);
            let predicted = predicted.map(|_| load.map_or(0, |l| l.at(end)));
            let observed = observed.and_then(|o| o.at(rail, end));
            let residual = observed.zip(predicted).map(|(o, p)| residual(o, p));
            let key = match by {
                RankBy::Predicted => predicted,
                RankBy::Observed => observed,
                RankBy::Residual => residual.map(i64::unsigned_abs),
            };
            let Some(key) = key else { continue };
            if predicted.unwrap_or(0) == 0 && observed.unwrap_or(0) == 0 {
                continue;
            }
            ends.push((key, RankedEnd { rail, end, predicted, observed, residual }));
        }
    }
    ends.sort_unstable_by(|a, b| {
        b.0.cmp(&a.0).then(a.1.rail.cmp(&b.1.rail)).then(a.1.end.index().cmp(&b.1.end.index()))
    });
    ends.into_iter().take(top).map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RailLoad;

    #[test]
    fn residuals_rank_by_size_whatever_their_sign() {
        let mut load = RailLoad::with_link_ends(4);
        load.bytes = crate::routing::LinkBytes::from_dense(&[100, 100, 100, 0]);
        let predicted = RegionLoads { rails: vec![load], ..Default::default() };
        let observed =
            Observed { rails: vec![vec![Some(110), Some(10), None, Some(50)]], ..Default::default() };
        let ranked = rank_ends(&[4], Some(&predicted), Some(&observed), RankBy::Residual, 10);
        let order: Vec<(usize, Option<i64>)> = ranked.iter().map(|e| (e.end.index(), e.residual)).collect();
        assert_eq!(order, vec![(1, Some(-90)), (3, Some(50)), (0, Some(10))]);
        let by_observed = rank_ends(&[4], Some(&predicted), Some(&observed), RankBy::Observed, 1);
        assert_eq!(by_observed[0].end.index(), 0);
        let by_predicted = rank_ends(&[4], Some(&predicted), None, RankBy::Predicted, 10);
        assert_eq!(by_predicted.len(), 3);
    }
}
