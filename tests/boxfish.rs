//! Boxfish run data and the generic-2D CSV pair: parse real-shaped files, evaluate the same
//! filters the views use, and check them against values counted independently here.

#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use shoal::model::{Column, Domain, Run, Shape};
use shoal::profile_io::boxfish::load_boxfish;
use shoal::profile_io::load_run;
use shoal::view_model::query::{Aggregate, Condition, attributes, distinct_values, highlight, mask, values};

use scratch_dir::ScratchDir;

fn tiny() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/boxfish/tiny/tiny_meta.yaml")
}

fn load(path: &Path) -> Run {
    let (run, warnings) = load_run(path).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    run
}

fn scratch(test: &str) -> ScratchDir {
    ScratchDir::new(&format!("boxfish-{test}"))
}

fn conditions(list: &[&str]) -> Vec<Condition> {
    list.iter().map(|c| Condition::parse(c).unwrap()).collect()
}

/// The data rows of a table file, split by whitespace: the simplest reading there is.
fn rows(path: &Path) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let body = text.split("\n...\n").nth(1).unwrap();
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|f| f.parse().unwrap()).collect())
        .collect()
}

#[test]
fn a_real_shaped_run_parses_with_blank_header_lines_and_floats_for_integers() {
    let run = load(&tiny());
    assert_eq!(run.name(), "TINY_TORUS");
    let net = run.network();
    assert_eq!(net.shape, Shape::Torus { dims: vec![2, 2, 1] });
    assert_eq!(net.axes, vec!["x", "y", "z"]);
    assert_eq!(net.nodes.len(), 4);
    assert_eq!(net.links.len(), 8);
    assert_eq!(net.nodes[3].coords, vec![1.0, 1.0, 0.0]);
    let links = run.tables_of(Domain::Links).next().unwrap();
    let Some(Column::Int(packets)) = links.column("packets") else { panic!("packets is an int column") };
    assert_eq!(packets[0], 1000, "written `1000.0`");
    assert_eq!(run.ids(Domain::Ranks), &[0, 1, 2, 3]);
    assert_eq!(run.ids(Domain::Communicators), &[0, 1]);
    let names: Vec<String> = attributes(&run, Domain::Communicators).into_iter().map(|a| a.name).collect();
    assert_eq!(names, vec!["communicator_group_id", "communicator_name", "subcomm_id"]);
    assert_eq!(distinct_values(&run, Domain::Links, "code_region"), vec![1.0, 2.0]);
}

#[test]
fn each_link_joins_the_nodes_at_its_source_and_destination_coordinates() {
    let run = load(&tiny());
    let net = run.network();
    let dir = tiny().with_file_name("tiny_links.yaml");
    for row in rows(&dir) {
        let link = net.links.iter().find(|l| l.id == row[0] as i64).unwrap();
        assert_eq!(net.nodes[link.source].coords, row[1..4].to_vec());
        assert_eq!(net.nodes[link.target].coords, row[4..7].to_vec());
    }
}

#[test]
fn per_link_means_per_code_region_match_an_independent_count() {
    let run = load(&tiny());
    let file = tiny().with_file_name("tiny_links.yaml");
    let mut expected: BTreeMap<(i64, i64), (f64, f64)> = BTreeMap::new();
    for row in rows(&file) {
        let e = expected.entry((row[7] as i64, row[0] as i64)).or_default();
        e.0 += row[8];
        e.1 += 1.0;
    }
    for region in [1, 2] {
        let got = values(
            &run,
            Domain::Links,
            &conditions(&[&format!("code_region = {region}")]),
            Aggregate::Mean,
            "packets",
        )
        .unwrap();
        for (id, value) in run.ids(Domain::Links).iter().zip(&got) {
            let (sum, count) = expected[&(region, *id)];
            assert_eq!(*value, Some(sum / count), "link {id} region {region}");
        }
    }
    // Links 0 and 5 have two region-2 rows: the mean is not either row.
    let two =
        values(&run, Domain::Links, &conditions(&["code_region = 2"]), Aggregate::Mean, "packets").unwrap();
    assert_eq!(two[0], Some((2000.0 + 40000.0) / 2.0));
    let sum =
        values(&run, Domain::Links, &conditions(&["code_region = 2"]), Aggregate::Sum, "packets").unwrap();
    assert_eq!(sum[0], Some(42000.0));
}

#[test]
fn a_node_attribute_filter_reaches_links_through_their_source_node() {
    let run = load(&tiny());
    // muls = 100 × node + region, so nodes 2 and 3 pass; links leave them per the Source policy.
    let m = mask(&run, Domain::Links, &conditions(&["muls > 200"])).unwrap();
    let net = run.network();
    let expected: Vec<bool> = net.links.iter().map(|l| net.nodes[l.source].id >= 2).collect();
    assert_eq!(m, expected);
    assert_eq!(m.iter().filter(|&&b| b).count(), 4);
    // With a row condition on the links' own table too: the node clause still selects ids.
    let v = values(
        &run,
        Domain::Links,
        &conditions(&["muls > 200", "code_region = 1"]),
        Aggregate::Max,
        "packets",
    )
    .unwrap();
    for (i, link) in net.links.iter().enumerate() {
        let want = (net.nodes[link.source].id >= 2).then_some(1000.0 + 10.0 * link.id as f64);
        assert_eq!(v[i], want, "link {}", link.id);
    }
    // A qualified name forces the node table's code_region, which every node has.
    assert!(mask(&run, Domain::Links, &conditions(&["nodes.code_region = 2"])).unwrap().iter().all(|&b| b));
}

#[test]
fn a_rank_or_communicator_filter_reaches_nodes_and_links() {
    let run = load(&tiny());
    // Communicator `row-x` 1 holds ranks 2 and 3, which run on nodes 1 and 0.
    let m = mask(&run, Domain::Nodes, &conditions(&["communicator_group_id = 1"])).unwrap();
    assert_eq!(m, vec![true, true, false, false]);
    let named = mask(&run, Domain::Ranks, &conditions(&["communicator_name = row-*"])).unwrap();
    assert_eq!(named, vec![true; 4]);
}

#[test]
fn a_highlight_on_a_rank_lights_its_node_its_links_and_its_communicator() {
    let run = load(&tiny());
    let lit = highlight(&run, Domain::Ranks, &HashSet::from([0]));
    assert_eq!(lit[&Domain::Ranks], HashSet::from([0]));
    assert_eq!(lit[&Domain::Nodes], HashSet::from([3]));
    let net = run.network();
    let from3: HashSet<i64> =
        net.links.iter().filter(|l| net.nodes[l.source].id == 3).map(|l| l.id).collect();
    assert_eq!(lit[&Domain::Links], from3);
    assert_eq!(lit[&Domain::Communicators], HashSet::from([0]));
    // And back from a link to the rank on its source node.
    let back = highlight(&run, Domain::Links, &from3);
    assert_eq!(back[&Domain::Ranks], HashSet::from([0]));
}

#[test]
fn an_attribute_of_another_domain_gives_each_id_its_related_ids_value() {
    let run = load(&tiny());
    // Rank r runs on node 3 − r, whose region-1 row has muls = 100 × node + 1.
    let v = values(&run, Domain::Ranks, &conditions(&["code_region = 1"]), Aggregate::Mean, "muls").unwrap();
    assert_eq!(v, vec![Some(301.0), Some(201.0), Some(101.0), Some(1.0)]);
    let cut =
        values(&run, Domain::Ranks, &conditions(&["code_region = 1", "muls < 150"]), Aggregate::Sum, "muls")
            .unwrap();
    assert_eq!(cut, vec![None, None, Some(101.0), Some(1.0)]);
}

#[test]
fn unknown_attributes_and_text_values_are_clear_errors() {
    let run = load(&tiny());
    let err = values(&run, Domain::Links, &[], Aggregate::Mean, "bytes").unwrap_err().to_string();
    assert!(err.contains("`bytes`") && err.contains("packets"), "{err}");
    let err = values(&run, Domain::Links, &conditions(&["code_region = one"]), Aggregate::Mean, "packets");
    assert!(err.unwrap_err().to_string().contains("not a number"));
}

fn copy_tiny(dir: &Path, meta_edit: impl Fn(String) -> String) -> PathBuf {
    for entry in std::fs::read_dir(tiny().parent().unwrap()).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    let meta = dir.join("tiny_meta.yaml");
    let text = std::fs::read_to_string(&meta).unwrap();
    std::fs::write(&meta, meta_edit(text)).unwrap();
    meta
}

#[test]
fn a_table_file_outside_the_meta_files_folder_is_refused() {
    let dir = scratch("escape");
    let inner = dir.join("run");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::write(dir.join("secret.yaml"), "- [a, int32]\n...\n1\n").unwrap();
    for name in ["../secret.yaml", "/etc/passwd"] {
        let meta = copy_tiny(&inner, |t| {
            t.replace("filename: tiny_communicators.yaml", &format!("filename: {name}"))
        });
        let err = load_boxfish(&meta).unwrap_err().to_string();
        assert!(err.contains(&format!("`{name}` reaches outside the meta file's folder")), "{err}");
    }
}

#[test]
fn bad_rows_are_skipped_with_file_and_line_warnings() {
    let dir = scratch("bad-rows");
    let meta = copy_tiny(&dir, |t| t);
    let map = dir.join("tiny_map.yaml");
    let text = std::fs::read_to_string(&map).unwrap();
    std::fs::write(&map, text.replace("3 0 \n", "3 zero \n")).unwrap();
    let (run, warnings) = load_boxfish(&meta).unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].file.ends_with("tiny_map.yaml") && warnings[0].line == Some(7), "{:?}", warnings[0]);
    assert_eq!(run.ids(Domain::Ranks), &[0, 1, 2, 3], "rank 3 still comes from the communicator map");
    assert!(highlight(&run, Domain::Ranks, &HashSet::from([3]))[&Domain::Nodes].is_empty());
}

#[test]
fn gzipped_table_files_are_found_under_their_plain_name() {
    use std::io::Write;
    let dir = scratch("gz");
    let meta = copy_tiny(&dir, |t| t);
    let links = dir.join("tiny_links.yaml");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&std::fs::read(&links).unwrap()).unwrap();
    std::fs::write(dir.join("tiny_links.yaml.gz"), gz.finish().unwrap()).unwrap();
    std::fs::remove_file(&links).unwrap();
    assert_eq!(load(&meta).network().links.len(), 8);
    assert_eq!(load(&dir).network().links.len(), 8, "the folder opens too");
}

#[test]
fn a_table_file_given_as_the_run_is_not_mistaken_for_a_meta_file() {
    let err = load_run(&tiny().with_file_name("tiny_links.yaml")).unwrap_err().to_string();
    assert!(err.contains("not a Boxfish meta file"), "{err}");
}
