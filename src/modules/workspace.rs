//! Everything the panels read: the data set, its views (any class each, by stable id) and their
//! link groups. A view names its group; the group holds the highlight, a filter ANDed with each
//! member's own, optionally a shared camera and orbit; the colour ranges are the unions of the
//! members' own, so two regions (or two classes) side by side compare on one scale. Edits
//! arrive as commands, which `apply.rs` applies.

use std::sync::Arc;

use crate::modules::link_group::{GroupId, LinkGroup, union_range};
use crate::scene::camera::Camera;
use crate::view_model::dataset::Dataset;
use crate::view_model::highlight::{Highlight, Lit, project};
use crate::view_model::orbit::Orbit;
use crate::view_model::prepare::Ranges;
use crate::view_model::view::{ModuleSpec, ViewSpec, default_module};

use super::class::{AnyViewClass, ClassState, PrepareContext};
use super::command::ViewId;
use super::network::NetworkState;
use super::registry::class_of;
use super::time_strip_state::StripState;

/// One view: what it shows, which group it is in, its camera and its class's state.
pub struct View {
    pub id: ViewId,
    pub spec: ViewSpec,
    pub group: GroupId,
    pub camera: Camera,
    /// How a 3D view is turned (unless its group shares an orbit).
    pub orbit: Orbit,
    /// The link (view-model position) picked last, for the linked tables.
    pub selected_link: Option<usize>,
    /// The state of the class that draws it, made by that class.
    pub state: ClassState,
}

impl View {
    fn new(id: ViewId, spec: ViewSpec, group: GroupId) -> View {
        let state = class_of(&spec).new_state();
        View {
            id,
            spec,
            group,
            camera: Camera::default(),
            orbit: Orbit::default(),
            selected_link: None,
            state,
        }
    }

    /// The class that draws the view.
    pub fn class(&self) -> &'static dyn AnyViewClass {
        class_of(&self.spec)
    }

    /// The class state, if it is a `T`.
    pub fn class_state<T: 'static>(&self) -> Option<&T> {
        self.state.downcast_ref()
    }

    pub fn class_state_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.state.downcast_mut()
    }

    /// A network view's state (fat tree, torus, generic 2D).
    pub fn network(&self) -> Option<&NetworkState> {
        self.class_state()
    }

    pub fn network_mut(&mut self) -> Option<&mut NetworkState> {
        self.class_state_mut()
    }

    /// The canvas's size in points when the view was last drawn (what an export writes).
    pub fn last_size(&self) -> Option<[f32; 2]> {
        self.class().last_size(&self.state)
    }

    /// A time strip's state.
    pub fn strip(&self) -> Option<&StripState> {
        self.class_state()
    }

    pub fn strip_mut(&mut self) -> Option<&mut StripState> {
        self.class_state_mut()
    }
}

/// A group's highlight projected, kept while neither the data nor the highlight change.
struct LitCache {
    group: GroupId,
    generation: u64,
    highlight: Highlight,
    lit: Arc<Lit>,
}

/// A removed view and where it stood, for undo.
pub(super) struct Removed {
    pub index: usize,
    pub view: View,
}

pub struct Workspace {
    pub dataset: Option<Arc<Dataset>>,
    pub generation: u64,
    pub views: Vec<View>,
    pub groups: Vec<LinkGroup>,
    /// The view the panels edit.
    pub focus: ViewId,
    next_view: u64,
    /// Removed views, the last removed last.
    pub(super) removed: Vec<Removed>,
    lits: Vec<LitCache>,
}

impl Default for Workspace {
    fn default() -> Self {
        let mut ws = Workspace {
            dataset: None,
            generation: 0,
            views: Vec::new(),
            groups: vec![LinkGroup::new(GroupId(0), "group 1")],
            focus: ViewId(0),
            next_view: 0,
            removed: Vec::new(),
            lits: Vec::new(),
        };
        ws.replace_views(vec![(ViewSpec::default(), GroupId(0))]);
        ws
    }
}

impl Workspace {
    /// Shows a data set. A reload of the same kind of data keeps the views' settings; other data
    /// opens one view of its natural module.
    pub fn install(&mut self, dataset: Dataset) {
        let same_kind = self.dataset.as_ref().is_some_and(|d| {
            d.fabric.is_some() == dataset.fabric.is_some()
                && d.run.network().shape == dataset.run.network().shape
                && d.run.network().axes == dataset.run.network().axes
        });
        if !same_kind {
            let group = self.groups.first().map_or(GroupId(0), |g| g.id);
            self.replace_views(vec![(ViewSpec::for_dataset(&dataset), group)]);
            // Views removed from other data cannot come back onto this one.
            self.removed.clear();
            for g in &mut self.groups {
                g.highlight.clear();
            }
        }
        self.dataset = Some(Arc::new(dataset));
        self.generation += 1;
    }

    /// A new view with a fresh id (not yet in the workspace).
    pub(super) fn new_view(&mut self, spec: ViewSpec, group: GroupId) -> View {
        let id = ViewId(self.next_view);
        self.next_view += 1;
        View::new(id, spec, group)
    }

    /// Replaces every view; the first takes the focus.
    pub(super) fn replace_views(&mut self, views: Vec<(ViewSpec, GroupId)>) {
        self.views = views.into_iter().map(|(spec, group)| self.new_view(spec, group)).collect();
        self.focus = self.views.first().map_or(ViewId(0), |v| v.id);
    }

    /// Appends a view with a fresh id (a restored session's, say) and returns it.
    pub fn push_view(&mut self, spec: ViewSpec, group: GroupId) -> &mut View {
        let view = self.new_view(spec, group);
        self.views.push(view);
        let last = self.views.len() - 1;
        &mut self.views[last]
    }

    /// The focused view's place in the list (0 if none has the focus).
    pub fn focus_index(&self) -> usize {
        self.views.iter().position(|v| v.id == self.focus).unwrap_or_default()
    }

    /// Focuses the view at `index` (the last one if there are fewer).
    pub fn focus_at(&mut self, index: usize) {
        if let Some(v) = self.views.get(index.min(self.views.len().saturating_sub(1))) {
            self.focus = v.id;
        }
    }

    pub fn view(&self, id: ViewId) -> Option<&View> {
        self.views.iter().find(|v| v.id == id)
    }

    pub fn view_mut(&mut self, id: ViewId) -> Option<&mut View> {
        self.views.iter_mut().find(|v| v.id == id)
    }

    pub fn group(&self, id: GroupId) -> Option<&LinkGroup> {
        self.groups.iter().find(|g| g.id == id)
    }

    pub fn group_mut(&mut self, id: GroupId) -> Option<&mut LinkGroup> {
        self.groups.iter_mut().find(|g| g.id == id)
    }

    /// The focused view (the first, if the focus names none).
    pub fn focused(&self) -> Option<&View> {
        self.view(self.focus).or(self.views.first())
    }

    pub fn focused_mut(&mut self) -> Option<&mut View> {
        let id = self.focused()?.id;
        self.view_mut(id)
    }

    /// How many removed views Ctrl+Z can bring back.
    pub fn undoable(&self) -> usize {
        self.removed.len()
    }

    /// A new, empty group's id.
    pub fn new_group(&mut self) -> GroupId {
        let id = GroupId(self.groups.iter().map(|g| g.id.0 + 1).max().unwrap_or(0));
        self.groups.push(LinkGroup::new(id, format!("group {}", id.0 + 1)));
        id
    }

    /// Prepares every view and returns each group's agreed (link, node) ranges: the unions of
    /// its members' own.
    pub fn group_ranges(&mut self) -> Vec<(GroupId, Ranges)> {
        let Some(d) = self.dataset.clone() else { return Vec::new() };
        for view in &mut self.views {
            let Some(group) = self.groups.iter().find(|g| g.id == view.group) else { continue };
            let ctx = PrepareContext {
                dataset: &d,
                generation: self.generation,
                spec: &view.spec,
                group_filter: &group.filter,
            };
            // A view whose values failed says why when it draws.
            let _ = class_of(&view.spec).prepare(&ctx, &mut view.state);
        }
        self.groups
            .iter()
            .map(|g| {
                let members =
                    || self.views.iter().filter(|v| v.group == g.id).map(|v| v.class().ranges(&v.state));
                let links = union_range(members().filter_map(|r| r.0));
                (g.id, (links, union_range(members().filter_map(|r| r.1))))
            })
            .collect()
    }

    /// A group's highlight projected onto the data set (cached: projected again only when the
    /// data or the highlight change).
    pub fn lit(&mut self, group: GroupId) -> Arc<Lit> {
        let Some(d) = self.dataset.clone() else { return Arc::default() };
        let Some(highlight) = self.groups.iter().find(|g| g.id == group).map(|g| &g.highlight) else {
            return Arc::default();
        };
        let generation = self.generation;
        let fresh =
            |c: &&LitCache| c.group == group && c.generation == generation && c.highlight == *highlight;
        if let Some(c) = self.lits.iter().find(fresh) {
            return c.lit.clone();
        }
        let lit = Arc::new(project(&d, highlight));
        let highlight = highlight.clone();
        self.lits.retain(|c| c.group != group);
        self.lits.push(LitCache { group, generation, highlight, lit: lit.clone() });
        lit
    }

    /// The focused view's spec (a time strip's with its data set's network module instead).
    pub(super) fn base_spec(&self) -> ViewSpec {
        let mut spec = match (self.focused(), &self.dataset) {
            (Some(v), _) => v.spec.clone(),
            (None, Some(d)) => ViewSpec::for_dataset(d),
            (None, None) => ViewSpec::default(),
        };
        if !class_of(&spec).is_network() {
            spec.module = self.dataset.as_ref().map_or(ModuleSpec::of("fat_tree"), |d| default_module(d));
        }
        spec
    }
}
