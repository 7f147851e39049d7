//! GUI modules: one object-safe view trait with a registry of modules (fat tree, torus 3D,
//! torus 2D, generic 2D, time strip), and the shared panels (filter, highlight, linking, regions, plots).
//!
//! As in rerun's viewer, a [`ViewModule`] keeps no state of its own: it makes a per-view
//! [`ViewState`] and draws from a [`ViewContext`] made only of references. Views and panels
//! change shared state (highlights, selections, focus) by pushing [`Command`]s, which the
//! [`Workspace`] applies once per frame; a view's own plain data (its
//! [`crate::scene::ViewSpec`]) is edited in place by the panels. Every module draws any data
//! set the view model holds, so a link group may mix them: a fat tree and a generic-2D view of
//! one fabric share one highlight and one colour range.

pub mod counters;
pub mod fat_tree;
pub mod filter;
pub mod generic2d;
pub mod gpu_links;
pub mod highlight;
pub mod linking;
pub mod options;
pub mod paint;
pub mod plots;
pub mod regions;
pub mod routing_switch;
mod session;
pub mod tables;
pub mod time_strip;
pub mod torus;
pub mod view_ui;
pub mod workspace;

use crate::scene::camera::Camera;
use crate::scene::dataset::Dataset;
use crate::scene::highlight::{Lit, Seed};
use crate::scene::linking::{GroupId, LinkGroup};
use crate::scene::view::{ModuleKind, ViewSpec};

pub use view_ui::ViewState;
pub use workspace::{View, Workspace};

/// What a view draws from this frame (references only).
pub struct ViewContext<'a> {
    pub dataset: &'a Dataset,
    /// Bumped on every (re)load, so caches know their data went stale.
    pub generation: u64,
    pub view: usize,
    pub spec: &'a ViewSpec,
    pub group: &'a LinkGroup,
    /// The group's highlight, projected onto the view model's nodes and links.
    pub lit: &'a Lit,
    /// The colour ranges the group agreed on (the unions over its members).
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
}

/// A change to shared state, applied by the workspace after the frame's UI ran.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Sets (or with `add`, extends) a group's highlight.
    Highlight { group: GroupId, seeds: Vec<Seed>, add: bool },
    /// Esc: clears every highlight and selection.
    ClearSelection,
    /// Picks a link (a view-model link position) in a view, for its linked tables.
    SelectLink { view: usize, link: usize },
    /// Makes a view the one the panels edit.
    Focus(usize),
    /// Shows a region or a window of regions in every view of a group (the time strip's brush).
    SelectRegions { group: GroupId, selection: crate::scene::values::RegionSelection },
}

/// A kind of view. Stateless: everything that survives frames is in its [`ViewState`].
pub trait ViewModule: Sync {
    fn name(&self) -> &'static str;
    /// Whether this module draws views of this kind.
    fn draws(&self, kind: &ModuleKind) -> bool;
    /// The per-view state a new view of this module starts with.
    fn new_state(&self) -> ViewState {
        ViewState::default()
    }
    /// Draws the view in `ui`'s available rect and handles its input.
    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut ViewState,
        camera: &mut Camera,
        ui: &mut egui::Ui,
        commands: &mut Vec<Command>,
    );
}

/// Every module, in menu order.
pub static REGISTRY: [&dyn ViewModule; 4] =
    [&fat_tree::FatTree, &torus::Torus, &generic2d::Generic2d, &time_strip::TimeStripModule];

/// The module that draws a kind of view.
pub fn module_for(kind: &ModuleKind) -> &'static dyn ViewModule {
    REGISTRY.iter().copied().find(|m| m.draws(kind)).unwrap_or(&generic2d::Generic2d)
}
