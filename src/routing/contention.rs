//! Contention between jobs (issue 12): a link end is contended when two or more jobs send bytes
//! through it, and how contended it is is the bytes of the second-largest job there (what the
//! largest job has to share the end with).

use crate::model::LinkEnd;

use super::loads::{RailLoad, RegionLoads};

/// One contended link end: the jobs' bytes there, largest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContendedEnd {
    pub rail: usize,
    pub end: LinkEnd,
    /// (job index, bytes), largest first, only jobs with bytes here (at least two).
    pub jobs: Vec<(usize, u64)>,
}

impl ContendedEnd {
    /// The bytes of the second-largest job at this end.
    pub fn second_bytes(&self) -> u64 {
        self.jobs.get(1).map_or(0, |j| j.1)
    }
}

/// The bytes each job sent into one link end, by job index (zero where it sent none).
fn bytes_at(jobs: &[&RegionLoads], rail: usize, index: usize) -> impl Iterator<Item = (usize, u64)> {
    jobs.iter().enumerate().map(move |(j, l)| (j, l.rails.get(rail).map_or(0, |r| r.bytes.get(index))))
}

/// The second-largest of an end's per-job bytes (0 where fewer than two jobs sent).
fn second_largest(values: impl Iterator<Item = u64>) -> u64 {
    let (mut first, mut second) = (0u64, 0u64);
    for v in values {
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    second
}

/// Every contended end over all rails, ranked by the second-largest job's bytes (ties by rail,
/// then link end, so the list is stable). `jobs` holds one region's loads per job (usually
/// each job's total).
pub fn contended_ends(jobs: &[&RegionLoads]) -> Vec<ContendedEnd> {
    let rails = jobs.iter().map(|l| l.rails.len()).max().unwrap_or(0);
    let mut ends = Vec::new();
    for rail in 0..rails {
        let len = jobs.iter().filter_map(|l| l.rails.get(rail)).map(|r| r.bytes.len()).max().unwrap_or(0);
        for index in 0..len {
            if bytes_at(jobs, rail, index).filter(|&(_, b)| b > 0).nth(1).is_none() {
                continue;
            }
            let mut senders: Vec<(usize, u64)> =
                bytes_at(jobs, rail, index).filter(|&(_, b)| b > 0).collect();
            senders.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            ends.push(ContendedEnd { rail, end: LinkEnd::from_index(index), jobs: senders });
        }
    }
    ends.sort_by(|a, b| {
        b.second_bytes().cmp(&a.second_bytes()).then(a.rail.cmp(&b.rail)).then(a.end.cmp(&b.end))
    });
    ends
}

/// A load whose bytes at each end are the second-largest job's there: zero at ends only one
/// job (or none) used. Colouring by it shows contention and leaves single-job ends neutral.
pub fn contention_load(jobs: &[&RegionLoads]) -> RegionLoads {
    let rails = jobs.iter().map(|l| l.rails.len()).max().unwrap_or(0);
    let rails = (0..rails)
        .map(|rail| {
            let len = jobs.iter().filter_map(|l| l.rails.get(rail)).map(|r| r.bytes.len()).max().unwrap_or(0);
            let bytes =
                (0..len).map(|index| second_largest(bytes_at(jobs, rail, index).map(|(_, b)| b))).collect();
            RailLoad { bytes, ..Default::default() }
        })
        .collect();
    RegionLoads { rails, ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(bytes: &[u64]) -> RegionLoads {
        RegionLoads {
            rails: vec![RailLoad { bytes: bytes.iter().copied().collect(), ..Default::default() }],
            ..Default::default()
        }
    }

    #[test]
    fn two_jobs_sharing_an_end_make_it_contended_by_the_second_largest_bytes() {
        let md = load(&[100, 0, 5, 7]);
        let io = load(&[30, 9, 0, 70]);
        let ends = contended_ends(&[&md, &io]);
        assert_eq!(ends.len(), 2, "ends 0 and 3: ends 1 and 2 carry one job each");
        assert_eq!((ends[0].end.index(), ends[0].second_bytes()), (0, 30));
        assert_eq!(ends[0].jobs, [(0, 100), (1, 30)]);
        assert_eq!((ends[1].end.index(), ends[1].second_bytes()), (3, 7));
        assert_eq!(ends[1].jobs, [(1, 70), (0, 7)]);
    }

    #[test]
    fn the_contention_load_is_zero_where_one_job_sends() {
        let a = load(&[100, 0, 5, 7]);
        let b = load(&[30, 9, 0, 70]);
        let c = load(&[50, 0, 0, 1]);
        assert_eq!(contention_load(&[&a, &b, &c]).rails[0].bytes.to_dense(), [50, 0, 0, 7]);
    }

    #[test]
    fn one_job_contends_with_nobody() {
        let a = load(&[100, 3]);
        assert!(contended_ends(&[&a]).is_empty());
        assert_eq!(contention_load(&[&a]).rails[0].bytes.to_dense(), [0, 0]);
    }
}
