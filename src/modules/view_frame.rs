//! One view's turn in a frame, and its export: the view's class, its context (data, group,
//! projected highlight, agreed colour ranges), its state and its eye, the group's shared camera
//! and orbit where the group shares them.

use std::path::Path;

use crate::modules::link_group::GroupId;
use crate::view_model::prepare::Ranges;

use super::class::{AnyViewClass, ClassState, Eye, ViewContext};
use super::command::ViewId;
use super::registry::class_of;
use super::workspace::Workspace;

/// Exports are written at two pixels per point of the view's size (at least 320 × 240 points).
const EXPORT_PPP: f32 = 2.0;

impl Workspace {
    /// Runs `f` on view `id` with its class, context, state and eye; how `f` moved the eye is
    /// kept (by the group, where it shares the camera or the orbit). `None`: no such view, or
    /// no data.
    pub fn with_view<R>(
        &mut self,
        id: ViewId,
        ranges: &[(GroupId, Ranges)],
        f: impl FnOnce(&dyn AnyViewClass, &ViewContext<'_>, &mut ClassState, &mut Eye) -> R,
    ) -> Option<R> {
        let d = self.dataset.clone()?;
        let index = self.views.iter().position(|v| v.id == id)?;
        let group_id = self.views[index].group;
        let lit = self.lit(group_id);
        let group = self.group(group_id)?.clone();
        let agreed = ranges.iter().find(|g| g.0 == group_id).map(|g| g.1).unwrap_or_default();
        let generation = self.generation;
        let view = &mut self.views[index];
        let mut eye = Eye {
            camera: group.shared_camera.unwrap_or(view.camera),
            orbit: group.shared_orbit.unwrap_or(view.orbit),
        };
        let ctx = ViewContext {
            dataset: &d,
            generation,
            view: id,
            index,
            spec: &view.spec,
            group: &group,
            lit: &lit,
            link_range: agreed.0,
            node_range: agreed.1,
        };
        let out = f(class_of(&view.spec), &ctx, &mut view.state, &mut eye);
        // A view keeps its own camera while its group shares one (it returns to it when the
        // group stops sharing); its orbit follows a shared one.
        if group.shared_camera.is_none() {
            view.camera = eye.camera;
        }
        view.orbit = eye.orbit;
        if let Some(g) = self.group_mut(group_id) {
            g.shared_camera = g.shared_camera.map(|_| eye.camera);
            g.shared_orbit = g.shared_orbit.map(|_| eye.orbit);
        }
        Some(out)
    }

    /// Writes view `id` as it is on screen (its size, eye and legend) at two pixels per
    /// point, as PNG or SVG by the extension: every class through the same painters.
    pub fn export_view(&mut self, id: ViewId, path: &Path) -> Result<(), String> {
        let ranges = self.group_ranges();
        let written = self.with_view(id, &ranges, |class, ctx, state, eye| {
            let size = class.last_size(state).unwrap_or_default();
            let px = |points: f32, least: f32| (points.max(least) * EXPORT_PPP) as u32;
            let (w, h) = (px(size[0], 320.0), px(size[1], 240.0));
            let canvas = [w as f32 / EXPORT_PPP, h as f32 / EXPORT_PPP];
            let drawing = class.draw_list(ctx, state, eye, canvas)?;
            crate::export::write_drawing(&drawing.list, drawing.scene, EXPORT_PPP, path)
                .map_err(|e| e.to_string())
        });
        written.unwrap_or_else(|| Err("no view".into()))
    }

    /// [`Workspace::export_view`] of the focused view.
    pub fn export_focused(&mut self, path: &Path) -> Result<(), String> {
        let id = self.focused().ok_or("no view")?.id;
        self.export_view(id, path)
    }
}
