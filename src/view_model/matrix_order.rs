//! The clustered order of a traffic matrix's rows (and columns, the same): entities which talk
//! among themselves sit together.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// An entity of a matrix's order: (rail, id).
type Entity = (u8, u32);

/// A candidate for the next place: its traffic with the entities placed so far.
#[derive(PartialEq)]
struct Candidate {
    weight: f64,
    entity: usize,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    /// The heaviest first; among equals the lowest position (the order is deterministic).
    fn cmp(&self, other: &Self) -> Ordering {
        self.weight.total_cmp(&other.weight).then(other.entity.cmp(&self.entity))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Orders `entities` greedily by traffic: start at the entity that moved the most bytes, then
/// always place the entity with the most traffic (both directions) to those already placed.
/// A group that talks among itself is placed whole before its weak links pull in the next, so
/// groups show as squares on the diagonal. A new group starts at the heaviest entity left;
/// entities without traffic come last, by id. `weights` are (src, dst) → |value|.
pub fn clustered(entities: &[Entity], weights: impl Iterator<Item = ((Entity, Entity), f64)>) -> Vec<Entity> {
    let mut ids: Vec<Entity> = entities.to_vec();
    ids.sort_unstable();
    let position: HashMap<Entity, usize> = ids.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    let mut partners: Vec<HashMap<usize, f64>> = vec![HashMap::new(); ids.len()];
    for ((src, dst), w) in weights {
        let (Some(&s), Some(&d)) = (position.get(&src), position.get(&dst)) else { continue };
        if s != d && w > 0.0 {
            *partners[s].entry(d).or_default() += w;
            *partners[d].entry(s).or_default() += w;
        }
    }
    let total: Vec<f64> = partners.iter().map(|p| p.values().sum()).collect();
    let mut starts: Vec<usize> = (0..ids.len()).filter(|&i| total[i] > 0.0).collect();
    starts.sort_by(|&a, &b| total[b].total_cmp(&total[a]).then(a.cmp(&b)));
    let (mut placed, mut order) = (vec![false; ids.len()], Vec::with_capacity(ids.len()));
    let mut link = vec![0.0f64; ids.len()];
    for start in starts {
        if placed[start] {
            continue;
        }
        let mut heap = BinaryHeap::from([Candidate { weight: 0.0, entity: start }]);
        while let Some(Candidate { weight, entity }) = heap.pop() {
            // Stale entries (the entity was placed, or has gained weight since) are skipped.
            if placed[entity] || weight < link[entity] {
                continue;
            }
            placed[entity] = true;
            order.push(ids[entity]);
            for (&next, &w) in &partners[entity] {
                if !placed[next] {
                    link[next] += w;
                    heap.push(Candidate { weight: link[next], entity: next });
                }
            }
        }
    }
    order.extend((0..ids.len()).filter(|&i| !placed[i]).map(|i| ids[i]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(n: u32) -> Entity {
        (0, n)
    }

    #[test]
    fn two_groups_that_talk_among_themselves_are_each_placed_whole() {
        // 0, 2, 4 talk heavily among themselves, as do 1, 3, 5; one light pair joins the groups.
        let heavy = [(0, 2), (2, 4), (4, 0), (1, 3), (3, 5), (5, 1)];
        let mut weights: Vec<((Entity, Entity), f64)> =
            heavy.iter().map(|&(a, b)| ((e(a), e(b)), 100.0)).collect();
        weights.push(((e(4), e(1)), 1.0));
        let all: Vec<Entity> = (0..7).map(e).collect();
        let order = clustered(&all, weights.into_iter());
        let ids: Vec<u32> = order.iter().map(|x| x.1).collect();
        let group = |i: u32| i % 2;
        assert_eq!(ids.len(), 7, "every entity is placed once: {ids:?}");
        assert!(ids[..3].iter().all(|&i| group(i) == group(ids[0])), "first group whole: {ids:?}");
        assert!(ids[3..6].iter().all(|&i| group(i) == group(ids[3]) && i != 6), "then the other: {ids:?}");
        assert_eq!(ids[6], 6, "an entity without traffic comes last");
    }

    #[test]
    fn the_order_starts_at_the_heaviest_entity_and_is_the_same_every_time() {
        let weights = [((e(3), e(1)), 50.0), ((e(1), e(2)), 10.0), ((e(2), e(0)), 5.0)];
        let all: Vec<Entity> = (0..4).map(e).collect();
        let first = clustered(&all, weights.into_iter());
        assert_eq!(first[0], e(1), "entity 1 moved 60 bytes, the most");
        assert_eq!(first, clustered(&all, weights.into_iter()));
        assert_eq!(first.iter().map(|x| x.1).collect::<Vec<_>>(), vec![1, 3, 2, 0]);
    }
}
