//! The app's face for runs (a Boxfish `*_meta.yaml` or a CSV pair): opening them, the side
//! panel tabs, and the torus / generic-2D views side by side. The fat-tree face is in
//! [`super`]; when a run is open, it takes the central area and the side panel.

use std::path::{Path, PathBuf};

use egui::Ui;

use crate::export::render_run::load_any_run;
use crate::modules::ViewModule;
use crate::modules::generic2d::Generic2d;
use crate::modules::run_panels;
use crate::modules::run_views::{RunCommand, RunViewContext, RunWorkspace};
use crate::modules::torus::Torus;
use crate::scene::run_view::{RunLit, RunModule};

use super::{ShoalApp, Tab};

/// Whether a path names a run rather than fabric dumps: a YAML meta file, a CSV file naming
/// nodes or links (`nodes.csv`, `mesh_links.csv`, gzipped or not), or a folder holding a
/// `*_meta.yaml` or a `nodes.csv`.
pub fn is_run_path(path: &Path) -> bool {
    let lower = |n: &std::ffi::OsStr| n.to_string_lossy().to_ascii_lowercase();
    let named = |name: &str| {
        let stem = name.strip_suffix(".gz").unwrap_or(name);
        let csv = stem.ends_with(".csv") && (stem.contains("nodes") || stem.contains("links"));
        (
            stem.ends_with(".yaml") || stem.ends_with(".yml") || csv,
            stem.ends_with("_meta.yaml") || stem == "nodes.csv",
        )
    };
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else { return false };
        return entries.flatten().any(|e| named(&lower(&e.file_name())).1);
    }
    path.file_name().is_some_and(|n| named(&lower(n)).0)
}

/// File → Open run…: a file dialog on its own thread.
pub(super) fn open_dialog(app: &ShoalApp, ctx: &egui::Context) {
    app.spawn_dialog(
        || {
            rfd::FileDialog::new()
                .set_title("Open a run: a Boxfish *_meta.yaml or a nodes.csv")
                .add_filter("Boxfish meta or CSV pair", &["yaml", "yml", "csv", "gz"])
                .pick_file()
                .map(super::Dialog::Run)
        },
        ctx,
    );
}

/// Loads a run (on the UI thread: a run of Boxfish's `bgpc` size reads in milliseconds) and
/// shows it; a failure keeps what is on screen and says why.
pub fn open_run(app: &mut ShoalApp, path: &Path) {
    match load_any_run(path) {
        Ok((run, warnings)) => {
            app.status = format!(
                "{}: {} nodes, {} links, {} tables, {} warnings",
                run.name(),
                run.network().nodes.len(),
                run.network().links.len(),
                run.tables().len(),
                warnings.len()
            );
            app.warnings = warnings.clone();
            match &mut app.run {
                Some(ws) if ws.run.name() == run.name() => ws.replace_run(run, warnings),
                _ => {
                    let mut ws = RunWorkspace::new(run, warnings);
                    if let Ok(setup) = std::env::var("SHOAL_RUN_VIEW") {
                        apply_setup(&mut ws, &setup);
                        for (name, tab) in [("tab:highlight", Tab::Highlight), ("tab:linking", Tab::Linking)]
                        {
                            if setup.contains(name) {
                                app.tab = tab;
                            }
                        }
                    }
                    app.run = Some(ws);
                }
            }
        }
        Err(e) => app.errors.push(format!("could not open {}: {e:#}", path.display())),
    }
}

/// Applies a scripted set-up (`SHOAL_RUN_VIEW`, for screenshots), steps separated by `;`:
/// `flat:AXIS` (the 2D torus view down AXIS), `generic2d`, `log`, `rotate:YAW,PITCH`, `compare:A,B`
/// (two regions side by side), `highlight:DOMAIN ID…` (e.g. `highlight:ranks 5`), `where:CLAUSE`;
/// `tab:highlight` or `tab:linking` opens that side-panel tab.
/// Unknown steps are ignored.
pub fn apply_setup(ws: &mut RunWorkspace, setup: &str) {
    let axes = ws.run.network().axes.clone();
    for step in setup.split(';').map(str::trim) {
        let (name, arg) = step.split_once(':').unwrap_or((step, ""));
        let numbers: Vec<f64> = arg.split(',').filter_map(|x| x.trim().parse().ok()).collect();
        match (name, numbers.as_slice()) {
            ("flat", _) => {
                if let (Some(down), Some(view)) =
                    (axes.iter().position(|a| a == arg.trim()), ws.views.get_mut(ws.focus))
                {
                    view.spec.module = RunModule::TorusFlat { down };
                }
            }
            ("log", _) => {
                ws.views.iter_mut().for_each(|v| v.spec.scale = crate::scene::colour::ScaleKind::Log)
            }
            ("generic2d", _) => ws.views.iter_mut().for_each(|v| v.spec.module = RunModule::Generic2d),
            ("rotate", [yaw, pitch]) => {
                let orbit = crate::scene::orbit::Orbit::from_yaw_pitch(*yaw as f32, *pitch as f32);
                ws.views.iter_mut().for_each(|v| v.state.orbit = orbit);
                ws.groups
                    .iter_mut()
                    .filter(|g| g.shared_orbit.is_some())
                    .for_each(|g| g.shared_orbit = Some(orbit));
            }
            ("compare", [a, b]) => {
                if let Some(attribute) = crate::scene::run_view::region_attribute(&ws.run) {
                    ws.compare(&attribute, *a, *b);
                }
            }
            ("where", _) => {
                if let (Ok(c), Some(view)) =
                    (crate::scene::query::Condition::parse(arg), ws.views.get_mut(ws.focus))
                {
                    view.spec.conditions.push(c);
                }
            }
            ("highlight", _) => {
                let mut words = arg.split_whitespace();
                let domain = words.next().and_then(crate::model::Domain::parse);
                let ids: Vec<i64> = words.filter_map(|w| w.parse().ok()).collect();
                if let Some(domain) = domain {
                    let group = ws.views.get(ws.focus).map_or(crate::scene::linking::GroupId(0), |v| v.group);
                    ws.apply(vec![RunCommand::Highlight { group, domain, ids, add: false }]);
                }
            }
            _ => {}
        }
    }
}

/// The side panel and the views of an open run, plus Esc.
pub fn panels(app: &mut ShoalApp, ui: &mut Ui) {
    let mut commands = Vec::new();
    egui::Panel::left("run panels").default_size(330.0).show(ui, |ui| side_panel(app, ui, &mut commands));
    egui::CentralPanel::default().show(ui, |ui| {
        if let Some(ws) = app.run.as_mut() {
            views(ws, ui, &mut commands);
        }
    });
    if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        commands.push(RunCommand::ClearSelection);
    }
    if let Some(ws) = app.run.as_mut() {
        ws.apply(commands);
    }
}

fn side_panel(app: &mut ShoalApp, ui: &mut Ui, commands: &mut Vec<RunCommand>) {
    let Some(ws) = app.run.as_mut() else { return };
    if ws.views.len() > 1 {
        ui.horizontal(|ui| {
            ui.label("panels act on");
            for i in 0..ws.views.len() {
                ui.selectable_value(&mut ws.focus, i, format!("view {}", i + 1));
            }
        });
    }
    let state = &mut app.run_panels;
    egui::ScrollArea::vertical().show(ui, |ui| match app.tab {
        Tab::Regions => run_panels::regions_panel(ui, state, ws),
        Tab::Filter => run_panels::filter_panel(ui, state, ws),
        Tab::Highlight | Tab::Plots => run_panels::highlight_panel(ui, state, ws, commands),
        Tab::Linking => run_panels::linking_panel(ui, ws),
    });
}

/// The views side by side, each drawn by its module, with its group's ranges, highlight,
/// camera and orbit.
pub fn views(ws: &mut RunWorkspace, ui: &mut Ui, commands: &mut Vec<RunCommand>) {
    let ranges = ws.group_ranges();
    let lits: Vec<(crate::scene::linking::GroupId, RunLit)> =
        ws.groups.iter().map(|g| (g.id, g.highlight.lit(&ws.run))).collect();
    let n = ws.views.len();
    let rect = ui.available_rect_before_wrap();
    let width = rect.width() / n.max(1) as f32;
    let run = ws.run.clone();
    for i in 0..n {
        let r = egui::Rect::from_min_size(
            rect.min + egui::vec2(i as f32 * width, 0.0),
            egui::vec2(width, rect.height()),
        );
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(r.shrink(2.0)).id_salt(("run view", i)));
        let group_id = ws.views[i].group;
        let Some(group) = ws.group(group_id).cloned() else { continue };
        let agreed = ranges.iter().find(|g| g.0 == group_id);
        let Some((_, lit)) = lits.iter().find(|l| l.0 == group_id) else { continue };
        let view = &mut ws.views[i];
        if let Some(orbit) = group.shared_orbit {
            view.state.orbit = orbit;
        }
        let mut camera = group.shared_camera.unwrap_or(view.camera);
        let ctx = RunViewContext {
            run: &run,
            generation: ws.generation,
            view: i,
            spec: &view.spec,
            group: &group,
            lit,
            link_range: agreed.and_then(|g| g.1.0),
            node_range: agreed.and_then(|g| g.1.1),
        };
        match view.spec.module {
            RunModule::Generic2d => Generic2d.ui(&ctx, &mut view.state, &mut camera, &mut child, commands),
            _ => Torus.ui(&ctx, &mut view.state, &mut camera, &mut child, commands),
        }
        let orbit = view.state.orbit;
        if group.shared_camera.is_none() {
            view.camera = camera;
        }
        if let Some(g) = ws.group_mut(group_id) {
            if g.shared_camera.is_some() {
                g.shared_camera = Some(camera);
            }
            if g.shared_orbit.is_some() {
                g.shared_orbit = Some(orbit);
            }
        }
    }
}

/// Writes the focused run view as it is on screen, at 2× pixels.
pub fn export_focused(ws: &RunWorkspace, path: &Path) -> Result<(), String> {
    let view = ws.views.get(ws.focus).ok_or("no view")?;
    let scene = view.state.scene.as_ref().ok_or("nothing drawn yet")?;
    let size = view.state.size;
    crate::export::write_view(scene, &view.camera, (size.x, size.y), path).map_err(|e| e.to_string())
}

/// `shoal PATH…` with no subcommand: a run opens in its module, anything else as rails.
pub fn run_paths(paths: Vec<PathBuf>) -> anyhow::Result<()> {
    match paths.first() {
        Some(p) if is_run_path(p) => {
            let path = p.clone();
            super::run_with(None, move |app| open_run(app, &path))
        }
        _ => super::run(super::recent::request_from_paths(&paths, None)),
    }
}
