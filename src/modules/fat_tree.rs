//! The fat-tree class: the thesis's layout (levels by BFS from the hosts, rail 0 above, rail 1
//! mirrored below), each link drawn as two halves coloured by their own ends. Drag pans, the
//! wheel zooms at the cursor, F fits; clicks highlight, hovering tells. Large fabrics draw their
//! links through the GPU paint callback.

use egui::Ui;

use crate::scene::prepare::Ranges;

use super::class::{Drawing, Eye, PrepareContext, ViewClass, ViewContext};
use super::command::Command;
use super::network::{DragMode, NetworkState, NetworkStyle};
use super::view_ui::view_ui;

/// The fat-tree class (stateless).
pub struct FatTree;

/// The fat tree fills any plot, so its scene does not follow the view's aspect.
const STYLE: NetworkStyle = NetworkStyle { drag: DragMode::Pan, any_aspect: true };

impl ViewClass for FatTree {
    type State = NetworkState;

    fn id(&self) -> &'static str {
        "fat_tree"
    }

    fn display_name(&self) -> &'static str {
        "fat tree"
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
