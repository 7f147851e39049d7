//! `shoal render --module matrix` (issue 23): the picture is checked against the table
//! `shoal matrix` writes for the same flags, its session renders the same bytes, and the
//! clustered order only moves rows and columns.

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

use std::collections::HashMap;
use std::path::PathBuf;

use shoal::scene::matrix_draw::hop_hue;
use shoal::view_model::{OpenRequest, open};

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";
/// Where the matrix sits on the default 1280 × 720 canvas: left of the labels' column, below
/// the title (`scene::matrix_draw`); the hop key lies right of it.
const PLOT_X: f32 = 150.0;
const PLOT_Y: f32 = 26.0;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("shoal-matrix-view-{}-{name}", std::process::id()))
}

fn render(name: &str, extra: &[&str]) -> PathBuf {
    let out = temp(name);
    let base = ["render", RAILS[0], RAILS[1], "--profile", PROFILE, "--module", "matrix", "--region", "2"];
    let args = [&base[..], extra, &["--out", out.to_str().unwrap()]].concat();
    let (ok, _, err) = shoal(&args);
    assert!(ok, "{err}");
    out
}

/// The fills of the cells in an SVG: rects inside the matrix, not the background or the key.
fn cell_fills(svg: &str) -> Vec<String> {
    let attr = |tag: &str, name: &str| {
        let from = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[from..].split('"').next().map(str::to_string)
    };
    let plot_side: f32 = svg
        .split("<clipPath id=\"plot\">")
        .nth(1)
        .and_then(|rest| attr(rest, "width"))
        .and_then(|w| w.parse().ok())
        .expect("the SVG clips the matrix");
    let inside = |v: &str, from: f32| v.parse::<f32>().is_ok_and(|v| v >= from && v < from + plot_side);
    svg.split("<rect")
        .skip(1)
        .filter(|tag| {
            attr(tag, "x").is_some_and(|x| inside(&x, PLOT_X))
                && attr(tag, "y").is_some_and(|y| inside(&y, PLOT_Y))
        })
        .filter(|tag| !tag.contains("stroke="))
        .filter_map(|tag| attr(tag, "fill"))
        .collect()
}

/// INTAP's colour of a cell: its hop class's hue over white at 0.12 + 0.88 × its share of the
/// busiest cell, as `#rrggbb`.
fn expected_fill(bytes: f64, max: f64, hops: Option<u32>) -> String {
    let t = (0.12 + 0.88 * bytes / max) as f32;
    let [r, g, b, _] = hop_hue(hops).0;
    let mix = |c: u8| (255.0 + (f32::from(c) - 255.0) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

/// Each host pair's cell as `shoal matrix` tables it: bytes over both rails, the worse hops.
fn table_cells(extra: &[&str]) -> Vec<String> {
    // Tests run in parallel and two of them table the same cells: each call its own file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let csv = temp(&format!("cells{call}.csv"));
    let args = ["matrix", RAILS[0], RAILS[1], "--profile", PROFILE, "--by", "host", "--region", "2"];
    let (ok, _, err) = shoal(&[&args[..], extra, &["--out", csv.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    let mut cells: HashMap<(String, String), (f64, Option<u32>)> = HashMap::new();
    for row in csv::Reader::from_path(&csv).unwrap().records() {
        let row = row.unwrap();
        let cell = cells.entry((row[0].to_string(), row[1].to_string())).or_insert((0.0, Some(0)));
        cell.0 += row[3].parse::<f64>().unwrap();
        let hops: Option<u32> = row[5].parse().ok();
        cell.1 = cell.1.zip(hops).map(|(a, b)| a.max(b));
    }
    std::fs::remove_file(&csv).unwrap();
    let max = cells.values().map(|c| c.0).fold(0.0, f64::max);
    let mut fills: Vec<String> =
        cells.values().filter(|c| c.0 > 0.0).map(|&(bytes, hops)| expected_fill(bytes, max, hops)).collect();
    fills.sort();
    fills
}

#[test]
fn each_cell_is_coloured_by_its_pairs_hop_class_at_its_share_of_the_busiest_cell() {
    let svg_path = render("hosts.svg", &["--matrix-by", "host"]);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    std::fs::remove_file(&svg_path).unwrap();
    let mut drawn = cell_fills(&svg);
    drawn.sort();
    let expected = table_cells(&[]);
    assert!(expected.len() > 1000, "the sample's region 2 has many host pairs ({})", expected.len());
    assert_eq!(drawn.len(), expected.len(), "one cell per host pair that sent bytes");
    assert_eq!(drawn, expected, "the cells' colours are the table's hop classes and shares");
}

#[test]
fn a_filter_on_pairs_draws_only_the_cells_of_the_pairs_it_keeps() {
    let clause = ["--where", "pairs.hops <= 1"];
    let svg_path = render("within-a-leaf.svg", &[&["--matrix-by", "host"][..], &clause[..]].concat());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    std::fs::remove_file(&svg_path).unwrap();
    let mut drawn = cell_fills(&svg);
    drawn.sort();
    let expected = table_cells(&clause);
    let every = table_cells(&[]);
    assert!(
        !expected.is_empty() && expected.len() < every.len() / 4,
        "{} of {}",
        expected.len(),
        every.len()
    );
    assert_eq!(drawn, expected, "one cell per kept pair, coloured as `shoal matrix --where` tables it");
    assert!(
        svg.contains("filtered: only the pairs with pairs.hops &lt;= 1"),
        "the note says a filter is applied"
    );
}

#[test]
fn shoal_matrix_writes_only_the_pairs_a_where_clause_keeps_and_refuses_clauses_on_links() {
    let csv = temp("kept.csv");
    let args = ["matrix", RAILS[0], "--profile", PROFILE, "--by", "rank", "--where", "pairs.hops <= 1"];
    let (ok, _, err) = shoal(&[&args[..], &["--out", csv.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    assert!(err.contains("note: filtered: only the pairs with pairs.hops <= 1"), "{err}");
    let rows: Vec<csv::StringRecord> =
        csv::Reader::from_path(&csv).unwrap().records().map(Result::unwrap).collect();
    std::fs::remove_file(&csv).unwrap();
    assert!(!rows.is_empty());
    assert!(
        rows.iter().all(|r| r[5].parse::<u32>().is_ok_and(|h| h <= 1)),
        "every row crosses at most one switch"
    );
    let (ok, _, err) =
        shoal(&["matrix", RAILS[0], "--profile", PROFILE, "--where", "bytes > 1", "--out", "/tmp/never.csv"]);
    assert!(!ok && err.contains("is not a clause on pairs"), "{err}");
}

#[test]
fn the_clustered_order_moves_rows_and_columns_but_keeps_every_cell() {
    let fills = |order: &str| {
        let path = render(&format!("order-{order}.svg"), &["--matrix-by", "rank", "--matrix-order", order]);
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        (svg.clone(), cell_fills(&svg))
    };
    let ((id_svg, mut by_id), (clustered_svg, mut clustered)) = (fills("id"), fills("clustered"));
    assert_ne!(id_svg, clustered_svg, "the order changes the picture");
    by_id.sort();
    clustered.sort();
    assert_eq!(by_id, clustered, "the same cells, in other places");
    let (ok, _, err) =
        shoal(&["render", RAILS[0], "--profile", PROFILE, "--module", "matrix", "--matrix-order", "x"]);
    assert!(!ok && err.contains("expected id, layout or clustered"), "{err}");
}

#[test]
fn a_saved_matrix_session_renders_the_same_png() {
    let session = temp("matrix.session");
    let first = render("first.png", &["--matrix-by", "leaf", "--save-session", session.to_str().unwrap()]);
    let again = temp("again.png");
    let (ok, _, err) =
        shoal(&["render", "--session", session.to_str().unwrap(), "--out", again.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("traffic matrix of"), "{err}");
    let (a, b) = (std::fs::read(&first).unwrap(), std::fs::read(&again).unwrap());
    assert!(a == b, "render --session draws the saved matrix byte for byte");
    for path in [first, again, session] {
        std::fs::remove_file(path).unwrap();
    }
}

/// Each row's bar in an SVG: total width per fill, rows keyed by their top edge.
fn bar_rows(svg: &str) -> Vec<Vec<(String, f32)>> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let from = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[from..].split('"').next().map(str::to_string)
    };
    let mut rows: std::collections::BTreeMap<i64, Vec<(String, f32)>> = Default::default();
    for tag in svg.split("<rect").skip(1).filter(|t| !t.contains("stroke=")) {
        let (Some(x), Some(y), Some(w), Some(fill)) =
            (attr(tag, "x"), attr(tag, "y"), attr(tag, "width"), attr(tag, "fill"))
        else {
            continue;
        };
        let (x, y, w): (f32, f32, f32) = (x.parse().unwrap(), y.parse().unwrap(), w.parse().unwrap());
        if (PLOT_X..1000.0).contains(&x) && y >= PLOT_Y {
            rows.entry((y * 100.0).round() as i64).or_default().push((fill, w));
        }
    }
    rows.into_values().collect()
}

#[test]
fn each_hop_bar_splits_what_its_host_sent_by_the_switches_each_path_crosses() {
    let path = render("bars.svg", &["--matrix-by", "host", "--matrix-show", "bars"]);
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let plot_w: f32 = svg
        .split("<clipPath id=\"plot\">")
        .nth(1)
        .unwrap()
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // The table: each sending host's bytes by the hop class of each (pair, rail) row.
    let csv = temp("bars.csv");
    let args = ["matrix", RAILS[0], RAILS[1], "--profile", PROFILE, "--by", "host", "--region", "2"];
    assert!(shoal(&[&args[..], &["--out", csv.to_str().unwrap()]].concat()).0);
    let mut sent: HashMap<String, std::collections::BTreeMap<u32, f64>> = HashMap::new();
    for row in csv::Reader::from_path(&csv).unwrap().records().map(Result::unwrap) {
        let hops: u32 = row[5].parse().unwrap();
        *sent.entry(row[0].to_string()).or_default().entry(hops).or_default() +=
            row[3].parse::<f64>().unwrap();
    }
    std::fs::remove_file(&csv).unwrap();
    let longest = sent.values().map(|c| c.values().sum::<f64>()).fold(0.0, f64::max);
    let expected = |classes: &std::collections::BTreeMap<u32, f64>| -> Vec<(String, f32)> {
        classes
            .iter()
            .map(|(h, v)| (expected_fill(1.0, 1.0, Some(*h)), (v / longest) as f32 * plot_w))
            .collect()
    };
    // Rows in id order: the cluster's host order, each host that sent bytes one bar.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let request = OpenRequest::of_rails(RAILS.iter().map(|r| vec![root.join(r)]).collect());
    let dataset = open(&request, &|_| {}).unwrap();
    let hosts = &dataset.fabric.as_ref().unwrap().cluster.hosts;
    let want: Vec<Vec<(String, f32)>> =
        hosts.iter().filter_map(|h| sent.get(&h.name)).map(expected).collect();
    let drawn = bar_rows(&svg);
    assert_eq!(drawn.len(), want.len(), "one bar per sending host");
    for (d, w) in drawn.iter().zip(&want) {
        assert_eq!(d.iter().map(|x| &x.0).collect::<Vec<_>>(), w.iter().map(|x| &x.0).collect::<Vec<_>>());
        for ((_, a), (_, b)) in d.iter().zip(w) {
            assert!((a - b).abs() < 0.011, "a segment is its class's bytes over the longest bar: {a} vs {b}");
        }
    }
}
