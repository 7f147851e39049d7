//! A job's footprint (issue 26): the link ends on the routes among its hosts, through the
//! real forwarding tables, per rail. A route runs from each of a host's CAs to the CA of the
//! same index (plane) on every other host of the job, as [`super::trace`] walks it.
//!
//! The routes to one destination form a tree: once a walk reaches a switch that an earlier
//! walk to the same destination crossed, the rest of its path is that walk's, so it stops
//! there. A footprint then costs its routing trees' link ends, not pairs × hops.

use petgraph::graph::NodeIndex;

use crate::model::{Cluster, Fabric, Lid, LinkEnd};

use super::trace::next_port;

/// The link ends of one job's routes on every rail (`rails[r]`, sorted), and how many of its
/// CA pairs no table delivers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub rails: Vec<Vec<LinkEnd>>,
    pub undelivered: usize,
}

impl Footprint {
    /// Link ends on all rails.
    pub fn len(&self) -> usize {
        self.rails.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The footprint of the hosts `hosts` (indices into `cluster.hosts`; repeats are one host).
pub fn footprint(cluster: &Cluster, hosts: &[usize]) -> Footprint {
    let mut hosts = hosts.to_vec();
    hosts.sort_unstable();
    hosts.dedup();
    let mut out = Footprint::default();
    for (rail, fabric) in cluster.rails.iter().enumerate() {
        // (host, plane, LID) of every CA of the job on this rail.
        let cas: Vec<(usize, usize, Lid)> = hosts
            .iter()
            .filter_map(|&h| cluster.hosts.get(h).map(|host| (h, host.on_rail(rail))))
            .flat_map(|(h, cas)| {
                cas.iter().enumerate().filter_map(move |(k, &ca)| Some((h, k, fabric.node(ca).base_lid()?)))
            })
            .collect();
        let (ends, undelivered) = rail_footprint(fabric, &cas);
        out.rails.push(ends);
        out.undelivered += undelivered;
    }
    out
}

/// The link ends from every CA to every other host's CA of the same plane, and how many of
/// those pairs were not delivered.
fn rail_footprint(fabric: &Fabric, cas: &[(usize, usize, Lid)]) -> (Vec<LinkEnd>, usize) {
    let mut used = vec![false; fabric.link_end_count()];
    // `visited[node] == stamp`: the node was crossed on the way to the current destination.
    let mut visited = vec![0u32; fabric.graph.node_count()];
    let mut undelivered = 0;
    for (stamp, &(d_host, d_plane, d_lid)) in (1u32..).zip(cas) {
        let Some(destination) = fabric.owner_of_lid(d_lid) else { continue };
        for &(s_host, s_plane, s_lid) in cas {
            if s_host == d_host || s_plane != d_plane {
                continue;
            }
            let walk = Walk { fabric, destination: destination.node, dst: d_lid, stamp };
            if !walk.from(s_lid, &mut used, &mut visited) {
                undelivered += 1;
            }
        }
    }
    let ends = used.iter().enumerate().filter(|(_, u)| **u).map(|(i, _)| LinkEnd::from_index(i)).collect();
    (ends, undelivered)
}

/// One walk towards a destination.
struct Walk<'a> {
    fabric: &'a Fabric,
    destination: NodeIndex,
    dst: Lid,
    stamp: u32,
}

impl Walk<'_> {
    /// Marks the link ends from `src` on; false when the tables do not deliver it.
    fn from(&self, src: Lid, used: &mut [bool], visited: &mut [u32]) -> bool {
        let Some(source) = self.fabric.owner_of_lid(src) else { return false };
        // A CA sends out of the port that owns its LID; switches consult their tables.
        let Some((end, mut node, _)) = self.fabric.out_through(source.node, source.port) else {
            return false;
        };
        used[end.index()] = true;
        loop {
            if node == self.destination {
                return true;
            }
            if visited[node.index()] == self.stamp {
                // An earlier walk to this destination went on from here (delivered or not: its
                // own count says so; a loop within one walk also ends here).
                return true;
            }
            visited[node.index()] = self.stamp;
            let Ok(port) = next_port(self.fabric, node, self.dst) else { return false };
            let Some((end, next, _)) = self.fabric.out_through(node, port) else { return false };
            used[end.index()] = true;
            node = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;
    use crate::routing::trace;

    /// The footprint by the plain tracer: every ordered pair's path.
    fn by_pairs(cluster: &Cluster, hosts: &[usize]) -> Vec<LinkEnd> {
        let fabric = &cluster.rails[0];
        let lid = |h: usize| fabric.node(cluster.hosts[h].on_rail(0)[0]).base_lid().unwrap();
        let mut ends: Vec<LinkEnd> = hosts
            .iter()
            .flat_map(|&a| hosts.iter().filter(move |&&b| b != a).map(move |&b| (a, b)))
            .flat_map(|(a, b)| trace(fabric, lid(a), lid(b)).link_ends)
            .collect();
        ends.sort_unstable();
        ends.dedup();
        ends
    }

    #[test]
    fn a_footprint_is_every_link_end_the_pairs_paths_cross() {
        let cluster = Cluster::new(vec![TwoLevel::new(4, 4, 2).build()]);
        for hosts in [vec![0, 1], vec![0, 5, 9], vec![3, 7, 11, 15], (0..cluster.hosts.len()).collect()] {
            let print = footprint(&cluster, &hosts);
            assert_eq!(print.rails[0], by_pairs(&cluster, &hosts), "{hosts:?}");
            assert_eq!(print.undelivered, 0);
        }
    }

    #[test]
    fn one_host_has_no_footprint_and_repeats_count_once() {
        let cluster = Cluster::new(vec![TwoLevel::new(4, 4, 2).build()]);
        assert!(footprint(&cluster, &[2]).is_empty());
        assert_eq!(footprint(&cluster, &[2, 6, 2]), footprint(&cluster, &[6, 2]));
    }
}
