//! The torus module: a 3D torus of any size (or a 5D one through 3 chosen axes, or the
//! flattened view down one axis), turned by an arcball drag, zoomed by the wheel, panned by a
//! shift-, secondary- or middle-drag; a double-click or R resets. Clicking a node or a link end
//! highlights it in its link group; hovering shows its ids, coordinates and values.
//!
//! The projection to 2D happens in the scene layer ([`crate::scene::torus`]), so what is painted
//! here is what PNG and SVG export.

use egui::Ui;

use crate::scene::camera::Camera;
use crate::scene::view::ModuleKind;

use super::view_ui::{DragMode, view_ui};
use super::{Command, ViewContext, ViewModule, ViewState};

/// The torus module, 3D and flattened (stateless).
pub struct Torus;

impl ViewModule for Torus {
    fn name(&self) -> &'static str {
        "torus"
    }

    fn draws(&self, kind: &ModuleKind) -> bool {
        matches!(kind, ModuleKind::Torus { .. } | ModuleKind::TorusFlat { .. })
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut ViewState,
        camera: &mut Camera,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        let mode = if ctx.spec.module.is_3d() { DragMode::Rotate } else { DragMode::Pan };
        view_ui(ctx, state, camera, ui, commands, mode);
    }
}
