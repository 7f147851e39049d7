//! The generic-2D module: any network whose node positions are given (a 2D mesh, a dragonfly
//! drawn by groups, `shoal convert`'s fat tree), each link direction coloured at its own end.
//! Drag pans, the wheel zooms, a double-click or R resets; clicks highlight, hovering tells.

use egui::Ui;

use crate::scene::camera::Camera;

use super::ViewModule;
use super::network_view::{DragMode, view_ui};
use super::run_views::{RunCommand, RunViewContext, RunViewState};

/// The generic-2D module (stateless).
pub struct Generic2d;

impl ViewModule for Generic2d {
    type State = RunViewState;
    type Context<'a> = RunViewContext<'a>;
    type Command = RunCommand;

    fn name(&self) -> &'static str {
        "generic 2D"
    }

    fn new_state(&self) -> RunViewState {
        RunViewState::default()
    }

    fn ui(
        &self,
        ctx: &RunViewContext<'_>,
        state: &mut RunViewState,
        camera: &mut Camera,
        ui: &mut Ui,
        commands: &mut Vec<RunCommand>,
    ) {
        view_ui(ctx, state, camera, ui, commands, DragMode::Pan);
    }
}
