//! The What-if tab (issue 23): the focused view's traffic (its region selection and job) on one
//! rail, routed by the recorded tables, D-mod-K, minhop, greedy and greedy-sum, each measured by
//! its busiest link end, as `shoal route --engine greedy` prints them (one function,
//! [`crate::view_model::what_if::what_if`]). The engines run on a worker thread, so frames go on
//! while they route; a result for a selection no longer shown is dropped.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use egui::Ui;

use crate::modules::{Command, View};
use crate::view_model::Seed;
use crate::view_model::dataset::Dataset;
use crate::view_model::values::RegionSelection;
use crate::view_model::what_if::{ShownRow, what_if};

/// What a result was computed for: data generation, rail, selection, job.
type Key = (u64, usize, RegionSelection, Option<String>);
type Outcome = Result<Vec<ShownRow>, String>;

/// The tab's state: the rail asked about, the last result and the routing under way.
#[derive(Default)]
pub struct WhatIfState {
    pub rail: usize,
    shown: Option<(Key, Outcome)>,
    running: Option<(Key, Receiver<Outcome>)>,
}

impl WhatIfState {
    /// Takes a finished result in; starts routing `wanted` when nothing is running and the
    /// result shown is for something else.
    fn step(&mut self, d: &Arc<Dataset>, wanted: &Key, ctx: &egui::Context) {
        if let Some((key, rx)) = &self.running {
            match rx.try_recv() {
                Ok(outcome) => self.shown = Some((key.clone(), outcome)),
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.shown =
                        Some((key.clone(), Err("the what-if worker stopped without a result".into())))
                }
            }
            self.running = None;
        }
        if self.shown.as_ref().is_some_and(|(key, _)| key == wanted) {
            return;
        }
        let (tx, rx) = channel();
        let (d, key, ctx) = (d.clone(), wanted.clone(), ctx.clone());
        std::thread::spawn(move || {
            let (_, rail, selection, job) = &key;
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                what_if(&d, *rail, *selection, job.as_deref())
            }))
            .unwrap_or_else(|_| Err("the what-if crashed (a bug in shoal)".to_string()));
            let _ = tx.send(outcome);
            ctx.request_repaint();
        });
        self.running = Some((wanted.clone(), rx));
    }

    /// Blocks until the routing under way is done and takes its result in (tests, scripts).
    pub fn wait(&mut self) {
        if let Some((key, rx)) = self.running.take() {
            let outcome =
                rx.recv().unwrap_or_else(|_| Err("the what-if worker stopped without a result".into()));
            self.shown = Some((key, outcome));
        }
    }

    /// The rows shown last (whatever selection they were for), or why there are none.
    pub fn shown(&self) -> Option<&Result<Vec<ShownRow>, String>> {
        self.shown.as_ref().map(|(_, outcome)| outcome)
    }

    /// Whether routing is under way.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }
}

/// The tab: a rail choice, then the table of routings for the focused view's selection.
pub fn panel(
    ui: &mut Ui,
    state: &mut WhatIfState,
    d: &Arc<Dataset>,
    generation: u64,
    view: &View,
    commands: &mut Vec<Command>,
) {
    let Some(fabric) = &d.fabric else {
        ui.small("the routing what-if needs fabric dumps (rails with their forwarding tables)");
        return;
    };
    let rails = fabric.cluster.rails.len();
    state.rail = state.rail.min(rails.saturating_sub(1));
    ui.label("the busiest link end under each routing");
    egui::ComboBox::from_label("rail").selected_text(format!("rail {}", state.rail)).show_ui(ui, |ui| {
        for r in 0..rails {
            ui.selectable_value(&mut state.rail, r, format!("rail {r}"));
        }
    });
    let (selection, job) = (view.spec.selection, view.spec.job_shown(d));
    let which = job.as_ref().map_or(String::new(), |j| format!(", job {j}"));
    ui.small(format!("traffic: {}{which}, this rail's share under the rail policy", selection.label()));
    let wanted: Key = (generation, state.rail, selection, job);
    state.step(d, &wanted, ui.ctx());
    if state.busy() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("routing with every engine...");
        });
    }
    match &state.shown {
        Some((key, Ok(rows))) if *key == wanted => table(ui, rows, (d, state.rail, view), commands),
        Some((key, Err(why))) if *key == wanted => {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        _ => {}
    }
}

/// One row per routing, then each routing's busiest switch-to-switch end with a "show" button
/// that highlights and picks it in the view's group (left, so a narrow panel keeps it in view).
fn table(
    ui: &mut Ui,
    rows: &[ShownRow],
    (d, rail, view): (&Dataset, usize, &View),
    commands: &mut Vec<Command>,
) {
    egui::Grid::new("what-if table").striped(true).num_columns(4).show(ui, |ui| {
        for heading in ["routing", "sw-sw max", "/ recorded", "any end"] {
            ui.strong(heading);
        }
        ui.end_row();
        for row in rows {
            // The lowest busiest switch-to-switch end is in bold.
            if row.lowest {
                ui.strong(&row.routing);
            } else {
                ui.label(&row.routing);
            }
            ui.label(&row.switch_to_switch);
            ui.label(&row.ratio);
            ui.label(&row.any_end);
            ui.end_row();
        }
    });
    for line in [
        "sw-sw max: the busiest switch-to-switch link end",
        "(what routing can change); bold: the lowest",
        "/ recorded: that load over the recorded tables'",
        "any end: the busiest end, host links included",
    ] {
        ui.small(line);
    }
    ui.label("each routing's busiest sw-sw end:");
    for row in rows {
        let position =
            d.fabric.as_ref().zip(row.load.busiest_end).and_then(|(f, end)| f.index.link_position(rail, end));
        ui.vertical(|ui| {
            if let Some(link) = position
                && ui.small_button(format!("show {}", row.routing)).clicked()
            {
                commands.push(Command::Highlight {
                    group: view.group,
                    seeds: vec![Seed::link(link)],
                    add: false,
                });
                commands.push(Command::SelectLink { view: view.id, link });
            }
            let lost = row.undelivered.as_ref().map(|u| format!(" ({u} undelivered)")).unwrap_or_default();
            ui.small(format!("{}{lost}", row.at));
        });
    }
}
