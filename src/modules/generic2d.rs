//! The generic-2D module: any network whose node positions are given (a 2D mesh, a dragonfly
//! drawn by groups, `shoal convert`'s fat tree, or a fabric at its fat-tree positions), each
//! link direction coloured at its own end. Drag pans, the wheel zooms, a double-click or R
//! resets; clicks highlight, hovering tells.

use egui::Ui;

use crate::scene::camera::Camera;
use crate::scene::view::ModuleKind;

use super::view_ui::{DragMode, view_ui};
use super::{Command, ViewContext, ViewModule, ViewState};

/// The generic-2D module (stateless).
pub struct Generic2d;

impl ViewModule for Generic2d {
    fn name(&self) -> &'static str {
        "generic 2D"
    }

    fn draws(&self, kind: &ModuleKind) -> bool {
        *kind == ModuleKind::Generic2d
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
