//! The fold gives what `observe` gives for the same points as one snapshot per step.

use super::*;
use crate::model::LinkEnd;
use crate::profile_io::prometheus_api::snapshots::{Point, snapshots_of};
use crate::routing::{CounterInput, Observed, observe};

const TREY: &str = "infiniband_switch_port_transmit_data_bytes_total";
const TREY_RCV: &str = "infiniband_switch_port_receive_data_bytes_total";
const WAIT: &str = "infiniband_switch_port_transmit_wait_total";

fn cluster() -> Cluster {
    Cluster::new(vec![crate::model::synthetic::ThreeLevel::k_ary(4).build()])
}

/// A series for the port that sends into link end `end` of rail 0.
fn series(cluster: &Cluster, metric: &str, end: usize, values: &[(f64, &str)]) -> Series {
    let fabric = &cluster.rails[0];
    let ((node, port), _) = fabric.link_end_nodes(LinkEnd::from_index(end)).unwrap();
    let metric = [
        ("__name__", metric.to_string()),
        ("guid", fabric.node(node).guid.to_string()),
        ("port", port.0.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Series { metric, values: values.iter().map(|(t, v)| Point::new(*t, v)).collect() }
}

/// The fold's answer and `observe`'s for the same series.
fn both(
    cluster: &Cluster,
    grid: StepGrid,
    answer: &[Series],
) -> ((Observed, Vec<Warning>), (Observed, Vec<Warning>)) {
    let mut fold = HistoryFold::new(cluster, grid, "http://p/api/v1/query_range");
    for one in answer {
        fold.add(one);
    }
    let (snapshots, mut warnings) = snapshots_of("http://p/api/v1/query_range", answer);
    let inputs: Vec<CounterInput> =
        snapshots.into_iter().map(|snapshot| CounterInput { rail: None, snapshot }).collect();
    let (observed, more) = observe(cluster, &inputs).unwrap();
    warnings.extend(more);
    (fold.finish(), (observed, warnings))
}

#[test]
fn a_range_folds_into_the_intervals_and_totals_that_snapshots_give() {
    let c = cluster();
    let grid = StepGrid::new(0.0, 180.0, 60.0).unwrap();
    let answer = [
        series(&c, TREY, 0, &[(0.0, "100"), (60.0, "300"), (120.0, "300"), (180.0, "1000")]),
        // A reset between 60 s and 120 s: counted from zero, as increase() does.
        series(&c, TREY, 2, &[(0.0, "50"), (60.0, "80"), (120.0, "10"), (180.0, "20")]),
        // Only the receiver of end 5 (end 4's far side is 5) was read: it fills that end.
        series(&c, TREY_RCV, 4, &[(0.0, "7"), (60.0, "9"), (120.0, "19"), (180.0, "29")]),
        // A gap at 120 s: the two intervals around it have no value, the total stays.
        series(&c, TREY, 6, &[(0.0, "0"), (60.0, "1"), (180.0, "4")]),
        series(&c, WAIT, 0, &[(0.0, "3"), (60.0, "5"), (120.0, "5"), (180.0, "6")]),
    ];
    let ((folded, fold_warnings), (observed, warnings)) = both(&c, grid, &answer);
    assert_eq!(folded.series.len(), 3);
    assert_eq!(folded, observed);
    assert_eq!(folded.series[1].rails.value_at(0, 2), Some(10), "80 → reset → 10 moved 10");
    assert_eq!(folded.series[0].rails.value_at(0, 5), Some(2));
    assert_eq!(folded.at(0, LinkEnd::from_index(6)), Some(4));
    assert_eq!(folded.series[2].xmit_wait.value_at(0, 0), Some(1));
    let resets = |w: &[Warning]| w.iter().filter(|w| w.message.contains("counter reset")).count();
    assert_eq!((resets(&fold_warnings), resets(&warnings)), (1, 1), "{fold_warnings:?}");
}

#[test]
fn two_steps_are_one_window_and_one_step_is_the_counters_as_they_stand() {
    let c = cluster();
    let answer = [series(&c, TREY, 0, &[(0.0, "100"), (60.0, "300")])];
    let ((two, _), (reference, _)) = both(&c, StepGrid::new(0.0, 60.0, 60.0).unwrap(), &answer);
    assert_eq!(two, reference);
    assert_eq!((two.series.len(), two.at(0, LinkEnd::from_index(0))), (0, Some(200)));
    assert_eq!(two.window.as_ref().and_then(|w| w.seconds()), Some(60.0));
    let answer = [series(&c, TREY, 0, &[(0.0, "100")])];
    let ((one, _), (reference, _)) = both(&c, StepGrid::new(0.0, 60.0, 60.0).unwrap(), &answer);
    assert_eq!(one, reference);
    assert_eq!((one.window.is_none(), one.at(0, LinkEnd::from_index(0))), (true, Some(100)));
}

#[test]
fn points_off_the_grid_and_ports_off_the_fabric_are_counted_in_warnings() {
    let c = cluster();
    let mut off = series(&c, TREY, 0, &[(0.0, "1"), (30.0, "2"), (60.0, "3")]);
    let mut stranger = off.clone();
    stranger.metric.insert("guid".into(), "0xdead".into());
    let mut fold = HistoryFold::new(&c, StepGrid::new(0.0, 60.0, 60.0).unwrap(), "q");
    fold.add(&off);
    fold.add(&stranger);
    off.values.truncate(1);
    fold.add(&off);
    let (observed, warnings) = fold.finish();
    assert_eq!(observed.at(0, LinkEnd::from_index(0)), Some(2));
    let text: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(text.contains(&"1 point off the range's step times skipped"), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("1 exporter port is on no link of the fabric")), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("1 point given again")), "{text:?}");
}

#[test]
fn a_grid_is_the_ranges_step_times_and_never_larger_than_prometheus_answers() {
    let grid = StepGrid::new(100.0, 220.0, 60.0).unwrap();
    assert_eq!(grid.steps, 3);
    assert_eq!((grid.step_of(160_000), grid.step_of(130_000), grid.step_of(280_000)), (Some(1), None, None));
    assert_eq!(StepGrid::new(0.0, 86_400.0, 60.0).map(|g| g.steps), Some(1441));
    assert_eq!(StepGrid::new(0.0, 86_400.0, 1.0), None, "86,401 points a series: the server refuses");
    assert_eq!(StepGrid::new(10.0, 0.0, 60.0), None);
}
