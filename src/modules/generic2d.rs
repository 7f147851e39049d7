//! The generic-2D class: any network whose node positions are given (a 2D mesh, a dragonfly
//! drawn by groups, `shoal convert`'s fat tree, or a fabric at its fat-tree positions), each
//! link direction coloured at its own end. Drag pans, the wheel zooms, a double-click or R
//! resets; clicks highlight, hovering tells.

use egui::Ui;

use crate::scene::prepare::Ranges;

use super::class::{Drawing, Eye, PrepareContext, ViewClass, ViewContext};
use super::command::Command;
use super::network::{DragMode, NetworkState, NetworkStyle};
use super::view_ui::view_ui;

/// The generic-2D class (stateless).
pub struct Generic2d;

const STYLE: NetworkStyle = NetworkStyle { drag: DragMode::Pan, any_aspect: false };

impl ViewClass for Generic2d {
    type State = NetworkState;

    fn id(&self) -> &'static str {
        "generic_2d"
    }

    fn display_name(&self) -> &'static str {
        "generic 2D"
    }

    fn new_state(&self) -> NetworkState {
        NetworkState::default()
    }

    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut NetworkState) -> Result<(), String> {
        state.prepare_values(ctx)
    }

    fn ranges(&self, state: &NetworkState) -> Ranges {
        state.ranges()
    }

    fn last_size(&self, state: &NetworkState) -> Option<[f32; 2]> {
        Some([state.size.x, state.size.y])
    }

    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut NetworkState,
        eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String> {
        state.draw_list(ctx, STYLE, eye, size)
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut NetworkState,
        eye: &mut Eye,
        ui: &mut Ui,
        commands: &mut Vec<Command>,
    ) {
        view_ui(ctx, state, eye, ui, commands, STYLE);
    }
}
