//! The default colours show the data (issue 25): `shoal render` of the bundled sample, with no
//! colour flag, draws every link end in the default map by its bytes as `convert` writes them to
//! links.csv, the ends that sent nothing light (they recede on the light canvas) and unlike the
//! grey of an end with no value, and the busiest dark.

use std::collections::HashMap;

use shoal::scene::ColourScale;
use shoal::view_model::{ColourMap, ScaleKind};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE: &str = "sample-data/tworail/samplesort.ibprof.gz";

/// Relative luminance (sRGB, WCAG), 0 black to 1 white.
fn luminance(hex: &str) -> f64 {
    let channel = |i: usize| {
        let v = f64::from(u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap()) / 255.0;
        if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}

/// (rail, end index) → bytes that end sent over the whole run, from links.csv: each row is a
/// link in the rail's edge order, `bytes_a_to_b` its end A (index 2·edge), `bytes_b_to_a` B.
fn sent_bytes(links_csv: &str) -> HashMap<(usize, usize), u64> {
    let mut lines = links_csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (rail, region, job, ab, ba) =
        (col("rail"), col("region"), col("job"), col("bytes_a_to_b"), col("bytes_b_to_a"));
    let mut edges: HashMap<usize, usize> = HashMap::new();
    let mut sent = HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f[region] != "total" || f[job] != "samplesort" {
            continue;
        }
        let r: usize = f[rail].parse().unwrap();
        let edge = edges.entry(r).or_default();
        sent.insert((r, 2 * *edge), f[ab].parse().unwrap());
        sent.insert((r, 2 * *edge + 1), f[ba].parse().unwrap());
        *edge += 1;
    }
    sent
}

/// (rail, end index) → the stroke of its half in the SVG.
fn strokes(svg: &str) -> HashMap<(usize, usize), String> {
    let attr = |line: &str, name: &str| {
        let start = line.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(line[start..start + line[start..].find('"')?].to_string())
    };
    svg.lines()
        .filter(|l| l.contains("class=\"half\""))
        .map(|l| {
            let key = (
                attr(l, "data-rail").unwrap().parse().unwrap(),
                attr(l, "data-end").unwrap().parse().unwrap(),
            );
            (key, attr(l, "stroke").unwrap())
        })
        .collect()
}

#[test]
fn the_default_render_of_the_sample_draws_zero_byte_ends_light_and_the_busiest_dark() {
    let dir = std::env::temp_dir().join(format!("shoal-default-colours-{}", std::process::id()));
    let (svg, csv) = (dir.join("default.svg"), dir.join("convert"));
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, _, err) =
        shoal(&["render", RAILS[0], RAILS[1], "--profile", PROFILE, "--out", svg.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) =
        shoal(&["convert", RAILS[0], RAILS[1], "--profile", PROFILE, "--out", csv.to_str().unwrap()]);
    assert!(ok, "{err}");
    let sent = sent_bytes(&std::fs::read_to_string(csv.join("links.csv")).unwrap());
    let strokes = strokes(&std::fs::read_to_string(&svg).unwrap());
    assert_eq!(strokes.len(), sent.len(), "every end is drawn once");
    let max = *sent.values().max().unwrap();
    let scale = ColourScale::new(ColourMap::default(), ScaleKind::Linear, 0.0, max as f64);
    let no_value = shoal::scene::network::NO_DATA.hex();
    let zero: Vec<_> = sent.iter().filter(|(_, b)| **b == 0).map(|(k, _)| k).collect();
    assert!(zero.len() > 100, "the sample has idle ends (the storage nodes' and more): {}", zero.len());
    for (end, bytes) in &sent {
        let stroke = &strokes[end];
        assert_eq!(stroke, &scale.colour(*bytes as f64).hex(), "end {end:?} with {bytes} bytes");
        if *bytes == 0 {
            assert!(luminance(stroke) > 0.85, "a zero-byte end recedes: {stroke}");
            assert_ne!(stroke, &no_value, "a zero-byte end is not drawn as an end with no value");
        }
        if *bytes == max {
            assert!(luminance(stroke) < 0.1, "the busiest end is the darkest: {stroke}");
        }
    }
    assert!(luminance(&no_value) < 0.85, "an end with no value stays apart from the zero-byte ones");
    std::fs::remove_dir_all(&dir).unwrap();
}
