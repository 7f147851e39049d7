//! The layers run one way. Reads every `.rs` file under `src/`, finds each module's references to
//! other modules of the crate (`use crate::…`, `crate::…` paths, `super::` paths resolved against
//! the module they are written in, `#[path]` and inline modules included), and fails naming the
//! file, the line and the backward import when a layer reaches one above it:
//!
//! - `model` imports nothing above itself;
//! - `profile_io` builds model types: no `routing`, `layout`, `scene`, `export`, `pipeline`,
//!   `load`, `modules`, `gui`;
//! - `routing`: no `layout`, `scene`, `export`, `pipeline`, `load`, `modules`, `gui`;
//! - `layout`: no `scene`, `export`, `pipeline` (which builds on it), `load`, `modules`, `gui`;
//! - `view_model` (the layer between `routing`/`layout` and `scene`: the open request, `open`,
//!   sessions, the data set, the query engine, view specs and their prepared values): no
//!   `scene`, `export`, `modules`, `gui`, `cli`, and no GUI crate; the layers below it do not
//!   reach it;
//! - `scene` (drawing only: a prepared view's values in, a scene and a draw list out): no
//!   `profile_io` (it calls no reader), `export`, `load`, `pipeline`, `modules`, `gui`, `cli`,
//!   and no file I/O (`std::fs`, `File::open`) and no `egui`, `eframe`, `wgpu`;
//! - `export`: no `modules`, `gui`, `cli`; `pipeline` and `load`: no `modules`, `gui`.
//!
//! The collector (`collector/src`) must not use shoal's GUI either. Comments and string literals
//! are not code: a doc comment may mention egui.
//!
//! The house rules are checked here too, in `src/`, `collector/src` and `ibprof-format/src`:
//! no import cycle between the files of one folder (`support/file_cycles.rs` says what reaches
//! what), and no function over 80 lines. Test functions count: a long test is as hard to read
//! as any function, and none is over the limit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "support/file_cycles.rs"]
mod file_cycles;
#[path = "support/fn_lengths.rs"]
mod fn_lengths;
#[path = "support/module_tree.rs"]
mod module_tree;
#[path = "support/rust_paths.rs"]
mod rust_paths;
use file_cycles::{file_cycles, file_graph};
use fn_lengths::{function_spans, long_functions};
use module_tree::{module_tree, unixy};
use rust_paths::*;

/// Each layer and the modules it must not reach.
const RULES: &[(&str, &[&str])] = &[
    (
        "model",
        &[
            "profile_io",
            "routing",
            "layout",
            "scene",
            "export",
            "pipeline",
            "load",
            "view_model",
            "modules",
            "gui",
            "cli",
        ],
    ),
    (
        "profile_io",
        &["routing", "layout", "scene", "export", "pipeline", "load", "view_model", "modules", "gui", "cli"],
    ),
    ("routing", &["layout", "scene", "export", "pipeline", "load", "view_model", "modules", "gui", "cli"]),
    ("layout", &["scene", "export", "pipeline", "load", "view_model", "modules", "gui", "cli"]),
    ("view_model", &["scene", "export", "modules", "gui", "cli"]),
    ("scene", &["profile_io", "export", "pipeline", "load", "modules", "gui", "cli"]),
    ("export", &["modules", "gui", "cli"]),
    ("pipeline", &["modules", "gui", "cli"]),
    ("load", &["modules", "gui", "cli"]),
];

/// GUI crates: the scene and the collector name none of them.
const GUI_CRATES: &[&str] = &["egui", "eframe", "wgpu", "egui_plot", "egui_wgpu", "egui_kittest", "epaint"];

/// Names of things a file must not mention in code: GUI crates and file I/O.
fn forbidden_mentions(src: &str, io_too: bool) -> Vec<(usize, String)> {
    let tokens = lex(src);
    let mut found = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let Tok::Ident(w) = &t.tok else { continue };
        let then =
            |k: usize| ident(tokens.get(i + 2 * k)).filter(|_| is(tokens.get(i + 2 * k - 1), &Tok::PathSep));
        if GUI_CRATES.contains(&w.as_str()) {
            found.push((t.line, w.clone()));
        } else if io_too && w == "std" && then(1) == Some("fs") {
            found.push((t.line, "std::fs".into()));
        } else if io_too && w == "File" && matches!(then(1), Some("open" | "create")) {
            found.push((t.line, format!("File::{}", then(1).unwrap())));
        }
    }
    if io_too {
        // `use std::{fs, io}` names std::fs without writing it.
        let mut leaves = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            if t.tok == Tok::Ident("use".into()) {
                use_tree(&tokens, i + 1, Vec::new(), &mut leaves);
            }
        }
        for leaf in leaves {
            let path = &leaf.path;
            if path.len() >= 2
                && path[0].0 == "std"
                && path[1].0 == "fs"
                && !found.iter().any(|f| f.0 == path[1].1)
            {
                found.push((path[1].1, "std::fs".into()));
            }
        }
    }
    found
}

/// Every backward import and forbidden mention in the tree, as `file:line: what`, and how many
/// crate-relative references were checked.
fn check(files: &BTreeMap<String, String>) -> (Vec<String>, usize) {
    let tree = module_tree(files);
    let tops: Vec<String> = scan(files.get("src/lib.rs").map_or("", String::as_str), &[])
        .mods
        .into_iter()
        .map(|m| m.name)
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (file, src) in files {
        let (krate, module) = (tree[file].krate, &tree[file].module);
        if krate != "lib" || module.is_empty() {
            continue; // the binary (main.rs, cli/) and lib.rs may use every layer
        }
        let layer = module[0].as_str();
        let forbidden: &[&str] = RULES.iter().find(|r| r.0 == layer).map_or(&[], |r| r.1);
        for reference in scan(src, module).references {
            let Some((path, line)) = reference.resolve() else { continue };
            let Some(top) = path.first() else { continue };
            if !tops.contains(top) && !forbidden.contains(&top.as_str()) {
                continue;
            }
            checked += 1;
            if forbidden.contains(&top.as_str()) {
                problems.push(format!(
                    "{file}:{line}: {layer} imports {top}, a layer above it (`{}`)",
                    reference.written()
                ));
            }
        }
        if layer == "scene" {
            for (line, what) in forbidden_mentions(src, true) {
                problems.push(format!("{file}:{line}: the scene layer names {what} (no file I/O, no GUI)"));
            }
        }
        if layer == "view_model" {
            for (line, what) in forbidden_mentions(src, false) {
                problems.push(format!("{file}:{line}: the view model names {what} (no GUI)"));
            }
        }
    }
    (in_order(problems), checked)
}

/// The collector's sources: no shoal GUI module, no GUI crate.
fn check_collector(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (file, src) in files {
        for (line, what) in forbidden_mentions(src, false) {
            problems.push(format!("{file}:{line}: the collector names {what}"));
        }
        for reference in scan(src, &[]).references {
            let s = &reference.segments;
            if s.len() >= 2 && s[0].0 == "shoal" && matches!(s[1].0.as_str(), "gui" | "modules") {
                problems.push(format!(
                    "{file}:{}: the collector uses shoal's GUI (`{}`)",
                    s[1].1,
                    reference.written()
                ));
            }
        }
        let tokens = lex(src);
        for (i, t) in tokens.iter().enumerate() {
            let next = ident(tokens.get(i + 2)).filter(|_| is(tokens.get(i + 1), &Tok::PathSep));
            if ident(Some(t)) == Some("shoal") && matches!(next, Some("gui" | "modules")) {
                problems.push(format!(
                    "{file}:{}: the collector uses shoal's GUI (`shoal::{}`)",
                    t.line,
                    next.unwrap()
                ));
            }
        }
    }
    in_order(problems)
}

/// `file:line: …` messages by file, then line as a number; each once.
fn in_order(mut problems: Vec<String>) -> Vec<String> {
    let key = |p: &String| {
        let mut parts = p.splitn(3, ':');
        let file = parts.next().unwrap_or("").to_string();
        let line: usize = parts.next().and_then(|l| l.parse().ok()).unwrap_or(0);
        (file, line, p.clone())
    };
    problems.sort_by_key(key);
    problems.dedup();
    problems
}

/// Every `.rs` file under `root/dir`, keyed by its path from `root` with `/`.
fn read_tree(root: &Path, dir: &str) -> BTreeMap<String, String> {
    fn walk(root: &Path, at: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(at).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = unixy(p.strip_prefix(root).unwrap());
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, &root.join(dir), &mut out);
    out
}

// ---------------------------------------------------------------------------------------------

#[test]
fn no_layer_imports_one_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = read_tree(root, "src");
    assert!(files.len() > 100, "read {} files under src/", files.len());
    let (problems, checked) = check(&files);
    assert!(problems.is_empty(), "backward imports:\n{}", problems.join("\n"));
    // Not vacuous: the export layer's imports of the scene, say, were seen and allowed.
    assert!(checked > 300, "only {checked} crate references checked");
}

#[test]
fn the_collector_does_not_use_shoals_gui() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("collector");
    let files = read_tree(&root, "src");
    assert!(!files.is_empty());
    let problems = check_collector(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    for line in manifest.lines().filter(|l| l.trim_start().starts_with("shoal")) {
        assert!(line.contains("default-features = false") && !line.contains("\"gui\""), "{line}");
    }
}

/// The sources of the workspace's three crates: (folder, files keyed from that folder).
fn workspace_sources() -> Vec<(&'static str, BTreeMap<String, String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["", "collector/", "ibprof-format/"].into_iter().map(|c| (c, read_tree(&root.join(c), "src"))).collect()
}

#[test]
fn no_import_cycle_between_the_files_of_one_folder() {
    let mut cycles = Vec::new();
    for (krate, files) in workspace_sources() {
        assert!(!files.is_empty(), "no sources under {krate}src");
        let (_, edges) = file_graph(&files);
        // Not vacuous: the files of each crate's folders were seen reaching one another.
        assert!(edges > files.len() / 2, "only {edges} edges between files of one folder in {krate}src");
        // Paths in the messages are from the crate's folder: name them from the workspace.
        cycles.extend(file_cycles(&files).into_iter().map(|c| c.replace("src/", &format!("{krate}src/"))));
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn no_function_is_over_80_lines() {
    let mut long = Vec::new();
    for (krate, files) in workspace_sources() {
        let measured: usize = files.values().map(|src| function_spans(src).len()).sum();
        assert!(measured > files.len(), "only {measured} functions measured in {krate}src");
        long.extend(long_functions(&files, 80).into_iter().map(|f| format!("{krate}{f}")));
    }
    assert!(long.is_empty(), "functions to split:\n{}", long.join("\n"));
}

// Checks of the checker: a fabricated backward import is reported, with its file and line.

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    let mut all: BTreeMap<String, String> =
        files.iter().map(|(p, s)| (p.to_string(), s.to_string())).collect();
    all.entry("src/lib.rs".into()).or_insert_with(|| {
        "pub mod model;\npub mod profile_io;\npub mod routing;\npub mod layout;\npub mod scene;\npub mod export;\npub mod load;\npub mod gui;\npub mod view_model;\n".into()
    });
    all
}

fn problems(files: &[(&str, &str)]) -> Vec<String> {
    check(&tree(files)).0
}

#[test]
fn a_backward_use_is_named_with_its_file_and_line() {
    let found = problems(&[
        ("src/profile_io/mod.rs", "pub mod host_map;\n"),
        (
            "src/profile_io/host_map.rs",
            "//! Host maps.\n\nuse crate::model::Warning;\nuse crate::routing::HostMap;\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            "src/profile_io/host_map.rs:4: profile_io imports routing, a layer above it (`crate::routing::HostMap`)"
        ]
    );
}

#[test]
fn groups_paths_in_code_and_every_layer_rule_are_checked() {
    let found = problems(&[
        ("src/layout/mod.rs", "use crate::{model::Fabric,\n    scene::Scene};\n"),
        ("src/model/mod.rs", "pub fn f() { let _ = crate::layout::place(); }\n"),
        ("src/routing/mod.rs", "use crate::pipeline as p;\n"),
        ("src/scene/mod.rs", "fn g() {\n    crate::export::write();\n}\n"),
        ("src/export/mod.rs", "use crate::gui::App;\nuse crate::scene::Scene;\n"),
        ("src/load.rs", "use crate::modules::View;\n"),
        ("src/view_model/open.rs", "use crate::gui::ShoalApp;\n"),
        ("src/view_model/prepare.rs", "use crate::scene::Scene;\n"),
    ]);
    assert_eq!(found.len(), 8, "{found:#?}");
    for want in [
        "src/layout/mod.rs:2: layout imports scene",
        "src/model/mod.rs:1: model imports layout",
        "src/routing/mod.rs:1: routing imports pipeline",
        "src/scene/mod.rs:2: scene imports export",
        "src/export/mod.rs:1: export imports gui",
        "src/load.rs:1: load imports modules",
        "src/view_model/open.rs:1: view_model imports gui",
        "src/view_model/prepare.rs:1: view_model imports scene",
    ] {
        assert!(found.iter().any(|f| f.starts_with(want)), "{want} missing from {found:#?}");
    }
}

#[test]
fn super_paths_resolve_against_the_module_they_are_written_in() {
    let found = problems(&[
        ("src/profile_io/mod.rs", "pub mod ibprof;\n"),
        ("src/profile_io/ibprof/mod.rs", "mod chunk;\n"),
        ("src/profile_io/ibprof/chunk.rs", "mod records;\n"),
        (
            "src/profile_io/ibprof/chunk/records.rs",
            "use super::super::tokens::Token;\nuse super::super::super::super::routing::trace;\n",
        ),
        ("src/routing/mod.rs", "pub mod trace;\n"),
        (
            "src/routing/trace.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::super::layout::Ok;\n    use super::super::super::layout::Bad;\n}\nuse super::layout::AlsoOk;\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            "src/profile_io/ibprof/chunk/records.rs:2: profile_io imports routing, a layer above it (`super::super::super::super::routing::trace`)",
            "src/routing/trace.rs:5: routing imports layout, a layer above it (`super::super::super::layout::Bad`)",
        ]
    );
}

#[test]
fn a_path_attribute_puts_a_file_in_the_module_that_declares_it() {
    // prepare_tests.rs is view_model::prepare::tests, so three supers reach the crate root; read as
    // the module its path names (scene::prepare_tests) they would climb out of the crate.
    let found = problems(&[
        ("src/scene/mod.rs", "pub mod prepare;\n"),
        ("src/scene/prepare.rs", "#[cfg(test)]\n#[path = \"prepare_tests.rs\"]\nmod tests;\n"),
        ("src/scene/prepare_tests.rs", "use super::*;\nuse super::super::super::export::write;\n"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with("src/scene/prepare_tests.rs:2: scene imports export"), "{found:#?}");
}

#[test]
fn comments_strings_and_allowed_imports_are_not_reported() {
    let found = problems(&[
        (
            "src/scene/mod.rs",
            "//! Painted by egui; see crate::gui::App.\n/* crate::export::write(std::fs) */\nuse crate::layout::Position;\nuse crate::routing::RegionKey;\nuse crate::model::{Domain, Projection};\nconst A: &str = \"crate::export::x\";\nconst B: &str = r#\"use crate::gui;\"#;\nconst C: char = '\"';\nfn f<'a>(x: &'a str) -> Projection { Projection::File { name: x.into() } }\n",
        ),
        ("src/export/mod.rs", "use crate::scene::Scene;\nuse crate::view_model::OpenRequest;\n"),
        ("src/gui/mod.rs", "use crate::modules::View;\nuse egui::Ui;\n"),
    ]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_scene_does_no_file_io_and_names_no_gui_crate() {
    let found = problems(&[(
        "src/scene/mod.rs",
        "use std::{fs, io};\nfn f() {\n    let _ = std::fs::read(\"x\");\n    let _ = File::open(\"y\");\n    let _ = egui::Color32::RED;\n}\nfn g(_: &wgpu::Device) {}\n",
    )]);
    let lines: Vec<&str> = found.iter().map(|f| f.split(": the").next().unwrap()).collect();
    assert_eq!(
        lines,
        [
            "src/scene/mod.rs:1",
            "src/scene/mod.rs:3",
            "src/scene/mod.rs:4",
            "src/scene/mod.rs:5",
            "src/scene/mod.rs:7"
        ],
        "{found:#?}"
    );
}

#[test]
fn the_collector_check_reports_shoals_gui() {
    let files: BTreeMap<String, String> = [(
        "src/lib.rs".to_string(),
        "//! Uses shoal::gui in a comment only.\nuse shoal::model::Lid;\nuse shoal::{gui::App, model::Guid};\nfn f() { shoal::modules::x(); }\n".to_string(),
    )]
    .into();
    let found = check_collector(&files);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("src/lib.rs:3:") && found[1].starts_with("src/lib.rs:4:"), "{found:#?}");
}

#[test]
fn the_scene_calls_no_reader_and_the_view_model_reaches_no_face() {
    let found = problems(&[
        ("src/scene/mod.rs", "use crate::profile_io::rail::load_rail;\nuse crate::view_model::Dataset;\n"),
        (
            "src/view_model/mod.rs",
            "use crate::scene::Scene;\nuse crate::routing::Loads;\nuse crate::export::png;\nfn f(_: &egui::Ui) {}\nfn g() { crate::modules::x(); }\n",
        ),
    ]);
    let heads: Vec<&str> = found.iter().map(|f| f.split(" (").next().unwrap_or(f)).collect();
    assert_eq!(
        heads,
        [
            "src/scene/mod.rs:1: scene imports profile_io, a layer above it",
            "src/view_model/mod.rs:1: view_model imports scene, a layer above it",
            "src/view_model/mod.rs:3: view_model imports export, a layer above it",
            "src/view_model/mod.rs:4: the view model names egui",
            "src/view_model/mod.rs:5: view_model imports modules, a layer above it",
        ],
        "{found:#?}"
    );
}

fn cycles(files: &[(&str, &str)]) -> Vec<String> {
    file_cycles(&tree(files))
}

#[test]
fn a_cycle_between_two_files_of_a_folder_names_both_files_and_the_lines_that_make_it() {
    let found = cycles(&[
        ("src/layout/mod.rs", "pub mod fat_tree;\npub mod planes;\n"),
        ("src/layout/fat_tree.rs", "pub struct Options;\nfn f() {\n    super::planes::layout_planes();\n}\n"),
        ("src/layout/planes.rs", "use super::fat_tree::Options;\npub fn layout_planes() {}\n"),
    ]);
    assert_eq!(
        found,
        [
            "src/layout/: import cycle fat_tree.rs → planes.rs → fat_tree.rs (src/layout/fat_tree.rs:3 `super::planes::layout_planes`; src/layout/planes.rs:1 `super::fat_tree::Options`)"
        ]
    );
}

#[test]
fn a_cycle_through_a_third_file_is_named_in_its_order_and_one_way_imports_are_not() {
    let found = cycles(&[
        ("src/routing/mod.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n"),
        ("src/routing/a.rs", "use crate::routing::b::B;\nuse super::d::D;\npub struct A;\n"),
        ("src/routing/b.rs", "use super::c::C;\npub struct B;\n"),
        ("src/routing/c.rs", "use super::a::A;\npub struct C;\n"),
        ("src/routing/d.rs", "use super::super::model::Lid;\npub struct D;\n"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with("src/routing/: import cycle a.rs → b.rs → c.rs → a.rs ("), "{found:#?}");
}

#[test]
fn an_item_declared_in_mod_rs_makes_mod_rs_a_file_of_the_cycle() {
    let found = cycles(&[
        ("src/routing/mod.rs", "mod child;\nuse child::run;\npub struct Config;\n"),
        ("src/routing/child.rs", "use super::Config;\npub fn run() {}\n"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].starts_with("src/routing/: import cycle child.rs → mod.rs → child.rs ("), "{found:#?}");
}

#[test]
fn a_re_export_is_followed_to_the_file_that_declares_the_item_and_in_mod_rs_is_no_edge_itself() {
    let files = |b_calls_a: &str| {
        cycles(&[
            ("src/routing/mod.rs", "mod a;\nmod b;\npub use b::Plane;\npub use a::f;\n"),
            ("src/routing/a.rs", "use super::Plane;\npub fn f() {}\n"),
            ("src/routing/b.rs", &format!("pub struct Plane;\nfn g() {{\n    {b_calls_a}\n}}\n")),
        ])
    };
    assert_eq!(files(""), Vec::<String>::new(), "a.rs reaches b.rs through mod.rs's re-export only");
    let found = files("super::f();");
    assert_eq!(
        found,
        [
            "src/routing/: import cycle a.rs → b.rs → a.rs (src/routing/a.rs:1 `super::Plane`; src/routing/b.rs:3 `super::f`)"
        ]
    );
}

#[test]
fn a_subfolder_is_one_node_of_its_parent_folder() {
    let found = cycles(&[
        ("src/view_model/mod.rs", "pub mod dataset;\npub mod view;\n"),
        ("src/view_model/dataset/mod.rs", "mod fabric;\npub struct Dataset;\n"),
        ("src/view_model/dataset/fabric.rs", "use crate::view_model::view::ViewSpec;\n"),
        ("src/view_model/view.rs", "use super::dataset::Dataset;\npub struct ViewSpec;\n"),
    ]);
    assert_eq!(
        found,
        [
            "src/view_model/: import cycle dataset/ → view.rs → dataset/ (src/view_model/dataset/fabric.rs:1 `crate::view_model::view::ViewSpec`; src/view_model/view.rs:1 `super::dataset::Dataset`)"
        ]
    );
}

#[test]
fn test_code_reaching_back_makes_no_cycle() {
    let files = |cfg: &str| {
        cycles(&[
            ("src/routing/mod.rs", "pub mod a;\npub mod b;\n"),
            ("src/routing/a.rs", "use super::b::y;\npub fn x() {}\n"),
            (
                "src/routing/b.rs",
                &format!(
                    "pub fn y() {{}}\n{cfg}\nmod tests {{\n    use crate::routing::a::x;\n}}\n{cfg}\n#[path = \"b_tests.rs\"]\nmod more;\n"
                ),
            ),
            ("src/routing/b_tests.rs", "use super::super::a::x;\n"),
        ])
    };
    assert_eq!(files("#[cfg(test)]"), Vec::<String>::new());
    // The same modules outside test code do make a cycle.
    let found = files("");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].contains("a.rs → b.rs → a.rs") && found[0].contains("b.rs:4"), "{found:#?}");
}

#[test]
fn a_function_is_measured_from_its_fn_line_to_its_closing_brace() {
    let body = "    x += 1;\n".repeat(77);
    let src = format!(
        "pub fn short() {{}}\n\nfn long(\n    a: [u8; 4],\n) -> u8 {{\n{body}    a[0]\n}}\ntrait T {{\n    fn declared(&self);\n    fn typed(&self, f: fn(u8) -> u8) -> u8 {{ f(b'}}') }}\n}}\n"
    );
    let spans: Vec<(String, usize, usize)> =
        function_spans(&src).into_iter().map(|s| (s.name, s.line, s.lines)).collect();
    assert_eq!(spans, [("short".into(), 1, 1), ("long".into(), 3, 82), ("typed".into(), 87, 1)]);
}

#[test]
fn a_function_over_80_lines_is_named_with_its_file_line_and_length() {
    let function =
        |name: &str, body_lines: usize| format!("fn {name}() {{\n{}}}\n", "    step();\n".repeat(body_lines));
    let files: BTreeMap<String, String> = [
        ("src/a.rs".to_string(), format!("//! A.\n\n{}{}", function("fits", 78), function("too_long", 79))),
        ("src/b.rs".to_string(), function("also_fits", 10)),
    ]
    .into();
    assert_eq!(long_functions(&files, 80), ["src/a.rs:83: fn too_long is 81 lines (over 80)"]);
}

#[test]
fn a_re_export_outside_mod_rs_is_an_edge() {
    let found = cycles(&[
        ("src/scene/mod.rs", "pub mod filter;\npub mod query;\n"),
        ("src/scene/filter.rs", "pub use super::query::Condition as Clause;\npub enum Relation {}\n"),
        ("src/scene/query.rs", "use super::filter::Relation;\npub struct Condition;\n"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("src/scene/: import cycle filter.rs → query.rs → filter.rs ("),
        "{found:#?}"
    );
}
