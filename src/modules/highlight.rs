//! The highlight panel: search by host name, rank, LID or GUID; the route of a source →
//! destination pair; the current highlight set. Highlights go to the focused view's link group,
//! and [`crate::scene::highlight::project`] carries them into every domain.

use egui::Ui;

use crate::scene::dataset::Dataset;
use crate::scene::highlight::{Seed, search};
use crate::scene::linking::LinkGroup;

use super::Command;

/// Panel state that survives frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HighlightPanelState {
    pub query: String,
    pub route_from: String,
    pub route_to: String,
    pub message: String,
}

/// How a seed reads in the list.
pub fn describe(d: &Dataset, seed: Seed) -> String {
    let host = |h: usize| d.cluster.hosts.get(h).map_or_else(|| format!("host #{h}"), |x| x.name.clone());
    match seed {
        Seed::Rank(r) => format!("rank {r}"),
        Seed::Host(h) => format!("host {}", host(h)),
        Seed::Node { rail, node } => {
            let name =
                d.cluster.rails.get(rail).map(|f| f.node(node).description.clone()).unwrap_or_default();
            format!("{name} (rail {rail})")
        }
        Seed::LinkEnd { rail, end } => format!("link end {} on rail {rail}", end.index()),
        Seed::Route { src, dst } => format!("route {} -> {}", host(src), host(dst)),
    }
}

pub fn panel(
    ui: &mut Ui,
    state: &mut HighlightPanelState,
    d: &Dataset,
    group: &LinkGroup,
    commands: &mut Vec<Command>,
) {
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(&mut state.query)
                .hint_text("host, rank 12, 0x1a, GUID")
                .desired_width(150.0),
        );
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let find = ui.button("highlight").clicked() || enter;
        let add = ui.button("add").clicked();
        if find || add {
            let seeds = search(&d.cluster, &d.rank_hosts, &state.query);
            state.message = match seeds.len() {
                0 => format!("nothing matches {:?}", state.query),
                n => format!("{n} match{}", if n == 1 { "" } else { "es" }),
            };
            if !seeds.is_empty() {
                commands.push(Command::Highlight { group: group.id, seeds, add });
            }
        }
    });
    if !state.message.is_empty() {
        ui.small(&state.message);
    }
    ui.horizontal(|ui| {
        ui.label("route");
        ui.add(egui::TextEdit::singleline(&mut state.route_from).hint_text("from host").desired_width(70.0));
        ui.label("->");
        ui.add(egui::TextEdit::singleline(&mut state.route_to).hint_text("to host").desired_width(70.0));
        if ui.button("show").clicked() {
            let (a, b) =
                (d.cluster.host_index(state.route_from.trim()), d.cluster.host_index(state.route_to.trim()));
            match (a, b) {
                (Some(src), Some(dst)) => commands.push(Command::Highlight {
                    group: group.id,
                    seeds: vec![Seed::Route { src, dst }],
                    add: false,
                }),
                _ => state.message = "route: both ends must be host names".into(),
            }
        }
    });
    if group.highlight.is_empty() {
        ui.small("nothing highlighted (click a node or a link end, or search)");
        return;
    }
    ui.label(format!("highlighted in {}:", group.name));
    let mut keep = Vec::new();
    let mut removed = false;
    for &seed in &group.highlight.seeds {
        ui.horizontal(|ui| {
            if ui.small_button("x").clicked() {
                removed = true;
            } else {
                keep.push(seed);
            }
            ui.label(describe(d, seed));
        });
    }
    if removed {
        commands.push(Command::Highlight { group: group.id, seeds: keep, add: false });
    }
    if ui.button("clear highlight (Esc)").clicked() {
        commands.push(Command::ClearSelection);
    }
}
