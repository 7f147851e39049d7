//! The scheduler's jobs on the time strip (issue 26): each job whose time range meets the
//! strip's span is a band under the heat map, placed by time on the same columns, packed into
//! lanes (a job takes the first lane whose last band ended before it began), so the jobs that
//! ran together stack and the ones that followed each other share a lane.

use crate::model::EpochMicros;

use super::dataset::scheduled::ScheduledJob;

/// Lanes drawn at most; the jobs that would need more are counted, not drawn.
pub const MAX_LANES: usize = 6;

/// One job's band: where it sits along the strip, as fractions of the strip's width.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobBand {
    /// Its index in `FabricData::scheduled`.
    pub job: usize,
    /// `5001 samplesort (alice)`.
    pub label: String,
    /// From 0 (the strip's start) to 1 (its end), clamped to the strip.
    pub from: f32,
    pub to: f32,
    pub lane: usize,
}

/// The bands of the jobs the strip shows, and how many jobs met its span but found no lane.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobBands {
    pub bands: Vec<JobBand>,
    pub left_out: usize,
}

impl JobBands {
    pub fn lanes(&self) -> usize {
        self.bands.iter().map(|b| b.lane + 1).max().unwrap_or(0)
    }
}

/// Column boundaries in time: the first column's start (`first_start`, an interval's own
/// start, else its time), then each column's end. `None` when a column has no time.
fn boundaries(columns: &[(u32, Option<EpochMicros>)], first_start: Option<EpochMicros>) -> Option<Vec<i64>> {
    let first = first_start.or(columns.first()?.1)?;
    let mut out = vec![first.0];
    for &(_, time) in columns {
        out.push(time?.0);
    }
    Some(out)
}

/// Where a time falls along the strip, 0 to 1: column `c` spans `c / n .. (c + 1) / n`, and a
/// time within it sits in proportion to its column's own start and end.
fn fraction(bounds: &[i64], t: i64) -> f32 {
    let n = bounds.len() - 1;
    if t <= bounds[0] {
        return 0.0;
    }
    for c in 0..n {
        let (a, b) = (bounds[c], bounds[c + 1]);
        if t <= b {
            let within = if b > a { (t - a) as f64 / (b - a) as f64 } else { 1.0 };
            return ((c as f64 + within) / n as f64) as f32;
        }
    }
    1.0
}

/// The bands of `jobs` on a strip of `columns` ((number, end time) in time order; the first
/// starts at `first_start` when known): jobs with a known start whose range meets the strip's
/// span, in start order, each in the first free lane.
pub fn job_bands(
    columns: &[(u32, Option<EpochMicros>)],
    first_start: Option<EpochMicros>,
    jobs: &[ScheduledJob],
) -> JobBands {
    let Some(bounds) = boundaries(columns, first_start).filter(|b| b.len() >= 2) else {
        return JobBands::default();
    };
    let (span_start, span_end) = (bounds[0], bounds[bounds.len() - 1]);
    let micros = |t: f64| EpochMicros((t * 1e6) as i64).0;
    let mut shown: Vec<(usize, i64, i64)> = (jobs.iter().enumerate())
        .filter_map(|(i, j)| Some((i, micros(j.start?), j.end.map_or(i64::MAX, micros))))
        .filter(|&(_, start, end)| start < span_end && end > span_start)
        .collect();
    shown.sort_by_key(|&(i, start, _)| (start, i));
    let mut lane_ends: Vec<f32> = Vec::new();
    let mut out = JobBands::default();
    for (i, start, end) in shown {
        let (from, to) = (fraction(&bounds, start), fraction(&bounds, end));
        let lane = match lane_ends.iter().position(|&e| e <= from) {
            Some(lane) => lane,
            None if lane_ends.len() < MAX_LANES => {
                lane_ends.push(0.0);
                lane_ends.len() - 1
            }
            None => {
                out.left_out += 1;
                continue;
            }
        };
        lane_ends[lane] = to;
        let job = &jobs[i];
        let label = format!("{} {} ({})", job.id, job.name, job.user);
        out.bands.push(JobBand { job: i, label, from, to, lane });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::footprint::Footprint;

    fn job(id: &str, start: Option<f64>, end: Option<f64>) -> ScheduledJob {
        ScheduledJob {
            id: id.into(),
            name: format!("n{id}"),
            user: "u".into(),
            state: "COMPLETED".into(),
            start,
            end,
            hosts: Vec::new(),
            host_names: Vec::new(),
            footprint: Footprint::default(),
        }
    }

    /// Four one-minute columns from t = 1000 s to 1240 s.
    fn bands(jobs: &[ScheduledJob]) -> JobBands {
        let columns: Vec<(u32, Option<EpochMicros>)> =
            (1..=4).map(|c| (c, Some(EpochMicros((1000 + i64::from(c) * 60) * 1_000_000)))).collect();
        job_bands(&columns, Some(EpochMicros(1_000_000_000)), jobs)
    }

    #[test]
    fn a_band_sits_where_its_job_ran_and_a_running_job_runs_to_the_end() {
        let b = bands(&[job("1", Some(1030.0), Some(1120.0)), job("2", Some(1180.0), None)]);
        assert_eq!(b.bands.len(), 2);
        assert_eq!((b.bands[0].from, b.bands[0].to), (0.125, 0.5));
        assert_eq!((b.bands[1].from, b.bands[1].to), (0.75, 1.0));
        assert_eq!(b.bands[0].label, "1 n1 (u)");
    }

    #[test]
    fn jobs_that_ran_together_stack_and_jobs_that_followed_share_a_lane() {
        let jobs = [
            job("1", Some(1000.0), Some(1100.0)),
            job("2", Some(1050.0), Some(1200.0)),
            job("3", Some(1100.0), Some(1240.0)),
        ];
        let lanes: Vec<usize> = bands(&jobs).bands.iter().map(|b| b.lane).collect();
        assert_eq!(lanes, [0, 1, 0]);
    }

    #[test]
    fn jobs_outside_the_span_or_without_a_start_are_not_drawn_and_extra_lanes_are_counted() {
        let mut jobs = vec![job("early", Some(0.0), Some(999.0)), job("unknown", None, None)];
        jobs.extend((0..MAX_LANES + 2).map(|i| job(&i.to_string(), Some(1000.0), Some(1240.0))));
        let b = bands(&jobs);
        assert_eq!(b.bands.len(), MAX_LANES);
        assert_eq!(b.left_out, 2);
        assert_eq!(b.lanes(), MAX_LANES);
        assert!(b.bands.iter().all(|band| band.job >= 2));
    }
}
