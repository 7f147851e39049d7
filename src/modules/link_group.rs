//! Link groups: what linked views share.
//!
//! Boxfish propagated highlights, colour ranges and cameras along a module tree with signals;
//! here a view simply names its group, and the group holds the shared state:
//! - the highlight set (a pick in any member lights in all);
//! - the colour range, the union over the members' ranges, so regions compare on one scale;
//! - optionally a shared camera (synced zoom and pan) and a shared orbit (3D views turn together);
//! - a group filter, ANDed with each member's own;
//! - the time cursor: the counter interval the group looks at (a click on a congestion region or
//!   on an interval column of the time strip moves it; the strip outlines it).

use crate::scene::camera::Camera;
use crate::view_model::filter::Filter;
use crate::view_model::highlight::Highlight;
use crate::view_model::orbit::Orbit;

/// An id naming a link group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupId(pub u32);

/// State shared by the views of one group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkGroup {
    pub id: GroupId,
    pub name: String,
    pub highlight: Highlight,
    /// When set, members pan and zoom together through this camera.
    pub shared_camera: Option<Camera>,
    /// When set, 3D members turn together.
    pub shared_orbit: Option<Orbit>,
    pub filter: Filter,
    /// The counter interval (0-based, in the order the snapshots were given) the group looks at.
    pub time_cursor: Option<u32>,
}

impl LinkGroup {
    pub fn new(id: GroupId, name: impl Into<String>) -> Self {
        LinkGroup { id, name: name.into(), ..Default::default() }
    }
}

/// The union of value ranges, `(min, max)`; `None` if there are none.
pub fn union_range(ranges: impl IntoIterator<Item = (f64, f64)>) -> Option<(f64, f64)> {
    ranges.into_iter().fold(None, |acc, (lo, hi)| match acc {
        None => Some((lo, hi)),
        Some((a, b)) => Some((a.min(lo), b.max(hi))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_range_is_the_union_of_the_members() {
        assert_eq!(union_range([(0.0, 5.0), (1.0, 9.0), (-2.0, 3.0)]), Some((-2.0, 9.0)));
        assert_eq!(union_range(std::iter::empty()), None);
    }
}
