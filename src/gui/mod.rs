//! The desktop app (eframe, wgpu): opening files (dialog, drag and drop, recent list), loading
//! off the UI thread with progress, watching files, the warnings panel, the shared panels and
//! the views.

pub mod allocator;
mod dialogs;
mod display_env;
mod first_frame;
mod frame;
pub mod history;
pub mod loader;
pub mod open;
pub mod path_entry;
pub mod place_jobs;
pub mod recent;
mod session;
pub mod setup;
mod software_frame;
pub mod watch;

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};

use egui::{Key, KeyboardShortcut, Modifiers, Ui};

use crate::model::Warning;
use crate::model::echo::{MESSAGE_CHARS, shown};
use crate::modules::filter::FilterPanelState;
use crate::modules::highlight::HighlightPanelState;
use crate::modules::plots::PlotCache;
use crate::modules::regions::RegionsPanelState;
use crate::modules::tables::{CrossingCache, DiffCache};
use crate::modules::{Command, Workspace};
use crate::view_model::OpenRequest;
use crate::view_model::dataset::Dataset;
use crate::view_model::session::Session;
use loader::{Loader, Reason};
pub use setup::Setup;

/// Which panel the side bar shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Regions,
    Filter,
    Highlight,
    Linking,
    Plots,
    Congestion,
    Jobs,
    WhatIf,
}

impl Tab {
    pub const ALL: [(Tab, &'static str); 8] = [
        (Tab::Regions, "Regions"),
        (Tab::Filter, "Filter"),
        (Tab::Highlight, "Highlight"),
        (Tab::Linking, "Linking"),
        (Tab::Plots, "Plots"),
        (Tab::Congestion, "Congestion"),
        (Tab::Jobs, "Jobs"),
        (Tab::WhatIf, "What-if"),
    ];

    /// `linking`, `Plots` …: a tab by its name, any case.
    pub fn named(name: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|(_, n)| n.eq_ignore_ascii_case(name.trim())).map(|(t, _)| t)
    }
}

/// What a file dialog (run on its own thread) came back with.
enum Dialog {
    Open(Vec<PathBuf>),
    Profile(PathBuf),
    /// Profiles to add as jobs sharing the fabric.
    Jobs(Vec<PathBuf>),
    Export(PathBuf),
    Run(PathBuf),
    SaveSession(PathBuf),
    OpenSession(PathBuf),
    /// No dialog was shown (no portal, no zenity): ask for a typed path instead.
    Unavailable(path_entry::Purpose, String),
}

pub struct ShoalApp {
    pub ws: Workspace,
    pub loader: Loader,
    watcher: Option<watch::Watcher>,
    /// The request the data on screen came from.
    pub current: Option<OpenRequest>,
    pub recent: Vec<OpenRequest>,
    pub warnings: Vec<Warning>,
    /// Errors of loads and exports; the data on screen stays.
    pub errors: Vec<String>,
    pub tab: Tab,
    pub show_warnings: bool,
    pub filter_state: FilterPanelState,
    pub highlight_state: HighlightPanelState,
    pub regions_state: RegionsPanelState,
    plots: PlotCache,
    counters: crate::modules::counters::CountersState,
    pub congestion: crate::modules::congestion::CongestionState,
    jobs: crate::modules::jobs::JobsPanelState,
    /// The What-if tab: routings of the focused view's traffic, computed off the UI thread.
    pub what_if: crate::modules::what_if::WhatIfState,
    crossings: CrossingCache,
    diff_table: DiffCache,
    dialogs: (std::sync::mpsc::Sender<Dialog>, Receiver<Dialog>),
    pub status: String,
    /// A view set-up to apply once data arrives (`SHOAL_VIEW`, for scripted screenshots).
    pub pending: Vec<Setup>,
    /// The typed-path window shown where no file dialog can open.
    pub path_entry: path_entry::PathEntry,
    /// Where new jobs run, asked after File → Add profiles as jobs.
    pub place_jobs: place_jobs::PlaceJobs,
    /// File → The fabric as it ran: Prometheus range and Slurm jobs.
    pub history: history::HistoryDialog,
    /// A session whose views replace the workspace's once its data set is loaded.
    pub pending_session: Option<Session>,
    /// `SHOAL_FIRST_FRAME`: report when the opened data set was first on screen, then close.
    first_frame: Option<first_frame::FirstFrame>,
    /// `SHOAL_FRAME_LOG`: a line a frame.
    frame_log: Option<first_frame::FrameLog>,
    /// On a software renderer: the panels' colour, painted by the frame's clear instead of by
    /// each panel ([`software_frame::clear_panels`]).
    panels_by_clear: Option<egui::Color32>,
}

const SHORTCUT_OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
/// Brings back the view removed last.
const SHORTCUT_UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);

impl ShoalApp {
    /// An app with nothing loaded.
    pub fn empty() -> ShoalApp {
        ShoalApp {
            ws: Workspace::default(),
            loader: Loader::default(),
            watcher: None,
            current: None,
            recent: Vec::new(),
            warnings: Vec::new(),
            errors: Vec::new(),
            tab: Tab::Filter,
            show_warnings: false,
            filter_state: FilterPanelState::default(),
            highlight_state: HighlightPanelState::default(),
            regions_state: RegionsPanelState::default(),
            plots: PlotCache::default(),
            counters: Default::default(),
            congestion: Default::default(),
            jobs: Default::default(),
            what_if: Default::default(),
            crossings: CrossingCache::default(),
            diff_table: DiffCache::default(),
            dialogs: channel(),
            status: String::new(),
            pending: Vec::new(),
            path_entry: path_entry::PathEntry::default(),
            place_jobs: Default::default(),
            history: Default::default(),
            pending_session: None,
            first_frame: None,
            frame_log: None,
            panels_by_clear: None,
        }
    }

    /// An app showing a data set already in memory (tests, benchmarks).
    pub fn with_dataset(dataset: Dataset) -> ShoalApp {
        let mut app = ShoalApp::empty();
        app.show(dataset);
        app
    }

    /// The app as `shoal` opens it: with `loading` (started before the window, so the files load
    /// while the window and its renderer are set up), recent files restored.
    pub fn new(cc: &eframe::CreationContext<'_>, loading: Loader) -> ShoalApp {
        let mut app = ShoalApp::empty();
        app.first_frame = first_frame::FirstFrame::from_env();
        app.frame_log = first_frame::FrameLog::from_env();
        crate::modules::paint::tune_tessellation(&cc.egui_ctx);
        if let Some(render_state) = cc.wgpu_render_state.as_ref() {
            crate::modules::gpu_links::install(render_state, &cc.egui_ctx);
            if crate::modules::gpu_links::links_on_cpu(render_state, std::env::var("SHOAL_LINK_PAINTER").ok())
            {
                crate::modules::gpu_links::paint_on_cpu(&cc.egui_ctx);
                app.panels_by_clear = Some(cc.egui_ctx.global_style().visuals.panel_fill);
            }
        }
        for var in ["SHOAL_VIEW", "SHOAL_RUN_VIEW"] {
            app.pending.extend(std::env::var(var).map(|v| Setup::parse_list(&v)).unwrap_or_default());
        }
        if let Some(storage) = cc.storage
            && let Some(text) = storage.get_string(recent::KEY)
        {
            app.recent = recent::decode(&text);
        }
        if let Some(request) = loading.request() {
            app.status = loading_status(request);
        }
        loading.attach(&cc.egui_ctx);
        app.loader = loading;
        app
    }

    /// Starts loading files; the current data stays on screen until the load succeeds.
    pub fn open(&mut self, request: OpenRequest, ctx: &egui::Context) {
        self.status = loading_status(&request);
        self.loader.start(request, Reason::Open, ctx);
    }

    /// Shows a data set (a reload of the same kind keeps the views' settings) and applies any
    /// scripted set-up waiting for data.
    pub fn show(&mut self, dataset: Dataset) {
        // A new data set is a fresh start: the last one's load errors no longer apply.
        self.errors.clear();
        self.warnings = dataset.warnings.clone();
        let warned = crate::model::count_warnings(&self.warnings);
        if let Some(f) = &dataset.fabric {
            self.status = format!(
                "{}: {} rails, {} hosts, {} warnings",
                dataset.name,
                f.cluster.rails.len(),
                f.cluster.hosts.len(),
                warned
            );
        } else {
            let net = dataset.run.network();
            self.status = format!(
                "{}: {} nodes, {} links, {} tables, {} warnings",
                dataset.name,
                net.nodes.len(),
                net.links.len(),
                dataset.run.tables().len(),
                warned
            );
        }
        self.regions_state.seed(&dataset);
        self.ws.install(dataset);
        if let Some(session) = self.pending_session.take() {
            self.ws.from_session(&session);
        }
        for setup in std::mem::take(&mut self.pending) {
            self.tab = match &setup {
                Setup::Threshold(_) | Setup::Where(_) => Tab::Filter,
                Setup::Compare(..) | Setup::Diff(..) => Tab::Regions,
                Setup::Highlight(_) => Tab::Highlight,
                Setup::Tab(name) => Tab::named(name).unwrap_or(self.tab),
                _ => self.tab,
            };
            setup.apply(&mut self.ws);
        }
    }

    /// Handles a finished load: success replaces the data, failure keeps it and says why.
    pub fn finish_load(&mut self, loaded: loader::Loaded, ctx: Option<&egui::Context>) {
        match loaded.result {
            Ok(dataset) => {
                if loaded.reason == Reason::Open {
                    recent::push(&mut self.recent, loaded.request.clone());
                }
                if let Some(ctx) = ctx {
                    self.watcher = match watch::Watcher::new(&loaded.request, ctx) {
                        Ok(w) => Some(w),
                        Err(e) => {
                            self.errors.push(format!("cannot watch the files for changes: {e}"));
                            None
                        }
                    };
                }
                self.current = Some(loaded.request);
                self.show(dataset);
                // The last data set and the load's buffers are gone now.
                allocator::return_freed_memory();
            }
            Err(e) => {
                let what = match loaded.reason {
                    Reason::Open => "could not open",
                    Reason::Reload => "reload failed, still showing the last good data;",
                };
                self.errors.push(format!("{what} {}: {e}", recent::describe(&loaded.request)));
                self.pending_session = None;
                self.status = "load failed".into();
                self.place_jobs.on_failure(&e.to_string());
            }
        }
    }

    /// Writes the focused view as it is on screen (its size, camera and legend) at 2× pixels.
    pub fn export_focused(&mut self, path: &std::path::Path) -> Result<(), String> {
        self.ws.export_focused(path)
    }

    /// Per-frame bookkeeping that needs no UI: finished loads, file changes, dialogs, drops.
    fn housekeeping(&mut self, ctx: &egui::Context) {
        if let Some(loaded) = self.loader.poll() {
            self.finish_load(loaded, Some(ctx));
        }
        if self.watcher.as_ref().is_some_and(watch::Watcher::changed)
            && let Some(request) = self.current.clone()
            && !self.loader.busy()
        {
            self.status = "files changed; reloading".into();
            self.loader.start(request, Reason::Reload, ctx);
        }
        while let Ok(d) = self.dialogs.1.try_recv() {
            self.handle_dialog(d, ctx);
        }
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        let kind = |p: &PathBuf| crate::view_model::classify(p);
        if let Some(file) = dropped.iter().find(|p| kind(p) == Some(crate::view_model::PathKind::Session)) {
            session::open(self, file, ctx);
        } else if let Some(run) = dropped.iter().find(|p| open::is_run_path(p)) {
            open::open_run(self, run, ctx);
        } else if !dropped.is_empty() {
            match recent::request_from_paths(&dropped, self.current.as_ref()) {
                Some(r) => self.open(r, ctx),
                None => self
                    .errors
                    .push("dropped a profile with no rails open: drop the rail directories too".into()),
            }
        }
    }

    fn menu_bar(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui
                    .add(
                        egui::Button::new("Open rails…")
                            .shortcut_text(ui.ctx().format_shortcut(&SHORTCUT_OPEN)),
                    )
                    .clicked()
                {
                    self.open_dialog(ui.ctx());
                }
                if ui.button("Open profile…").clicked() {
                    self.profile_dialog(ui.ctx());
                }
                if ui.button("Add profiles as jobs…").clicked() {
                    self.jobs_dialog(ui.ctx());
                }
                if ui.button("The fabric as it ran (Prometheus, Slurm)…").clicked() {
                    self.history.start(self.current.as_ref());
                }
                if ui.button("Open run (Boxfish meta / CSV pair)…").clicked() {
                    open::open_dialog(self, ui.ctx());
                }
                if ui.button("Open the bundled sample").clicked() {
                    self.open(OpenRequest::sample(), ui.ctx());
                }
                ui.menu_button("Recent", |ui| {
                    if self.recent.is_empty() {
                        ui.label("nothing yet");
                    }
                    for r in self.recent.clone() {
                        if ui.button(recent::describe(&r)).clicked() {
                            self.open(r, ui.ctx());
                        }
                    }
                });
                ui.separator();
                session::menu_items(self, ui);
                ui.separator();
                if ui.button("Export view (PNG/SVG)…").clicked() {
                    self.export_dialog(ui.ctx());
                }
            });
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.show_warnings, "warnings panel");
                if ui.button("fit (F)").clicked() {
                    commands.push(Command::FitAll);
                }
                let undo = ui.ctx().format_shortcut(&SHORTCUT_UNDO);
                let removed = self.ws.undoable() > 0;
                if ui
                    .add_enabled(removed, egui::Button::new("undo view removal").shortcut_text(undo))
                    .clicked()
                {
                    commands.push(Command::Undo);
                }
            });
            for (tab, name) in Tab::ALL {
                ui.selectable_value(&mut self.tab, tab, name);
            }
            ui.separator();
            if let (Some(d), Some(view)) = (self.ws.dataset.clone(), self.ws.focused())
                && crate::view_model::routing_shown::RoutingShown::available(&d)
            {
                crate::modules::routing_switch::switch_ui(ui, view, &d, commands);
                ui.separator();
            }
            let warn = format!("{} warnings", crate::model::count_warnings(&self.warnings));
            if ui.selectable_label(self.show_warnings, warn).clicked() {
                self.show_warnings = !self.show_warnings;
            }
        });
    }

    fn warnings_panel(&mut self, ui: &mut Ui) {
        egui::ScrollArea::vertical().max_height(160.0).show(ui, |ui| {
            for e in &self.errors {
                ui.colored_label(ui.visuals().error_fg_color, shown(e, MESSAGE_CHARS));
            }
            if crate::model::count_warnings(&self.warnings) == 0 {
                ui.small("no parser or trace warnings");
            }
            for w in &self.warnings {
                let line = if w.is_info() { format!("info: {w}") } else { w.to_string() };
                ui.monospace(line);
            }
        });
    }
}

impl eframe::App for ShoalApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if let Some(log) = self.frame_log.as_mut() {
            log.frame_started();
        }
        if let Some(fill) = self.panels_by_clear.as_mut() {
            software_frame::clear_panels(&ctx, fill);
        }
        if let Some(f) = self.first_frame.as_mut() {
            f.frame_started(&ctx);
        }
        self.housekeeping(&ctx);
        if ctx.input_mut(|i| i.consume_shortcut(&SHORTCUT_OPEN)) {
            self.open_dialog(&ctx);
        }
        if let Some(typed) = self.path_entry.ui(&ctx) {
            self.handle_dialog(typed, &ctx);
        }
        if let Some(request) = self.place_jobs.ui(&ctx) {
            self.open(request, &ctx);
        }
        let jobs = self.ws.dataset.as_ref().and_then(|d| d.fabric.as_ref()).map(|f| f.scheduled.clone());
        if let Some(request) = self.history.ui(&ctx, self.current.as_ref(), &jobs.unwrap_or_default()) {
            self.open(request, &ctx);
        }
        let mut commands = Vec::new();
        // Ctrl+Z in a text field edits the text; elsewhere it brings a removed view back.
        if !ctx.egui_wants_keyboard_input() && ctx.input_mut(|i| i.consume_shortcut(&SHORTCUT_UNDO)) {
            commands.push(Command::Undo);
        }
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, &mut commands));
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                if let Some(p) = self.loader.progress() {
                    ui.add(egui::ProgressBar::new(p.fraction).desired_width(220.0).text(p.stage));
                } else if let Some(due) = self.loader.bar_due_in() {
                    // Not a spinner: it repaints every frame, and under a software renderer those
                    // frames took a third of a core from the load itself (issue 27).
                    ui.label("opening…");
                    ctx.request_repaint_after(due);
                }
                ui.label(&self.status);
                if !self.errors.is_empty() {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("{} error(s): see warnings", self.errors.len()),
                    );
                }
            });
        });
        if self.show_warnings || !self.errors.is_empty() {
            egui::Panel::bottom("warnings").resizable(true).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.strong("Warnings");
                    if !self.errors.is_empty() && ui.small_button("clear errors").clicked() {
                        self.errors.clear();
                    }
                });
                self.warnings_panel(ui);
            });
        }
        // Resizable, at most a third of the window, remembered across runs (egui's memory).
        let third = (ui.available_width() / 3.0).max(260.0);
        egui::Panel::left("panels")
            .default_size(330.0)
            .size_range(220.0..=third)
            .resizable(true)
            .show(ui, |ui| self.side_panel(ui, &mut commands));
        egui::CentralPanel::default().show(ui, |ui| self.views(ui, &mut commands));
        if ctx.input(|i| i.key_pressed(Key::Escape)) && !commands.contains(&Command::ClearSelection) {
            commands.push(Command::ClearSelection);
        }
        self.ws.apply(commands);
        if let Some(f) = self.first_frame.as_mut() {
            f.frame_ended(&ctx, self.ws.dataset.is_some());
        }
    }

    fn clear_color(&self, _visuals: &egui::Visuals) -> [f32; 4] {
        software_frame::clear_color(self.panels_by_clear)
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        storage.set_string(recent::KEY, recent::encode(&self.recent));
    }
}

/// The status line while `request` loads.
fn loading_status(request: &OpenRequest) -> String {
    format!("loading {}", recent::describe(request))
}

/// Opens the app on `request` (in the background) and runs it until the window closes.
pub fn run(request: Option<OpenRequest>) -> anyhow::Result<()> {
    run_with(request, |_| {})
}

/// As [`run`], then `setup` on the new app (e.g. opening a run).
pub fn run_with(
    request: Option<OpenRequest>,
    setup: impl FnOnce(&mut ShoalApp) + 'static,
) -> anyhow::Result<()> {
    if let Some(missing) = display_env::no_display(|name| std::env::var_os(name)) {
        anyhow::bail!("the window cannot open: {missing}. {HEADLESS_HINT}");
    }
    allocator::keep_freed_memory();
    display_env::quiet_pointless_probe();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_inner_size([1440.0, 900.0]).with_drag_and_drop(true),
        renderer: eframe::Renderer::Wgpu,
        ..Default::default()
    };
    // The files load while the window and its renderer are set up.
    let loading = request.map(|r| Loader::start_detached(r, Reason::Open)).unwrap_or_default();
    let make = move |cc: &eframe::CreationContext<'_>| {
        let mut app = ShoalApp::new(cc, loading);
        setup(&mut app);
        Ok(Box::new(app) as Box<dyn eframe::App>)
    };
    eframe::run_native("shoal", options, Box::new(make))
        .map_err(|e| anyhow::anyhow!("the window could not open: {e}. {HEADLESS_HINT}"))
}

/// What to do without a window (an `ssh` session with no X forwarding, a batch node).
pub const HEADLESS_HINT: &str = "Without a display, `shoal render RAIL... [--profile P] --out view.png` \
     draws the same views to PNG or SVG, and `shoal hot`, `shoal convert` and `shoal info` print the figures";

/// `shoal` with no subcommand: the bundled two-rail sample.
pub fn run_sample() -> anyhow::Result<()> {
    run(Some(OpenRequest::sample()))
}
