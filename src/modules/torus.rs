//! The torus classes: a 3D torus of any size (or a 5D one through 3 kept axes), turned by an
//! arcball drag, zoomed by the wheel, panned by a shift-, secondary- or middle-drag; and the
//! flattened view down one axis, panned. A double-click or R resets. Clicking a node or a link
//! end highlights it in its link group; hovering shows its ids, coordinates and values.
//!
//! The projection to 2D happens in the scene layer ([`crate::scene::torus`]), so what is painted
//! here is what PNG and SVG export.

use egui::{ComboBox, Ui};

use crate::layout::torus;
use crate::layout::torus::{KeptAxes, LookingDown};
use crate::model::network::Shape;
use crate::view_model::dataset::Dataset;
use crate::view_model::prepare::LayoutChoice;
use crate::view_model::view::{ModuleSpec, ViewSpec};

use super::class::{ViewClass, if_available};
use super::network::{DragMode, NetworkState, NetworkStyle};
use super::network_class::network_class_body;

/// The 3D torus class (stateless); a 2D torus through two kept axes pans instead of turning.
pub struct Torus;

/// The flattened torus class, looking down one axis (stateless).
pub struct TorusFlat;

fn style(spec: &ViewSpec) -> NetworkStyle {
    let layout = layout_of(&spec.module);
    let three = matches!(&layout, LayoutChoice::Torus(k) if k.kept.len() == 3);
    NetworkStyle {
        layout,
        module_title: String::new(),
        drag: if three { DragMode::Rotate } else { DragMode::Pan },
        any_aspect: false,
    }
}

/// Where either torus class puts the nodes: its kept axes, or the axis it looks down.
fn layout_of(module: &ModuleSpec) -> LayoutChoice {
    if module.is("torus_flat") {
        LayoutChoice::TorusDown(module.params_or_default::<LookingDown>().down)
    } else {
        LayoutChoice::Torus(module.params_or_default())
    }
}

/// Why neither torus class can draw a data set that is not a torus.
fn not_a_torus(d: &Dataset) -> Option<&'static str> {
    (!matches!(d.run.network().shape, Shape::Torus { .. })).then_some("a torus view needs a torus network")
}

/// An axis's name, or its number where the network names none.
fn axis_name(d: &Dataset, i: usize) -> String {
    d.run.network().axes.get(i).cloned().unwrap_or_else(|| i.to_string())
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
    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        let axes = d.run.network().axes.len();
        if_available(self, ModuleSpec::with("torus", &KeptAxes::first_three(axes)), d)
    }

    fn unavailable(&self, d: &Dataset, _: &ModuleSpec) -> Option<&'static str> {
        not_a_torus(d)
    }

    fn check_params(&self, module: &ModuleSpec) -> Result<(), String> {
        module.params::<KeptAxes>().map(|_| ())
    }

    fn layout(&self, module: &ModuleSpec) -> Option<LayoutChoice> {
        Some(layout_of(module))
    }

    fn title(&self, d: &Dataset, module: &ModuleSpec) -> String {
        let kept = module.params_or_default::<KeptAxes>().kept;
        format!("torus ({})", kept.iter().map(|&i| axis_name(d, i)).collect::<Vec<_>>().join(" "))
    }

    /// With more than three axes, which three are kept (the others merge).
    fn options_ui(&self, ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
        let axes = &d.run.network().axes;
        if let Ok(KeptAxes { mut kept }) = spec.module.params::<KeptAxes>()
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
            if spec.module.params::<KeptAxes>().as_ref() != Ok(&KeptAxes { kept: kept.clone() }) {
                spec.module = ModuleSpec::with("torus", &KeptAxes { kept });
            }
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
    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        let down = d.run.network().axes.len().saturating_sub(1);
        if_available(self, ModuleSpec::with("torus_flat", &LookingDown { down }), d)
    }

    fn unavailable(&self, d: &Dataset, _: &ModuleSpec) -> Option<&'static str> {
        not_a_torus(d)
    }

    fn check_params(&self, module: &ModuleSpec) -> Result<(), String> {
        module.params::<LookingDown>().map(|_| ())
    }

    fn layout(&self, module: &ModuleSpec) -> Option<LayoutChoice> {
        Some(layout_of(module))
    }

    fn title(&self, d: &Dataset, module: &ModuleSpec) -> String {
        format!("torus 2D, looking down {}", axis_name(d, module.params_or_default::<LookingDown>().down))
    }

    /// Which axis the view looks down.
    fn options_ui(&self, ui: &mut Ui, spec: &mut ViewSpec, d: &Dataset) {
        if let Ok(LookingDown { mut down }) = spec.module.params::<LookingDown>() {
            ui.horizontal(|ui| {
                ui.label("looking down");
                for (i, a) in d.run.network().axes.iter().enumerate() {
                    if ui.selectable_value(&mut down, i, a).changed() {
                        spec.module = ModuleSpec::with("torus_flat", &LookingDown { down });
                    }
                }
            });
        }
        merge_ui(ui, spec);
    }

    network_class_body!(style);
}
