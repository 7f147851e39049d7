//! View classes, after rerun's `ViewClass`: a class is stateless; each view of it keeps a state
//! of the class's own type, made by the class and stored type-erased in the view. A class turns
//! the view model into values ([`ViewClass::prepare`]), values into a draw list for a canvas
//! ([`ViewClass::draw_list`], what the window paints and exports), and handles the view's input
//! ([`ViewClass::ui`]), changing shared state only by queueing commands.
//!
//! The registry (`registry.rs`) finds a class by its stable id; [`AnyViewClass`] is the
//! object-safe face every class gets for free.

use std::any::Any;

use crate::modules::link_group::LinkGroup;
use crate::scene::Scene;
use crate::scene::camera::Camera;
use crate::scene::draw::DrawList;
use crate::view_model::dataset::Dataset;
use crate::view_model::filter::Filter;
use crate::view_model::highlight::Lit;
use crate::view_model::orbit::Orbit;
use crate::view_model::prepare::{LayoutChoice, Ranges};
use crate::view_model::view::{ModuleSpec, ViewSpec};

use super::command::{Command, ViewId};

/// What a view's values are made from (references only).
pub struct PrepareContext<'a> {
    pub dataset: &'a Dataset,
    /// Bumped on every (re)load, so caches know their data went stale.
    pub generation: u64,
    pub spec: &'a ViewSpec,
    /// The view's link group's filter, ANDed with the view's own.
    pub group_filter: &'a Filter,
}

/// What a view draws from this frame (references only).
pub struct ViewContext<'a> {
    pub dataset: &'a Dataset,
    pub generation: u64,
    /// The view's stable id: what its commands name.
    pub view: ViewId,
    /// Its place in the workspace's list, from 0 (titles say `view 1: …`).
    pub index: usize,
    pub spec: &'a ViewSpec,
    pub group: &'a LinkGroup,
    /// The group's highlight, projected onto the view model's nodes and links.
    pub lit: &'a Lit,
    /// The colour ranges the group agreed on (the unions over its members).
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
}

impl ViewContext<'_> {
    pub fn prepare_context(&self) -> PrepareContext<'_> {
        PrepareContext {
            dataset: self.dataset,
            generation: self.generation,
            spec: self.spec,
            group_filter: &self.group.filter,
        }
    }
}

/// Where the window lays out views of a class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Side by side in the main area.
    Main,
    /// A band across the bottom, one per view (the time strip).
    Band,
}

/// How a view is looked at: its camera (zoom and pan) and, where it turns, its orbit. A link
/// group may share either.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Eye {
    pub camera: Camera,
    pub orbit: Orbit,
}

/// A class's drawing of a view on a canvas: the draw list every painter takes (egui, PNG,
/// SVG), and the world scene it came from, if any (SVG names link ends from it).
pub struct Drawing<'s> {
    pub list: DrawList,
    pub scene: Option<&'s Scene>,
}

/// A kind of view. Stateless: whatever survives frames is in its [`ViewClass::State`].
pub trait ViewClass: Sync + 'static {
    /// What one view of this class keeps between frames.
    type State: 'static;

    /// The stable id the registry finds the class by: `fat_tree`, `time_strip` …
    fn id(&self) -> &'static str;

    /// What menus call it.
    fn display_name(&self) -> &'static str;

    /// Other ids sessions may name the class by (older spellings).
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// What a view's title calls its module (a torus names its kept axes).
    fn title(&self, _dataset: &Dataset, _module: &ModuleSpec) -> String {
        self.display_name().to_string()
    }

    /// Why a view of this class with these parameters cannot draw `dataset`, if it cannot: a
    /// plain sentence, not an error.
    fn unavailable(&self, _dataset: &Dataset, _module: &ModuleSpec) -> Option<&'static str> {
        None
    }

    /// Whether a session's parameters for this class read (checked when the session is read).
    fn check_params(&self, _module: &ModuleSpec) -> Result<(), String> {
        Ok(())
    }

    /// The layout a network class puts its nodes in; `None` for a class that draws no network
    /// (a time strip, a matrix).
    fn layout(&self, _module: &ModuleSpec) -> Option<LayoutChoice> {
        None
    }

    /// The state a new view of this class starts with.
    fn new_state(&self) -> Self::State;

    /// What a new view of this class on `dataset` draws (the class id with its parameters), if
    /// the class can draw the data set: the menus offer exactly these.
    fn module_for(&self, dataset: &Dataset) -> Option<ModuleSpec>;

    /// Where the window lays out views of this class.
    fn placement(&self) -> Placement {
        Placement::Main
    }

    /// Whether compare, diff and new views take this view's module (a network view's), or
    /// the data set's natural one instead (a time strip's).
    fn is_network(&self) -> bool {
        true
    }

    /// The class's own options (a torus's kept axes …), under the options every view has.
    fn options_ui(&self, _ui: &mut egui::Ui, _spec: &mut ViewSpec, _dataset: &Dataset) {}

    /// View model → values, kept in the state while what they depend on holds.
    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut Self::State) -> Result<(), String>;

    /// The (link, node) colour ranges of the prepared values, which the view's group unites.
    fn ranges(&self, _state: &Self::State) -> Ranges {
        (None, None)
    }

    /// The canvas's size in points when the view was last drawn (what "export the current
    /// view" writes), if it was.
    fn last_size(&self, state: &Self::State) -> Option<[f32; 2]>;

    /// Values → the draw list of a `size` (points) canvas seen through `eye`: what the
    /// window paints, and exports at two pixels per point.
    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut Self::State,
        eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String>;

    /// Draws the view in `ui`'s available rect and handles its input.
    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut Self::State,
        eye: &mut Eye,
        ui: &mut egui::Ui,
        commands: &mut Vec<Command>,
    );
}

/// `module` if `class` can draw `dataset` with it.
pub fn if_available<C: ViewClass>(class: &C, module: ModuleSpec, dataset: &Dataset) -> Option<ModuleSpec> {
    class.unavailable(dataset, &module).is_none().then_some(module)
}

/// A view's state, type-erased; only its class reads it.
pub type ClassState = Box<dyn Any>;

/// The object-safe face of a [`ViewClass`], which the registry holds.
pub trait AnyViewClass: Sync {
    fn id(&self) -> &'static str;
    fn display_name(&self) -> &'static str;
    fn aliases(&self) -> &'static [&'static str];
    fn title(&self, dataset: &Dataset, module: &ModuleSpec) -> String;
    fn unavailable(&self, dataset: &Dataset, module: &ModuleSpec) -> Option<&'static str>;
    fn check_params(&self, module: &ModuleSpec) -> Result<(), String>;
    fn layout(&self, module: &ModuleSpec) -> Option<LayoutChoice>;
    fn new_state(&self) -> ClassState;
    fn module_for(&self, dataset: &Dataset) -> Option<ModuleSpec>;
    fn placement(&self) -> Placement;
    fn is_network(&self) -> bool;
    fn options_ui(&self, ui: &mut egui::Ui, spec: &mut ViewSpec, dataset: &Dataset);
    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut ClassState) -> Result<(), String>;
    fn ranges(&self, state: &ClassState) -> Ranges;
    fn last_size(&self, state: &ClassState) -> Option<[f32; 2]>;
    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut ClassState,
        eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String>;
    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut ClassState,
        eye: &mut Eye,
        ui: &mut egui::Ui,
        commands: &mut Vec<Command>,
    );
}

/// The class's own state in `state`; a state of another class (the view changed class) is
/// replaced by a new one.
fn typed<'a, C: ViewClass>(class: &C, state: &'a mut ClassState) -> &'a mut C::State {
    if !state.is::<C::State>() {
        *state = Box::new(class.new_state());
    }
    match state.downcast_mut::<C::State>() {
        Some(s) => s,
        None => unreachable!("the state was just made by this class"),
    }
}

impl<C: ViewClass> AnyViewClass for C {
    fn id(&self) -> &'static str {
        ViewClass::id(self)
    }

    fn display_name(&self) -> &'static str {
        ViewClass::display_name(self)
    }

    fn aliases(&self) -> &'static [&'static str] {
        ViewClass::aliases(self)
    }

    fn title(&self, dataset: &Dataset, module: &ModuleSpec) -> String {
        ViewClass::title(self, dataset, module)
    }

    fn unavailable(&self, dataset: &Dataset, module: &ModuleSpec) -> Option<&'static str> {
        ViewClass::unavailable(self, dataset, module)
    }

    fn check_params(&self, module: &ModuleSpec) -> Result<(), String> {
        ViewClass::check_params(self, module)
    }

    fn layout(&self, module: &ModuleSpec) -> Option<LayoutChoice> {
        ViewClass::layout(self, module)
    }

    fn new_state(&self) -> ClassState {
        Box::new(ViewClass::new_state(self))
    }

    fn module_for(&self, dataset: &Dataset) -> Option<ModuleSpec> {
        ViewClass::module_for(self, dataset)
    }

    fn placement(&self) -> Placement {
        ViewClass::placement(self)
    }

    fn is_network(&self) -> bool {
        ViewClass::is_network(self)
    }

    fn options_ui(&self, ui: &mut egui::Ui, spec: &mut ViewSpec, dataset: &Dataset) {
        ViewClass::options_ui(self, ui, spec, dataset);
    }

    fn prepare(&self, ctx: &PrepareContext<'_>, state: &mut ClassState) -> Result<(), String> {
        ViewClass::prepare(self, ctx, typed(self, state))
    }

    fn ranges(&self, state: &ClassState) -> Ranges {
        state.downcast_ref::<C::State>().map(|s| ViewClass::ranges(self, s)).unwrap_or_default()
    }

    fn last_size(&self, state: &ClassState) -> Option<[f32; 2]> {
        state.downcast_ref::<C::State>().and_then(|s| ViewClass::last_size(self, s))
    }

    fn draw_list<'s>(
        &self,
        ctx: &ViewContext<'_>,
        state: &'s mut ClassState,
        eye: &Eye,
        size: [f32; 2],
    ) -> Result<Drawing<'s>, String> {
        ViewClass::draw_list(self, ctx, typed(self, state), eye, size)
    }

    fn ui(
        &self,
        ctx: &ViewContext<'_>,
        state: &mut ClassState,
        eye: &mut Eye,
        ui: &mut egui::Ui,
        commands: &mut Vec<Command>,
    ) {
        ViewClass::ui(self, ctx, typed(self, state), eye, ui, commands);
    }
}
