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
///
/// Every CA of a plane sends to each destination through the switch its cable reaches, and
/// from there on the route depends on that switch alone: so each destination is walked to
/// once per such first switch (a leaf, for a fat tree), not once per source CA, and the walks
/// of one destination stop where an earlier one went on (its routing tree). A 256-host job on
/// 15 leaves walks 256 × 15 times instead of 256 × 255.
fn rail_footprint(fabric: &Fabric, cas: &[(usize, usize, Lid)]) -> (Vec<LinkEnd>, usize) {
    let mut ends = Ends::new(fabric.link_end_count());
    let mut visited = vec![0u32; fabric.graph.node_count()];
    let starts: Vec<Option<(LinkEnd, NodeIndex)>> =
        cas.iter().map(|&(_, _, lid)| first_hop(fabric, lid)).collect();
    let groups = Groups::of(cas, &starts);
    // A cabled CA sends to every other CA of its plane that a port owns (a cabled one owns).
    let mut owned = vec![0usize; groups.by_plane.len()];
    for &(_, plane, lid) in cas {
        owned[plane] += usize::from(fabric.owner_of_lid(lid).is_some());
    }
    for (&(_, plane, _), start) in cas.iter().zip(&starts) {
        if let Some((end, _)) = start.filter(|_| owned[plane] >= 2) {
            ends.mark(end);
        }
    }
    let mut undelivered = 0;
    for (stamp, (&(_, plane, d_lid), d_start)) in (1u32..).zip(cas.iter().zip(&starts)) {
        let Some(destination) = fabric.owner_of_lid(d_lid) else { continue };
        // Pairs from CAs that reach no switch are not delivered (the destination's own CA
        // is no source of its own).
        undelivered += groups.unstarted(plane) - usize::from(d_start.is_none());
        let walk = Walk { fabric, destination: destination.node, dst: d_lid, stamp };
        for &(switch, sources) in groups.of_plane(plane) {
            // The destination's own CA is no source of its own.
            let sources = sources - usize::from(d_start.is_some_and(|(_, s)| s == switch));
            if sources > 0 && !walk.from_switch(switch, &mut ends, &mut visited) {
                undelivered += sources;
            }
        }
    }
    (ends.sorted(), undelivered)
}

/// The end a CA's LID sends out of and the node it reaches; `None` when no port owns the LID
/// or its port is not cabled.
fn first_hop(fabric: &Fabric, lid: Lid) -> Option<(LinkEnd, NodeIndex)> {
    let source = fabric.owner_of_lid(lid)?;
    let (end, node, _) = fabric.out_through(source.node, source.port)?;
    Some((end, node))
}

/// The job's CAs grouped by plane and the switch their cable reaches.
struct Groups {
    /// Per plane: (first switch, how many CAs reach it), by switch.
    by_plane: Vec<Vec<(NodeIndex, usize)>>,
    /// Per plane: CAs that reach no switch.
    unstarted: Vec<usize>,
}

impl Groups {
    fn of(cas: &[(usize, usize, Lid)], starts: &[Option<(LinkEnd, NodeIndex)>]) -> Groups {
        let planes = cas.iter().map(|c| c.1 + 1).max().unwrap_or(0);
        let mut switches: Vec<Vec<NodeIndex>> = vec![Vec::new(); planes];
        let mut unstarted = vec![0; planes];
        for (&(_, plane, _), start) in cas.iter().zip(starts) {
            match start {
                Some((_, switch)) => switches[plane].push(*switch),
                None => unstarted[plane] += 1,
            }
        }
        let by_plane = switches
            .into_iter()
            .map(|mut list| {
                list.sort_unstable();
                let mut counted: Vec<(NodeIndex, usize)> = Vec::new();
                for switch in list {
                    match counted.last_mut() {
                        Some((last, n)) if *last == switch => *n += 1,
                        _ => counted.push((switch, 1)),
                    }
                }
                counted
            })
            .collect();
        Groups { by_plane, unstarted }
    }

    fn of_plane(&self, plane: usize) -> &[(NodeIndex, usize)] {
        self.by_plane.get(plane).map_or(&[], Vec::as_slice)
    }

    fn unstarted(&self, plane: usize) -> usize {
        self.unstarted.get(plane).copied().unwrap_or(0)
    }
}

/// The link ends marked so far: a flag per end of the rail, and the list of those set, so a
/// small job costs its own ends, not the rail's.
struct Ends {
    used: Vec<bool>,
    list: Vec<LinkEnd>,
}

impl Ends {
    fn new(ends: usize) -> Ends {
        Ends { used: vec![false; ends], list: Vec::new() }
    }

    fn mark(&mut self, end: LinkEnd) {
        if let Some(u) = self.used.get_mut(end.index())
            && !*u
        {
            *u = true;
            self.list.push(end);
        }
    }

    fn sorted(mut self) -> Vec<LinkEnd> {
        self.list.sort_unstable();
        self.list
    }
}

/// One walk towards a destination.
struct Walk<'a> {
    fabric: &'a Fabric,
    destination: NodeIndex,
    dst: Lid,
    stamp: u32,
}

impl Walk<'_> {
    /// Marks the link ends from `node` (a source's first switch) on; false when the tables do
    /// not deliver it.
    fn from_switch(&self, mut node: NodeIndex, ends: &mut Ends, visited: &mut [u32]) -> bool {
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
            ends.mark(end);
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
    fn walking_once_per_first_switch_crosses_what_every_pair_crosses_on_three_levels() {
        use crate::model::synthetic::ThreeLevel;
        let cluster = Cluster::new(vec![ThreeLevel::k_ary(6).build()]);
        let n = cluster.hosts.len();
        let jobs: Vec<Vec<usize>> = vec![
            (0..n).collect(),
            (0..n).step_by(7).collect(),
            vec![0, 1, 2],
            vec![1, n - 1],
            (n / 3..n / 2).collect(),
        ];
        for hosts in jobs {
            let print = footprint(&cluster, &hosts);
            assert_eq!(print.rails[0], by_pairs(&cluster, &hosts), "{hosts:?}");
            assert_eq!(print.undelivered, 0);
        }
    }

    #[test]
    fn every_pair_a_broken_route_drops_is_counted_once_per_source() {
        use crate::model::LftEntry;
        use crate::model::test_fabric::{TwoLeaves, set_row, two_leaves};
        let TwoLeaves { mut fabric, spine, .. } = two_leaves();
        // Spine 0 no longer forwards to n0003 (LID 0x12): both hosts of leaf 0 lose it.
        set_row(&mut fabric, spine, Lid(0x12), LftEntry::Unreachable);
        let cluster = Cluster::new(vec![fabric]);
        let host = |name: &str| cluster.host_index(name).unwrap();
        let print = footprint(&cluster, &[host("n0001"), host("n0002"), host("n0003")]);
        assert_eq!(print.undelivered, 2, "n0001 → n0003 and n0002 → n0003");
        let whole = footprint(
            &Cluster::new(vec![two_leaves().fabric]),
            &[host("n0001"), host("n0002"), host("n0003")],
        );
        assert_eq!(whole.undelivered, 0);
        assert!(print.len() < whole.len(), "the spine's way down to leaf 1 is not crossed");
    }

    #[test]
    fn one_host_has_no_footprint_and_repeats_count_once() {
        let cluster = Cluster::new(vec![TwoLevel::new(4, 4, 2).build()]);
        assert!(footprint(&cluster, &[2]).is_empty());
        assert_eq!(footprint(&cluster, &[2, 6, 2]), footprint(&cluster, &[6, 2]));
    }
}
