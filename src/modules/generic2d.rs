//! The generic-2D class: any network whose node positions are given (a 2D mesh, a dragonfly
//! drawn by groups, `shoal convert`'s fat tree, or a fabric at its fat-tree positions), each
//! link direction coloured at its own end. Drag pans, the wheel zooms, a double-click or R
//! resets; clicks highlight, hovering tells.

use crate::view_model::dataset::Dataset;
use crate::view_model::prepare::LayoutChoice;
use crate::view_model::view::ModuleSpec;

use super::class::{ViewClass, if_available};
use super::network::{DragMode, NetworkState, NetworkStyle};
use super::network_class::network_class_body;

/// The generic-2D class (stateless).
pub struct Generic2d;

const STYLE: NetworkStyle = NetworkStyle {
    layout: LayoutChoice::Plane,
    module_title: String::new(),
    drag: DragMode::Pan,
    any_aspect: false,
};

impl ViewClass for Generic2d {
    type State = NetworkState;

    fn id(&self) -> &'static str {
        "generic_2d"
    }

    fn display_name(&self) -> &'static str {
        "generic 2D"
    }

    /// Older sessions wrote `generic2d`.
    fn aliases(&self) -> &'static [&'static str] {
        &["generic2d"]
    }

    fn layout(&self, _: &ModuleSpec) -> Option<LayoutChoice> {
        Some(LayoutChoice::Plane)
    }

    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        if_available(self, ModuleSpec::of("generic_2d"), d)
    }

    network_class_body!(|_| STYLE);
}
