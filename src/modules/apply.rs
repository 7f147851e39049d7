//! How the workspace applies a frame's commands, and the edits that add, remove and restore
//! views. A command naming a view or group that is gone does nothing.

use crate::modules::link_group::GroupId;
use crate::routing::RegionKey;
use crate::scene::camera::Camera;
use crate::view_model::orbit::Orbit;
use crate::view_model::values::RegionSelection;
use crate::view_model::view::{ModuleSpec, ViewSpec};

use super::command::{Command, ViewId};
use super::workspace::{Removed, Workspace};

impl Workspace {
    /// Applies the frame's commands, in order.
    pub fn apply(&mut self, commands: Vec<Command>) {
        for command in commands {
            self.apply_one(command);
        }
    }

    fn apply_one(&mut self, command: Command) {
        match command {
            Command::Highlight { group, seeds, add } => {
                if let Some(g) = self.group_mut(group) {
                    if !add {
                        g.highlight.clear();
                    }
                    g.highlight.seeds.extend(seeds);
                }
            }
            Command::ClearSelection => self.clear_selection(),
            Command::SelectLink { view, link } => {
                if let Some(v) = self.view_mut(view) {
                    v.selected_link = Some(link);
                }
            }
            Command::Focus(view) if self.view(view).is_some() => self.focus = view,
            Command::Focus(_) => {}
            Command::SelectRegions { group, selection } => {
                for v in self.views.iter_mut().filter(|v| v.group == group) {
                    v.spec.selection = selection;
                }
            }
            Command::SetTimeCursor { group, interval } => {
                if let Some(g) = self.group_mut(group) {
                    g.time_cursor = interval;
                    // Its views' counter colours follow the cursor (the whole window when cleared).
                    for v in self.views.iter_mut().filter(|v| v.group == group) {
                        v.spec.interval = interval;
                    }
                }
            }
            Command::SetSpec { view, spec } => {
                if let Some(v) = self.view_mut(view) {
                    v.spec = *spec;
                }
            }
            Command::AddView(module) => self.add_view(module),
            Command::RemoveView(view) => self.remove_view(view),
            Command::Undo => self.undo(),
            Command::Compare(a, b) => self.compare(a, b),
            Command::Diff(a, b) => self.diff(a, b),
            Command::Single => self.single(),
            other => self.apply_group_edit(other),
        }
    }

    /// The link-group commands.
    fn apply_group_edit(&mut self, command: Command) {
        match command {
            Command::SetGroup { view, group } if self.group(group).is_some() => {
                let cursor = self.group(group).and_then(|g| g.time_cursor);
                if let Some(v) = self.view_mut(view) {
                    // A view looks at the interval of the group it joins.
                    v.spec.interval = cursor;
                    let left = std::mem::replace(&mut v.group, group);
                    self.drop_if_empty(left);
                }
            }
            Command::NewGroup => {
                self.new_group();
            }
            Command::SetGroupFilter { group, filter } => {
                if let Some(g) = self.group_mut(group) {
                    g.filter = filter;
                }
            }
            Command::ShareCamera { group, on } => {
                if let Some(g) = self.group_mut(group) {
                    g.shared_camera = on.then(Camera::default);
                }
            }
            Command::ShareOrbit { group, on } => {
                if let Some(g) = self.group_mut(group) {
                    g.shared_orbit = on.then(Orbit::default);
                }
            }
            Command::FitAll => self.views.iter_mut().for_each(|v| v.camera.fit()),
            Command::TurnAll(orbit) => {
                self.views.iter_mut().for_each(|v| v.orbit = orbit);
                self.groups
                    .iter_mut()
                    .filter(|g| g.shared_orbit.is_some())
                    .for_each(|g| g.shared_orbit = Some(orbit));
            }
            _ => {}
        }
    }

    /// Esc: no highlight in any group, no picked link in any view.
    fn clear_selection(&mut self) {
        for g in &mut self.groups {
            g.highlight.clear();
        }
        for v in &mut self.views {
            v.selected_link = None;
        }
    }

    /// Two views of the focused view's module, of regions A and B, in one new group with a
    /// shared camera and orbit: one colour range, one highlight.
    pub fn compare(&mut self, a: u32, b: u32) {
        let group = self.new_group();
        if let Some(g) = self.group_mut(group) {
            g.shared_camera = Some(Camera::default());
            g.shared_orbit = Some(Orbit::default());
        }
        let base = self.base_spec();
        let spec = |n| ViewSpec { selection: RegionSelection::Region(n), ..base.clone() };
        self.replace_views(vec![(spec(a), group), (spec(b), group)]);
    }

    /// One view of A − B on a diverging map.
    pub fn diff(&mut self, a: u32, b: u32) {
        let group = self.new_group();
        let mut spec = self.base_spec();
        spec.selection = RegionSelection::Diff(RegionKey::Region(a), RegionKey::Region(b));
        self.replace_views(vec![(spec, group)]);
    }

    /// Back to one view of the whole run.
    pub fn single(&mut self) {
        let spec = ViewSpec { selection: RegionSelection::Total, ..self.base_spec() };
        let group = self.groups.first().map(|g| g.id).unwrap_or_default();
        self.replace_views(vec![(spec, group)]);
    }

    /// Adds a view of `module` in the focused view's group (same region and filter).
    pub fn add_view(&mut self, module: ModuleSpec) {
        let group = self.focused().map_or(GroupId(0), |v| v.group);
        let interval = self.group(group).and_then(|g| g.time_cursor);
        let spec = ViewSpec { module, interval, ..self.base_spec() };
        self.push_view(spec, group);
    }

    /// Removes a view (never the last one), keeping it for [`Workspace::undo`]. The focus moves
    /// to its neighbour if it had it.
    pub fn remove_view(&mut self, id: ViewId) {
        let Some(index) = self.views.iter().position(|v| v.id == id) else { return };
        if self.views.len() < 2 {
            return;
        }
        let view = self.views.remove(index);
        if self.focus == id {
            self.focus = self.views[index.min(self.views.len() - 1)].id;
        }
        self.drop_if_empty(view.group);
        self.removed.push(Removed { index, view });
    }

    /// A link group that a move or a removal left without views goes (issue 25: empty groups
    /// piled up in the Linking tab); one made by "+ new group" stays until a view leaves it.
    fn drop_if_empty(&mut self, group: GroupId) {
        if self.groups.len() > 1 && !self.views.iter().any(|v| v.group == group) {
            self.groups.retain(|g| g.id != group);
        }
    }

    /// Brings back the view removed last, where it stood, with its id, spec, group and camera,
    /// focused. Its group is the first one if its own is gone.
    pub fn undo(&mut self) {
        let Some(Removed { index, mut view }) = self.removed.pop() else { return };
        if self.group(view.group).is_none() {
            view.group = self.groups.first().map(|g| g.id).unwrap_or_default();
        }
        self.focus = view.id;
        self.views.insert(index.min(self.views.len()), view);
    }
}

#[cfg(test)]
#[path = "apply_tests.rs"]
mod tests;
