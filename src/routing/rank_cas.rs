//! Which CA a rank's rank-level bytes leave by on a multi-HCA host.
//!
//! A profile's `peer R sent B` counters name ranks, not ports. On a host with one CA per rail
//! that CA is the only choice. On a rail-optimized node (8 HCAs in one subnet) GPU-affinity
//! deployments (NCCL, one rank per GPU) bind local rank i to the GPU's nearest HCA, so shoal uses
//! the same convention: **local rank i** (the rank's position among the profile's ranks on that
//! host, by rank number) **uses the host's CA i mod n** on each rail, the n CAs taken in adapter
//! name order (`mlx5_0`, `mlx5_1`, … naturally sorted). On a single-HCA host this is the old
//! behaviour, CA 0 for every rank. The rail itself is still chosen by `--rail-policy`.
//!
//! Port-level counters (`lid I 0xL …`) name the port they counted and need no such choice.

use std::collections::HashMap;

use crate::model::natural::natural_cmp;
use crate::model::{Cluster, Lid};

/// Each rank with its host and its local rank there: `(rank, host, local)`, ranks deduplicated
/// (the first host given for a rank wins), in rank order.
pub fn local_ranks(pairs: impl Iterator<Item = (u32, Option<usize>)>) -> Vec<(u32, Option<usize>, u32)> {
    let mut first: HashMap<u32, Option<usize>> = HashMap::new();
    for (rank, host) in pairs {
        first.entry(rank).or_insert(host);
    }
    let mut ranks: Vec<(u32, Option<usize>)> = first.into_iter().collect();
    ranks.sort_unstable();
    let mut next_local: HashMap<Option<usize>, u32> = HashMap::new();
    ranks
        .into_iter()
        .map(|(rank, host)| {
            let local = next_local.entry(host).or_insert(0);
            let place = (rank, host, *local);
            *local += 1;
            place
        })
        .collect()
}

/// Per host and rail, the LIDs of the host's CAs in adapter-name order (`None`: LID 0). Flat;
/// [`super::rank_places`] asks it once per rank and rail.
#[derive(Clone, Debug, Default)]
pub struct HostCas {
    rails: usize,
    /// `host * rails + rail`: where that host's CAs on that rail start in `lids`, and how many.
    spans: Vec<(usize, usize)>,
    lids: Vec<Option<Lid>>,
}

impl HostCas {
    pub fn new(cluster: &Cluster) -> Self {
        let rails = cluster.rails.len();
        let mut cas =
            HostCas { rails, spans: Vec::with_capacity(cluster.hosts.len() * rails), lids: Vec::new() };
        for host in &cluster.hosts {
            for (r, fabric) in cluster.rails.iter().enumerate() {
                let mut on_rail = host.on_rail(r).to_vec();
                on_rail.sort_by(|&a, &b| {
                    natural_cmp(fabric.node(a).adapter_name(), fabric.node(b).adapter_name())
                });
                cas.spans.push((cas.lids.len(), on_rail.len()));
                cas.lids.extend(on_rail.iter().map(|&ca| fabric.node(ca).base_lid()));
            }
        }
        cas
    }

    /// The LID local rank `local` of `host` sends from on `rail`; `None` when the host has no CA
    /// there or that CA has LID 0.
    pub fn lid(&self, host: usize, rail: usize, local: u32) -> Option<Lid> {
        if rail >= self.rails {
            return None;
        }
        let &(start, len) = self.spans.get(host * self.rails + rail)?;
        // One CA per rail is the common case: no division.
        let i = match len {
            0 => return None,
            1 => 0,
            n => local as usize % n,
        };
        self.lids[start + i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_ranks_count_up_per_host_in_rank_order_whatever_the_input_order() {
        let pairs = [(5, Some(1)), (0, Some(0)), (3, Some(1)), (1, Some(0)), (2, None), (3, Some(0))];
        let places = local_ranks(pairs.into_iter());
        assert_eq!(
            places,
            [(0, Some(0), 0), (1, Some(0), 1), (2, None, 0), (3, Some(1), 0), (5, Some(1), 1)]
        );
    }
}
