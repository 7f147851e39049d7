//! The highlight panel, the same for every module: search (a name pattern, `rank 12`,
//! `link 40`, a LID or GUID in a fabric), the route of a source → destination pair (a fabric's
//! forwarding tables), the current highlight set, and linked tables of what it reaches in every
//! domain with the focused view's values. Highlights go to the focused view's link group.

use egui::Ui;

use crate::model::Domain;
use crate::modules::link_group::LinkGroup;
use crate::view_model::dataset::Dataset;
use crate::view_model::highlight::{Lit, Seed, describe, search};

use super::command::Command;
use super::filter::value_text;
use super::workspace::View;

/// Panel state that survives frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HighlightPanelState {
    pub query: String,
    pub route_from: String,
    pub route_to: String,
    pub message: String,
}

/// Search, route, and the list of seeds with remove buttons.
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
                .hint_text("name, rank 12, link 40, 0x1a")
                .desired_width(150.0),
        );
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let find = ui.button("highlight").clicked() || enter;
        let add = ui.button("add").clicked();
        if find || add {
            let seeds = search(d, &state.query);
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
    if d.fabric.is_some() {
        route_ui(ui, state, d, group, commands);
    }
    if group.highlight.is_empty() {
        ui.small("nothing highlighted (click a node or a link, or search)");
        return;
    }
    ui.label(format!("highlighted in {}:", group.name));
    let mut keep = Vec::new();
    let mut removed = false;
    for &seed in group.highlight.seeds.iter().take(50) {
        ui.horizontal(|ui| {
            if ui.small_button("x").clicked() {
                removed = true;
            } else {
                keep.push(seed);
            }
            ui.label(describe(d, seed));
        });
    }
    if group.highlight.seeds.len() > 50 {
        ui.small(format!("… and {} more", group.highlight.seeds.len() - 50));
        keep.extend(group.highlight.seeds.iter().skip(50).copied());
    }
    if removed {
        commands.push(Command::Highlight { group: group.id, seeds: keep, add: false });
    }
    if ui.button("clear highlight (Esc)").clicked() {
        commands.push(Command::ClearSelection);
    }
}

fn route_ui(
    ui: &mut Ui,
    state: &mut HighlightPanelState,
    d: &Dataset,
    group: &LinkGroup,
    commands: &mut Vec<Command>,
) {
    ui.horizontal(|ui| {
        ui.label("route");
        ui.add(egui::TextEdit::singleline(&mut state.route_from).hint_text("from host").desired_width(70.0));
        ui.label("->");
        ui.add(egui::TextEdit::singleline(&mut state.route_to).hint_text("to host").desired_width(70.0));
        if ui.button("show").clicked() {
            let host = |name: &str| d.fabric.as_ref().and_then(|f| f.cluster.host_index(name.trim()));
            match (host(&state.route_from), host(&state.route_to)) {
                (Some(src), Some(dst)) => commands.push(Command::Highlight {
                    group: group.id,
                    seeds: vec![Seed::Route { src: src as i64, dst: dst as i64 }],
                    add: false,
                }),
                _ => state.message = "route: both ends must be host names".into(),
            }
        }
    });
}

/// What the highlight reaches in each domain, with the focused view's values for links and
/// nodes (its colour attributes under its region and filter).
pub fn linked_tables(ui: &mut Ui, d: &Dataset, view: &View, lit: &Lit) {
    let prepared = view.network().and_then(|n| n.prepared.as_ref()).and_then(|p| p.as_ref().ok());
    for (domain, ids) in &lit.reached {
        let (attribute, values) = match (domain, prepared) {
            (Domain::Links, Some(p)) => (view.spec.link_attribute.as_deref(), Some(&p.link_values)),
            (Domain::Nodes, Some(p)) => (view.spec.node_attribute.as_deref(), Some(&p.node_values)),
            _ => (None, None),
        };
        let header =
            egui::CollapsingHeader::new(format!("{} {domain}", ids.len())).id_salt(("lit", domain.name()));
        header.default_open(ids.len() <= 16).show(ui, |ui| {
            egui::Grid::new(("lit table", domain.name())).striped(true).show(ui, |ui| {
                ui.strong("id");
                ui.strong(attribute.unwrap_or("—"));
                ui.end_row();
                for id in ids.iter().take(200) {
                    let label = match domain {
                        Domain::Nodes | Domain::Links => describe(d, Seed::Id { domain: *domain, id: *id }),
                        _ => id.to_string(),
                    };
                    ui.label(label);
                    let v = values
                        .and_then(|v| d.run.position(*domain, *id).and_then(|p| v.get(p).copied().flatten()));
                    ui.label(v.map_or("—".into(), |v| value_text(attribute, v)));
                    ui.end_row();
                }
            });
            if ids.len() > 200 {
                ui.small(format!("… and {} more", ids.len() - 200));
            }
        });
    }
}
