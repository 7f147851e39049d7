//! Counters from a real Prometheus server (issue 26): the testbed's exporter scrapes
//! (`tests/fixtures/counters/testbed/*.prom`, treydock's and guilbaults' series names) are
//! backfilled at past times with promtool, served on 127.0.0.1, and read back with
//! `--prometheus URL --from --to --step`. What shoal observes from the server must be what it
//! observes from the same scrapes given as files.

#[path = "support/prometheus.rs"]
mod prometheus;
#[path = "support/run_shoal.rs"]
mod run_shoal;

use std::path::PathBuf;

use prometheus::{History, Prometheus, serve_testbed_first_minute};
use run_shoal::shoal;
use shoal::routing::Observed;
use shoal::view_model::{CounterSpec, OpenRequest, PrometheusRequest, open};

/// 2023-11-14T22:13:20Z: well in the past, so the backfilled blocks are history.
const T0: i64 = 1_700_000_000;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/counters/testbed").join(name)
}

fn scrape(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap()
}

fn testbed() -> OpenRequest {
    let rail = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/testbed");
    OpenRequest::of_rails(vec![vec![rail]])
}

fn range(server: &Prometheus, from: i64, to: i64, step: &str) -> PrometheusRequest {
    PrometheusRequest {
        url: server.url.clone(),
        from: from.to_string(),
        to: to.to_string(),
        step: Some(step.into()),
    }
}

/// The observed counters and warnings of a request.
fn observed(request: &OpenRequest) -> (Observed, Vec<String>) {
    let dataset = open(request, &|_| {}).unwrap();
    let warnings = dataset.warnings.iter().map(|w| w.to_string()).collect();
    (dataset.fabric.unwrap().observed.unwrap(), warnings)
}

/// The same scrapes given as files, in order.
fn from_files(files: &[&str]) -> Observed {
    let counters = files.iter().map(|f| CounterSpec { rail: None, path: fixture(f) }).collect();
    observed(&OpenRequest { counters, ..testbed() }).0
}

#[test]
fn two_steps_from_the_server_observe_what_the_two_scrapes_observe() {
    for (before, after) in [
        ("infiniband_exporter-before.prom", "infiniband_exporter-after.prom"),
        ("infiniband-exporter-py-before.prom", "infiniband-exporter-py-after.prom"),
    ] {
        let server =
            Prometheus::serve(History::new().scrape(&scrape(before), T0).scrape(&scrape(after), T0 + 60));
        let request = OpenRequest { prometheus: Some(range(&server, T0, T0 + 60, "60s")), ..testbed() };
        let (seen, warnings) = observed(&request);
        let files = from_files(&[before, after]);
        assert!(seen.covered() > 100, "{before}: {} link ends", seen.covered());
        assert_eq!(seen.rails, files.rails, "{before}");
        let window = seen.window.as_ref().unwrap();
        assert_eq!(window.start.unwrap().time.0, T0 * 1_000_000);
        assert_eq!(window.end.unwrap().time.0, (T0 + 60) * 1_000_000);
        // The one node_exporter series of the treydock scrape names no GUID.
        let host_device = warnings.iter().any(|w| w.contains("1 node_exporter series"));
        assert_eq!(host_device, before.starts_with("infiniband_exporter"), "{warnings:?}");
    }
}

#[test]
fn a_range_of_steps_is_a_series_whose_intervals_add_up_to_the_whole() {
    // The same scrape stands at two steps: the middle interval carries nothing.
    let server = serve_testbed_first_minute(T0);
    let request = OpenRequest { prometheus: Some(range(&server, T0, T0 + 120, "1m")), ..testbed() };
    let (seen, _) = observed(&request);
    assert_eq!(seen.series.len(), 2, "three steps, two intervals");
    let files = from_files(&["infiniband_exporter-before.prom", "infiniband_exporter-after.prom"]);
    assert_eq!(seen.series[0].rails, files.rails);
    assert!(seen.series[1].rails[0].iter().flatten().all(|&v| v == 0));
    assert_eq!(seen.rails, files.rails);
}

#[test]
fn a_counter_reset_inside_the_range_counts_from_zero_as_increase_does_and_is_named() {
    let (before, after) =
        (scrape("infiniband_exporter-before.prom"), scrape("infiniband_exporter-after.prom"));
    let mut history = History::new();
    history.scrape(&before, T0).scrape(&after, T0 + 60).scrape(&after, T0 + 120);
    // One switch port restarts from zero between the last two steps and sends 4096 bytes.
    let metric = "infiniband_switch_port_transmit_data_bytes_total";
    let labels = r#"{guid="0x0002c90200010000",port="1",switch="MF0;tb-L1-00:SX6036/U1"}"#;
    let mut reset = History::new();
    reset.scrape(&before, T0).scrape(&after, T0 + 60).scrape(&after, T0 + 120);
    reset.point(metric, labels, T0 + 120, "4096");
    let plain = observed(&OpenRequest {
        prometheus: Some(range(&Prometheus::serve(&history), T0, T0 + 120, "60s")),
        ..testbed()
    });
    let (seen, warnings) = observed(&OpenRequest {
        prometheus: Some(range(&Prometheus::serve(&reset), T0, T0 + 120, "60s")),
        ..testbed()
    });
    let changed: Vec<(usize, u64, u64)> = (plain.0.rails[0].iter().zip(&seen.rails[0]))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| (i, a.unwrap(), b.unwrap()))
        .collect();
    assert_eq!(changed.len(), 1, "only the reset port differs: {changed:?}");
    assert_eq!(changed[0].2 - changed[0].1, 4096, "the bytes after the reset are added, none lost");
    let named: Vec<&String> = warnings.iter().filter(|w| w.contains("counter reset")).collect();
    assert_eq!(named.len(), 1, "{warnings:?}");
    assert!(named[0].contains(&format!("{metric} of 0x0002c90200010000 port 1")), "{}", named[0]);
    assert!(
        named[0].contains("to 4096 at 2023-11-14T22:15:20Z") && named[0].contains("increase()"),
        "{}",
        named[0]
    );
}

#[test]
fn an_empty_range_or_a_refused_query_is_an_error_naming_the_url_and_the_answer() {
    let server = Prometheus::serve(History::new().scrape(&scrape("infiniband_exporter-before.prom"), T0));
    let error = |request: PrometheusRequest| {
        open(&OpenRequest { prometheus: Some(request), ..testbed() }, &|_| {}).unwrap_err().to_string()
    };
    let long_ago = error(range(&server, T0 - 86_400 * 365, T0 - 86_400 * 364, "60s"));
    assert!(
        long_ago.starts_with(&format!(
            "{}/api/v1/series: the server holds no InfiniBand exporter series",
            server.url
        )),
        "{long_ago}"
    );
    let backwards = error(range(&server, T0 + 60, T0, "60s"));
    assert!(
        backwards.contains("empty range: from 2023-11-14T22:14:20Z to 2023-11-14T22:13:20Z"),
        "{backwards}"
    );
    // A millisecond step over a day is more points than the server answers.
    let refused = error(range(&server, T0, T0 + 86_400, "1ms"));
    assert!(refused.starts_with(&format!("{}/api/v1/query_range: HTTP 400", server.url)), "{refused}");
    assert!(refused.contains("bad_data") && refused.contains("11,000 points"), "{refused}");
}

#[test]
fn the_command_line_takes_a_prometheus_range_wherever_counters_go() {
    let (before, after) =
        (scrape("infiniband_exporter-before.prom"), scrape("infiniband_exporter-after.prom"));
    let server = Prometheus::serve(History::new().scrape(&before, T0).scrape(&after, T0 + 60));
    let (from, to) = ("2023-11-14T22:13:20Z", "2023-11-14T22:14:20Z");
    let by_server = shoal(&[
        "hot",
        "sample-data/testbed",
        "--by",
        "observed",
        "--prometheus",
        &server.url,
        "--from",
        from,
        "--to",
        to,
        "--json",
    ]);
    let before_file = fixture("infiniband_exporter-before.prom").display().to_string();
    let after_file = fixture("infiniband_exporter-after.prom").display().to_string();
    let by_files = shoal(&[
        "hot",
        "sample-data/testbed",
        "--by",
        "observed",
        "--counters",
        &before_file,
        "--counters",
        &after_file,
        "--json",
    ]);
    assert!(by_server.0, "{}", by_server.2);
    assert!(by_files.0, "{}", by_files.2);
    let links = |json: &str| serde_json::from_str::<serde_json::Value>(json).unwrap()["ends"].clone();
    assert_eq!(links(&by_server.1), links(&by_files.1));
    let (ok, _, err) =
        shoal(&["hot", "sample-data/testbed", "--by", "observed", "--prometheus", &server.url]);
    assert!(!ok && err.contains("--from") && err.contains("--to"), "{err}");
}

#[test]
fn a_view_at_an_interval_of_a_range_colours_by_that_interval_s_bytes() {
    use shoal::view_model::ViewSpec;
    use shoal::view_model::dataset::counters::{OBSERVED, counter_rows};
    use shoal::view_model::prepare::{LayoutChoice, prepare};
    // The same scrape stands at two steps: the second interval carries nothing.
    let server = serve_testbed_first_minute(T0);
    let request = OpenRequest { prometheus: Some(range(&server, T0, T0 + 120, "1m")), ..testbed() };
    let d = open(&request, &|_| {}).unwrap();
    let fabric = d.fabric.as_ref().unwrap();
    let seen = fabric.observed.as_ref().unwrap();
    for n in 0..2 {
        let spec = ViewSpec {
            link_attribute: Some(OBSERVED.into()),
            interval: Some(n),
            ..ViewSpec::for_dataset(&d)
        };
        let drawn = prepare(&d, &spec, &Default::default(), &LayoutChoice::FatTree).unwrap();
        let mut want = vec![None; fabric.index.link_count()];
        for (position, rail, end) in counter_rows(fabric) {
            want[position as usize] =
                seen.series[n as usize].rails.value_at(rail, end.index()).map(|v| v as f64);
        }
        assert_eq!(drawn.link_values, want, "interval {}", n + 1);
        let moved = want.iter().flatten().filter(|&&v| v > 0.0).count();
        assert_eq!(moved > 0, n == 0, "interval 1 moved, interval 2 did not: {moved} ends");
    }
}

#[test]
fn counter_files_beside_a_range_are_refused_naming_both_sources() {
    let before = fixture("infiniband_exporter-before.prom").display().to_string();
    // Refused before anything is read: no server needs to answer.
    let (ok, _, err) = shoal(&[
        "hot",
        "sample-data/testbed",
        "--by",
        "observed",
        "--counters",
        &before,
        "--prometheus",
        "http://127.0.0.1:1",
        "--from",
        "1700000000",
        "--to",
        "1700000060",
    ]);
    assert!(!ok && err.contains("--counters") && err.contains("--prometheus"), "{err}");
}
