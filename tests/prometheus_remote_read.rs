//! Remote read (issue 26, "Speed"): `--prometheus` reads a range through `POST /api/v1/read`
//! (streamed XOR chunks), and through `query_range` where the server refuses that. On a real
//! Prometheus (Debian's 2.42, backfilled with promtool), both paths give the same history,
//! with a counter reset and a gap inside the range; the refusal is named in a warning.

#[path = "support/prometheus.rs"]
mod prometheus;
#[path = "support/proxy.rs"]
mod proxy;

use std::path::PathBuf;

use prometheus::{History, Prometheus};
use proxy::Proxy;
use shoal::routing::Observed;
use shoal::view_model::{OpenRequest, PrometheusRequest, open};

/// 2023-11-14T22:13:20Z: well in the past, so the backfilled blocks are history.
const T0: i64 = 1_700_000_000;
const DATA: &str = "infiniband_switch_port_transmit_data_bytes_total";
const SWITCH: &str = r#"switch="MF0;tb-L1-00:SX6036/U1""#;

fn scrape(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/counters/testbed");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn labels(port: u8) -> String {
    format!(r#"{{guid="0x0002c90200010000",port="{port}",{SWITCH}}}"#)
}

/// Fifteen minutes of the testbed: its two scrapes, then the second every minute; port 1
/// restarts from zero at minute 5 and grows after; port 2 grows every minute but is not scraped
/// from minute 5 to 12, so minutes 10 to 12 are past the 5-minute lookback: no point there.
fn history() -> History {
    let (before, after) =
        (scrape("infiniband_exporter-before.prom"), scrape("infiniband_exporter-after.prom"));
    let mut history = History::new();
    history.scrape(&before, T0);
    for minute in 1..=15 {
        history.scrape(&after, T0 + 60 * minute);
    }
    for minute in 5..=15 {
        history.point(DATA, &labels(1), T0 + 60 * minute, &(4096 * (minute - 4)).to_string());
    }
    for minute in 1..=15 {
        history.point(DATA, &labels(2), T0 + 60 * minute, &(2880 + 1000 * minute).to_string());
    }
    history.gap(DATA, &labels(2), T0 + 300, T0 + 720);
    history
}

fn read(url: &str) -> (Observed, Vec<String>) {
    let range = PrometheusRequest {
        url: url.to_string(),
        from: T0.to_string(),
        to: (T0 + 900).to_string(),
        step: Some("60s".into()),
    };
    let rail = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/testbed");
    let request = OpenRequest { prometheus: Some(range), ..OpenRequest::of_rails(vec![vec![rail]]) };
    let dataset = open(&request, &|_| {}).unwrap();
    let warnings = dataset.warnings.iter().map(|w| w.to_string()).collect();
    (dataset.fabric.unwrap().observed.unwrap(), warnings)
}

#[test]
fn remote_read_and_query_range_give_the_same_history_with_a_reset_and_a_gap() {
    let server = Prometheus::serve(&history());
    // One URL, so that the history's names of its source are the same both ways.
    let proxy = Proxy::start(&server.url);
    let (remote, remote_warnings) = read(&proxy.url);
    assert_eq!(proxy.paths(), ["/api/v1/read"], "remote read alone");
    proxy.refuse("/api/v1/read");
    let (fallback, fallback_warnings) = read(&proxy.url);
    assert_eq!(proxy.paths(), ["/api/v1/read", "/api/v1/series", "/api/v1/query_range"]);
    assert_eq!(remote.series.len(), 15, "sixteen steps, fifteen intervals");
    assert!(remote.covered() > 100, "{} link ends", remote.covered());
    // The gap: port 2's end has no count in the intervals ending at minutes 10 to 12.
    let gap: Vec<usize> = (remote.series.iter().enumerate())
        .filter(|(_, interval)| interval.rails[0][2].is_none())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(gap, [9, 10, 11, 12], "intervals without port 2's count");
    assert!(remote == fallback, "remote read and query_range differ");
    // Each reset is named at the endpoint that answered.
    for (warnings, endpoint) in
        [(&remote_warnings, "/api/v1/read"), (&fallback_warnings, "/api/v1/query_range")]
    {
        let resets: Vec<&String> = warnings.iter().filter(|w| w.contains("counter reset")).collect();
        assert_eq!(resets.len(), 1, "{warnings:?}");
        assert!(resets[0].contains(&format!("{DATA} of 0x0002c90200010000 port 1")), "{}", resets[0]);
        assert!(resets[0].starts_with(&format!("{}{endpoint}:", proxy.url)), "{}", resets[0]);
    }
    let refused: Vec<&String> =
        fallback_warnings.iter().filter(|w| w.contains("refused remote read")).collect();
    assert_eq!(refused.len(), 1, "{fallback_warnings:?}");
    let expected = format!("{}/api/v1/read: the server refused remote read (HTTP 404", proxy.url);
    assert!(refused[0].starts_with(&expected) && refused[0].contains("404 page not found"), "{}", refused[0]);
    assert!(remote_warnings.iter().all(|w| !w.contains("refused")), "{remote_warnings:?}");
}
