//! A synthetic time-step loop: an MPI job that marks every step with `MPI_Pcontrol(1)`, so each
//! step is a region with its own dump time. For the time strip's tests and the many-region
//! benchmark (issue 13: 20,000 regions on the two-rail sample), built in memory instead of
//! committed as a large file.

use crate::model::{Dump, EpochMicros, PeerBytes, Profile, ProfileSource, RankSection};

/// When the synthetic job starts (2023-11-14 22:13:20 UTC, in microseconds since the epoch).
const START: EpochMicros = EpochMicros(1_700_000_000_000_000);

/// The shape of a time-step profile; see [`TimeSteps::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeSteps {
    pub ranks: u32,
    pub steps: u32,
}

impl TimeSteps {
    pub fn new(ranks: u32, steps: u32) -> Self {
        TimeSteps { ranks, steps }
    }

    /// Builds the profile. Rank `r` runs on `hosts[r × hosts.len() / ranks]` (spread over the
    /// machine, so ring neighbours sit on different leaves and their bytes climb the tree) and,
    /// in every step, sends a halo to ranks `r − 1` and `r + 1` (mod ranks). The halo grows in
    /// four phases of 1/4 of the run (256 KiB, ×2, ×3, ×4) and varies a little by rank and step;
    /// every 100th step is a checkpoint where each rank also sends 4 MiB to rank 0. A step takes
    /// 40 ms plus up to 9 ms, a checkpoint 400 ms. Dumps are cumulative, named
    /// `MPI_Pcontrol(1)` as the collector names them. No hosts: empty host names.
    pub fn build(&self, hosts: &[String]) -> Profile {
        let ranks = self.ranks;
        let step_end = self.step_ends();
        let sections = (0..ranks)
            .map(|r| {
                let host = match hosts.len() {
                    0 => String::new(),
                    n => hosts[(r as usize * n / ranks.max(1) as usize).min(n - 1)].clone(),
                };
                let mut sent = vec![0u64; ranks as usize];
                let mut recv = vec![0u64; ranks as usize];
                let dumps = (0..self.steps)
                    .map(|step| {
                        for (to, bytes) in self.sends(r, step) {
                            sent[to as usize] += bytes;
                        }
                        for from in 0..ranks {
                            for (to, bytes) in self.sends(from, step) {
                                if to == r {
                                    recv[from as usize] += bytes;
                                }
                            }
                        }
                        let peers = (0..ranks)
                            .filter(|&p| sent[p as usize] > 0 || recv[p as usize] > 0)
                            .map(|p| PeerBytes { peer: p, sent: sent[p as usize], recv: recv[p as usize] })
                            .collect();
                        Dump {
                            region: step + 1,
                            name: Some("MPI_Pcontrol(1)".into()),
                            dumptime: EpochMicros(step_end[step as usize] + i64::from(r % 13)),
                            peers,
                            lids: Vec::new(),
                            ..Default::default()
                        }
                    })
                    .collect();
                RankSection {
                    rank: r,
                    host,
                    pid: Some(30_000 + r),
                    starttime: START,
                    ports: Vec::new(),
                    dumps,
                }
            })
            .collect();
        Profile {
            job_ranks: ranks,
            mpi: Some("synthetic time steps".into()),
            source: Some(ProfileSource::Pmpi),
            ranks: sections,
        }
    }

    /// Whether `step` (from 0) is a checkpoint.
    pub fn is_checkpoint(step: u32) -> bool {
        step % 100 == 99
    }

    /// What rank `from` sends in `step`: (to, bytes). Only the rank's own ring neighbours and,
    /// on a checkpoint, rank 0, so a rank's counters name the same few peers throughout.
    fn sends(&self, from: u32, step: u32) -> Vec<(u32, u64)> {
        let ranks = self.ranks;
        if ranks < 2 {
            return Vec::new();
        }
        let phase = u64::from(step) * 4 / u64::from(self.steps.max(1)) + 1;
        let halo = |to: u32| (256 << 10) * phase + u64::from((from * 7 + to * 3 + step) % 11) * 4096;
        let mut out = vec![((from + 1) % ranks, halo((from + 1) % ranks))];
        let left = (from + ranks - 1) % ranks;
        if left != (from + 1) % ranks {
            out.push((left, halo(left)));
        }
        if Self::is_checkpoint(step) && from != 0 {
            out.push((0, 4 << 20));
        }
        out
    }

    /// When each step ends, in epoch microseconds.
    fn step_ends(&self) -> Vec<i64> {
        let mut at = START.0;
        (0..self.steps)
            .map(|step| {
                at += if Self::is_checkpoint(step) {
                    400_000
                } else {
                    40_000 + i64::from(step * 7 % 10) * 1_000
                };
                at
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::region_table;

    #[test]
    fn each_step_is_a_region_whose_delta_is_that_steps_halo() {
        let profile = TimeSteps::new(4, 200).build(&[]);
        let (table, warnings) = region_table(&profile, "steps");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(table.regions.len(), 200);
        assert!(!table.clamped);
        let (_, ranks) = table.region(&profile, 1).unwrap();
        let sent: Vec<(u32, u64)> = ranks[1].peers.iter().map(|p| (p.peer, p.sent)).collect();
        let expected: Vec<(u32, u64)> = {
            let mut v = TimeSteps::new(4, 200).sends(1, 0);
            v.sort();
            v
        };
        assert_eq!(sent.iter().filter(|p| p.1 > 0).copied().collect::<Vec<_>>(), expected);
        let (_, checkpoint) = table.region(&profile, 100).unwrap();
        assert!(checkpoint[3].peers.iter().any(|p| p.peer == 0 && p.sent >= 4 << 20));
    }

    #[test]
    fn dump_times_rise_step_by_step_and_checkpoints_take_longer() {
        let profile = TimeSteps::new(2, 101).build(&["a".into(), "b".into()]);
        let times: Vec<i64> = profile.ranks[0].dumps.iter().map(|d| d.dumptime.0).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(times[99] - times[98], 400_000);
        assert_eq!(profile.ranks[1].host, "b");
    }
}
