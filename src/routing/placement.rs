//! Placement what-ifs (issue 12): which fabric hosts a job's ranks run on.
//!
//! A job is placed as recorded (its profile's hosts, through `--host-map`), or by a policy that
//! takes hosts no other job holds:
//! - `linear`: free hosts in fabric order, leaf by leaf (see [`leaf_groups`]);
//! - `random-node:SEED`: free hosts shuffled;
//! - `random-switch:SEED`: the thesis's policy: hosts grouped by leaf switch, the groups shuffled
//!   and taken whole, one after another, until the job fits; ranks fill them in order;
//! - `hosts:FILE`: the hosts listed, one per line, in rank order.
//!
//! Ranks fill hosts in rank order, as many per host as the job's profile put on its busiest
//! recorded host (one for a synthetic pattern, which records no hosts).
//!
//! Shuffles use [`SplitMix64`] and the Fisher–Yates walk written out in [`shuffle`], so a seed
//! places a job the same way in every version of shoal.

use std::collections::HashSet;

use petgraph::graph::NodeIndex;

use crate::model::{Cluster, NodeKind};

/// How one job's ranks are put on hosts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PlacementPolicy {
    /// The hosts the profile recorded.
    #[default]
    AsRecorded,
    Linear,
    RandomNode(u64),
    RandomSwitch(u64),
    /// Host names in rank order (read from `hosts:FILE`).
    Hosts(Vec<String>),
}

impl PlacementPolicy {
    /// `as-recorded`, `linear`, `random-node:7`, `random-switch:7` or `hosts:FILE` (the file's
    /// path is returned for the caller to read: this layer reads no file).
    pub fn parse(text: &str) -> Result<ParsedPolicy, String> {
        let seed = |s: &str| {
            s.parse::<u64>().map_err(|_| format!("`{text}`: the seed must be a whole number, got `{s}`"))
        };
        Ok(match text.split_once(':') {
            None if text == "as-recorded" => ParsedPolicy::Ready(PlacementPolicy::AsRecorded),
            None if text == "linear" => ParsedPolicy::Ready(PlacementPolicy::Linear),
            Some(("random-node", s)) => ParsedPolicy::Ready(PlacementPolicy::RandomNode(seed(s)?)),
            Some(("random-switch", s)) => ParsedPolicy::Ready(PlacementPolicy::RandomSwitch(seed(s)?)),
            Some(("hosts", path)) if !path.is_empty() => ParsedPolicy::HostsFile(path.to_string()),
            _ => {
                return Err(format!(
                    "unknown placement `{text}`: expected as-recorded, linear, random-node:SEED, \
                     random-switch:SEED or hosts:FILE"
                ));
            }
        })
    }

    /// The command-line spelling, for all but a host list (its file is not kept).
    pub fn spelling(&self) -> Option<String> {
        match self {
            PlacementPolicy::AsRecorded => Some("as-recorded".into()),
            PlacementPolicy::Linear => Some("linear".into()),
            PlacementPolicy::RandomNode(seed) => Some(format!("random-node:{seed}")),
            PlacementPolicy::RandomSwitch(seed) => Some(format!("random-switch:{seed}")),
            PlacementPolicy::Hosts(_) => None,
        }
    }

    pub fn is_placed(&self) -> bool {
        *self != PlacementPolicy::AsRecorded
    }
}

/// A parsed policy, or the host file it still needs read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedPolicy {
    Ready(PlacementPolicy),
    HostsFile(String),
}

/// Why a job could not be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("job {job} needs {needed} hosts but only {free} are free (the other jobs hold the rest)")]
    TooFewHosts { job: String, needed: usize, free: usize },
    #[error("job {job}: host {host} (rank order position {line}) is not in the fabric")]
    UnknownHost { job: String, host: String, line: usize },
    #[error("job {job}: host {host} is already held by job {holder}")]
    HostTaken { job: String, host: String, holder: String },
    #[error("job {job}: host {host} is listed twice")]
    HostTwice { job: String, host: String },
}

/// A leaf switch: (rail, node); its hosts are listed as (port, host).
type LeafKey = (usize, NodeIndex);

/// Hosts grouped by the leaf switch their adapter is cabled to (on the lowest rail the host is
/// on), in fabric order: leaves in the order their rail's topology lists switches, each leaf's
/// hosts by port number. Hosts cabled to no switch form one last group.
pub fn leaf_groups(cluster: &Cluster) -> Vec<Vec<usize>> {
    let mut by_leaf: Vec<(LeafKey, Vec<(u8, usize)>)> = Vec::new();
    let mut loose = Vec::new();
    for (h, host) in cluster.hosts.iter().enumerate() {
        let Some((rail, ca)) =
            (0..cluster.rails.len()).find_map(|r| host.on_rail(r).first().map(|&ca| (r, ca)))
        else {
            continue;
        };
        let fabric = &cluster.rails[rail];
        let leaf = fabric.node(ca).ports.keys().find_map(|&port| {
            let (_, far, far_port) = fabric.out_through(ca, port)?;
            (fabric.node(far).kind == NodeKind::Switch).then_some((far, far_port.0))
        });
        match leaf {
            Some((switch, port)) => match by_leaf.iter_mut().find(|(k, _)| *k == (rail, switch)) {
                Some((_, hosts)) => hosts.push((port, h)),
                None => by_leaf.push(((rail, switch), vec![(port, h)])),
            },
            None => loose.push(h),
        }
    }
    by_leaf.sort_by_key(|(k, _)| *k);
    let mut groups: Vec<Vec<usize>> = by_leaf
        .into_iter()
        .map(|(_, mut hosts)| {
            hosts.sort_unstable();
            hosts.into_iter().map(|(_, h)| h).collect()
        })
        .collect();
    if !loose.is_empty() {
        groups.push(loose);
    }
    groups
}

/// One job to place: its name, its sorted distinct ranks, and how many go on one host.
#[derive(Clone, Debug)]
pub struct PlacementRequest<'a> {
    pub job: &'a str,
    pub ranks: &'a [u32],
    pub ranks_per_host: usize,
    pub policy: &'a PlacementPolicy,
}

/// Places one job on hosts not in `taken` (host index → the job holding it); returns
/// (rank, host index) in rank order, and marks the hosts it took.
pub fn place(
    cluster: &Cluster,
    groups: &[Vec<usize>],
    request: &PlacementRequest<'_>,
    taken: &mut Vec<Option<String>>,
) -> Result<Vec<(u32, usize)>, PlacementError> {
    let per_host = request.ranks_per_host.max(1);
    let needed = request.ranks.len().div_ceil(per_host);
    let free = |h: &usize| taken.get(*h).is_none_or(Option::is_none);
    let hosts: Vec<usize> = match request.policy {
        PlacementPolicy::AsRecorded => return Ok(Vec::new()),
        PlacementPolicy::Linear => groups.iter().flatten().copied().filter(free).collect(),
        PlacementPolicy::RandomNode(seed) => {
            let mut hosts: Vec<usize> = groups.iter().flatten().copied().filter(free).collect();
            shuffle(&mut hosts, &mut SplitMix64::new(*seed));
            hosts
        }
        PlacementPolicy::RandomSwitch(seed) => {
            let mut free_groups: Vec<Vec<usize>> = groups
                .iter()
                .map(|g| g.iter().copied().filter(free).collect::<Vec<_>>())
                .filter(|g| !g.is_empty())
                .collect();
            shuffle(&mut free_groups, &mut SplitMix64::new(*seed));
            free_groups.into_iter().flatten().collect()
        }
        PlacementPolicy::Hosts(names) => listed_hosts(cluster, request.job, names, taken)?,
    };
    if hosts.len() < needed {
        return Err(PlacementError::TooFewHosts { job: request.job.to_string(), needed, free: hosts.len() });
    }
    if taken.len() < cluster.hosts.len() {
        taken.resize(cluster.hosts.len(), None);
    }
    for &h in &hosts[..needed] {
        taken[h] = Some(request.job.to_string());
    }
    Ok(request.ranks.iter().enumerate().map(|(i, &rank)| (rank, hosts[i / per_host])).collect())
}

fn listed_hosts(
    cluster: &Cluster,
    job: &str,
    names: &[String],
    taken: &[Option<String>],
) -> Result<Vec<usize>, PlacementError> {
    let mut seen = HashSet::new();
    let mut hosts = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let host = cluster.host_index(name).ok_or_else(|| PlacementError::UnknownHost {
            job: job.to_string(),
            host: name.clone(),
            line: i + 1,
        })?;
        if let Some(Some(holder)) = taken.get(host) {
            return Err(PlacementError::HostTaken {
                job: job.to_string(),
                host: name.clone(),
                holder: holder.clone(),
            });
        }
        if !seen.insert(host) {
            return Err(PlacementError::HostTwice { job: job.to_string(), host: name.clone() });
        }
        hosts.push(host);
    }
    Ok(hosts)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by the golden-ratio
/// constant and mixed. Written out here so that seeds reproduce across versions of shoal and of
/// its dependencies.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Fisher–Yates, from the last item down: item `i` swaps with item `next_u64() mod (i + 1)`.
pub fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;

    /// 4 leaves of 4 hosts: n0001..n0004 on the first leaf, and so on.
    fn cluster() -> Cluster {
        Cluster::new(vec![TwoLevel::new(4, 4, 2).build()])
    }

    fn run(
        cluster: &Cluster,
        policy: PlacementPolicy,
        ranks: u32,
        taken: &mut Vec<Option<String>>,
    ) -> Vec<usize> {
        let ranks: Vec<u32> = (0..ranks).collect();
        let request = PlacementRequest { job: "j", ranks: &ranks, ranks_per_host: 1, policy: &policy };
        place(cluster, &leaf_groups(cluster), &request, taken).unwrap().into_iter().map(|(_, h)| h).collect()
    }

    fn leaf_of(groups: &[Vec<usize>], host: usize) -> usize {
        groups.iter().position(|g| g.contains(&host)).unwrap()
    }

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // The first outputs of the reference implementation for seed 1234567.
        let mut rng = SplitMix64::new(1234567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(first, [6457827717110365317, 3203168211198807973, 9817491932198370423]);
    }

    #[test]
    fn leaf_groups_hold_each_leafs_hosts_in_port_order() {
        let c = cluster();
        let groups = leaf_groups(&c);
        assert_eq!(groups.len(), 4);
        assert!(groups.iter().all(|g| g.len() == 4));
        let names: Vec<&str> = groups[0].iter().map(|&h| c.hosts[h].name.as_str()).collect();
        assert_eq!(names, ["n0001", "n0002", "n0003", "n0004"]);
    }

    #[test]
    fn linear_takes_free_hosts_in_fabric_order() {
        let c = cluster();
        let mut taken = vec![None; c.hosts.len()];
        taken[0] = Some("other".into());
        let hosts = run(&c, PlacementPolicy::Linear, 3, &mut taken);
        assert_eq!(hosts, [1, 2, 3]);
        assert_eq!(taken[1].as_deref(), Some("j"));
    }

    #[test]
    fn random_switch_fills_whole_leaf_switches_with_ranks_in_order() {
        let c = cluster();
        let groups = leaf_groups(&c);
        for seed in 0..20 {
            let mut taken = vec![None; c.hosts.len()];
            let hosts = run(&c, PlacementPolicy::RandomSwitch(seed), 8, &mut taken);
            let leaves: Vec<usize> = hosts.iter().map(|&h| leaf_of(&groups, h)).collect();
            assert_eq!(leaves[..4], [leaves[0]; 4], "ranks 0-3 fill one whole leaf (seed {seed})");
            assert_eq!(leaves[4..], [leaves[4]; 4], "ranks 4-7 fill the next (seed {seed})");
            assert_ne!(leaves[0], leaves[4]);
            assert_eq!(hosts[..4], groups[leaves[0]][..], "ranks follow the leaf's hosts in order");
        }
    }

    #[test]
    fn placements_are_deterministic_per_seed_and_differ_between_seeds() {
        let c = cluster();
        let a = run(&c, PlacementPolicy::RandomNode(7), 10, &mut Vec::new());
        let b = run(&c, PlacementPolicy::RandomNode(7), 10, &mut Vec::new());
        let other = run(&c, PlacementPolicy::RandomNode(8), 10, &mut Vec::new());
        assert_eq!(a, b);
        assert_ne!(a, other);
        let s = run(&c, PlacementPolicy::RandomSwitch(7), 8, &mut Vec::new());
        assert_eq!(s, run(&c, PlacementPolicy::RandomSwitch(7), 8, &mut Vec::new()));
    }

    #[test]
    fn placed_jobs_never_share_a_host() {
        let c = cluster();
        let mut taken = Vec::new();
        let first = run(&c, PlacementPolicy::RandomNode(1), 7, &mut taken);
        let second = run(&c, PlacementPolicy::RandomSwitch(2), 9, &mut taken);
        let all: HashSet<usize> = first.iter().chain(&second).copied().collect();
        assert_eq!(all.len(), 16, "every host used exactly once");
    }

    #[test]
    fn too_few_free_hosts_is_an_error_naming_the_job() {
        let c = cluster();
        let mut taken = vec![Some("md".to_string()); 10];
        let ranks: Vec<u32> = (0..7).collect();
        let policy = PlacementPolicy::Linear;
        let request = PlacementRequest { job: "io", ranks: &ranks, ranks_per_host: 1, policy: &policy };
        let error = place(&c, &leaf_groups(&c), &request, &mut taken).unwrap_err();
        assert_eq!(error, PlacementError::TooFewHosts { job: "io".into(), needed: 7, free: 6 });
    }

    #[test]
    fn a_host_list_may_not_name_a_taken_host() {
        let c = cluster();
        let mut taken = vec![Some("md".to_string())];
        let ranks = [0u32];
        let policy = PlacementPolicy::Hosts(vec!["n0001".into()]);
        let request = PlacementRequest { job: "io", ranks: &ranks, ranks_per_host: 1, policy: &policy };
        let error = place(&c, &leaf_groups(&c), &request, &mut taken).unwrap_err();
        assert!(error.to_string().contains("already held by job md"), "{error}");
    }

    #[test]
    fn several_ranks_per_host_fill_a_host_before_the_next() {
        let c = cluster();
        let ranks: Vec<u32> = (0..5).collect();
        let policy = PlacementPolicy::Linear;
        let request = PlacementRequest { job: "j", ranks: &ranks, ranks_per_host: 2, policy: &policy };
        let placed = place(&c, &leaf_groups(&c), &request, &mut Vec::new()).unwrap();
        assert_eq!(placed, [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)]);
    }

    #[test]
    fn policies_parse_from_their_command_line_spelling() {
        assert_eq!(PlacementPolicy::parse("linear"), Ok(ParsedPolicy::Ready(PlacementPolicy::Linear)));
        assert_eq!(
            PlacementPolicy::parse("random-switch:7"),
            Ok(ParsedPolicy::Ready(PlacementPolicy::RandomSwitch(7)))
        );
        assert_eq!(PlacementPolicy::parse("hosts:/tmp/h"), Ok(ParsedPolicy::HostsFile("/tmp/h".into())));
        assert!(PlacementPolicy::parse("random-node:x").unwrap_err().contains("seed"));
        assert!(PlacementPolicy::parse("best").unwrap_err().contains("unknown placement"));
    }
}
