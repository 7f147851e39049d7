use super::*;
use crate::model::synthetic::TwoLevel;

/// Two leaves of two hosts under two spines: uplinks are tier 2, up.
fn places() -> EndPlaces {
    EndPlaces::new(&Cluster::new(vec![TwoLevel::new(2, 2, 2).build()]))
}

/// The ends of a class, each with the switches it touches.
fn ends(p: &EndPlaces, tier: u32, up: bool) -> Vec<(u32, [u32; 2])> {
    (0..p.len() as u32)
        .filter(|&e| p.class_of(e) == Some((tier, up)))
        .map(|e| (e, p.touches[e as usize]))
        .collect()
}

/// The uplinks of two different leaves into one spine.
fn two_uplinks_into_one_spine(p: &EndPlaces) -> (u32, u32) {
    let up = ends(p, 2, true);
    for &(a, [la, sa]) in &up {
        if let Some(&(b, _)) = up.iter().find(|(_, [lb, sb])| *sb == sa && *lb != la) {
            return (a, b);
        }
    }
    panic!("every spine has an uplink from each leaf")
}

fn stalls(p: &EndPlaces, hot: &[(u32, f32)]) -> Vec<f32> {
    let mut v = vec![0.0; p.len()];
    for &(e, s) in hot {
        v[e as usize] = s;
    }
    v
}

#[test]
fn hot_uplinks_into_one_spine_are_one_region_and_a_hot_downlink_of_it_another() {
    let p = places();
    let (a, b) = two_uplinks_into_one_spine(&p);
    let spine = p.touches[a as usize][1];
    let (down, _) = *ends(&p, 2, false).iter().find(|(_, t)| t[0] == spine).unwrap();
    let interval = stalls(&p, &[(a, 30.0), (b, 12.0), (down, 50.0)]);
    let evolution = congestion_regions(&p, [interval.as_slice()], 10.0);
    assert_eq!(evolution.regions.len(), 2, "{evolution:?}");
    let first = &evolution.regions[0];
    assert_eq!((first.number, first.ends.clone(), first.worst_stall, first.up), (1, vec![down], 50.0, false));
    let mut joined = vec![a, b];
    joined.sort();
    assert_eq!(evolution.regions[1].ends, joined, "same spine, same tier and direction: one region");
    assert_eq!(evolution.regions[1].worst_stall, 30.0);
}

#[test]
fn ends_below_the_threshold_or_unknown_make_no_region() {
    let p = places();
    let (a, b) = two_uplinks_into_one_spine(&p);
    let interval = stalls(&p, &[(a, 9.99), (b, f32::NAN)]);
    assert!(congestion_regions(&p, [interval.as_slice()], 10.0).regions.is_empty());
}

/// A chain of uplinks a – x – c: a and x share a spine, x and c a leaf; a and c share nothing.
fn chain(p: &EndPlaces) -> [u32; 3] {
    let up = ends(p, 2, true);
    for &(a, [la, sa]) in &up {
        for &(x, [lx, sx]) in &up {
            if sx != sa || lx == la {
                continue;
            }
            if let Some(&(c, _)) = up.iter().find(|(_, [lc, sc])| *lc == lx && *sc != sx) {
                return [a, x, c];
            }
        }
    }
    panic!("two leaves under two spines hold such a chain")
}

#[test]
fn a_region_splits_when_the_end_joining_it_cools_and_merges_when_it_is_hot_again() {
    let p = places();
    let [a, x, c] = chain(&p);
    let joined = stalls(&p, &[(a, 20.0), (x, 20.0), (c, 20.0)]);
    let apart = stalls(&p, &[(a, 20.0), (c, 30.0)]);
    let evolution = congestion_regions(&p, [joined.as_slice(), apart.as_slice(), joined.as_slice()], 10.0);
    assert_eq!(evolution.by_interval, vec![0..1, 1..3, 3..4], "{evolution:?}");
    assert_eq!(evolution.regions[0].ends.len(), 3, "a chain through a spine and a leaf is one region");
    assert_eq!(evolution.later(0).collect::<Vec<_>>(), vec![1, 2], "split");
    assert_eq!(evolution.earlier(3).collect::<Vec<_>>(), vec![1, 2], "merged");
    assert_eq!(evolution.regions[1].ends, vec![c], "the worst stall is numbered first");
    assert_eq!(evolution.numbered(4).map(|r| r.interval), Some(2));
    assert!(evolution.numbered(0).is_none() && evolution.numbered(5).is_none());
}

#[test]
fn regions_of_intervals_that_share_no_end_are_not_linked() {
    let p = places();
    let [a, _, c] = chain(&p);
    let first = stalls(&p, &[(a, 15.0)]);
    let second = stalls(&p, &[(c, 15.0)]);
    let evolution = congestion_regions(&p, [first.as_slice(), second.as_slice()], 10.0);
    assert_eq!(evolution.regions.len(), 2);
    assert!(evolution.links.is_empty());
}
