//! `shoal gen`, run as a user would run it: what it writes reads back through the ordinary
//! loaders with no warning, every sampled pair is delivered, and the profile's bytes all arrive.

use std::path::{Path, PathBuf};

use shoal::model::Lid;
use shoal::model::synthetic::ThreeLevel;
use shoal::profile_io::rail::open_rail;
use shoal::routing::trace;
use shoal::view_model::dataset::FabricData;
use shoal::view_model::{OpenRequest, open};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-gen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn gen_writes_two_rails_and_a_profile_that_load_without_warnings_and_deliver_every_byte() {
    let dir = fresh_dir("k6");
    let out = dir.to_str().expect("temp paths are UTF-8");
    let (ok, stdout, stderr) =
        shoal(&["gen", "--k", "6", "--rails", "2", "--ranks", "60", "--peers", "5", "--out", out]);
    assert!(ok, "{stderr}");
    // k = 6: 54 hosts, 45 switches, 54 + 54 + 54 links per rail.
    assert!(stdout.contains("rail0: 54 hosts, 45 switches, 162 links"), "{stdout}");
    assert!(stdout.contains("ranks60-peers5.ibprof: 60 ranks × 5 peers"), "{stdout}");

    let rails: Vec<Vec<PathBuf>> = (0..2).map(|r| vec![dir.join(format!("rail{r}"))]).collect();
    let profile = dir.join("ranks60-peers5.ibprof");
    let request = OpenRequest { profile: Some(profile.clone()), ..OpenRequest::of_rails(rails.clone()) };
    let dataset = open(&request, &|_| {}).expect("generated files load");
    assert!(dataset.warnings.is_empty(), "{:#?}", dataset.warnings);
    let analysis: &FabricData = dataset.fabric.as_ref().expect("a fabric");
    assert_eq!(analysis.cluster.hosts.len(), 54);
    for fabric in &analysis.cluster.rails {
        assert_eq!(fabric.link_count(), 162);
        assert_eq!(fabric.switches_with_lft(), 45);
    }

    // Sample pairs, hosts and switches alike, are delivered on both rails.
    for fabric in &analysis.cluster.rails {
        let lids: Vec<Lid> = fabric.graph.node_indices().filter_map(|n| fabric.node(n).base_lid()).collect();
        assert_eq!(lids.len(), 99);
        for &s in lids.iter().step_by(7) {
            for &d in lids.iter().step_by(5) {
                let path = trace(fabric, s, d);
                assert!(path.delivered(), "rail {:?}: {s} -> {d}: {:?}", fabric.rail, path.outcome);
            }
        }
    }

    // 60 ranks on 54 hosts: all bytes are injected and delivered, none dropped.
    let loads = &analysis.loads.total;
    let injected: u64 = loads.rails.iter().map(|r| r.injected).sum();
    let sent: u64 = analysis
        .profile
        .as_ref()
        .into_iter()
        .flat_map(|p| &p.ranks)
        .flat_map(|s| &s.dumps[0].peers)
        .map(|p| p.sent)
        .sum();
    assert!(injected > 0);
    assert_eq!(injected + loads.intra_node_bytes, sent);
    assert!(loads.rails.iter().all(|r| r.undelivered == 0 && r.is_conserved()));
    std::fs::remove_dir_all(&dir).expect("temp dir removable");
}

#[test]
fn the_streamed_fdbs_of_a_generated_rail_equals_the_built_fabrics_tables() {
    let dir = fresh_dir("p2");
    let shape = ThreeLevel::k_ary_pods(8, 2);
    let fabric = shape.build();
    shoal::profile_io::opensm_write::write_rail_dir(&fabric, &dir).expect("temp dir writable");
    let (inputs, warnings) = open_rail(std::slice::from_ref(&dir)).expect("written rail opens");
    assert!(warnings.is_empty(), "{warnings:?}");
    let (read, warnings) = shoal::profile_io::rail::build_rail(&inputs, fabric.rail, "gen").expect("builds");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(read.link_count(), shape.link_count());
    for switch in fabric.switches() {
        let guid = fabric.node(switch).guid;
        let again = read.node_by_guid(guid).expect("every switch is read back");
        assert_eq!(read.lft(again), fabric.lft(switch), "table of {guid}");
    }
    std::fs::remove_dir_all(&dir).expect("temp dir removable");
}

#[test]
fn gen_refuses_odd_radix_and_too_many_pods() {
    let dir = fresh_dir("bad");
    let out = dir.to_str().expect("temp paths are UTF-8");
    let (ok, _, stderr) = shoal(&["gen", "--k", "5", "--out", out]);
    assert!(!ok && stderr.contains("even"), "{stderr}");
    let (ok, _, stderr) = shoal(&["gen", "--k", "4", "--pods", "5", "--out", out]);
    assert!(!ok && stderr.contains("--pods"), "{stderr}");
    assert!(!Path::new(&dir).exists(), "nothing written for refused flags");
}

#[test]
fn gen_writes_a_rail_optimized_fabric_whose_hosts_carry_one_hca_per_plane() {
    let dir = fresh_dir("railopt");
    let out = dir.to_str().expect("temp paths are UTF-8");
    let args = ["--sus", "2", "--su-hosts", "4", "--planes", "4", "--spines", "2"];
    let (ok, stdout, stderr) =
        shoal(&[&["gen", "--shape", "rail-optimized", "--out", out][..], &args[..]].concat());
    assert!(ok, "{stderr}");
    assert!(stdout.contains("rail0: 8 hosts (32 CAs), 10 switches, 48 links"), "{stdout}");
    let request = OpenRequest::of_rails(vec![vec![dir.join("rail0")]]);
    let dataset = open(&request, &|_| {}).expect("generated files load");
    assert!(dataset.warnings.is_empty(), "{:#?}", dataset.warnings);
    let analysis = dataset.fabric.as_ref().expect("a fabric");
    assert!(analysis.cluster.has_planes());
    assert_eq!(analysis.cluster.planes[0].planes.len(), 4);
    assert!(analysis.layout.planes.is_some(), "laid out by plane");
    let (bad, _, stderr) = shoal(&["gen", "--shape", "rail-optimized", "--su-hosts", "300", "--out", out]);
    assert!(!bad && stderr.contains("at most 254"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
