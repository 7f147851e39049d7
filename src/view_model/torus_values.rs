//! A torus projection's values: what the merged cells and links of a [`TorusLayout`] show when
//! several of the network's nodes or links fall on one (the view's merge rule decides how).

use crate::layout::torus::{Aggregate, TorusLayout};

use super::values::NetworkInput;

/// The merged per-cell and per-link values a torus scene colours by (what tooltips show).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TorusValues {
    pub cells: Vec<Option<f64>>,
    pub links: Vec<Option<f64>>,
    /// Whether any member of a merged link passes the filters.
    pub link_visible: Vec<bool>,
    pub cell_lit: Vec<bool>,
    pub link_lit: Vec<bool>,
}

impl TorusValues {
    pub fn compute(layout: &TorusLayout, input: &NetworkInput<'_>, rule: Aggregate) -> TorusValues {
        let any = |members: &[usize], flags: &[bool]| {
            members.iter().any(|&m| flags.get(m).copied().unwrap_or(false))
        };
        TorusValues {
            cells: layout.cell_values(input.node_values, input.node_pass, rule),
            links: layout.link_values(input.link_values, input.link_pass, rule),
            link_visible: layout
                .links
                .iter()
                .map(|l| l.members.iter().any(|&m| input.link_passes(m)))
                .collect(),
            cell_lit: layout.cell_members.iter().map(|m| any(m, input.node_lit)).collect(),
            link_lit: layout.links.iter().map(|l| any(&l.members, input.link_lit)).collect(),
        }
    }
}
