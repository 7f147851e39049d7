//! The fat-tree module: the thesis's layout (levels by BFS from the hosts, rail 0 above, rail 1
//! mirrored below), each link drawn as two halves coloured by their own ends. Drag pans, the
//! wheel zooms at the cursor, F fits; clicks highlight, hovering tells. Large fabrics draw their
//! links through the GPU paint callback.

use egui::Ui;

use crate::scene::camera::Camera;
use crate::scene::view::ModuleKind;

use super::view_ui::{DragMode, view_ui};
use super::{Command, ViewContext, ViewModule, ViewState};

/// The fat-tree module (stateless).
pub struct FatTree;

impl ViewModule for FatTree {
    fn name(&self) -> &'static str {
        "fat tree"
    }

    fn draws(&self, kind: &ModuleKind) -> bool {
        *kind == ModuleKind::FatTree
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut ViewState,
        camera: &mut Camera,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        view_ui(ctx, state, camera, ui, commands, DragMode::Pan);
    }
}
