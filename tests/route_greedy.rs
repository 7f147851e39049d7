//! `shoal route --engine greedy|greedy-sum` (issue 23): PFSim's application-aware router on a
//! real rail and a real profile. The tables are written as OpenSM dumps that load back and
//! deliver every pair on shortest paths, the comparison is printed, and the busiest link end
//! between switches is no busier than under D-mod-K.

use std::path::PathBuf;

use shoal::model::RailId;
use shoal::profile_io::rail::load_rail;
use shoal::routing::engines::compare::{baseline_routings, max_load};
use shoal::routing::engines::{Topology, check_routes};
use shoal::routing::{Flow, RegionKey};
use shoal::view_model::{OpenRequest, RailRequest, open};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAIL: &str = "sample-data/tworail/rail0";
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The profile's whole-run flows on the one rail, as `route` takes them.
fn flows() -> Vec<Flow> {
    let request = OpenRequest {
        rails: vec![RailRequest { paths: vec![root().join(RAIL)] }],
        profile: Some(root().join(PROFILE)),
        ..Default::default()
    };
    let dataset = open(&request, &|_| {}).unwrap();
    dataset.fabric.unwrap().flows.all()[&RegionKey::Total].flows[0].clone()
}

#[test]
fn greedy_tables_load_back_deliver_every_pair_and_beat_dmodk_on_the_busiest_switch_link() {
    for engine in ["greedy", "greedy-sum"] {
        let out = std::env::temp_dir().join(format!("shoal-route-greedy-{}-{engine}", std::process::id()));
        let out_text = out.display().to_string();
        let (ok, stdout, stderr) =
            shoal(&["route", RAIL, "--engine", engine, "--profile", PROFILE, "--out", &out_text]);
        assert!(ok, "{stderr}");
        for routing in ["recorded", "dmodk", "minhop", engine] {
            assert!(stdout.lines().any(|l| l.trim_start().starts_with(routing)), "{routing}: {stdout}");
        }
        let (routed, warnings) =
            load_rail(std::slice::from_ref(&out), RailId(0)).expect("the routed rail loads");
        assert!(warnings.is_empty(), "{warnings:?}");
        let check = check_routes(&routed, &Topology::new(&routed, "r"));
        assert!(check.all_delivered() && check.shortest == check.rows, "{check:?}");
        let flows = flows();
        let greedy = max_load(&routed, engine, &flows);
        let recorded = load_rail(&[root().join(RAIL)], RailId(0)).unwrap().0;
        let baseline = baseline_routings(&recorded, &flows, "r");
        let dmodk = baseline.iter().find(|r| r.routing == "dmodk").unwrap();
        assert!(greedy.switch_to_switch <= dmodk.switch_to_switch, "{greedy:?} {baseline:?}");
        assert_eq!(greedy.undelivered, 0);
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn greedy_needs_traffic_and_the_table_engines_take_none() {
    let (ok, _, stderr) = shoal(&["route", RAIL, "--engine", "greedy", "--out", "/tmp/shoal-never"]);
    assert!(!ok && stderr.contains("give --profile"), "{stderr}");
    let (ok, _, stderr) =
        shoal(&["route", RAIL, "--engine", "dmodk", "--profile", PROFILE, "--out", "/tmp/shoal-never"]);
    assert!(!ok && stderr.contains("are for --engine greedy"), "{stderr}");
}
