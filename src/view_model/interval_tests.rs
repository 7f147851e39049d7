//! The value engine's interval selection: a view naming a counter interval colours, and
//! filters, by that interval's values, read from the history's columns in place.

use std::sync::Arc;

use super::*;
use crate::model::EpochMicros;
use crate::model::counters::{TakenAt, TimeSource};
use crate::routing::end_columns::EndColumns;
use crate::view_model::filter::Clause;
use crate::view_model::prepare::{LayoutChoice, prepare};
use crate::view_model::view::ViewSpec;

/// 2027-01-15 08:00:00 UTC.
const T0: i64 = 1_800_000_000;

fn at(secs: i64) -> Option<TakenAt> {
    Some(TakenAt { time: EpochMicros(secs * 1_000_000), from: TimeSource::Server })
}

/// A synthetic fabric whose counters are a series of three intervals a minute each, end `i`
/// of interval `j` carrying `1000 × (j + 1) + i` bytes (odd ends unknown in interval 1), held
/// as a history's columns.
fn with_series() -> Dataset {
    let d = Dataset::synthetic(2, 2, 1, 1);
    let ends = d.fabric.as_ref().unwrap().cluster.rails[0].link_end_count();
    let mut columns = EndColumns::new(&[ends], 3);
    for j in 0..3 {
        for i in 0..ends {
            let known = j != 1 || i % 2 == 0;
            columns.put(j, i, known.then_some(1000 * (j as u64 + 1) + i as u64));
        }
    }
    let columns = Arc::new(columns);
    let series = (0..3)
        .map(|j| Interval {
            from: format!("step {j}"),
            to: format!("step {}", j + 1),
            start: at(T0 + 60 * j as i64),
            end: at(T0 + 60 * (j as i64 + 1)),
            rails: EndValues::column(columns.clone(), j),
            xmit_wait: EndValues::default(),
        })
        .collect();
    let totals = vec![(0..ends).map(|i| Some(6000 + 3 * i as u64)).collect()];
    d.with_counters(Observed { rails: totals, series, ..Observed::default() })
}

fn observed_view(interval: Option<u32>) -> ViewSpec {
    ViewSpec { link_attribute: Some(OBSERVED.into()), interval, ..ViewSpec::default() }
}

fn link_values(d: &Dataset, spec: &ViewSpec) -> Vec<Option<f64>> {
    prepare(d, spec, &Default::default(), &LayoutChoice::FatTree).expect("prepared").link_values
}

/// What the view model holds for interval `n`, by link position.
fn interval_bytes(d: &Dataset, n: usize) -> Vec<Option<f64>> {
    let fabric = d.fabric.as_ref().unwrap();
    let interval = &intervals(d)[n];
    let mut out = vec![None; fabric.index.link_count()];
    for (position, rail, end) in counter_rows(fabric) {
        out[position as usize] = interval.rails.value_at(rail, end.index()).map(|v| v as f64);
    }
    out
}

#[test]
fn a_view_naming_an_interval_colours_by_that_interval_s_bytes_and_none_by_the_window() {
    let d = with_series();
    for n in 0..3 {
        let values = link_values(&d, &observed_view(Some(n)));
        assert_eq!(values, interval_bytes(&d, n as usize), "interval {}", n + 1);
    }
    assert!(link_values(&d, &observed_view(Some(1))).iter().any(Option::is_none), "unknown stays unknown");
    let whole = link_values(&d, &observed_view(None));
    let window = crate::view_model::query::values(
        &d.run,
        crate::model::Domain::Links,
        &[],
        crate::view_model::query::Aggregate::Sum,
        OBSERVED,
    )
    .unwrap();
    assert_eq!(whole, window, "no interval: the whole window's column");
    assert_ne!(whole, interval_bytes(&d, 2));
}

#[test]
fn a_clause_on_a_counter_attribute_tests_the_interval_s_values() {
    let d = with_series();
    // Interval 1's ends carry 1000 + i bytes, the window's 6000 + 3i: `observed < 2000` keeps
    // every end of interval 1 and none of the window.
    let clause = Clause::parse("observed < 2000").unwrap();
    let filtered = |interval| {
        let mut spec = observed_view(interval);
        spec.filter.clauses.push(clause.clone());
        prepare(&d, &spec, &Default::default(), &LayoutChoice::FatTree).unwrap().link_pass
    };
    assert!(filtered(Some(0)).iter().all(|&p| p));
    assert!(filtered(None).iter().all(|&p| !p));
}

#[test]
fn an_interval_the_data_set_lacks_is_an_error_naming_it() {
    let d = with_series();
    let error = prepare(&d, &observed_view(Some(3)), &Default::default(), &LayoutChoice::FatTree)
        .expect_err("there are three intervals");
    assert!(error.contains("interval 4") && error.contains("1–3"), "{error}");
    let no_series = Dataset::synthetic(2, 2, 1, 1);
    let error = prepare(&no_series, &observed_view(Some(0)), &Default::default(), &LayoutChoice::FatTree)
        .expect_err("no series, no interval");
    assert!(error.contains("no counter series"), "{error}");
}

#[test]
fn the_title_names_the_interval_by_its_times_only_where_counters_colour() {
    let d = with_series();
    let title = observed_view(Some(2)).default_title(&d, "fat tree");
    assert!(title.contains("interval 3: 2027-01-15 08:02:00–08:03:00 UTC"), "{title}");
    let bytes = ViewSpec { interval: Some(2), ..ViewSpec::default() };
    assert!(!bytes.default_title(&d, "fat tree").contains("interval"), "traced bytes have no interval");
    assert!(!observed_view(None).default_title(&d, "fat tree").contains("interval"));
}

#[test]
fn an_interval_across_midnight_dates_its_end_and_one_without_times_names_its_files() {
    let late = Interval { start: at(T0 + 57_540), end: at(T0 + 57_660), ..Interval::default() };
    assert_eq!(label(0, &late), "interval 1: 2027-01-15 23:59:00–2027-01-16 00:01:00 UTC");
    let untimed = Interval { from: "a.txt".into(), to: "b.txt".into(), ..Interval::default() };
    assert_eq!(label(4, &untimed), "interval 5 (a.txt to b.txt)");
}
