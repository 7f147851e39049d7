use super::*;
use crate::model::Lid;

fn peers(list: &[(u32, u64, u64)]) -> Vec<PeerBytes> {
    list.iter().map(|&(peer, sent, recv)| PeerBytes { peer, sent, recv }).collect()
}

fn lids(list: &[(u32, u16, u64, u64)]) -> Vec<LidBytes> {
    list.iter().map(|&(port, lid, sent, recv)| LidBytes { port, lid: Lid(lid), sent, recv }).collect()
}

fn dump(region: u32, p: &[(u32, u64, u64)], l: &[(u32, u16, u64, u64)]) -> Dump {
    Dump {
        region,
        name: Some(format!("r{region}")),
        dumptime: EpochMicros(i64::from(region) * 1_000_000),
        peers: peers(p),
        lids: lids(l),
        ..Default::default()
    }
}

fn rank(rank: u32, dumps: Vec<Dump>) -> RankSection {
    RankSection { rank, host: format!("n{rank}"), dumps, ..Default::default() }
}

fn profile(ranks: Vec<RankSection>) -> Profile {
    Profile { job_ranks: ranks.len() as u32, ranks, ..Default::default() }
}

/// Worked by hand: region 2's delta is dump 2 minus dump 1, counter by counter.
#[test]
fn each_region_holds_only_its_own_bytes_for_peers_and_lids() {
    let p = profile(vec![
        rank(
            0,
            vec![
                dump(1, &[(1, 100, 10), (2, 50, 0)], &[(0, 0x11, 100, 0)]),
                dump(2, &[(1, 250, 10), (2, 50, 5), (3, 7, 0)], &[(0, 0x11, 250, 0), (0, 0x12, 5, 5)]),
            ],
        ),
        rank(1, vec![dump(1, &[(0, 10, 100)], &[]), dump(2, &[(0, 10, 250)], &[])]),
    ]);
    let (table, warnings) = region_table(&p, "p.ibprof");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(table.regions.iter().map(|r| r.number).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(table.delta(&p, 0, 0).peers, peers(&[(1, 100, 10), (2, 50, 0)]));
    assert_eq!(table.delta(&p, 1, 0).peers, peers(&[(1, 150, 0), (2, 0, 5), (3, 7, 0)]));
    assert_eq!(table.delta(&p, 1, 0).lids, lids(&[(0, 0x11, 150, 0), (0, 0x12, 5, 5)]));
    assert_eq!(table.delta(&p, 1, 1).peers, peers(&[(0, 0, 150)]));
    assert_eq!(table.total(&p, 0).0, p.ranks[0].dumps[1].peers);
    assert!(std::ptr::eq(table.total(&p, 0).0, p.ranks[0].dumps[1].peers.as_slice()), "borrowed, not copied");
    assert_eq!(table.total(&p, 1).0, peers(&[(0, 10, 250)]));
    assert_eq!(
        table.region(&p, 2).map(|(info, ranks)| (info.name.clone(), ranks.len())),
        Some((Some("r2".into()), 2))
    );
}

#[test]
fn a_counter_that_goes_down_is_clamped_at_zero_and_named_in_a_warning() {
    let p = profile(vec![rank(3, vec![dump(1, &[(1, 100, 9)], &[]), dump(2, &[(1, 60, 12)], &[])])]);
    let (table, warnings) = region_table(&p, "p.ibprof");
    assert!(table.clamped);
    assert_eq!(table.delta(&p, 1, 0).peers, peers(&[(1, 0, 3)]));
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].file, "p.ibprof");
    assert_eq!(
        warnings[0].message,
        "rank 3, region 2: peer 1 sent 100 → 60 shrank since the previous dump; delta clamped at 0"
    );
}

#[test]
fn a_rank_missing_a_region_is_unchanged_there_and_its_next_delta_spans_both() {
    let p = profile(vec![
        rank(0, vec![dump(1, &[(1, 10, 0)], &[]), dump(2, &[(1, 30, 0)], &[]), dump(3, &[(1, 60, 0)], &[])]),
        rank(1, vec![dump(1, &[(0, 5, 0)], &[]), dump(3, &[(0, 50, 0)], &[])]),
    ]);
    let (table, warnings) = region_table(&p, "p");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.starts_with("rank 1 has no dump for region 2 that other ranks have"));
    assert_eq!(table.delta(&p, 1, 1), Delta::default());
    assert_eq!(table.delta(&p, 2, 1).peers, peers(&[(0, 45, 0)]));
}

#[test]
fn a_counter_missing_from_a_later_dump_is_carried_forward_not_counted_twice() {
    let p = profile(vec![rank(
        0,
        vec![
            dump(1, &[(1, 10, 0), (2, 20, 0)], &[]),
            dump(2, &[(1, 15, 0)], &[]),
            dump(3, &[(1, 15, 0), (2, 26, 0)], &[]),
        ],
    )]);
    let (table, warnings) = region_table(&p, "p");
    assert_eq!(table.delta(&p, 1, 0).peers, peers(&[(1, 5, 0)]));
    assert_eq!(table.delta(&p, 2, 0).peers, peers(&[(2, 6, 0)]), "a counter that did not move is left out");
    assert_eq!(table.total(&p, 0).0, peers(&[(1, 15, 0), (2, 26, 0)]));
    assert!(!table.clamped, "the deltas still add up to the total");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("region 2: peer 2 of earlier dumps missing"), "{warnings:?}");
}

#[test]
fn a_counter_missing_from_the_last_dump_stays_in_the_total() {
    let p =
        profile(vec![rank(0, vec![dump(1, &[(1, 10, 0), (2, 20, 0)], &[]), dump(2, &[(1, 15, 0)], &[])])]);
    let (table, _) = region_table(&p, "p");
    assert_eq!(table.total(&p, 0).0, peers(&[(1, 15, 0), (2, 20, 0)]));
}

#[test]
fn unsorted_dumps_are_matched_by_key_and_repeated_counters_summed() {
    let d1 = dump(1, &[], &[(1, 5, 3, 0), (0, 5, 10, 1)]);
    let d2 = dump(2, &[(2, 1, 1), (1, 1, 1), (2, 1, 1)], &[(1, 5, 4, 0), (0, 5, 15, 1)]);
    let p = profile(vec![rank(0, vec![d1, d2])]);
    let (table, warnings) = region_table(&p, "p");
    assert_eq!(table.delta(&p, 1, 0).lids, lids(&[(0, 5, 5, 0), (1, 5, 1, 0)]));
    assert_eq!(table.delta(&p, 1, 0).peers, peers(&[(1, 1, 1), (2, 2, 2)]));
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].message, "rank 0, region 2: peer 2 listed twice; summed");
}

#[test]
fn many_problems_in_one_region_make_one_warning_listing_the_first_three() {
    let before: Vec<(u32, u64, u64)> = (0..5).map(|p| (p, 100, 0)).collect();
    let after: Vec<(u32, u64, u64)> = (0..5).map(|p| (p, 1, 0)).collect();
    let p = profile(vec![rank(0, vec![dump(1, &before, &[]), dump(2, &after, &[])])]);
    let (_, warnings) = region_table(&p, "p");
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].message.contains(
            "5 counters (peer 0 sent 100 → 1, peer 1 sent 100 → 1, peer 2 sent 100 → 1, and 2 more)"
        ),
        "{}",
        warnings[0].message
    );
}

#[test]
fn regions_take_the_latest_dump_time_and_the_first_name_and_warn_on_a_second_name() {
    let mut a = dump(1, &[], &[]);
    a.dumptime = EpochMicros(10);
    let mut b = dump(1, &[], &[]);
    b.dumptime = EpochMicros(20);
    b.name = None;
    let mut c = dump(1, &[], &[]);
    c.name = Some("other".into());
    c.dumptime = EpochMicros(15);
    let p = profile(vec![rank(0, vec![b]), rank(1, vec![a]), rank(2, vec![c])]);
    let (table, warnings) = region_table(&p, "p");
    assert_eq!(
        table.regions,
        vec![RegionInfo { number: 1, name: Some("r1".into()), dumptime: Some(EpochMicros(20)) }]
    );
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains(r#"named "r1" by rank 1 and "other" by rank 2"#), "{warnings:?}");
}

#[test]
fn a_rank_without_dumps_has_empty_deltas_and_total() {
    let p = profile(vec![rank(0, vec![dump(1, &[(1, 1, 1)], &[])]), rank(1, vec![])]);
    let (table, warnings) = region_table(&p, "p");
    assert_eq!(table.delta(&p, 0, 1), Delta::default());
    assert_eq!(table.total(&p, 1), (&[][..], &[][..]));
    assert_eq!(table.total(&p, 9), (&[][..], &[][..]));
    assert_eq!(warnings.len(), 1);
}

#[test]
fn the_sum_of_the_deltas_is_the_total_when_nothing_goes_down() {
    let dumps = (1..=4).map(|n| dump(n, &[(0, u64::from(n * n), 3), (1, 7, u64::from(n))], &[])).collect();
    let p = profile(vec![rank(0, dumps)]);
    let (table, warnings) = region_table(&p, "p");
    assert!(warnings.is_empty());
    assert!(!table.clamped);
    let mut sum = [(0u64, 0u64); 2];
    for region in 0..table.regions.len() {
        for c in table.delta(&p, region, 0).peers {
            sum[c.peer as usize].0 += c.sent;
            sum[c.peer as usize].1 += c.recv;
        }
    }
    let total: Vec<(u64, u64)> = table.total(&p, 0).0.iter().map(|c| (c.sent, c.recv)).collect();
    assert_eq!(sum.to_vec(), total);
}

#[test]
fn dump_times_going_backwards_are_a_warning_naming_both_regions() {
    let mut late = dump(2, &[(1, 10, 10)], &[]);
    late.dumptime = EpochMicros(500_000);
    let p = profile(vec![rank(0, vec![dump(1, &[(1, 5, 5)], &[]), late])]);
    let (_, warnings) = region_table(&p, "p");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.starts_with("rank 0, region 2: dumptime "), "{}", warnings[0].message);
    assert!(warnings[0].message.contains("is before region 1's"), "{}", warnings[0].message);
}

/// The usual first dump (sorted, every counter moved) is read from the profile, not copied;
/// one with a counter that did not move, or out of order, gets a delta of its own.
#[test]
fn a_first_dump_as_written_is_its_own_delta_without_a_copy() {
    let p = profile(vec![
        rank(
            0,
            vec![
                dump(1, &[(1, 5, 0), (2, 6, 1)], &[(0, 7, 1, 1)]),
                dump(2, &[(1, 9, 0), (2, 6, 1)], &[(0, 7, 1, 1)]),
            ],
        ),
        rank(1, vec![dump(1, &[(0, 0, 0), (2, 3, 0)], &[]), dump(2, &[(0, 0, 0), (2, 4, 0)], &[])]),
        rank(2, vec![dump(1, &[], &[]), dump(2, &[(1, 2, 0), (0, 1, 0)], &[])]),
    ]);
    let (table, warnings) = region_table(&p, "p");
    assert!(warnings.is_empty(), "{warnings:?}");
    let first = table.delta(&p, 0, 0);
    assert!(std::ptr::eq(first.peers, &p.ranks[0].dumps[0].peers[..]));
    assert!(std::ptr::eq(first.lids, &p.ranks[0].dumps[0].lids[..]));
    assert_eq!(table.delta(&p, 1, 0).peers, peers(&[(1, 4, 0)]));
    assert_eq!(table.delta(&p, 1, 0).lids, lids(&[]), "counters that did not move are left out");
    assert_eq!(table.delta(&p, 0, 1).peers, peers(&[(2, 3, 0)]), "a counter that did not move is left out");
    assert_eq!(table.delta(&p, 1, 1).peers, peers(&[(2, 1, 0)]));
    assert_eq!(table.delta(&p, 0, 2), Delta::default());
    assert_eq!(table.delta(&p, 1, 2).peers, peers(&[(0, 1, 0), (1, 2, 0)]), "sorted, so a copy");
}
