//! Torus and generic-2D views of a run, through the scene layer to PNG and SVG: the export of a
//! rotated torus view shows its links, each direction in its own colour.

use shoal::export::{Format, encode, export_list, pixels_per_point_for};
use shoal::model::Run;
use shoal::modules::registry::prepare_view;
use shoal::scene::camera::{Camera, Transform};
use shoal::scene::draw::plot_rect;
use shoal::scene::{MarkOf, Scene};
use shoal::view_model::highlight::project;
use shoal::view_model::orbit::Orbit;
use shoal::view_model::run_synthetic::{packets, synthetic_run};
use shoal::view_model::{Dataset, Filter, Highlight, Lit, ModuleSpec, RegionSelection, ViewSpec};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

fn run_dataset(axes: &[&str], dims: &[u32]) -> Dataset {
    Dataset::from_run(synthetic_run(axes, dims), vec![])
}

/// Nothing highlighted.
fn unlit(d: &Dataset) -> Lit {
    project(d, &Highlight::default())
}

fn rotated_torus_scene(width: u32, height: u32) -> (Run, Scene) {
    let d = run_dataset(&["x", "y", "z"], &[4, 4, 4]);
    let spec = ViewSpec { selection: RegionSelection::Region(1), ..ViewSpec::for_dataset(&d) };
    let prepared = prepare_view(&d, &spec, &Filter::default()).unwrap();
    let ppp = pixels_per_point_for(width, height);
    let plot = plot_rect(width as f32 / ppp, height as f32 / ppp);
    let orbit = Orbit::from_yaw_pitch(30.0, 20.0);
    let scene = prepared.scene(&d, &spec, (None, None), &unlit(&d), &orbit, plot.w / plot.h);
    (d.run, scene)
}

#[test]
fn a_rotated_torus_exports_to_png_with_its_links_in_their_own_colours() {
    let (w, h) = (1600, 1000);
    let (run, s) = rotated_torus_scene(w, h);
    assert_eq!(s.halves.len(), run.network().links.len());
    let bytes = encode(&s, &Camera::default(), w, h, Format::Png).unwrap();
    let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (w, h));
    let ppp = pixels_per_point_for(w, h);
    let list = export_list(&s, &Camera::default(), w, h, ppp);
    let t = Transform::new(&Camera::default(), &s.bounds, plot_rect(list.width, list.height));
    let close = |a: &image::Rgb<u8>, b: [u8; 4]| a.0.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 24);
    // The nearest third of the halves (painted last): most show their colour on screen.
    let near = &s.halves[s.halves.len() * 2 / 3..];
    let mut found = 0;
    for half in near {
        let (a, b) = (t.to_screen(half.from), t.to_screen(half.to));
        let p = [a[0] * 0.3 + b[0] * 0.7, a[1] * 0.3 + b[1] * 0.7];
        let hit = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))).any(|(dx, dy)| {
            let (x, y) = (((p[0] + dx as f32 * 0.5) * ppp) as u32, ((p[1] + dy as f32 * 0.5) * ppp) as u32);
            x < w && y < h && close(img.get_pixel(x, y), half.colour.0)
        });
        found += usize::from(hit);
    }
    assert!(found * 10 >= near.len() * 7, "{found} of {} near halves found in the PNG", near.len());
    // Region 1 sends ≥ 1000 packets on x+ links and 200 on x− links: both colours are drawn.
    let scale = &s.legends[1].scale;
    let count = |c: [u8; 4]| img.pixels().filter(|p| close(p, c)).count();
    assert!(count(scale.colour(1300.0).0) > 100 && count(scale.colour(200.0).0) > 100);
    assert_eq!(packets(run.network(), 0, 1), 1000.0);
}

#[test]
fn a_rotated_torus_exports_to_svg_with_one_line_per_directed_link() {
    let (w, h) = (1200, 800);
    let (_, s) = rotated_torus_scene(w, h);
    let text = String::from_utf8(encode(&s, &Camera::default(), w, h, Format::Svg).unwrap()).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let lines: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && n.attribute("class") == Some("half"))
        .collect();
    assert_eq!(lines.len(), s.halves.len());
    for (node, half) in lines.iter().zip(&s.halves) {
        assert_eq!(node.attribute("stroke"), Some(half.colour.hex().as_str()));
        assert_eq!(node.attribute("data-end"), Some(half.end.index().to_string().as_str()));
    }
    let squares = doc.descendants().filter(|n| n.attribute("class") == Some("node")).count();
    assert_eq!(squares, 64);
    let texts: Vec<&str> =
        doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    assert!(texts.iter().any(|t| t.contains("packets")), "{texts:?}");
}

#[test]
fn turning_the_torus_moves_its_nodes_but_not_its_frame() {
    let d = run_dataset(&["x", "y", "z"], &[4, 4, 4]);
    let spec = ViewSpec::for_dataset(&d);
    let prepared = prepare_view(&d, &spec, &Filter::default()).unwrap();
    let scene = |o: Orbit| prepared.scene(&d, &spec, (None, None), &unlit(&d), &o, 1.5);
    let (front, side) = (scene(Orbit::IDENTITY), scene(Orbit::from_yaw_pitch(90.0, 0.0)));
    let at = |s: &Scene, n: usize| s.marks.iter().find(|m| m.of == MarkOf::Node(n)).unwrap().at;
    // Node 3 is (0, 0, 3): the front-left corner; turned a quarter, the front faces right.
    assert_eq!((at(&front, 3).x, at(&front, 3).y), (-1.5, -1.5));
    assert!((at(&side, 3).x - 1.5).abs() < 1e-5);
    assert_eq!(front.bounds, side.bounds);
}

#[test]
fn the_generic_2d_view_draws_a_plane_at_its_given_positions() {
    let d = run_dataset(&["x", "y"], &[6, 3]);
    let spec = ViewSpec { module: ModuleSpec::of("generic_2d"), ..ViewSpec::for_dataset(&d) };
    let prepared = prepare_view(&d, &spec, &Filter::default()).unwrap();
    let s = prepared.scene(&d, &spec, (None, None), &unlit(&d), &Orbit::default(), 2.0);
    assert_eq!(s.marks.len(), 18);
    assert_eq!(s.halves.len(), d.run.network().links.len());
    let text = String::from_utf8(encode(&s, &Camera::default(), 900, 500, Format::Svg).unwrap()).unwrap();
    assert!(roxmltree::Document::parse(&text).is_ok());
}

const TORUS: &str = "sample-data/torus8/torus8_meta.yaml";

/// What `shoal render` reported: success, its "link ends and nodes drawn" counts, and stderr.
struct Rendered {
    ok: bool,
    halves: usize,
    marks: usize,
    stderr: String,
}

/// `shoal render TORUS --module torus` at 900×600, coloured by mean bytes of region 2's rows
/// with packets, as the old library call did; `extra` adds or overrides flags.
fn render(out: &std::path::Path, extra: &[&str]) -> Rendered {
    let out = out.to_str().unwrap();
    let mut args = vec!["render", TORUS, "--module", "torus", "--where", "packets > 0", "--region", "2"];
    args.extend(["--attr", "bytes", "--agg", "mean", "--merge", "mean", "--width", "900", "--height", "600"]);
    args.extend(extra);
    args.extend(["--out", out]);
    let (ok, _, stderr) = shoal(&args);
    let counts = stderr.lines().find_map(|l| {
        let rest = l.strip_prefix(&format!("{out}: "))?.strip_suffix(" nodes drawn")?;
        let (halves, marks) = rest.split_once(" link ends and ")?;
        Some((halves.parse().ok()?, marks.parse().ok()?))
    });
    assert_eq!(ok, counts.is_some(), "a summary line exactly when it succeeds: {stderr}");
    let (halves, marks) = counts.unwrap_or_default();
    Rendered { ok, halves, marks, stderr }
}

#[test]
fn shoal_render_draws_the_sample_torus_rotated_and_flat_to_png_and_svg() {
    let dir = std::env::temp_dir().join(format!("shoal-torus-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("torus.png");
    let report = render(&png, &["--rotate", "20,30"]);
    assert!(report.ok, "{}", report.stderr);
    assert!(!report.stderr.contains("shoal: warning:"), "no filter or attribute problems: {}", report.stderr);
    assert_eq!(report.marks, 512);
    assert!(report.halves > 0 && report.halves <= 3072);
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (900, 600));
    let report = render(&dir.join("flat.svg"), &["--down", "z"]);
    assert!(report.ok, "{}", report.stderr);
    assert_eq!(report.marks, 64, "8 × 8 columns down z");
    let text = std::fs::read_to_string(dir.join("flat.svg")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let halves = doc.descendants().filter(|n| n.attribute("class") == Some("half")).count();
    assert_eq!(halves, report.halves);
    let bad = render(&dir.join("bad.png"), &["--down", "w"]);
    assert!(!bad.ok);
    assert!(bad.stderr.contains("no axis `w`"), "{}", bad.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_render_command_takes_a_run_and_its_module_flags() {
    let dir = std::env::temp_dir().join(format!("shoal-torus-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("mesh.svg");
    let (ok, _, stderr) = shoal(&[
        "render",
        "sample-data/mesh6",
        "--module",
        "generic2d",
        "--region",
        "2",
        "--log",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("120 link ends and 36 nodes drawn"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("generic 2D — region 2") && text.contains(">log<"), "title and scale in the SVG");
    let (ok, _, stderr) = shoal(&[
        "render",
        "sample-data/mesh6",
        "--module",
        "torus",
        "--out",
        dir.join("x.png").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("generic-2D"), "a plane is not a torus: {stderr}");
    let _ = std::fs::remove_dir_all(dir);
}
