//! GUI modules: views behind one trait, and the shared panels.
//!
//! As in rerun's viewer, a [`ViewModule`] keeps no state of its own: it makes a per-view state
//! object and draws from a [`ViewContext`] made only of references. Views and panels change
//! shared state (highlights, selections) by pushing [`Command`]s, which the app applies once per
//! frame; a view's own plain data (its [`ViewSpec`]) is edited in place by the panels.

pub mod fat_tree;
pub mod filter;
pub mod generic2d;
pub mod gpu_links;
pub mod highlight;
pub mod linking;
pub mod network_view;
pub mod paint;
pub mod plots;
pub mod regions;
pub mod run_panels;
pub mod run_views;
pub mod tables;
pub mod torus;

use std::sync::Arc;

use crate::model::LinkEnd;
use crate::scene::camera::Camera;
use crate::scene::dataset::Dataset;
use crate::scene::highlight::Seed;
use crate::scene::linking::{GroupId, LinkGroup};
use crate::scene::view::ViewSpec;

/// What a view draws from this frame.
pub struct ViewContext<'a> {
    pub dataset: &'a Dataset,
    /// Bumped on every (re)load, so caches know their data went stale.
    pub generation: u64,
    pub view: usize,
    pub spec: &'a ViewSpec,
    pub group: &'a LinkGroup,
    /// The colour ranges the group agreed on (the unions over its members).
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
    pub selected_end: Option<(usize, LinkEnd)>,
}

/// A change to shared state, applied by the app after the frame's UI ran.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Sets (or with `add`, extends) a group's highlight.
    Highlight { group: GroupId, seeds: Vec<Seed>, add: bool },
    /// Esc: clears every highlight and selection.
    ClearSelection,
    /// Picks a link end in a view (for the "who crossed it" table).
    SelectEnd { view: usize, rail: usize, end: LinkEnd },
}

/// A kind of view. Stateless: everything that survives frames is in `State`.
pub trait ViewModule {
    type State;
    /// What a frame draws from, references only: [`ViewContext`] for the fat tree (a fabric
    /// data set), [`run_views::RunViewContext`] for the torus and generic-2D views (a run).
    type Context<'a>;
    /// The changes to shared state the view can ask for.
    type Command;
    fn name(&self) -> &'static str;
    fn new_state(&self) -> Self::State;
    /// Draws the view in `ui`'s available rect and handles its input.
    fn ui(
        &self,
        ctx: &Self::Context<'_>,
        state: &mut Self::State,
        camera: &mut Camera,
        ui: &mut egui::Ui,
        commands: &mut Vec<Self::Command>,
    );
}

/// One view: what it shows, which group it is in, its camera and its module state.
pub struct View {
    pub spec: ViewSpec,
    pub group: GroupId,
    pub camera: Camera,
    pub selected_end: Option<(usize, LinkEnd)>,
    pub state: fat_tree::FatTreeState,
}

impl View {
    pub fn new(spec: ViewSpec, group: GroupId) -> View {
        View {
            spec,
            group,
            camera: Camera::default(),
            selected_end: None,
            state: fat_tree::FatTree.new_state(),
        }
    }
}

/// A link group's shared colour ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupRanges {
    pub group: GroupId,
    pub links: Option<(f64, f64)>,
    pub nodes: Option<(f64, f64)>,
}

type RangeKey = Vec<(GroupId, crate::scene::values::RegionSelection, crate::scene::values::NodeAttribute)>;

/// Everything the panels work on: the data set, the views and their link groups.
pub struct Workspace {
    pub dataset: Option<Arc<Dataset>>,
    pub generation: u64,
    pub views: Vec<View>,
    pub groups: Vec<LinkGroup>,
    /// The view the panels edit.
    pub focus: usize,
    ranges: Option<(u64, RangeKey, Vec<GroupRanges>)>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace {
            dataset: None,
            generation: 0,
            views: vec![View::new(ViewSpec::default(), GroupId(0))],
            groups: vec![LinkGroup::new(GroupId(0), "group 1")],
            focus: 0,
            ranges: None,
        }
    }
}

impl Workspace {
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

    /// The colour ranges of each group: the unions of its members' own link and node ranges.
    /// Cached: recomputed only when the data, a view's group, selection or node colouring change.
    pub fn group_ranges(&mut self) -> Vec<GroupRanges> {
        let Some(d) = self.dataset.clone() else { return Vec::new() };
        let key: Vec<_> =
            self.views.iter().map(|v| (v.group, v.spec.selection, v.spec.options.node_attribute)).collect();
        if let Some((generation, k, ranges)) = &self.ranges
            && *generation == self.generation
            && *k == key
        {
            return ranges.clone();
        }
        let ranges: Vec<GroupRanges> = self
            .groups
            .iter()
            .map(|g| {
                let members = || self.views.iter().filter(|v| v.group == g.id);
                let links = members().filter_map(|v| crate::scene::view::own_range(&d, v.spec.selection));
                let nodes = members().filter_map(|v| crate::scene::view::own_node_range(&d, &v.spec));
                GroupRanges {
                    group: g.id,
                    links: crate::scene::linking::union_range(links),
                    nodes: crate::scene::linking::union_range(nodes),
                }
            })
            .collect();
        self.ranges = Some((self.generation, key, ranges.clone()));
        ranges
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
                        v.selected_end = None;
                    }
                }
                Command::SelectEnd { view, rail, end } => {
                    if let Some(v) = self.views.get_mut(view) {
                        v.selected_end = Some((rail, end));
                    }
                    self.focus = view.min(self.views.len().saturating_sub(1));
                }
            }
        }
    }
}
