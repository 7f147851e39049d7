//! The static/AR switch: which trace the focused view shows when the dumps hold
//! adaptive-routing tables (see [`crate::view_model::routing_shown`]). Nothing is drawn otherwise.

use egui::Ui;

use crate::view_model::dataset::Dataset;
use crate::view_model::routing_shown::RoutingShown;

use super::command::Command;
use super::workspace::View;

/// Three buttons, the shown trace lit: static, AR modelled, AR − static (modelled).
pub fn switch_ui(ui: &mut Ui, view: &View, d: &Dataset, commands: &mut Vec<Command>) {
    if !RoutingShown::available(d) {
        return;
    }
    let shown = view.spec.routing_shown();
    ui.label("routing").on_hover_text(
        "The dumps hold adaptive-routing tables: show the static trace, the AR spread (bytes to \
         AR-enabled LIDs split evenly over each AR group's ports: modelled, not measured) or \
         their difference per link end",
    );
    for (choice, label) in RoutingShown::ALL {
        if ui.selectable_label(shown == Some(choice), label).clicked() {
            let mut spec = view.spec.clone();
            spec.show_routing(choice);
            commands.extend(Command::set_spec_if_changed(view.id, &view.spec, spec));
        }
    }
}
