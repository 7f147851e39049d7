//! Stall and utilisation over time (issue 22, items 5 and 6) on real captures: five perfquery
//! snapshots of ibsim's health fabric with known XmitWait and data added per interval
//! (`tests/fixtures/stall-series/README.md`), dated one second apart.

#[path = "support/health_captures.rs"]
mod health_captures;
#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use scratch_dir::ScratchDir;

use shoal::view_model::ccdf::ccdf_by_class;
use shoal::view_model::congestion::{EndPlaces, congestion_regions};
use shoal::view_model::link_series::LinkSeries;
use shoal::view_model::prepare::{LayoutChoice, prepare};
use shoal::view_model::time_strip::{StripMeasure, StripRows, TimeStrip};
use shoal::view_model::{Dataset, ViewSpec, open};

/// The fabric with the five captures, copied and dated one second apart into a folder that
/// lives as long as the test keeps it.
fn dataset(tag: &str) -> (Dataset, ScratchDir) {
    let dir = ScratchDir::new(&format!("stall-series-{tag}"));
    let request = health_captures::stall_series_request(&dir);
    (open(&request, &|_| {}).expect("the health fabric opens with its series"), dir)
}

/// The link position of `node[port]`'s sending end.
fn position(d: &Dataset, node: &str, port: u8) -> usize {
    let f = d.fabric.as_ref().unwrap();
    let fabric = &f.cluster.rails[0];
    (0..fabric.link_end_count())
        .find(|&i| {
            fabric.link_end_nodes(shoal::model::LinkEnd::from_index(i)).is_some_and(|((n, p), _)| {
                fabric.node(n).description.split_whitespace().next() == Some(node) && p.0 == port
            })
        })
        .unwrap_or_else(|| panic!("{node}[{port}] sends into a link"))
}

#[test]
fn each_interval_has_the_stall_and_utilisation_ibsim_added() {
    let (d, _series) = dataset("series");
    let f = d.fabric.as_ref().unwrap();
    let series = LinkSeries::of(&f.cluster, f.observed.as_ref().unwrap()).unwrap();
    assert_eq!(series.intervals(), 4);
    let s13 = position(&d, "S1", 3);
    let stall: Vec<f32> = series.stall.iter().map(|i| i[s13]).collect();
    for (got, want) in stall.iter().zip([50.0, 20.0, 0.0, 60.0]) {
        assert!((got - want).abs() < 0.01, "S1[3] stall per interval: {stall:?}");
    }
    let s14 = position(&d, "S1", 4);
    assert!((series.stall[0][s14] - 50.0).abs() < 0.01, "1x SDR: 32-byte ticks at 0.25 GB/s");
    let utilisation = series.utilisation[0][s13];
    assert!((utilisation - 50.0).abs() < 0.01, "500,000,000 words of 4 bytes at 4 GB/s: {utilisation}");
}

#[test]
fn congestion_regions_follow_the_stalls_from_interval_to_interval() {
    let (d, _series) = dataset("regions");
    let f = d.fabric.as_ref().unwrap();
    let series = LinkSeries::of(&f.cluster, f.observed.as_ref().unwrap()).unwrap();
    let places = EndPlaces::new(&f.cluster);
    let evolution = congestion_regions(&places, series.stall.iter().map(Vec::as_slice), 10.0);
    let (s13, s14, h1) =
        (position(&d, "S1", 3) as u32, position(&d, "S1", 4) as u32, position(&d, "H1", 1) as u32);
    let ends = |interval: usize| -> Vec<Vec<u32>> {
        evolution.regions[evolution.by_interval[interval].clone()].iter().map(|r| r.ends.clone()).collect()
    };
    let mut both = vec![s13, s14];
    both.sort();
    assert_eq!(ends(0), vec![both.clone()], "S1's two links into S2: one region");
    assert_eq!(ends(1), vec![vec![h1], vec![s13]], "H1's uplink (30 %) first, then S1[3] (20 %)");
    assert!(ends(2).is_empty(), "a calm interval");
    assert_eq!(ends(3), vec![both]);
    assert_eq!(evolution.later(0).collect::<Vec<_>>(), vec![2], "region 1 goes on as S1[3]'s region");
    assert!(evolution.earlier(evolution.by_interval[3].start).next().is_none(), "interval 3 broke the chain");
}

#[test]
fn the_time_strip_by_stall_shows_each_rows_worst_end_per_interval() {
    let (d, _series) = dataset("strip");
    let f = d.fabric.as_ref().unwrap();
    let observed = f.observed.as_ref().unwrap();
    let strip = TimeStrip::of_interval_measure(f, observed, StripMeasure::Stall, StripRows::Groups);
    assert_eq!(strip.measure, StripMeasure::Stall);
    assert_eq!(strip.columns.len(), 4);
    let worst: Vec<f64> =
        (0..4).map(|c| (0..strip.rows.len()).map(|r| strip.value(r, c)).fold(0.0, f64::max)).collect();
    for (got, want) in worst.iter().zip([50.0, 30.0, 0.0, 60.0]) {
        assert!((got - want).abs() < 0.01, "worst stall per interval: {worst:?}");
    }
    let bytes = TimeStrip::of_interval_measure(f, observed, StripMeasure::Bytes, StripRows::Groups);
    assert_eq!(bytes, TimeStrip::of_intervals(f, observed, StripRows::Groups), "bytes stay the bytes strip");
}

#[test]
fn the_ccdf_per_tier_and_direction_counts_every_interval_of_every_end() {
    let (d, _series) = dataset("ccdf");
    let f = d.fabric.as_ref().unwrap();
    let series = LinkSeries::of(&f.cluster, f.observed.as_ref().unwrap()).unwrap();
    let classes = ccdf_by_class(&EndPlaces::new(&f.cluster), &series);
    let ends: u64 = classes.iter().map(|c| c.stall.samples).sum();
    assert_eq!(ends, 4 * series.stall[0].len() as u64, "every end read XmitWait in every interval");
    for c in &classes {
        assert_eq!(c.stall.points.first().map(|p| p[1]), Some(1.0), "{}: starts at 1", c.label());
    }
    let with_s13 =
        classes.iter().find(|c| c.stall.points.iter().any(|p| (p[0] - 60.0).abs() < 0.01)).unwrap();
    assert!(with_s13.r.is_some_and(|r| r > 0.5), "S1[3]'s stall rises with its data: r = {:?}", with_s13.r);
}

#[test]
fn a_view_at_an_interval_colours_every_end_by_that_interval_s_stall_and_utilisation() {
    let (d, _series) = dataset("view-interval");
    let f = d.fabric.as_ref().unwrap();
    let series = LinkSeries::of(&f.cluster, f.observed.as_ref().unwrap()).unwrap();
    for (attribute, per_interval) in [("stall", &series.stall), ("utilisation", &series.utilisation)] {
        for (n, want) in per_interval.iter().enumerate() {
            let spec = ViewSpec {
                link_attribute: Some(attribute.into()),
                interval: Some(n as u32),
                ..ViewSpec::for_dataset(&d)
            };
            let got = prepare(&d, &spec, &Default::default(), &LayoutChoice::FatTree).unwrap().link_values;
            assert_eq!(got.len(), want.len());
            for (position, (got, want)) in got.iter().zip(want).enumerate() {
                let same = match got {
                    Some(g) => (g - f64::from(*want)).abs() < 1e-3,
                    None => want.is_nan(),
                };
                assert!(same, "{attribute}, interval {}, link {position}: {got:?} vs {want}", n + 1);
            }
        }
    }
}

#[test]
fn render_at_an_interval_titles_it_by_its_times_and_refuses_one_the_series_lacks() {
    let dir = ScratchDir::new("stall-series-render");
    let request = health_captures::stall_series_request(&dir);
    let render = |interval: &str, out: &std::path::Path| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_shoal"));
        command.arg("render").arg(health_captures::fixtures());
        for c in &request.counters {
            command.arg("--counters").arg(&c.path);
        }
        command.args(["--colour-by", "stall", "--interval", interval, "--out"]).arg(out);
        command.output().expect("shoal runs")
    };
    let svg = dir.join("interval-4.svg");
    let done = render("4", &svg);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    // The captures are dated 1,800,000,000 s and one second apart.
    assert!(text.contains("interval 4: 2027-01-15 08:00:03–08:00:04 UTC"), "the title names interval 4");
    let refused = render("5", &dir.join("interval-5.svg"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && stderr.contains("--interval 5") && stderr.contains("1–4"),
        "{stderr}"
    );
}
