//! Views coloured by what the counters say beside bytes (issue 22, item 5), on the real
//! simulated fabric of `tests/fixtures/health` (see its README): the picture colours exactly
//! the numbers `convert`'s links.csv writes, on the scale its legend shows, thresholds named.

#[path = "support/health_captures.rs"]
mod health_captures;
#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::path::Path;
use std::process::Command;

use health_captures::{dated_captures, fixtures};
use scratch_dir::ScratchDir;

use shoal::scene::colour::{ColourMap, ColourScale, ScaleKind};

/// A scratch folder holding the two captures dated `seconds` apart (perfquery prints no times).
fn scratch(tag: &str, seconds: u64) -> ScratchDir {
    dated_captures("health-views", tag, seconds)
}

fn shoal(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shoal"))
        .args(args)
        .arg(fixtures())
        .arg("--counters")
        .arg(dir.join("perfquery-before.txt"))
        .arg("--counters")
        .arg(dir.join("perfquery-after.txt"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `links.csv`'s `<column>_a_to_b` and `_b_to_a` per link end index (edge × 2 + side).
fn csv_by_end(dir: &Path, column: &str) -> Vec<Option<f64>> {
    let text = std::fs::read_to_string(dir.join("conv/links.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |suffix: &str| header.iter().position(|h| *h == format!("{column}_{suffix}")).unwrap();
    let (a, b) = (at("a_to_b"), at("b_to_a"));
    let mut out = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        out.push(cells[a].parse().ok());
        out.push(cells[b].parse().ok());
    }
    out
}

/// (link end index, stroke) of every link half in an SVG.
fn halves(svg: &str) -> Vec<(usize, String)> {
    svg.lines()
        .filter(|l| l.starts_with("<line class=\"half\""))
        .map(|l| {
            let attr = |name: &str| l.split(&format!("{name}=\"")).nth(1).unwrap().split('"').next().unwrap();
            (attr("data-end").parse().unwrap(), attr("stroke").to_string())
        })
        .collect()
}

fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split('>').nth(1)?.split('<').next()?.to_string()))
        .collect()
}

#[test]
fn a_stall_view_colours_each_link_end_by_the_stall_links_csv_writes_on_a_0_to_100_scale() {
    let dir = scratch("stall", 1);
    shoal(&dir, &["convert", "--out", "conv"]);
    shoal(&dir, &["render", "--colour-by", "stall", "--out", "stall.svg"]);
    let stall = csv_by_end(&dir, "stall");
    assert!(stall.iter().flatten().any(|&s| s > 10.0), "S1[3] waited more than 10 % of one second");
    let svg = std::fs::read_to_string(dir.join("stall.svg")).unwrap();
    let scale = ColourScale::new(ColourMap::YlOrRd, ScaleKind::Linear, 0.0, 100.0);
    let drawn = halves(&svg);
    assert_eq!(drawn.len(), stall.len(), "every link end is drawn");
    for (end, stroke) in drawn {
        let expected = scale.colour(stall[end].expect("every end has a stall here")).hex();
        assert_eq!(stroke, expected, "link end {end}: stall {:?}", stall[end]);
    }
    let labels = texts(&svg);
    for label in ["0 %", "10 % hurts", "40 % severe", "100 %", "L: stall (sum)"] {
        assert!(labels.iter().any(|t| t == label), "legend lacks {label:?}: {labels:?}");
    }
}

#[test]
fn an_errors_view_colours_the_ends_whose_sending_port_counted_errors() {
    let dir = scratch("errors", 10);
    shoal(&dir, &["render", "--colour-by", "errors", "--out", "errors.svg"]);
    let svg = std::fs::read_to_string(dir.join("errors.svg")).unwrap();
    let strokes: std::collections::BTreeSet<String> = halves(&svg).into_iter().map(|h| h.1).collect();
    assert!(strokes.len() >= 3, "no errors, some, the most: {strokes:?}");
    assert!(texts(&svg).iter().any(|t| t == "L: errors (sum)"));
}

#[test]
fn utilisation_without_a_known_interval_is_drawn_empty_and_says_why() {
    let dir = scratch("no-interval", 0);
    let stderr = shoal(&dir, &["render", "--colour-by", "utilisation", "--out", "u.svg"]);
    assert!(stderr.contains("--colour-by utilisation: every link end is empty"), "{stderr}");
    assert!(stderr.contains("no known interval"), "{stderr}");
}

#[test]
fn counters_alone_colour_what_they_observed_not_zero_predicted_bytes() {
    let dir = scratch("alone", 10);
    shoal(&dir, &["render", "--out", "plain.svg"]);
    let labels = texts(&std::fs::read_to_string(dir.join("plain.svg")).unwrap());
    assert!(labels.iter().any(|t| t == "L: observed (sum)"), "{labels:?}");
    assert!(!labels.iter().any(|t| t.contains("bytes_sent")), "no node colour of 0 B: {labels:?}");
}

#[test]
fn the_health_layer_dashes_the_degraded_link_and_rings_each_port_whose_errors_moved() {
    let dir = scratch("layer", 10);
    shoal(&dir, &["render", "--health-layer", "--out", "layer.svg"]);
    let svg = std::fs::read_to_string(dir.join("layer.svg")).unwrap();
    let dashes = svg.lines().filter(|l| l.starts_with("<line class=\"health\"")).count();
    assert!(dashes >= 10, "S1[4]–S2[4] runs 1x SDR: dashed from switch to switch ({dashes} dashes)");
    // S2[4] (symbol errors, link downed), S1[1] (discards), S2[2] (constraint errors).
    let rings = svg.lines().filter(|l| l.contains(r##"stroke="#dc0000""##)).count();
    assert_eq!(rings, 3, "one ring per port whose error counters moved");
    let labels = texts(&svg);
    assert!(labels.iter().any(|t| t.contains("dashed = degraded link, red ring = error port")), "{labels:?}");
    shoal(&dir, &["render", "--out", "plain.svg"]);
    let plain = std::fs::read_to_string(dir.join("plain.svg")).unwrap();
    assert!(!plain.contains("class=\"health\""), "off unless asked for");
}
