//! Edits as data. Views and panels read the workspace and queue [`Command`]s; the workspace
//! applies the frame's commands once, after the UI ran (as rerun's viewer does), so nothing a
//! panel drew from changes under it mid-frame. Views are named by a stable [`ViewId`], never a
//! position: a command queued for a view removed earlier in the same frame finds no view and is
//! dropped.

use crate::modules::link_group::GroupId;
use crate::view_model::filter::Filter;
use crate::view_model::highlight::Seed;
use crate::view_model::orbit::Orbit;
use crate::view_model::values::RegionSelection;
use crate::view_model::view::{ModuleSpec, ViewSpec};

/// A view's id: given once by the workspace, never reused, kept while the view lives (and
/// when a removal is undone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ViewId(pub u64);

/// A change to the workspace, applied after the frame's UI ran.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Sets (or with `add`, extends) a group's highlight.
    Highlight { group: GroupId, seeds: Vec<Seed>, add: bool },
    /// Esc: clears every highlight and selection.
    ClearSelection,
    /// Picks a link (a view-model link position) in a view, for its linked tables.
    SelectLink { view: ViewId, link: usize },
    /// Makes a view the one the panels edit.
    Focus(ViewId),
    /// Shows a region or a window of regions in every view of a group (the time strip's brush).
    SelectRegions { group: GroupId, selection: RegionSelection },
    /// Moves a group's time cursor to a counter interval (a congestion region's, or a strip column).
    SetTimeCursor { group: GroupId, interval: Option<u32> },
    /// Replaces a view's spec (filter edits, options, the region shown, the routing switch).
    SetSpec { view: ViewId, spec: Box<ViewSpec> },
    /// Adds a view of a module in the focused view's group (same region and filter).
    AddView(ModuleSpec),
    /// Removes a view; [`Command::Undo`] brings it back.
    RemoveView(ViewId),
    /// Restores the view removed last, with its spec, group and camera (Ctrl+Z).
    Undo,
    /// Two views of regions A and B side by side, in a new group with a shared camera.
    Compare(u32, u32),
    /// One view of region A − region B.
    Diff(u32, u32),
    /// Back to one view of the whole run.
    Single,
    /// Moves a view into a link group.
    SetGroup { view: ViewId, group: GroupId },
    /// Adds an empty link group.
    NewGroup,
    /// Sets a group's filter (ANDed with each member's own).
    SetGroupFilter { group: GroupId, filter: Filter },
    /// Makes a group's members share zoom and pan (or stop sharing).
    ShareCamera { group: GroupId, on: bool },
    /// Makes a group's members turn together (or stop).
    ShareOrbit { group: GroupId, on: bool },
    /// Fits every view's camera to its scene.
    FitAll,
    /// Turns every view, and every group's shared orbit, to this orbit (scripted views).
    TurnAll(Orbit),
}

impl Command {
    /// A spec edit, queued only when the panel changed something.
    pub fn set_spec_if_changed(view: ViewId, before: &ViewSpec, after: ViewSpec) -> Option<Command> {
        (*before != after).then(|| Command::SetSpec { view, spec: Box::new(after) })
    }
}
