//! Port counters captured with the real tools on the simulated testbed
//! (`scripts/make-counter-fixtures.py`): the script set every sending port's counters to what
//! it held before plus the profile's predicted words plus a known extra on a few ports
//! (`plan.csv`). So observed − predicted must be that extra, up to the management packets the
//! simulator itself counts between the two captures (bounded below) and the rounding of the
//! predicted bytes up to whole words.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use shoal::export::tables::{JobLoads, link_rows};
use shoal::model::counters::PortOwner;
use shoal::model::{Cluster, Guid, LinkEnd, PortNum};
use shoal::profile_io::counters::read_counters;
use shoal::routing::Observed;
use shoal::view_model::dataset::FabricData;
use shoal::view_model::trace::{CounterSpec, read_observed};
use shoal::view_model::{OpenRequest, open};

const FIXTURES: &str = "tests/fixtures/counters/testbed";
/// Words the simulator's own management packets (the queries, the SM) add to a port between
/// the two captures: measured at most 864 on these fixtures; bounded with room to spare.
const MANAGEMENT_WORDS: i64 = 2048;
/// The same while OpenSM's PerfMgr sweeps every second: its queries all leave through the SM's
/// port (n0001) and cross the inter-switch links, which then count up to ~98k words more.
const PERFMGR_MANAGEMENT_WORDS: i64 = 131_072;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join(FIXTURES).join(name)
}

fn analysis() -> FabricData {
    let rail = vec![root().join("sample-data/testbed")];
    let profile = root().join("sample-data/testbed/alltoall.ibprof");
    let request = OpenRequest { profile: Some(profile), ..OpenRequest::of_rails(vec![rail]) };
    open(&request, &|_| {}).unwrap().fabric.unwrap()
}

fn observe(cluster: &Cluster, files: &[&str]) -> (Observed, Vec<String>) {
    let specs: Vec<CounterSpec> =
        files.iter().map(|f| CounterSpec { rail: None, path: fixture(f) }).collect();
    let (observed, warnings) = read_observed(cluster, &specs).unwrap();
    (observed, warnings.into_iter().map(|w| w.to_string()).collect())
}

/// plan.csv: (sending node GUID, port) → extra words beyond the prediction.
fn plan() -> HashMap<(Guid, PortNum), i64> {
    let text = std::fs::read_to_string(fixture("plan.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            ((Guid::parse_hex(f[0]).unwrap(), PortNum(f[1].parse().unwrap())), f[5].parse().unwrap())
        })
        .collect()
}

/// Every link end of rail 0 with its sending (node GUID, port).
fn senders(cluster: &Cluster) -> Vec<(LinkEnd, (Guid, PortNum))> {
    let fabric = &cluster.rails[0];
    (0..fabric.link_end_count())
        .map(LinkEnd::from_index)
        .map(|end| {
            let ((node, port), _) = fabric.link_end_nodes(end).unwrap();
            (end, (fabric.node(node).guid, port))
        })
        .collect()
}

/// Checks residual − 4 × extra is within [0, management + rounding] on every covered end, and
/// returns how many ends were covered.
fn assert_residuals_match_the_plan(
    analysis: &FabricData,
    observed: &Observed,
    management_words: i64,
) -> usize {
    let plan = plan();
    let predicted = &analysis.loads.total.rails[0];
    let mut covered = 0;
    for (end, sender) in senders(&analysis.cluster) {
        let Some(seen) = observed.at(0, end) else { continue };
        covered += 1;
        let residual = seen as i64 - predicted.at(end) as i64;
        let beyond = residual - 4 * plan[&sender];
        assert!(
            (0..=4 * management_words + 3).contains(&beyond),
            "{sender:?}: residual {residual}, extra {} words, beyond {beyond}",
            plan[&sender]
        );
    }
    covered
}

#[test]
fn perfquery_x_before_and_after_give_the_added_traffic_on_every_link_end() {
    let analysis = analysis();
    let (observed, warnings) =
        observe(&analysis.cluster, &["perfquery-x-before.txt", "perfquery-x-after.txt"]);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(assert_residuals_match_the_plan(&analysis, &observed, MANAGEMENT_WORDS), 114);
}

#[test]
fn observed_is_four_times_after_minus_before_for_every_port() {
    let analysis = analysis();
    let (before, _) = read_counters(&fixture("perfquery-x-before.txt")).unwrap();
    let (after, _) = read_counters(&fixture("perfquery-x-after.txt")).unwrap();
    let raw = raw_perfquery_words(&fixture("perfquery-x-after.txt"));
    let (observed, _) = observe(&analysis.cluster, &["perfquery-x-before.txt", "perfquery-x-after.txt"]);
    let fabric = &analysis.cluster.rails[0];
    assert_eq!(after.ports.len(), 114);
    for port in &after.ports {
        let PortOwner::Lid(lid) = port.owner else { panic!("perfquery names LIDs") };
        assert_eq!(
            port.xmit.unwrap().bytes,
            4 * raw[&(lid.0, port.port.0)],
            "the reader multiplies words by 4"
        );
        let first = before.ports.iter().find(|p| p.key() == port.key()).unwrap();
        let owner = fabric.owner_of_lid(lid).unwrap();
        let (end, _, _) = fabric.out_through(owner.node, port.port).unwrap();
        assert_eq!(observed.at(0, end), Some(port.xmit.unwrap().bytes - first.xmit.unwrap().bytes));
    }
}

/// `PortXmitData` words per (LID, port), read without shoal's parser.
fn raw_perfquery_words(path: &Path) -> HashMap<(u16, u8), u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = HashMap::new();
    let mut key = (0, 0);
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# Port extended counters: Lid ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            key = (w[0].parse().unwrap(), w[2].parse().unwrap());
        } else if let Some(v) = line.strip_prefix("PortXmitData:") {
            out.insert(key, v.trim_start_matches('.').parse().unwrap());
        }
    }
    out
}

#[test]
fn plain_perfquery_reports_the_saturated_32_bit_counter_and_leaves_its_end_empty() {
    let analysis = analysis();
    let (observed, warnings) = observe(&analysis.cluster, &["perfquery-before.txt", "perfquery-after.txt"]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("saturated") && warnings[0].contains("\"MF0;tb-L1-01:SX6036/U1\" port 30"));
    assert_eq!(assert_residuals_match_the_plan(&analysis, &observed, MANAGEMENT_WORDS), 113);
}

#[test]
fn ibqueryerrors_data_with_and_without_report_port_cover_the_ports_with_errors() {
    let analysis = analysis();
    for (before, after) in [
        ("ibqueryerrors-data-before.txt", "ibqueryerrors-data-after.txt"),
        ("ibqueryerrors-data-r-before.txt", "ibqueryerrors-data-r-after.txt"),
    ] {
        let (observed, warnings) = observe(&analysis.cluster, &[before, after]);
        assert!(warnings.iter().all(|w| w.contains("port 255")), "{warnings:?}");
        // Three ports had errors; each port's transmit and receive cover both ends of its link.
        assert_eq!(assert_residuals_match_the_plan(&analysis, &observed, MANAGEMENT_WORDS), 6, "{after}");
    }
}

#[test]
fn perfmgr_dumps_in_both_forms_give_the_added_traffic() {
    let analysis = analysis();
    for (before, after) in
        [("perfmgr-before.txt", "perfmgr-after.txt"), ("perfmgr-mach-before.txt", "perfmgr-mach-after.txt")]
    {
        let (observed, warnings) = observe(&analysis.cluster, &[before, after]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            assert_residuals_match_the_plan(&analysis, &observed, PERFMGR_MANAGEMENT_WORDS),
            114,
            "{after}"
        );
    }
}

/// n0007's counters were reset (`perfquery -R`) after the "after" capture: its transmit counter
/// went down, so the end it sends into takes the far port's receive counter instead, which
/// only saw management packets since.
#[test]
fn a_counter_reset_between_snapshots_is_reported_not_subtracted() {
    let analysis = analysis();
    let (observed, warnings) =
        observe(&analysis.cluster, &["perfquery-x-after.txt", "perfquery-x-reset.txt"]);
    assert!(
        warnings.iter().any(|w| w.contains("reset") && w.contains("\"n0007 HCA-1\" port 1")),
        "{warnings:?}"
    );
    let fabric = &analysis.cluster.rails[0];
    let n7 = fabric.graph.node_indices().find(|&n| fabric.node(n).description == "n0007 HCA-1").unwrap();
    let (end, _, _) = fabric.out_through(n7, PortNum(1)).unwrap();
    let seen = observed.at(0, end).unwrap();
    assert!(seen <= 4 * MANAGEMENT_WORDS as u64, "{seen} bytes: not a difference across the reset");
}

/// Before, after and after-the-reset (all real captures, in that order) are a series of two
/// intervals: the first is the job's window exactly as a before/after pair gives it, the second
/// the little that happened since (the reset port's transmit counter is not subtracted: its end
/// takes the far port's receive counter); observed is their sum.
#[test]
fn three_real_snapshots_are_a_series_whose_first_interval_is_the_job_window() {
    use shoal::model::counters::TimeSource;
    let analysis = analysis();
    let files = ["perfquery-x-before.txt", "perfquery-x-after.txt", "perfquery-x-reset.txt"];
    let (series, warnings) = observe(&analysis.cluster, &files);
    let (pair, _) = observe(&analysis.cluster, &files[..2]);
    assert_eq!(series.series.len(), 2);
    let [window, since] = &series.series[..] else { unreachable!() };
    assert_eq!(window.rails, pair.rails, "interval 1 is the before/after pair");
    assert!(window.from.ends_with("perfquery-x-before.txt") && window.to.ends_with("perfquery-x-after.txt"));
    assert!(
        warnings.iter().any(|w| w.contains("reset") && w.contains("\"n0007 HCA-1\" port 1")),
        "{warnings:?}"
    );
    let fabric = &analysis.cluster.rails[0];
    let n7 = fabric.graph.node_indices().find(|&n| fabric.node(n).description == "n0007 HCA-1").unwrap();
    let (reset_end, _, _) = fabric.out_through(n7, PortNum(1)).unwrap();
    let after_reset = since.rails[0][reset_end.index()].unwrap();
    assert!(
        after_reset <= 4 * MANAGEMENT_WORDS as u64,
        "{after_reset} bytes: not a difference across the reset"
    );
    // Interval 2 holds only the tools' own queries (the script captured the other formats' after
    // files in it, from the SM host): no end carries more than those, and all of it is a sliver
    // of the job's window.
    let (mut covered, mut job, mut queries) = (0, 0u64, 0u64);
    for (i, (a, b)) in window.rails[0].iter().zip(&since.rails[0]).enumerate() {
        if let (Some(a), Some(b)) = (a, b) {
            covered += 1;
            (job, queries) = (job + a, queries + b);
            assert!(*b <= 4 * PERFMGR_MANAGEMENT_WORDS as u64, "end {i}: {b} bytes after the job");
            assert_eq!(series.rails[0][i], Some(a + b), "end {i}: the intervals summed");
        }
    }
    assert!(covered > 100, "{covered}");
    assert!(queries * 100 < job, "{queries} bytes of queries against the job's {job}");
    let modified = |f: &str| std::fs::metadata(fixture(f)).unwrap().modified().unwrap();
    let micros =
        |t: std::time::SystemTime| t.duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64;
    let end = since.end.expect("a file's modification time");
    assert_eq!(end.from, TimeSource::Modified, "perfquery output has no timestamps");
    assert_eq!(end.time.0, micros(modified(files[2])));
}

#[test]
fn prometheus_sample_timestamps_date_the_snapshot() {
    use shoal::model::counters::TimeSource;
    let text = std::fs::read_to_string(fixture("infiniband_exporter-after.prom")).unwrap();
    // The exposition format's optional timestamp, in milliseconds: the latest dates the file.
    let stamped: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if l.starts_with('#') || l.is_empty() {
                format!("{l}\n")
            } else {
                format!("{l} {}\n", 1_700_000_000_000u64 + i as u64)
            }
        })
        .collect();
    let path = std::env::temp_dir().join(format!("shoal-stamped-{}.prom", std::process::id()));
    std::fs::write(&path, &stamped).unwrap();
    let (snapshot, _) = read_counters(&path).unwrap();
    let lines = text.lines().count() as i64;
    let taken = snapshot.taken.unwrap();
    assert_eq!(taken.from, TimeSource::InFile);
    assert!(taken.time.0 > 1_700_000_000_000_000 && taken.time.0 < (1_700_000_000_000 + lines) * 1000 + 1);
    let (unstamped, _) = read_counters(&fixture("infiniband_exporter-after.prom")).unwrap();
    assert_eq!(unstamped.taken.map(|t| t.from), Some(TimeSource::Modified));
    let _ = std::fs::remove_file(path);
}

#[test]
fn counters_leave_the_prediction_unchanged() {
    let analysis = analysis();
    let loads = &analysis.loads;
    let (observed, _) = observe(&analysis.cluster, &["perfquery-x-before.txt", "perfquery-x-after.txt"]);
    let jobs = [JobLoads { name: "alltoall", loads }];
    let without = link_rows(&analysis.cluster, &jobs, &loads.total, None);
    let with = link_rows(&analysis.cluster, &jobs, &loads.total, Some(&observed));
    assert_eq!(without.len(), with.len());
    for (a, b) in without.iter().zip(&with) {
        assert_eq!((a.bytes_a_to_b, a.bytes_b_to_a), (b.bytes_a_to_b, b.bytes_b_to_a));
        assert_eq!((a.observed_a_to_b, a.observed_b_to_a), (None, None));
    }
    // Job `all`'s total rows carry the observed bytes; the job's own total rows do not.
    assert!(with.iter().filter(|r| r.job == "all").all(|r| r.observed_a_to_b.is_some()));
    assert!(with.iter().filter(|r| r.job != "all").all(|r| r.observed_a_to_b.is_none()));
}

/// Built from the real perfquery captures in the published layouts (see the fixtures' README):
/// each format must give the same observed bytes.
#[test]
fn ibdiagnet2_and_exporter_formats_agree_with_perfquery() {
    let analysis = analysis();
    let (reference, _) = observe(&analysis.cluster, &["perfquery-x-before.txt", "perfquery-x-after.txt"]);
    for (before, after, expected_warning) in [
        ("ibdiagnet2-before.db_csv", "ibdiagnet2-after.db_csv", None),
        ("ibdiagnet2-before.pm", "ibdiagnet2-after.pm", None),
        ("infiniband_exporter-before.prom", "infiniband_exporter-after.prom", Some("node_exporter series")),
        ("infiniband-exporter-py-before.prom", "infiniband-exporter-py-after.prom", None),
    ] {
        let (observed, warnings) = observe(&analysis.cluster, &[before, after]);
        match expected_warning {
            None => assert!(warnings.is_empty(), "{after}: {warnings:?}"),
            Some(text) => assert!(warnings.iter().all(|w| w.contains(text)), "{after}: {warnings:?}"),
        }
        assert_eq!(observed.rails, reference.rails, "{after}");
        assert_eq!(observed.series, reference.series, "{after}");
    }
}

/// Issue 24, severe 2, on real captures: plain `perfquery` (32-bit `PortCounters`) before and
/// `perfquery -x` (64-bit `PortCountersExtended`) after are never subtracted.
#[test]
fn a_32_bit_capture_and_a_64_bit_capture_are_never_subtracted() {
    let analysis = analysis();
    let (observed, warnings) = observe(&analysis.cluster, &["perfquery-before.txt", "perfquery-x-after.txt"]);
    assert_eq!(observed.covered(), 0, "no end may take a difference across widths");
    assert!(
        warnings.iter().any(|w| w.contains("different widths") && w.contains("PortXmitData")),
        "{warnings:?}"
    );
}

/// Issue 24, severe 1, on real captures: a before file covering every port and an after file
/// covering a subset pair port by port; the ports missing after have no value.
#[test]
fn ports_missing_from_the_after_capture_have_no_value_and_the_others_their_difference() {
    let analysis = analysis();
    let (full, _) = observe(&analysis.cluster, &["perfquery-x-before.txt", "perfquery-x-after.txt"]);
    let (partial, warnings) =
        observe(&analysis.cluster, &["perfquery-x-before.txt", "ibqueryerrors-data-after.txt"]);
    let mut compared = 0;
    for (p, f) in partial.rails[0].iter().zip(&full.rails[0]) {
        if let Some(p) = p {
            compared += 1;
            let f = f.expect("the full pair covers every end");
            assert!(p.abs_diff(f) <= 4 * PERFMGR_MANAGEMENT_WORDS as u64, "{p} against {f}");
        }
    }
    assert!(compared > 0 && compared < full.covered(), "{compared} of {}", full.covered());
    assert!(warnings.iter().any(|w| w.contains("in only one snapshot")), "{warnings:?}");
}

/// Three counter snapshots and no profile still make a time strip (its columns are the
/// intervals): the window offers the class, as `render --module time-strip` draws it. Two
/// snapshots make no series, and the strip says plainly why it has nothing to show.
#[test]
fn counters_alone_offer_a_time_strip_once_they_make_a_series() {
    use shoal::modules::registry::{choices, unavailable};
    use shoal::view_model::{ModuleSpec, ViewSpec};
    let strip = ViewSpec { module: ModuleSpec::of("time_strip"), ..Default::default() };
    use shoal::view_model::request::CounterSpec as Counters;
    let of = |files: &[&str]| OpenRequest {
        counters: files.iter().map(|f| Counters { rail: None, path: fixture(f) }).collect(),
        ..OpenRequest::of_rails(vec![vec![root().join("sample-data/testbed")]])
    };
    let series = ["perfquery-x-before.txt", "perfquery-x-after.txt", "perfquery-x-reset.txt"];
    let d = open(&of(&series), &|_| {}).expect("the testbed opens with three snapshots");
    assert_eq!(unavailable(&strip, &d), None);
    assert!(choices(&d).contains(&ModuleSpec::of("time_strip")));
    let d = open(&of(&series[..2]), &|_| {}).expect("the testbed opens with two snapshots");
    let why = unavailable(&strip, &d).expect("a pair is no series");
    assert!(why.starts_with("nothing over time here"), "{why}");
}
