//! Step 2 of a view: [`Prepared::scene`], the scene of a prepared view, coloured within the ranges its link
//! group agreed on, with its highlight and orbit. The values are the view model's; this only
//! draws them.

use crate::view_model::dataset::Dataset;
use crate::view_model::filter::Filter;
use crate::view_model::highlight::Lit;
use crate::view_model::orbit::Orbit;
use crate::view_model::prepare::{LayoutChoice, Prepared, Ranges, ViewLayout, prepare};
use crate::view_model::view::ViewSpec;

use crate::model::thresholds::{self, Threshold};

use super::Scene;
use super::colour::ColourMap;
use super::fat_tree::{FatTreeInput, SceneOptions, build_fat_tree_scene};
use super::generic2d::build_plane_scene;
use super::health_layer::{HEALTH_KEY, health_marks};
use super::legend::Legend;
use super::network::{NetworkStyle, is_bytes};
use super::torus::{TorusValues, build_torus_scene};

impl Prepared {
    /// Step 2: the scene, coloured within `ranges` (`None`: the view's own). `aspect` is the
    /// plot's width over its height; `orbit` turns a 3D torus.
    pub fn scene(
        &self,
        dataset: &Dataset,
        spec: &ViewSpec,
        ranges: Ranges,
        lit: &Lit,
        orbit: &Orbit,
        aspect: f32,
    ) -> Scene {
        let map = |m: ColourMap, signed: bool| {
            if signed && !m.is_diverging() { spec.diverging_map } else { m }
        };
        // Every face titles its views through the view's class; a bare spec names its class id.
        let title = if spec.title.is_empty() {
            spec.default_title(dataset, spec.module.class_id())
        } else {
            spec.title.clone()
        };
        let merges = self.merges();
        let style = NetworkStyle {
            title,
            link_map: map(spec.link_map, self.links_signed),
            node_map: map(spec.node_map, self.signed),
            scale: spec.scale,
            link_range: ranges.0.or(self.link_range),
            node_range: ranges.1.or(self.node_range),
            link_caption: spec.caption(spec.link_attribute.as_deref(), merges),
            node_caption: spec.caption(spec.node_attribute.as_deref(), merges),
            aggregate: spec.merge,
            link_bytes: is_bytes(spec.link_attribute.as_deref()),
            node_bytes: is_bytes(spec.node_attribute.as_deref()),
        };
        let input = self.input(lit);
        let mut scene = self.network_scene(dataset, spec, &style, &input, orbit, aspect);
        if let Some(thresholds) =
            link_thresholds(spec.link_attribute.as_deref()).filter(|_| !self.links_signed)
        {
            for legend in scene.legends.iter_mut().filter(|l| l.title == "L") {
                *legend = Legend::percent("L", &legend.caption, legend.scale.clone(), thresholds);
            }
        }
        if let (true, ViewLayout::FatTree, Some(fabric)) = (spec.health_layer, &self.layout, &dataset.fabric)
        {
            scene.health = health_marks(&scene, &fabric.cluster, fabric.observed.as_ref());
            scene.title = format!("{} — {HEALTH_KEY}", scene.title);
        }
        scene
    }

    /// The module's scene of the values.
    fn network_scene(
        &self,
        dataset: &Dataset,
        spec: &ViewSpec,
        style: &NetworkStyle,
        input: &crate::view_model::values::NetworkInput<'_>,
        orbit: &Orbit,
        aspect: f32,
    ) -> Scene {
        match &self.layout {
            ViewLayout::FatTree => match &dataset.fabric {
                Some(fabric) => {
                    let options = SceneOptions::from_style(style, spec.node_attribute.is_some());
                    build_fat_tree_scene(&FatTreeInput::new(fabric, input), &options)
                }
                None => Scene::default(),
            },
            ViewLayout::Torus(layout) => {
                let values = TorusValues::compute(layout, input, style.aggregate);
                // The flattened view keeps two axes.
                let flat = layout.projection.kept.len() < 3;
                let orbit = if flat { Orbit::IDENTITY } else { *orbit };
                build_torus_scene(layout, &values, style, &orbit, aspect)
            }
            ViewLayout::Plane(layout) => {
                build_plane_scene(dataset.run.network(), layout, input, style, aspect)
            }
        }
    }
}

/// The threshold presets drawn on the legend of a % attribute.
fn link_thresholds(attribute: Option<&str>) -> Option<&'static [Threshold]> {
    use crate::view_model::dataset::link_health::{STALL, UTILISATION};
    match attribute? {
        UTILISATION => Some(&thresholds::UTILISATION),
        STALL => Some(&thresholds::STALL),
        _ => None,
    }
}

/// Prepares and draws one view on its own ranges: what `shoal render` and the tests call.
pub fn scene_for(
    dataset: &Dataset,
    spec: &ViewSpec,
    group: &Filter,
    highlight: &crate::view_model::highlight::Highlight,
    (layout, aspect): (&LayoutChoice, f32),
) -> Result<Scene, String> {
    let prepared = prepare(dataset, spec, group, layout)?;
    let lit = crate::view_model::highlight::project(dataset, highlight);
    Ok(prepared.scene(dataset, spec, (None, None), &lit, &Orbit::default(), aspect))
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
