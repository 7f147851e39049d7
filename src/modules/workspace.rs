//! Everything the panels work on: the data set, its views (any module each) and their link
//! groups. A view names its group; the group holds the highlight, a filter ANDed with each
//! member's own, optionally a shared camera and orbit; the colour ranges are the unions of the
//! members' own, so two regions (or two modules) side by side compare on one scale.

use std::sync::Arc;

use crate::routing::RegionKey;
use crate::scene::camera::Camera;
use crate::scene::dataset::Dataset;
use crate::scene::highlight::{Highlight, Lit, project};
use crate::scene::linking::{GroupId, LinkGroup, union_range};
use crate::scene::orbit::Orbit;
use crate::scene::prepare::Ranges;
use crate::scene::values::RegionSelection;
use crate::scene::view::{ModuleKind, ViewSpec};

use super::{Command, ViewState, module_for};

/// One view: what it shows, which group it is in, its camera and its module's state.
pub struct View {
    pub spec: ViewSpec,
    pub group: GroupId,
    pub camera: Camera,
    /// The link (view-model position) picked last, for the linked tables.
    pub selected_link: Option<usize>,
    pub state: ViewState,
}

impl View {
    pub fn new(spec: ViewSpec, group: GroupId) -> View {
        let state = module_for(&spec.module).new_state();
        View { spec, group, camera: Camera::default(), selected_link: None, state }
    }
}

/// A group's highlight projected, kept while neither the data nor the highlight change.
struct LitCache {
    group: GroupId,
    generation: u64,
    highlight: Highlight,
    lit: Arc<Lit>,
}

pub struct Workspace {
    pub dataset: Option<Arc<Dataset>>,
    pub generation: u64,
    pub views: Vec<View>,
    pub groups: Vec<LinkGroup>,
    /// The view the panels edit.
    pub focus: usize,
    lits: Vec<LitCache>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace {
            dataset: None,
            generation: 0,
            views: vec![View::new(ViewSpec::default(), GroupId(0))],
            groups: vec![LinkGroup::new(GroupId(0), "group 1")],
            focus: 0,
            lits: Vec::new(),
        }
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
            self.views = vec![View::new(ViewSpec::for_dataset(&dataset), group)];
            self.focus = 0;
            for g in &mut self.groups {
                g.highlight.clear();
            }
        }
        self.dataset = Some(Arc::new(dataset));
        self.generation += 1;
    }

    pub fn group(&self, id: GroupId) -> Option<&LinkGroup> {
        self.groups.iter().find(|g| g.id == id)
    }

    pub fn group_mut(&mut self, id: GroupId) -> Option<&mut LinkGroup> {
        self.groups.iter_mut().find(|g| g.id == id)
    }

    pub fn focused(&self) -> Option<&View> {
        self.views.get(self.focus)
    }

    pub fn focused_mut(&mut self) -> Option<&mut View> {
        self.views.get_mut(self.focus)
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
            view.state.prepare(&d, self.generation, &view.spec, &group.filter);
        }
        self.groups
            .iter()
            .map(|g| {
                let members = || {
                    self.views
                        .iter()
                        .filter(|v| v.group == g.id)
                        .filter_map(|v| v.state.prepared.as_ref().and_then(|p| p.as_ref().ok()))
                };
                let links = union_range(members().filter_map(|p| p.link_range));
                (g.id, (links, union_range(members().filter_map(|p| p.node_range))))
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
        self.views = vec![View::new(spec(a), group), View::new(spec(b), group)];
        self.focus = 0;
    }

    /// One view of A − B on a diverging map.
    pub fn diff(&mut self, a: u32, b: u32) {
        let group = self.new_group();
        let mut spec = self.base_spec();
        spec.selection = RegionSelection::Diff(RegionKey::Region(a), RegionKey::Region(b));
        self.views = vec![View::new(spec, group)];
        self.focus = 0;
    }

    /// Back to one view of the whole run.
    pub fn single(&mut self) {
        let spec = ViewSpec { selection: RegionSelection::Total, ..self.base_spec() };
        let group = self.groups.first().map(|g| g.id).unwrap_or_default();
        self.views = vec![View::new(spec, group)];
        self.focus = 0;
    }

    /// Adds a view of `module` in the focused view's group (same region and filter).
    pub fn add_view(&mut self, module: ModuleKind) {
        let spec = ViewSpec { module, ..self.base_spec() };
        let group = self.focused().map_or(GroupId(0), |v| v.group);
        self.views.push(View::new(spec, group));
    }

    /// The focused view's spec (a time strip's with its data set's network module instead).
    fn base_spec(&self) -> ViewSpec {
        let mut spec = match (self.focused(), &self.dataset) {
            (Some(v), _) => v.spec.clone(),
            (None, Some(d)) => ViewSpec::for_dataset(d),
            (None, None) => ViewSpec::default(),
        };
        if spec.module == ModuleKind::TimeStrip {
            spec.module = self.dataset.as_ref().map_or(ModuleKind::FatTree, |d| ModuleKind::default_for(d));
        }
        spec
    }

    /// Applies the frame's commands.
    pub fn apply(&mut self, commands: Vec<Command>) {
        for command in commands {
            match command {
                Command::Highlight { group, seeds, add } => {
                    if let Some(g) = self.group_mut(group) {
                        if !add {
                            g.highlight.clear();
                        }
                        g.highlight.seeds.extend(seeds);
                    }
                }
                Command::ClearSelection => {
                    for g in &mut self.groups {
                        g.highlight.clear();
                    }
                    for v in &mut self.views {
                        v.selected_link = None;
                    }
                }
                Command::SelectLink { view, link } => {
                    if let Some(v) = self.views.get_mut(view) {
                        v.selected_link = Some(link);
                    }
                }
                Command::Focus(view) => self.focus = view.min(self.views.len().saturating_sub(1)),
                Command::SelectRegions { group, selection } => {
                    for v in self.views.iter_mut().filter(|v| v.group == group) {
                        v.spec.selection = selection;
                    }
                }
            }
        }
    }
}
