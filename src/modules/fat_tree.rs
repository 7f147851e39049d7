//! The fat-tree class: the thesis's layout (levels by BFS from the hosts, rail 0 above, rail 1
//! mirrored below), each link drawn as two halves coloured by their own ends. Drag pans, the
//! wheel zooms at the cursor, F fits; clicks highlight, hovering tells. Large fabrics draw their
//! links through the GPU paint callback.

use crate::view_model::dataset::Dataset;
use crate::view_model::prepare::LayoutChoice;
use crate::view_model::view::ModuleSpec;

use super::class::{ViewClass, if_available};
use super::network::{DragMode, NetworkState, NetworkStyle};
use super::network_class::network_class_body;

/// The fat-tree class (stateless).
pub struct FatTree;

/// The fat tree fills any plot, so its scene does not follow the view's aspect.
const STYLE: NetworkStyle = NetworkStyle {
    layout: LayoutChoice::FatTree,
    module_title: String::new(),
    drag: DragMode::Pan,
    any_aspect: true,
};

impl ViewClass for FatTree {
    type State = NetworkState;

    fn id(&self) -> &'static str {
        "fat_tree"
    }

    fn display_name(&self) -> &'static str {
        "fat tree"
    }

    fn unavailable(&self, d: &Dataset, _: &ModuleSpec) -> Option<&'static str> {
        d.fabric.is_none().then_some("the fat tree needs fabric dumps")
    }

    fn layout(&self, _: &ModuleSpec) -> Option<LayoutChoice> {
        Some(LayoutChoice::FatTree)
    }

    fn module_for(&self, d: &Dataset) -> Option<ModuleSpec> {
        if_available(self, ModuleSpec::of("fat_tree"), d)
    }

    network_class_body!(|_| STYLE);
}
