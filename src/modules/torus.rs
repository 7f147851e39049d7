//! The torus classes: a 3D torus of any size (or a 5D one through 3 kept axes), turned by an
//! arcball drag, zoomed by the wheel, panned by a shift-, secondary- or middle-drag; and the
//! flattened view down one axis, panned. A double-click or R resets. Clicking a node or a link
//! end highlights it in its link group; hovering shows its ids, coordinates and values.
//!
//! The projection to 2D happens in the scene layer ([`crate::scene::torus`]), so what is painted
//! here is what PNG and SVG export.

use egui::{ComboBox, Ui};

use crate::layout::torus;
use crate::view_model::dataset::Dataset;
use crate::view_model::view::{ModuleKind, ViewSpec};

use super::class::{ViewClass, if_available};
use super::network::{DragMode, NetworkState, NetworkStyle};
use super::network_class::network_class_body;

/// The 3D torus class (stateless); a 2D torus through two kept axes pans instead of turning.
pub struct Torus;

/// The flattened torus class, looking down one axis (stateless).
pub struct TorusFlat;

fn style(spec: &ViewSpec) -> NetworkStyle {
    let drag = if spec.module.is_3d() { DragMode::Rotate } else { DragMode::Pan };
    NetworkStyle { drag, any_aspect: false }
}

/// How merged nodes and links combine: both torus classes merge what a projection folds.
fn merge_ui(ui: &mut Ui, spec: &mut ViewSpec) {
    ui.horizontal(|ui| {
        ui.label("merged");
        for a in torus::Aggregate::ALL {
            ui.selectable_value(&mut spec.merge, a, a.name());
        }
    });
}

impl ViewClass for Torus {
    type State = NetworkState;

    fn id(&self) -> &'static str {
        "torus"
    }

    fn display_name(&self) -> &'static str {
        "torus 3D"
    }

    /// The first three axes (two of a 2D torus).
    fn module_for(&self, d: &Dataset) -> Option<ModuleKind> {
        let axes = d.run.network().axes.len();
        if_available(ModuleKind::Torus { kept: (0..axes.min(3)).collect() }, d)
    }

    /// With more than three axes, which three are kept (the others merge).
    fn options_ui(&self, ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
        let axes = &d.run.network().axes;
        if let ModuleKind::Torus { kept } = &mut spec.module
            && axes.len() > 3
        {
            ui.horizontal(|ui| {
                ui.label("kept axes");
                for (slot, k) in kept.iter_mut().enumerate() {
                    ComboBox::from_id_salt(("kept", slot))
                        .width(40.0)
                        .selected_text(axes.get(*k).cloned().unwrap_or_default())
                        .show_ui(ui, |ui| {
                            for (i, a) in axes.iter().enumerate() {
                                ui.selectable_value(k, i, a);
                            }
                        });
                }
            });
            ui.small("the other axes are aggregated (merged nodes and links)");
        }
        merge_ui(ui, spec);
    }

    network_class_body!(style);
}

impl ViewClass for TorusFlat {
    type State = NetworkState;

    fn id(&self) -> &'static str {
        "torus_flat"
    }

    fn display_name(&self) -> &'static str {
        "torus 2D"
    }

    /// Looking down the last axis.
    fn module_for(&self, d: &Dataset) -> Option<ModuleKind> {
        let axes = d.run.network().axes.len();
        if_available(ModuleKind::TorusFlat { down: axes.saturating_sub(1) }, d)
    }

    /// Which axis the view looks down.
    fn options_ui(&self, ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
        if let ModuleKind::TorusFlat { down } = &mut spec.module {
            ui.horizontal(|ui| {
                ui.label("looking down");
                for (i, a) in d.run.network().axes.iter().enumerate() {
                    ui.selectable_value(down, i, a);
                }
            });
        }
        merge_ui(ui, spec);
    }

    network_class_body!(style);
}
