//! `shoal locality` (issue 23): the locality score of each region under each placement, on the
//! bundled two-rail sample's real tables.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

use serde_json::Value;

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn rows(profile: &str, placements: &[&str]) -> Vec<Value> {
    let mut args = vec!["locality", RAILS[0], RAILS[1], "--profile", profile, "--json"];
    for p in placements {
        args.extend(["--place-as", p]);
    }
    let (ok, out, err) = shoal(&args);
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(&out).expect("one JSON object");
    json["rows"].as_array().expect("rows").clone()
}

#[test]
fn the_recorded_score_is_the_one_shoal_matrix_prints_for_the_same_region() {
    let rows = rows(PROFILE, &[]);
    assert_eq!(rows.len(), 3, "the whole run and the sample's two regions");
    let region2 = rows.iter().find(|r| r["region"] == 2).unwrap();
    assert_eq!(region2["placement"], "as-recorded");
    let out = std::env::temp_dir().join(format!("shoal-locality-{}.csv", std::process::id()));
    let args = ["matrix", RAILS[0], RAILS[1], "--profile", PROFILE, "--region", "2", "--by", "rank"];
    let (ok, _, err) = shoal(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    std::fs::remove_file(&out).unwrap();
    let printed = err.split("locality: ").nth(1).and_then(|s| s.split(' ').next()).unwrap();
    assert_eq!(format!("{:.3}", region2["locality"].as_f64().unwrap()), printed);
    let shares: f64 = region2["shares"].as_object().unwrap().values().map(|v| v.as_f64().unwrap()).sum();
    assert!((shares - 100.0).abs() < 1e-6, "the classes share every delivered byte ({shares})");
    assert_eq!(region2["undelivered_bytes"], 0);
}

#[test]
fn a_shift_placed_in_order_crosses_fewer_switches_than_placed_at_random() {
    let profile = std::env::temp_dir().join(format!("shoal-locality-shift-{}.ibprof", std::process::id()));
    let pattern =
        ["pattern", "shift", "--ranks", "64", "--bytes", "1MiB", "--out", profile.to_str().unwrap()];
    assert!(shoal(&pattern).0);
    let rows = rows(profile.to_str().unwrap(), &["linear", "random-node:3"]);
    std::fs::remove_file(&profile).unwrap();
    let total = |placement: &str| {
        let row = rows.iter().find(|r| r["placement"] == placement && r["region"].is_null()).unwrap();
        (row["locality"].as_f64().unwrap(), row["bytes"].as_u64().unwrap())
    };
    let ((linear, a), (random, b)) = (total("linear"), total("random-node:3"));
    assert_eq!(a, b, "the same bytes under both placements");
    assert_eq!(a, 64 << 20, "64 ranks send 1 MiB each");
    assert!(linear < random, "neighbours in order share leaves and spines: {linear} < {random}");
}

#[test]
fn a_placement_it_cannot_make_is_an_error_that_names_it() {
    let (ok, _, err) = shoal(&["locality", RAILS[0], "--profile", PROFILE, "--place-as", "bogus"]);
    assert!(!ok);
    assert!(err.contains("placement bogus") && err.contains("unknown placement"), "{err}");
    let (ok, _, err) = shoal(&["locality", RAILS[0], "--profile", PROFILE, "--place", "x=linear"]);
    assert!(!ok && err.contains("--place-as"), "{err}");
}
