//! One view's scene, from its data set, region selection, filters and highlight: the single
//! function the GUI, `shoal render` and the tests call, so they all draw the same thing.

use super::Scene;
use super::dataset::Dataset;
use super::fat_tree::{SceneInput, SceneOptions, build_fat_tree_scene, value_range};
use super::filter::{Filter, link_mask};
use super::highlight::{Highlight, project};
use super::values::{LinkValues, RegionSelection};

/// What a view shows and how.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewSpec {
    pub selection: RegionSelection,
    pub filter: Filter,
    pub options: SceneOptions,
}

/// The values a selection names, or `None` if the data set has no such region.
pub fn values_for(dataset: &Dataset, selection: RegionSelection) -> Option<LinkValues> {
    if dataset.loads.total.rails.is_empty() {
        return Some(LinkValues::zeros(&dataset.cluster));
    }
    LinkValues::select(&dataset.loads, selection)
}

/// The colour range a view would use on its own (a link group takes the union of these).
pub fn own_range(dataset: &Dataset, selection: RegionSelection) -> Option<(f64, f64)> {
    values_for(dataset, selection).map(|v| value_range(&v))
}

/// The node colour range a view would use on its own.
pub fn own_node_range(dataset: &Dataset, spec: &ViewSpec) -> Option<(f64, f64)> {
    let values = values_for(dataset, spec.selection)?;
    let nodes = super::values::NodeValues::compute(&dataset.cluster, &values, spec.options.node_attribute);
    Some(super::fat_tree::node_range(&nodes, values.signed))
}

/// Builds the scene. `group_filter` is ANDed with the view's own; `highlight` is the group's.
pub fn scene_for(
    dataset: &Dataset,
    spec: &ViewSpec,
    group_filter: Option<&Filter>,
    highlight: &Highlight,
) -> Option<Scene> {
    let values = values_for(dataset, spec.selection)?;
    Some(scene_from_values(dataset, spec, group_filter, highlight, &values))
}

/// As [`scene_for`], with the selection's values already at hand (a view keeps them while only
/// its filter or highlight changes).
pub fn scene_from_values(
    dataset: &Dataset,
    spec: &ViewSpec,
    group_filter: Option<&Filter>,
    highlight: &Highlight,
    values: &LinkValues,
) -> Scene {
    let mut filters = vec![&spec.filter];
    filters.extend(group_filter);
    let mask = link_mask(&dataset.cluster, &dataset.layout, values, &filters);
    let lit = project(&dataset.cluster, &dataset.rank_hosts, highlight);
    let input =
        SceneInput { cluster: &dataset.cluster, layout: &dataset.layout, values, mask: &mask, lit: &lit };
    build_fat_tree_scene(&input, &spec.options)
}
