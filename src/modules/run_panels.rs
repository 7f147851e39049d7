//! The shared panels for run views (torus, generic 2D): filter clauses `ATTR REL VALUE` on the
//! run's attributes (the view's own and its group's), view options, regions side by side, the
//! highlight with its linked table (what a pick reaches in every domain, with values), and
//! linking. They edit the [`RunWorkspace`] in place or push [`RunCommand`]s, as the fat tree's
//! panels do.

use egui::{ComboBox, Ui};

use crate::layout::torus;
use crate::model::{Domain, Run};
use crate::scene::colour::{ColourMap, ScaleKind};
use crate::scene::network::format_number;
use crate::scene::orbit::Orbit;
use crate::scene::query::{self, Condition};
use crate::scene::run_view::{RunModule, RunViewSpec, default_attribute, region_attribute};

use super::run_views::{RunCommand, RunWorkspace};

/// Panel state that survives frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunPanelState {
    pub clause: String,
    pub group_clause: String,
    pub error: Option<String>,
    pub region_a: Option<f64>,
    pub region_b: Option<f64>,
    pub search: String,
}

/// A list of conditions with remove buttons, and a line to add one (`ATTR REL VALUE`).
fn conditions_ui(
    ui: &mut Ui,
    id: &str,
    conditions: &mut Vec<Condition>,
    text: &mut String,
    error: &mut Option<String>,
) {
    let mut remove = None;
    for (i, c) in conditions.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.monospace(c.to_string());
            if ui.small_button("x").on_hover_text("remove this clause").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        conditions.remove(i);
    }
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(text)
                .id_salt((id, "clause"))
                .hint_text("code_region = 1")
                .desired_width(170.0),
        );
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button("+ clause").clicked() || enter) && !text.trim().is_empty() {
            match Condition::parse(text) {
                Ok(c) => {
                    conditions.push(c);
                    text.clear();
                    *error = None;
                }
                Err(e) => *error = Some(e.to_string()),
            }
        }
    });
}

/// The filter tab: the focused view's clauses, its group's, and what went wrong evaluating them.
pub fn filter_panel(ui: &mut Ui, state: &mut RunPanelState, ws: &mut RunWorkspace) {
    let run = ws.run.clone();
    let focus = ws.focus;
    let Some(view) = ws.views.get_mut(focus) else { return };
    ui.strong(format!("view {} filter (clauses are ANDed)", focus + 1));
    conditions_ui(ui, "view", &mut view.spec.conditions, &mut state.clause, &mut state.error);
    let group_id = view.group;
    if let Some(Err(e)) = &view.state.prepared {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if let Some(Ok(p)) = &view.state.prepared {
        for problem in &p.problems {
            ui.colored_label(ui.visuals().warn_fg_color, problem);
        }
        let shown = p.link_pass.iter().filter(|&&x| x).count();
        ui.small(format!("{shown} of {} links pass", run.network().links.len()));
    }
    if let Some(group) = ws.group_mut(group_id) {
        ui.separator();
        ui.strong(format!("{} filter (ANDed with each member's own)", group.name));
        conditions_ui(ui, "group", &mut group.conditions, &mut state.group_clause, &mut state.error);
    }
    if let Some(e) = &state.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    ui.separator();
    ui.collapsing("attributes", |ui| {
        for domain in [Domain::Links, Domain::Nodes, Domain::Ranks] {
            let names: Vec<String> = query::attributes(&run, domain).into_iter().map(|a| a.name).collect();
            if !names.is_empty() {
                ui.small(format!("{domain}: {}", names.join(", ")));
            }
        }
        ui.small("qualify to force a domain: nodes.muls > 10");
    });
    if let Some(view) = ws.views.get_mut(focus) {
        ui.separator();
        view_options(ui, &run, &mut view.spec);
    }
}

fn attribute_combo(ui: &mut Ui, label: &str, run: &Run, domain: Domain, value: &mut Option<String>) {
    let numeric: Vec<String> =
        query::attributes(run, domain).into_iter().filter(|a| a.numeric).map(|a| a.name).collect();
    ComboBox::from_label(label).selected_text(value.clone().unwrap_or_else(|| "none".into())).show_ui(
        ui,
        |ui| {
            ui.selectable_value(value, None, "none");
            for n in numeric {
                ui.selectable_value(value, Some(n.clone()), n);
            }
        },
    );
}

/// Module, axes, colouring attributes, aggregation, colour map and scale of one view.
pub fn view_options(ui: &mut Ui, run: &Run, spec: &mut RunViewSpec) {
    let axes = run.network().axes.clone();
    let torus = matches!(run.network().shape, crate::model::Shape::Torus { .. });
    ui.horizontal(|ui| {
        ui.label("module");
        let first3 = RunModule::Torus { kept: (0..axes.len().min(3)).collect() };
        let flat = RunModule::TorusFlat { down: axes.len().saturating_sub(1) };
        for m in [first3, flat, RunModule::Generic2d] {
            let enabled = torus || m == RunModule::Generic2d;
            let selected = std::mem::discriminant(&m) == std::mem::discriminant(&spec.module);
            if ui.add_enabled(enabled, egui::Button::selectable(selected, m.name())).clicked() && !selected {
                spec.module = m;
            }
        }
    });
    match &mut spec.module {
        RunModule::Torus { kept } if axes.len() > 3 => {
            ui.horizontal(|ui| {
                ui.label("kept axes");
                for (slot, k) in kept.iter_mut().enumerate() {
                    ComboBox::from_id_salt(("kept", slot))
                        .width(40.0)
                        .selected_text(axes[*k].clone())
                        .show_ui(ui, |ui| {
                            for (i, a) in axes.iter().enumerate() {
                                ui.selectable_value(k, i, a);
                            }
                        });
                }
            });
            ui.small("the other axes are aggregated (merged nodes and links)");
        }
        RunModule::TorusFlat { down } => {
            ui.horizontal(|ui| {
                ui.label("looking down");
                for (i, a) in axes.iter().enumerate() {
                    ui.selectable_value(down, i, a);
                }
            });
        }
        _ => {}
    }
    attribute_combo(ui, "link colour", run, Domain::Links, &mut spec.link_attribute);
    attribute_combo(ui, "node colour", run, Domain::Nodes, &mut spec.node_attribute);
    ui.horizontal(|ui| {
        ui.label("rows");
        for a in query::Aggregate::ALL {
            ui.selectable_value(&mut spec.rows, a, a.name());
        }
    });
    if !matches!(spec.module, RunModule::Generic2d) {
        ui.horizontal(|ui| {
            ui.label("merged");
            for a in torus::Aggregate::ALL {
                ui.selectable_value(&mut spec.merge, a, a.name());
            }
        });
    }
    ui.horizontal(|ui| {
        ComboBox::from_label("map").selected_text(spec.link_map.name()).show_ui(ui, |ui| {
            for m in ColourMap::ALL.into_iter().filter(|m| !m.is_diverging()) {
                ui.selectable_value(&mut spec.link_map, m, m.name());
            }
        });
        let mut log = spec.scale == ScaleKind::Log;
        if ui.checkbox(&mut log, "log").changed() {
            spec.scale = if log { ScaleKind::Log } else { ScaleKind::Linear };
        }
    });
}

/// The regions tab: one region per view, or two side by side on one scale.
pub fn regions_panel(ui: &mut Ui, state: &mut RunPanelState, ws: &mut RunWorkspace) {
    let Some(attribute) = region_attribute(&ws.run) else {
        ui.label("this run has no code_region (or region) attribute");
        return;
    };
    let mut regions = query::distinct_values(&ws.run, Domain::Links, &attribute);
    if regions.is_empty() {
        regions = query::distinct_values(&ws.run, Domain::Nodes, &attribute);
    }
    let pick = |ui: &mut Ui, id: &str, value: &mut Option<f64>| {
        ComboBox::from_id_salt(id).selected_text(value.map_or("all".into(), format_number)).show_ui(
            ui,
            |ui| {
                for &r in &regions {
                    ui.selectable_value(value, Some(r), format_number(r));
                }
            },
        );
    };
    ui.horizontal(|ui| {
        ui.label("region A");
        pick(ui, "region a", &mut state.region_a);
        ui.label("B");
        pick(ui, "region b", &mut state.region_b);
    });
    ui.horizontal(|ui| {
        if ui.button("show A").clicked()
            && let (Some(a), Some(view)) = (state.region_a, ws.views.get_mut(ws.focus))
        {
            view.spec.conditions.retain(|c| c.attribute != attribute);
            view.spec.conditions.push(region_clause(&attribute, a));
        }
        if ui.button("compare A | B").clicked()
            && let (Some(a), Some(b)) = (state.region_a, state.region_b)
        {
            ws.compare(&attribute, a, b);
        }
    });
    ui.small("compare: two views side by side in one group, one colour range, one orbit");
}

fn region_clause(attribute: &str, r: f64) -> Condition {
    Condition {
        attribute: attribute.into(),
        relation: crate::scene::filter::Relation::Eq,
        value: if r.fract() == 0.0 { format!("{r:.0}") } else { r.to_string() },
    }
}

/// The highlight tab: what is picked, what it reaches in each domain, and a linked table of the
/// lit ids with their values under the focused view's filter.
pub fn highlight_panel(
    ui: &mut Ui,
    state: &mut RunPanelState,
    ws: &RunWorkspace,
    commands: &mut Vec<RunCommand>,
) {
    let Some(view) = ws.views.get(ws.focus) else { return };
    let Some(group) = ws.group(view.group) else { return };
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut state.search)
                .hint_text("rank 5, node 12, link 40")
                .desired_width(170.0),
        );
        if ui.button("highlight").clicked() {
            let mut words = state.search.split_whitespace();
            let domain = words.next().and_then(Domain::parse);
            let ids: Vec<i64> =
                words.flat_map(|w| w.split(',')).filter_map(|w| w.trim().parse().ok()).collect();
            if let Some(domain) = domain.filter(|_| !ids.is_empty()) {
                commands.push(RunCommand::Highlight { group: group.id, domain, ids, add: false });
            }
        }
        if ui.button("clear").clicked() {
            commands.push(RunCommand::ClearSelection);
        }
    });
    let Some(domain) = group.highlight.domain.filter(|_| !group.highlight.is_empty()) else {
        ui.small("click a node or link, or search, to highlight it in every linked view");
        return;
    };
    ui.label(format!(
        "picked {} {domain}: {:?}",
        group.highlight.ids.len(),
        &group.highlight.ids[..group.highlight.ids.len().min(8)]
    ));
    let projected = group.highlight.project(&ws.run);
    for d in Domain::ALL {
        let Some(ids) = projected.get(&d) else { continue };
        let attribute = match d {
            Domain::Links => view.spec.link_attribute.clone(),
            Domain::Nodes => view.spec.node_attribute.clone(),
            _ => default_attribute(&ws.run, d),
        };
        let conditions: Vec<Condition> =
            view.spec.conditions.iter().chain(&group.conditions).cloned().collect();
        let values =
            attribute.as_ref().and_then(|a| query::values(&ws.run, d, &conditions, view.spec.rows, a).ok());
        let header = egui::CollapsingHeader::new(format!("{} {d}", ids.len())).id_salt(("lit", d.name()));
        header.default_open(ids.len() <= 16).show(ui, |ui| {
            let mut sorted: Vec<i64> = ids.iter().copied().collect();
            sorted.sort_unstable();
            egui::Grid::new(("lit table", d.name())).striped(true).show(ui, |ui| {
                ui.strong("id");
                ui.strong(attribute.as_deref().unwrap_or("—"));
                ui.end_row();
                for id in sorted.iter().take(200) {
                    ui.label(id.to_string());
                    let v = values
                        .as_ref()
                        .and_then(|v| ws.run.position(d, *id).and_then(|p| v.get(p).copied().flatten()));
                    ui.label(v.map_or("—".into(), format_number));
                    ui.end_row();
                }
            });
            if sorted.len() > 200 {
                ui.small(format!("… and {} more", sorted.len() - 200));
            }
        });
    }
}

/// The linking tab: each view's group, what groups share, adding views.
pub fn linking_panel(ui: &mut Ui, ws: &mut RunWorkspace) {
    let groups: Vec<_> = ws.groups.iter().map(|g| (g.id, g.name.clone())).collect();
    for (i, view) in ws.views.iter_mut().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("view {} ({})", i + 1, view.spec.module.name()));
            let current = groups.iter().find(|g| g.0 == view.group).map_or("?".into(), |g| g.1.clone());
            ComboBox::from_id_salt(("run view group", i)).selected_text(current).show_ui(ui, |ui| {
                for (id, name) in &groups {
                    ui.selectable_value(&mut view.group, *id, name);
                }
            });
        });
    }
    ui.horizontal(|ui| {
        if ui.button("+ group").clicked() {
            ws.new_group();
        }
        if ui.button("+ view").clicked() {
            let module = ws.views.get(ws.focus).map_or(RunModule::Generic2d, |v| v.spec.module.clone());
            ws.add_view(module);
        }
        if ws.views.len() > 1 && ui.button("- view").clicked() {
            ws.views.remove(ws.focus);
            ws.focus = ws.focus.min(ws.views.len() - 1);
        }
    });
    ui.separator();
    for group in &mut ws.groups {
        ui.collapsing(group.name.clone(), |ui| {
            let mut orbit = group.shared_orbit.is_some();
            if ui.checkbox(&mut orbit, "turn together").changed() {
                group.shared_orbit = orbit.then(Orbit::default);
            }
            let mut camera = group.shared_camera.is_some();
            if ui.checkbox(&mut camera, "share zoom and pan").changed() {
                group.shared_camera = camera.then(Default::default);
            }
            ui.small("members share the highlight and one colour range (the union of theirs)");
        });
    }
}
