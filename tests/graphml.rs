//! `shoal render … --graphml FILE` (issue 23 item 7): the fabric as GraphML for Gephi and
//! Cytoscape, parsed back with a real XML parser and checked against the loads the same flags
//! trace.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use shoal::model::{LinkEnd, Side};
use shoal::routing::RegionKey;
use shoal::view_model::{OpenRequest, RailRequest, open};

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A `<data>` child's text, by key.
fn data<'a>(node: roxmltree::Node<'a, 'a>, key: &str) -> Option<&'a str> {
    node.children().find(|c| c.has_tag_name("data") && c.attribute("key") == Some(key)).and_then(|c| c.text())
}

#[test]
fn the_graphml_holds_every_node_and_link_end_with_its_bytes_capacity_and_the_views_value() {
    let out = std::env::temp_dir().join(format!("shoal-graphml-{}.graphml", std::process::id()));
    let out_text = out.display().to_string();
    let args = ["render", RAILS[0], RAILS[1], "--profile", PROFILE, "--region", "2", "--graphml", &out_text];
    let (ok, stdout, err) = shoal(&args);
    assert!(ok, "{err}");
    assert!(stdout.contains("wrote "), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let graph = doc.descendants().find(|n| n.has_tag_name("graph")).unwrap();
    assert_eq!(graph.attribute("edgedefault"), Some("directed"));

    let request = OpenRequest {
        rails: RAILS.iter().map(|r| RailRequest { paths: vec![root().join(r)] }).collect(),
        profile: Some(root().join(PROFILE)),
        ..Default::default()
    };
    let fabric = open(&request, &|_| {}).unwrap().fabric.unwrap();
    let nodes: Vec<_> = graph.children().filter(|n| n.has_tag_name("node")).collect();
    let node_count: usize = fabric.cluster.rails.iter().map(|f| f.graph.node_count()).sum();
    assert_eq!(nodes.len(), node_count);
    let ids: HashSet<&str> = nodes.iter().filter_map(|n| n.attribute("id")).collect();
    assert_eq!(ids.len(), node_count, "node ids are unique");
    for n in &nodes {
        assert!(matches!(data(*n, "kind"), Some("CA" | "SW")), "{:?}", data(*n, "kind"));
        assert!(data(*n, "rail").is_some() && data(*n, "name").is_some());
    }
    assert!(nodes.iter().any(|n| data(*n, "level") == Some("0")));

    let edges: Vec<_> = graph.children().filter(|n| n.has_tag_name("edge")).collect();
    let links: usize = fabric.cluster.rails.iter().map(|f| f.graph.edge_count()).sum();
    assert_eq!(edges.len(), 2 * links, "one directed edge per link end");
    let region = fabric.loads.get(RegionKey::Region(2)).unwrap();
    let mut by_id: HashMap<&str, roxmltree::Node> = HashMap::new();
    for e in &edges {
        assert!(ids.contains(e.attribute("source").unwrap()) && ids.contains(e.attribute("target").unwrap()));
        assert!(data(*e, "capacity").is_some_and(|c| c.parse::<u64>().unwrap() > 0));
        by_id.insert(e.attribute("id").unwrap(), *e);
    }
    let mut carried = 0;
    for (r, rail) in fabric.cluster.rails.iter().enumerate() {
        for edge in rail.graph.edge_indices() {
            for (side, tag) in [(Side::A, 'a'), (Side::B, 'b')] {
                let end = LinkEnd { edge, side };
                let e = by_id[format!("r{r}-l{}{tag}", edge.index()).as_str()];
                let total = fabric.loads.total.rails[r].at(end);
                assert_eq!(data(e, "bytes"), Some(total.to_string().as_str()));
                let own = region.rails[r].at(end);
                let value = data(e, "value").map(|v| v.parse::<f64>().unwrap());
                assert_eq!(value.unwrap_or(0.0), own as f64, "the view colours region 2's bytes");
                carried += usize::from(own > 0);
            }
        }
    }
    assert!(carried > 0);
}

#[test]
fn graphml_of_a_time_strip_is_refused_with_a_reason() {
    let args = ["render", RAILS[0], "--profile", PROFILE, "--module", "time-strip", "--graphml", "x.graphml"];
    let (ok, _, err) = shoal(&args);
    assert!(!ok);
    assert!(err.contains("no link ends"), "{err}");
}
