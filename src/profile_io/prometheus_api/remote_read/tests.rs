//! Against a real server's answers (tests/fixtures/prometheus, made by
//! scripts/capture-remote-read.py from Debian's Prometheus 2.42): the remote-read frames,
//! decoded and taken at the steps, are the series the same range's `query_range` JSON holds.

use super::super::matrix::read_matrix;
use super::*;

/// The fixture's range: from T0 + 300 s to T0 + 2,700 s at 60 s (scripts/capture-remote-read.py).
const STEPS: Steps = Steps { from_ms: 1_700_000_300_000, step_ms: 60_000, steps: 41 };

fn fixture(name: &str) -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/prometheus/");
    std::fs::read(format!("{path}{name}")).unwrap()
}

fn remote(bytes: &[u8]) -> Result<(Vec<Series>, ReadSummary), String> {
    let mut series = Vec::new();
    let summary = stream_frames(bytes, "http://p/api/v1/read", STEPS, &|s| s, &mut |s| series.push(s))?;
    Ok((series, summary))
}

fn sorted_labels(series: &Series) -> Vec<(String, String)> {
    let mut labels: Vec<_> = series.metric.clone().into_iter().collect();
    labels.sort();
    labels
}

#[test]
fn the_servers_chunks_at_the_steps_are_its_query_range_answer() {
    let (series, summary) = remote(&fixture("remote-read.bin")).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&fixture("query-range.json")).unwrap();
    let mut expected = Vec::new();
    read_matrix(json["data"].to_string().as_bytes(), &mut |s| expected.push(s)).unwrap();
    assert_eq!(series.len(), 3);
    assert_eq!((summary.series, summary.points), (3, expected.iter().map(|s| s.values.len()).sum()));
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
    for (got, want) in series.iter().zip(&expected) {
        assert_eq!(sorted_labels(got), sorted_labels(want));
        assert_eq!(got.values, want.values, "{:?}", want.metric);
    }
    // What the fixture holds: a reset, a gap longer than the lookback, a value that is no
    // count, values past 2^53 read as the JSON's text of them.
    let first: Vec<_> = series[0].values.iter().map(|p| p.value.clone().unwrap().0).collect();
    assert!(first.windows(2).any(|w| w[1] < w[0]));
    assert!(series[0].values.len() < STEPS.steps);
    assert!(series[1].values.iter().all(|p| p.value.as_ref().unwrap().0 > 1 << 60));
    assert!(series[2].values.iter().any(|p| p.value == Err("1.5".into())));
}

#[test]
fn a_corrupt_frame_is_an_error_naming_the_frame() {
    let mut bytes = fixture("remote-read.bin");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    let error = remote(&bytes).err().unwrap();
    assert!(error.starts_with("frame 3: checksum mismatch"), "{error}");
}

#[test]
fn a_truncated_answer_is_an_error_naming_the_frame() {
    let bytes = fixture("remote-read.bin");
    let error = remote(&bytes[..bytes.len() - 10]).err().unwrap();
    assert!(error.starts_with("frame 3: truncated after"), "{error}");
}
