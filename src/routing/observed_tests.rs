use super::*;
use crate::model::EpochMicros;
use crate::model::counters::{CounterWidth, DataCounter, PortOwner, PortSample, TakenAt, TimeSource};
use crate::model::port_counters::{Count, CounterKind};
use crate::model::synthetic::TwoLevel;
use crate::model::{PortNum, RailId};

fn cluster() -> Cluster {
    Cluster::new(vec![TwoLevel::new(2, 2, 1).build(), TwoLevel::new(2, 2, 1).rail(RailId(1), 0x1000).build()])
}

/// The sending (owner, port) of link end `index` on `rail`, named by node GUID.
fn sender(cluster: &Cluster, rail: usize, index: usize) -> (PortOwner, PortNum) {
    let fabric = &cluster.rails[rail];
    let ((node, port), _) = fabric.link_end_nodes(LinkEnd::from_index(index)).unwrap();
    (PortOwner::Guid(fabric.node(node).guid), port)
}

fn sample(at: (PortOwner, PortNum), xmit: Option<u64>, rcv: Option<u64>, width: CounterWidth) -> PortSample {
    let counter = |w: u64| DataCounter::from_words(w, width).unwrap();
    PortSample {
        owner: at.0,
        port: at.1,
        xmit: xmit.map(counter),
        rcv: rcv.map(counter),
        line: 1,
        other: None,
    }
}

fn input(source: &str, ports: Vec<PortSample>) -> CounterInput {
    CounterInput { rail: None, snapshot: Snapshot { source: source.into(), ports, ..Default::default() } }
}

#[test]
fn one_snapshot_gives_four_bytes_per_word_on_the_sending_end() {
    let c = cluster();
    let at = sender(&c, 0, 0);
    let (observed, warnings) =
        observe(&c, &[input("s", vec![sample(at, Some(10), None, CounterWidth::Bits64)])]).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), Some(40));
    assert_eq!(observed.at(0, LinkEnd::from_index(1)), None);
    assert_eq!(observed.covered(), 1);
}

#[test]
fn a_received_counter_fills_the_far_end_only_where_its_sender_said_nothing() {
    let c = cluster();
    let near = sender(&c, 0, 0);
    let far = sender(&c, 0, 1);
    let ports = vec![
        sample(near, Some(10), Some(3), CounterWidth::Bits64),
        sample(far, None, Some(9), CounterWidth::Bits64),
    ];
    let (observed, _) = observe(&c, &[input("s", ports)]).unwrap();
    assert_eq!(observed.at(0, LinkEnd::from_index(1)), Some(12), "far end from the near port's rcv");
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), Some(40), "transmit wins over the far port's rcv");
}

#[test]
fn two_snapshots_give_the_difference_and_name_resets_and_saturation() {
    let c = cluster();
    let (a, b, d) = (sender(&c, 0, 0), sender(&c, 0, 2), sender(&c, 0, 4));
    let before = vec![
        sample(a, Some(100), None, CounterWidth::Bits64),
        sample(b, Some(500), None, CounterWidth::Bits64),
        sample(d, Some(1), None, CounterWidth::Bits32),
    ];
    let after = vec![
        sample(a, Some(350), None, CounterWidth::Bits64),
        sample(b, Some(20), None, CounterWidth::Bits64),
        sample(d, Some(0xffff_ffff), None, CounterWidth::Bits32),
    ];
    let (observed, warnings) = observe(&c, &[input("before", before), input("after", after)]).unwrap();
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), Some(1000));
    assert_eq!(observed.at(0, LinkEnd::from_index(2)), None);
    assert_eq!(observed.at(0, LinkEnd::from_index(4)), None);
    let text: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(text.iter().any(|m| m.contains("saturated")), "{text:?}");
    assert!(text.iter().any(|m| m.contains("reset")), "{text:?}");
}

#[test]
fn guids_find_their_rail_and_lids_belong_to_rail_0_unless_told() {
    let c = cluster();
    let on_rail1 = sender(&c, 1, 0);
    let (observed, _) =
        observe(&c, &[input("g", vec![sample(on_rail1, Some(1), None, CounterWidth::Bits64)])]).unwrap();
    assert_eq!(observed.at(1, LinkEnd::from_index(0)), Some(4));
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), None);

    let fabric = &c.rails[1];
    let ((node, port), _) = fabric.link_end_nodes(LinkEnd::from_index(0)).unwrap();
    let lid = fabric.node(node).base_lid().unwrap();
    let by_lid = sample((PortOwner::Lid(lid), port), Some(2), None, CounterWidth::Bits64);
    let mut told = input("l", vec![by_lid]);
    told.rail = Some(1);
    let (observed, _) = observe(&c, &[told]).unwrap();
    assert_eq!(observed.at(1, LinkEnd::from_index(0)), Some(8));
}

#[test]
fn ports_that_match_no_link_end_are_reported() {
    let c = cluster();
    let stranger = sample(
        (PortOwner::Guid(crate::model::Guid(0xdead)), PortNum(1)),
        Some(1),
        None,
        CounterWidth::Bits64,
    );
    let known = sample(sender(&c, 0, 0), Some(1), None, CounterWidth::Bits64);
    let (_, warnings) = observe(&c, &[input("s", vec![stranger, known])]).unwrap();
    assert!(warnings[0].message.starts_with("1 port(s) match no link end"), "{warnings:?}");
    assert!(warnings[0].message.contains("0x000000000000dead"));
}

#[test]
fn three_snapshots_of_one_rail_are_a_series_of_two_intervals_whose_sum_is_observed() {
    let c = cluster();
    let at = sender(&c, 0, 0);
    let other = sender(&c, 0, 1);
    let taken = |s: i64| Some(TakenAt { time: EpochMicros(s * 1_000_000), from: TimeSource::Modified });
    let snap = |name: &str, a: u64, b: u64, t: i64| {
        let mut s = input(
            name,
            vec![
                sample(at, Some(a), None, CounterWidth::Bits64),
                sample(other, Some(b), None, CounterWidth::Bits64),
            ],
        );
        s.snapshot.taken = taken(t);
        s
    };
    // `other` goes down in the second interval: a reset, so it has no value over the series.
    let (observed, warnings) =
        observe(&c, &[snap("a", 100, 50, 10), snap("b", 130, 80, 70), snap("c", 200, 5, 100)]).unwrap();
    assert_eq!(observed.series.len(), 2);
    let [first, second] = &observed.series[..] else { unreachable!() };
    assert_eq!((first.from.as_str(), first.to.as_str()), ("a", "b"));
    assert_eq!((first.start, first.end, second.end), (taken(10), taken(70), taken(100)));
    assert_eq!(first.rails[0][0], Some(120));
    assert_eq!(second.rails[0][0], Some(280));
    assert_eq!(first.rails[0][1], Some(120));
    assert_eq!(second.rails[0][1], None, "a reset leaves that interval empty");
    assert_eq!(observed.rails[0][0], Some(400), "the intervals summed: 4 × (200 − 100) words");
    assert_eq!(observed.rails[0][1], None);
    assert!(warnings.iter().any(|w| w.message.contains("went down between the snapshots")), "{warnings:?}");
}

#[test]
fn two_snapshots_make_no_series() {
    let c = cluster();
    let s = |w| input("s", vec![sample(sender(&c, 0, 0), Some(w), None, CounterWidth::Bits64)]);
    let (observed, _) = observe(&c, &[s(1), s(3)]).unwrap();
    assert!(observed.series.is_empty());
    assert_eq!(observed.rails[0][0], Some(8));
}

#[test]
fn a_snapshot_on_an_unknown_rail_is_an_error() {
    let c = cluster();
    let s = || input("s", vec![sample(sender(&c, 0, 0), Some(1), None, CounterWidth::Bits64)]);
    let mut far = s();
    far.rail = Some(5);
    assert!(matches!(observe(&c, &[far]), Err(ObserveError::NoSuchRail { rail: 5, .. })));
}

#[test]
fn residuals_are_signed() {
    assert_eq!(residual(10, 25), -15);
    assert_eq!(residual(u64::MAX, 0), i64::MAX);
}

fn texts(warnings: &[Warning]) -> Vec<&str> {
    warnings.iter().map(|w| w.message.as_str()).collect()
}

#[test]
fn snapshots_covering_different_rails_are_paired_port_by_port() {
    // Issue 24, severe 1: a before file naming a rail-0 and a rail-1 port, an after file naming
    // only the rail-0 port. The rail-0 end shows what moved, the rail-1 end nothing.
    let c = cluster();
    let (x, y) = (sender(&c, 0, 0), sender(&c, 1, 0));
    let before = input(
        "before",
        vec![
            sample(x, Some(500), None, CounterWidth::Bits64),
            sample(y, Some(900), None, CounterWidth::Bits64),
        ],
    );
    let after = input("after", vec![sample(x, Some(1250), None, CounterWidth::Bits64)]);
    let (observed, warnings) = observe(&c, &[before, after]).unwrap();
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), Some(3000), "4 × (1250 − 500)");
    assert_eq!(observed.at(1, LinkEnd::from_index(0)), None, "a raw counter is no byte count");
    assert!(
        texts(&warnings).iter().any(|m| m.contains("in only one snapshot") && m.contains("rail 1")),
        "{warnings:?}"
    );
}

#[test]
fn a_32_bit_value_and_a_64_bit_one_are_never_subtracted() {
    // Issue 24, severe 2: 36 GB reported for 40 KB.
    let c = cluster();
    let x = sender(&c, 0, 0);
    let before = input("before", vec![sample(x, Some(10_000), None, CounterWidth::Bits32)]);
    let after = input("after", vec![sample(x, Some(9_000_010_000), None, CounterWidth::Bits64)]);
    let (observed, warnings) = observe(&c, &[before, after]).unwrap();
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), None);
    assert!(
        texts(&warnings).iter().any(|m| m.contains("different widths") && m.contains("PortXmitData")),
        "{warnings:?}"
    );
}

#[test]
fn the_same_counters_given_twice_are_named() {
    let c = cluster();
    let s = |name: &str| input(name, vec![sample(sender(&c, 0, 0), Some(7), None, CounterWidth::Bits64)]);
    let (observed, warnings) = observe(&c, &[s("a.txt"), s("a.txt")]).unwrap();
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), Some(0));
    assert!(texts(&warnings).iter().any(|m| m.contains("the same file given twice")), "{warnings:?}");
}

#[test]
fn a_series_whose_timestamps_run_backwards_is_flagged() {
    let c = cluster();
    let at = sender(&c, 0, 0);
    let snap = |name: &str, words: u64, secs: i64| {
        let mut s = input(name, vec![sample(at, Some(words), None, CounterWidth::Bits64)]);
        s.snapshot.taken = Some(TakenAt { time: EpochMicros(secs * 1_000_000), from: TimeSource::InFile });
        s
    };
    let (observed, warnings) =
        observe(&c, &[snap("a", 1, 100), snap("b", 2, 50), snap("c", 3, 200)]).unwrap();
    let flagged: Vec<&Warning> = warnings.iter().filter(|w| w.message.contains("run backwards")).collect();
    assert_eq!(flagged.len(), 1, "{warnings:?}");
    assert_eq!(flagged[0].file, "b");
    assert_eq!(observed.series[0].seconds(), None, "a backwards span has no length");
    assert_eq!(observed.series[1].seconds(), Some(150.0));
}

#[test]
fn a_port_missing_from_a_middle_snapshot_keeps_its_sum_but_not_those_intervals() {
    let c = cluster();
    let (a, b) = (sender(&c, 0, 0), sender(&c, 0, 2));
    let both = |name: &str, wa: u64, wb: u64| {
        input(
            name,
            vec![
                sample(a, Some(wa), None, CounterWidth::Bits64),
                sample(b, Some(wb), None, CounterWidth::Bits64),
            ],
        )
    };
    let only_a = input("mid", vec![sample(a, Some(20), None, CounterWidth::Bits64)]);
    let (observed, _) = observe(&c, &[both("first", 10, 100), only_a, both("last", 30, 160)]).unwrap();
    assert_eq!(observed.at(0, LinkEnd::from_index(2)), Some(240), "4 × (160 − 100)");
    assert_eq!(observed.series[0].rails[0][2], None);
    assert_eq!(observed.series[1].rails[0][2], None);
    assert_eq!(observed.series[1].rails[0][0], Some(40));
}

/// A snapshot of one port with data and XmitWait / SymbolErrorCounter readings.
fn with_other(name: &str, at: (PortOwner, PortNum), wait: Count, symbols: Count) -> CounterInput {
    let mut one = input(name, vec![sample(at, Some(1), None, CounterWidth::Bits64)]);
    let mut other = crate::model::port_counters::OtherCounters::default();
    other.set(CounterKind::PortXmitWait, wait);
    other.set(CounterKind::SymbolErrorCounter, symbols);
    one.snapshot.ports[0].other = Some(0);
    one.snapshot.other.push(other);
    one
}

#[test]
fn xmit_wait_and_errors_are_differenced_like_the_data_and_resets_are_named() {
    let c = cluster();
    let at = sender(&c, 0, 0);
    let wait = |v| Count { value: v, width: CounterWidth::Bits32 };
    let symbols = |v| Count { value: v, width: CounterWidth::Bits16 };
    let (observed, warnings) = observe(
        &c,
        &[with_other("before", at, wait(100), symbols(9)), with_other("after", at, wait(12_445), symbols(2))],
    )
    .unwrap();
    assert_eq!(observed.xmit_wait_at(0, LinkEnd::from_index(0)), Some(12_345));
    let port = &observed.ports[0];
    assert_eq!(port.counts.get(CounterKind::PortXmitWait).map(|c| c.value), Some(12_345));
    assert_eq!(port.counts.get(CounterKind::SymbolErrorCounter), None, "it went down: a reset");
    assert!(
        texts(&warnings).iter().any(|m| m.contains("reset") && m.contains("SymbolErrorCounter")),
        "{warnings:?}"
    );
}

#[test]
fn a_saturated_32_bit_xmit_wait_as_it_stands_is_named_not_a_number() {
    let c = cluster();
    let at = sender(&c, 0, 0);
    let one = with_other(
        "s",
        at,
        Count { value: 0xffff_ffff, width: CounterWidth::Bits32 },
        Count { value: 3, width: CounterWidth::Bits16 },
    );
    let (observed, warnings) = observe(&c, &[one]).unwrap();
    assert_eq!(observed.xmit_wait_at(0, LinkEnd::from_index(0)), None);
    assert_eq!(observed.ports[0].counts.get(CounterKind::SymbolErrorCounter).map(|c| c.value), Some(3));
    assert!(
        texts(&warnings).iter().any(|m| m.contains("saturated") && m.contains("PortXmitWait")),
        "{warnings:?}"
    );
}
