//! Sessions (issue 21): `render … --save-session S` then `render --session S` draws the same
//! bytes; a session names inputs beside it by relative path, so its folder can move.

use std::path::{Path, PathBuf};

use shoal::view_model::{PathKind, classify};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAIL0: &str = "sample-data/tworail/rail0";
const RAIL1: &str = "sample-data/tworail/rail1";
const SORT: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-sessions-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn render(args: &[&str]) {
    let (ok, _, err) = shoal(&[&["render"], args].concat());
    assert!(ok, "render {args:?}: {err}");
}

fn same_bytes(a: &Path, b: &Path) {
    let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert!(!a.is_empty());
    assert!(a == b, "the session's render differs from the flags' render");
}

#[test]
fn a_saved_session_renders_byte_identical_pngs() {
    let dir = scratch("same");
    let (flags_png, session_png, session) =
        (dir.join("flags.png"), dir.join("session.png"), dir.join("s.yaml"));
    let view =
        ["--region", "2", "--threshold", "25%", "--where", "rail = 0", "--colormap", "viridis", "--log"];
    let mut args = vec![RAIL0, RAIL1, "--profile", SORT, "--rail-policy", "rail:0"];
    args.extend(view);
    args.extend(["--out", flags_png.to_str().unwrap(), "--save-session", session.to_str().unwrap()]);
    render(&args);
    render(&["--session", session.to_str().unwrap(), "--out", session_png.to_str().unwrap()]);
    same_bytes(&flags_png, &session_png);
    // `shoal S` tells the file for a session by what it holds, as the window's drop does.
    assert_eq!(classify(&session), Some(PathKind::Session));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_session_renders_byte_identical_pngs_and_svgs() {
    let dir = scratch("run");
    for ext in ["png", "svg"] {
        let (a, b, s) = (dir.join(format!("a.{ext}")), dir.join(format!("b.{ext}")), dir.join("run.yaml"));
        let args = ["sample-data/torus8/torus8_meta.yaml", "--module", "torus", "--rotate", "20,30"];
        render(&[&args[..], &["--out", a.to_str().unwrap(), "--save-session", s.to_str().unwrap()]].concat());
        render(&["--session", s.to_str().unwrap(), "--out", b.to_str().unwrap()]);
        same_bytes(&a, &b);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_session_folder_handed_on_still_opens_its_inputs_beside_it() {
    let dir = scratch("moved");
    let case = dir.join("case");
    std::fs::create_dir_all(&case).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rel in ["rail0", "rail1"] {
        let to = case.join(rel);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(root.join("sample-data/tworail").join(rel)).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }
    std::fs::copy(root.join(SORT), case.join("sort.ibprof.gz")).unwrap();
    let (session, first) = (case.join("s.yaml"), dir.join("first.png"));
    let inputs = ["rail0", "rail1", "--profile", "sort.ibprof.gz"]
        .map(|p| if p.starts_with("--") { p.to_string() } else { case.join(p).display().to_string() });
    let inputs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let out = ["--out", first.to_str().unwrap(), "--save-session", session.to_str().unwrap()];
    render(&[&inputs[..], &out[..]].concat());
    let text = std::fs::read_to_string(&session).unwrap();
    assert!(text.contains("- rail0") && text.contains("profile: sort.ibprof.gz"), "{text}");
    assert!(!text.contains(case.to_str().unwrap()), "no absolute path to the folder:\n{text}");
    let moved = dir.join("moved");
    std::fs::rename(&case, &moved).unwrap();
    let again = dir.join("again.png");
    render(&["--session", moved.join("s.yaml").to_str().unwrap(), "--out", again.to_str().unwrap()]);
    same_bytes(&first, &again);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_session_view_that_does_not_exist_or_flags_beside_a_session_are_errors() {
    let dir = scratch("errors");
    let session = dir.join("s.yaml");
    render(&[RAIL0, "--save-session", session.to_str().unwrap()]);
    let s = session.to_str().unwrap();
    let (ok, _, err) = shoal(&["render", "--session", s, "--view", "4", "--out", "/tmp/x.png"]);
    assert!(!ok);
    assert!(err.contains("the session has no view 4 (it has 1"), "{err}");
    let (ok, _, err) = shoal(&["render", "--session", s, "--view", "1", "--out", "/tmp/shoal-view-1.png"]);
    assert!(ok, "{err}");
    std::fs::remove_file("/tmp/shoal-view-1.png").ok();
    let (ok, _, err) = shoal(&["render", "--session", s, "--region", "2", "--out", "/tmp/x.png"]);
    assert!(!ok);
    assert!(err.contains("--region/--diff describes a view"), "{err}");
    std::fs::write(&session, "shoal_session: 1\nrequest: {rail_policy: sideways}\nviews: []\n").unwrap();
    let (ok, _, err) = shoal(&["render", "--session", s, "--out", "/tmp/x.png"]);
    assert!(!ok);
    assert!(err.contains("not a shoal session") && err.contains("rail:N"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
