//! Scene → PNG and SVG: the files show what the scene says, at the size asked for.

use shoal::export::{Format, encode, export_list, pixels_per_point_for};
use shoal::scene::camera::{Camera, Transform};
use shoal::scene::draw::plot_rect;
use shoal::scene::{Scene, scene_for};
use shoal::view_model::{Dataset, Filter, Highlight, LayoutChoice, RegionSelection, ViewSpec};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

fn scene(selection: RegionSelection) -> Scene {
    let d = Dataset::synthetic(6, 4, 3, 2);
    let spec = ViewSpec { selection, ..ViewSpec::for_dataset(&d) };
    scene_for(&d, &spec, &Filter::default(), &Highlight::default(), (&LayoutChoice::FatTree, 16.0 / 9.0))
        .unwrap()
}

fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, buf)
}

#[test]
fn exported_png_has_the_requested_size_and_link_colours_where_the_scene_puts_links() {
    let s = scene(RegionSelection::Region(2));
    let (w, h) = (1600, 900);
    let bytes = encode(&s, &Camera::default(), w, h, Format::Png).unwrap();
    let (pw, ph, rgba) = decode(&bytes);
    assert_eq!((pw, ph), (w, h));
    let ppp = pixels_per_point_for(w, h);
    let list = export_list(&s, &Camera::default(), w, h, ppp);
    let t = Transform::new(&Camera::default(), &s.bounds, plot_rect(list.width, list.height));
    let pixel = |x: f32, y: f32| {
        let (x, y) = ((x * ppp) as usize, (y * ppp) as usize);
        let i = (y * w as usize + x) * 4;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    };
    let close = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 24);
    // Sample the middle of every long-enough half (away from marks and from the other half).
    let mut checked = 0;
    for half in &s.halves {
        let (a, b) = (t.to_screen(half.from), t.to_screen(half.to));
        if (a[1] - b[1]).abs() < 30.0 {
            continue;
        }
        let mid = [a[0] * 0.4 + b[0] * 0.6, a[1] * 0.4 + b[1] * 0.6];
        let [r, g, b_, _] = half.colour.0;
        let found = (-1..=1).any(|dx| close(pixel(mid[0] + dx as f32 * 0.5, mid[1]), [r, g, b_]));
        if found {
            checked += 1;
        }
    }
    assert!(checked * 10 >= s.halves.len() * 8, "{checked} of {} halves found in the PNG", s.halves.len());
    // And the background where nothing is drawn: the top-left corner.
    assert_eq!(pixel(2.0, 2.0), [s.background.0[0], s.background.0[1], s.background.0[2]]);
}

#[test]
fn exported_svg_parses_with_one_line_per_visible_link_half() {
    let mut s = scene(RegionSelection::Total);
    // Keep only rail 1: the scene decides what is visible, the SVG must follow it.
    s.halves.retain(|h| h.rail == 1);
    let bytes = encode(&s, &Camera::default(), 1200, 800, Format::Svg).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some("1200"));
    let halves: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("class") == Some("half"))
        .collect();
    assert_eq!(halves.len(), s.halves.len());
    for (node, half) in halves.iter().zip(&s.halves) {
        assert_eq!(node.attribute("stroke"), Some(half.colour.hex().as_str()));
        assert_eq!(node.attribute("data-end"), Some(half.end.index().to_string().as_str()));
    }
    let texts: Vec<&str> =
        doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    for label in ["1a", "2a", "1b", "2b", "N", "L", "linear"] {
        assert!(texts.contains(&label), "{label} missing from {texts:?}");
    }
}

const RAIL0: &str = "sample-data/tworail/rail0";
const RAIL1: &str = "sample-data/tworail/rail1";
const SORT: &str = "sample-data/tworail/samplesort.ibprof.gz";

/// `shoal render` of the two-rail sample at 800×500 with these flags: success, and the count of
/// its summary line `OUT: N links drawn` (or stderr, on failure).
fn render(out: &std::path::Path, flags: &[&str]) -> Result<usize, String> {
    let out = out.to_str().unwrap();
    let mut args = vec!["render", RAIL0, RAIL1, "--profile", SORT, "--width", "800", "--height", "500"];
    args.extend(flags);
    args.extend(["--out", out]);
    let (ok, _, err) = shoal(&args);
    if !ok {
        return Err(err);
    }
    let line = err.lines().find(|l| l.starts_with(out)).unwrap_or_else(|| panic!("no summary line: {err}"));
    let count = line.strip_prefix(&format!("{out}: ")).and_then(|l| l.strip_suffix(" links drawn"));
    Ok(count.unwrap_or_else(|| panic!("summary line {line:?}")).parse().unwrap())
}

#[test]
fn shoal_render_draws_the_sample_thresholded_and_diffed_and_names_missing_regions() {
    let dir = std::env::temp_dir().join(format!("shoal-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let all = render(&dir.join("all.svg"), &[]).unwrap();
    assert_eq!(all, 742 + 736);
    let hot = render(&dir.join("hot.png"), &["--threshold", "50%"]).unwrap();
    assert!(hot > 0 && hot < all, "{hot} of {all}");
    let (w, h, _) = decode(&std::fs::read(dir.join("hot.png")).unwrap());
    assert_eq!((w, h), (800, 500));
    render(&dir.join("diff.svg"), &["--diff", "2", "1"]).unwrap();
    let svg = std::fs::read_to_string(dir.join("diff.svg")).unwrap();
    assert!(svg.contains("region 2 − region 1"));
    let error = render(&dir.join("none.png"), &["--region", "9"]).unwrap_err();
    assert!(error.contains("it has: 1, 2"), "{error}");
    assert!(!dir.join("none.png").exists());
    // Without a profile there are no regions: asking for one is an error, not a total.
    let (ok, _, error) =
        shoal(&["render", RAIL0, "--region", "1", "--out", dir.join("np.png").to_str().unwrap()]);
    assert!(!ok && error.contains("no such region"), "{error}");
    let _ = std::fs::remove_dir_all(dir);
}
