//! One view of a [`Run`] (torus 3D, torus flattened, or generic 2D): what it shows, the values
//! and masks the run's query layer gives for it, and its scene. The GUI modules, `shoal render`
//! and the tests all go through here, so they draw the same thing.
//!
//! Building a view is two steps, because a link group agrees on one colour range from its
//! members' own ranges before any of them is drawn:
//! 1. [`prepare`]: layout, values per node and link (`query::values` over the rows passing the
//!    view's and its group's conditions, aggregated per id), filter masks (`query::mask`), and
//!    the view's own colour ranges (over what it colours: merged values in a torus projection);
//! 2. [`Prepared::scene`]: colours within the agreed ranges, the highlight, the orbit.

use std::collections::HashSet;

use crate::layout::generic2d::{PlaneLayout, layout_plane};
use crate::layout::torus::{self, Projection, TorusLayout};
use crate::model::network::Shape;
use crate::model::{Domain, Run};

use super::Scene;
use super::colour::{ColourMap, ScaleKind};
use super::generic2d::build_plane_scene;
use super::network::{NetworkInput, NetworkStyle, values_range};
use super::orbit::Orbit;
use super::query::{self, Condition};
use super::torus::{TorusValues, build_torus_scene};

/// A view's colour ranges: (links, nodes); `None`: from its own values.
pub type Ranges = (Option<(f64, f64)>, Option<(f64, f64)>);

/// Which module draws the view.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RunModule {
    /// The 3D torus through these kept axes (3, or 2 for a 2D torus).
    Torus { kept: Vec<usize> },
    /// The flattened torus looking down this axis.
    TorusFlat { down: usize },
    /// Nodes at their given positions.
    Generic2d,
}

impl RunModule {
    /// The module a network suits: the 3D torus for a torus, generic 2D for a plane.
    pub fn default_for(run: &Run) -> RunModule {
        match &run.network().shape {
            Shape::Torus { dims } => RunModule::Torus { kept: (0..dims.len().min(3)).collect() },
            Shape::Plane => RunModule::Generic2d,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            RunModule::Torus { .. } => "torus 3D",
            RunModule::TorusFlat { .. } => "torus 2D",
            RunModule::Generic2d => "generic 2D",
        }
    }

    pub fn is_3d(&self) -> bool {
        matches!(self, RunModule::Torus { kept } if kept.len() == 3)
    }
}

/// What a run view shows and how.
#[derive(Clone, Debug, PartialEq)]
pub struct RunViewSpec {
    pub module: RunModule,
    /// The view's own filter (e.g. `code_region = 1`); its group's conditions are ANDed in.
    pub conditions: Vec<Condition>,
    /// The link and node attributes that colour; `None`: neutral.
    pub link_attribute: Option<String>,
    pub node_attribute: Option<String>,
    /// How an id's passing rows combine.
    pub rows: query::Aggregate,
    /// How merged nodes and links of a torus projection combine.
    pub merge: torus::Aggregate,
    pub link_map: ColourMap,
    pub node_map: ColourMap,
    pub scale: ScaleKind,
    pub title: String,
}

impl RunViewSpec {
    /// The run's natural module, coloured by the first numeric link and node attributes that are
    /// not ids or coordinates.
    pub fn for_run(run: &Run) -> RunViewSpec {
        RunViewSpec {
            module: RunModule::default_for(run),
            conditions: whole_run_condition(run).into_iter().collect(),
            link_attribute: default_attribute(run, Domain::Links),
            node_attribute: default_attribute(run, Domain::Nodes),
            rows: query::Aggregate::Mean,
            merge: torus::Aggregate::Mean,
            link_map: ColourMap::Copper,
            node_map: ColourMap::Viridis,
            scale: ScaleKind::Linear,
            title: String::new(),
        }
    }

    /// `packets (mean)`; with a projection that merges, `packets (mean/sum)`: rows, then
    /// merged nodes or links.
    pub fn caption(&self, attribute: Option<&str>, merges: bool) -> String {
        match attribute {
            None => "not coloured".into(),
            Some(a) if merges => format!("{a} ({}/{})", self.rows.name(), self.merge.name()),
            Some(a) => format!("{a} ({})", self.rows.name()),
        }
    }
}

/// Columns that name things rather than measure them: ids, regions, and coordinates (an axis
/// name, or one with a source/target prefix such as `sx`, `tz`, `src_a`).
fn is_bookkeeping(name: &str, axes: &[String]) -> bool {
    let lower = name.to_ascii_lowercase();
    let is_axis = |s: &str| axes.iter().any(|a| a.eq_ignore_ascii_case(s));
    let prefixes = ["", "s", "t", "d", "src_", "dst_", "source_", "target_", "dest_"];
    lower.ends_with("id")
        || matches!(
            lower.as_str(),
            "source" | "target" | "row" | "col" | "column" | "port" | "name" | "rail" | "level"
        )
        || lower.contains("coord")
        || lower.contains("region")
        || prefixes.iter().any(|p| lower.strip_prefix(p).is_some_and(is_axis))
}

/// The first numeric attribute of a domain that is not an id, coordinate or region.
pub fn default_attribute(run: &Run, domain: Domain) -> Option<String> {
    let attrs = query::attributes(run, domain);
    let axes = &run.network().axes;
    attrs.iter().find(|a| a.numeric && !is_bookkeeping(&a.name, axes)).map(|a| a.name.clone())
}

/// The attribute that names regions (`code_region` in Boxfish runs, `region` in CSV pairs), if
/// the links or nodes have one.
pub fn region_attribute(run: &Run) -> Option<String> {
    let has = |name: &str| {
        [Domain::Links, Domain::Nodes]
            .into_iter()
            .any(|d| query::attributes(run, d).iter().any(|a| a.name == name))
    };
    ["code_region", "region"].into_iter().find(|n| has(n)).map(String::from)
}

/// Runs that list whole-run rows beside the per-region rows (a negative region: `shoal
/// convert`'s `total` reads as −1, Boxfish's examples use −2) open on the whole run, so the
/// default mean is not an average of the total with its own parts.
fn whole_run_condition(run: &Run) -> Option<Condition> {
    let attribute = region_attribute(run)?;
    let whole = query::distinct_values(run, Domain::Links, &attribute).into_iter().find(|v| *v < 0.0)?;
    Condition::parse(&format!("{attribute} = {whole}")).ok()
}

/// The placed network of a view.
#[derive(Clone, Debug)]
pub enum RunLayout {
    Torus(TorusLayout),
    Plane(PlaneLayout),
}

/// A view's data, ready to colour.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub layout: RunLayout,
    pub node_values: Vec<Option<f64>>,
    pub link_values: Vec<Option<f64>>,
    pub node_pass: Vec<bool>,
    pub link_pass: Vec<bool>,
    /// The view's own colour ranges, over what it colours.
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
    /// Filter or attribute problems (an unknown attribute …): shown, not fatal.
    pub problems: Vec<String>,
}

/// What a highlight lights, per node and per link of the network (empty: nothing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunLit {
    pub nodes: Vec<bool>,
    pub links: Vec<bool>,
}

/// A highlight: ids picked in one domain.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunHighlight {
    pub domain: Option<Domain>,
    pub ids: Vec<i64>,
}

impl RunHighlight {
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The ids it reaches in every domain (through the run's projections).
    pub fn project(&self, run: &Run) -> std::collections::HashMap<Domain, HashSet<i64>> {
        match self.domain {
            Some(d) if !self.ids.is_empty() => query::highlight(run, d, &self.ids.iter().copied().collect()),
            _ => Default::default(),
        }
    }

    /// Node and link masks for a scene.
    pub fn lit(&self, run: &Run) -> RunLit {
        let projected = self.project(run);
        let mask = |d: Domain| projected.get(&d).map(|set| run.mask_of(d, set)).unwrap_or_default();
        RunLit { nodes: mask(Domain::Nodes), links: mask(Domain::Links) }
    }
}

/// Step 1: layout, values, masks and own ranges. Fails only if the module cannot draw the
/// network (a torus view of a plane, a bad projection).
pub fn prepare(run: &Run, spec: &RunViewSpec, group: &[Condition]) -> Result<Prepared, String> {
    let net = run.network();
    let layout = match &spec.module {
        RunModule::Torus { kept } => RunLayout::Torus(
            TorusLayout::new(net, Projection { kept: kept.clone() }).map_err(|e| e.to_string())?,
        ),
        RunModule::TorusFlat { down } => {
            let axes = net.axes.len();
            RunLayout::Torus(
                TorusLayout::new(net, Projection::looking_down(axes, *down)).map_err(|e| e.to_string())?,
            )
        }
        RunModule::Generic2d => RunLayout::Plane(layout_plane(net)),
    };
    let conditions: Vec<Condition> = spec.conditions.iter().chain(group).cloned().collect();
    let mut problems = Vec::new();
    let mut values = |domain: Domain, attribute: &Option<String>| -> Vec<Option<f64>> {
        let Some(a) = attribute else { return Vec::new() };
        query::values(run, domain, &conditions, spec.rows, a).unwrap_or_else(|e| {
            problems.push(format!("{domain} colour: {e}"));
            Vec::new()
        })
    };
    let node_values = values(Domain::Nodes, &spec.node_attribute);
    let link_values = values(Domain::Links, &spec.link_attribute);
    let mut mask = |domain: Domain| {
        query::mask(run, domain, &conditions).unwrap_or_else(|e| {
            problems.push(format!("{domain} filter: {e}"));
            Vec::new()
        })
    };
    let node_pass = mask(Domain::Nodes);
    let link_pass = mask(Domain::Links);
    let mut prepared = Prepared {
        layout,
        node_values,
        link_values,
        node_pass,
        link_pass,
        link_range: None,
        node_range: None,
        problems,
    };
    let style = NetworkStyle { aggregate: spec.merge, ..Default::default() };
    (prepared.link_range, prepared.node_range) = match &prepared.layout {
        RunLayout::Torus(layout) => {
            let merged = TorusValues::compute(layout, &prepared.input(&RunLit::default()), &style);
            (values_range(&merged.links), values_range(&merged.cells))
        }
        RunLayout::Plane(_) => {
            let pass = |v: &[Option<f64>], p: &[bool]| -> Vec<Option<f64>> {
                v.iter().enumerate().map(|(i, x)| x.filter(|_| p.get(i).copied().unwrap_or(true))).collect()
            };
            (
                values_range(&pass(&prepared.link_values, &prepared.link_pass)),
                values_range(&pass(&prepared.node_values, &prepared.node_pass)),
            )
        }
    };
    Ok(prepared)
}

impl Prepared {
    /// The scene input, with a highlight.
    pub fn input<'a>(&'a self, lit: &'a RunLit) -> NetworkInput<'a> {
        NetworkInput {
            node_values: &self.node_values,
            link_values: &self.link_values,
            node_pass: &self.node_pass,
            link_pass: &self.link_pass,
            node_lit: &lit.nodes,
            link_lit: &lit.links,
        }
    }

    /// Step 2: the scene, coloured within `ranges` (links, nodes; `None`: the view's own).
    /// `aspect` is the plot's width over its height.
    pub fn scene(
        &self,
        run: &Run,
        spec: &RunViewSpec,
        ranges: Ranges,
        lit: &RunLit,
        orbit: &Orbit,
        aspect: f32,
    ) -> Scene {
        let merges =
            matches!(&self.layout, RunLayout::Torus(l) if l.links.iter().any(|m| m.members.len() > 1));
        let style = NetworkStyle {
            title: if spec.title.is_empty() { default_title(run, spec) } else { spec.title.clone() },
            link_map: spec.link_map,
            node_map: spec.node_map,
            scale: spec.scale,
            link_range: ranges.0.or(self.link_range),
            node_range: ranges.1.or(self.node_range),
            link_caption: spec.caption(spec.link_attribute.as_deref(), merges),
            node_caption: spec.caption(spec.node_attribute.as_deref(), merges),
            aggregate: spec.merge,
        };
        let input = self.input(lit);
        match &self.layout {
            RunLayout::Torus(layout) => {
                let values = TorusValues::compute(layout, &input, &style);
                let flat =
                    matches!(spec.module, RunModule::TorusFlat { .. }) || layout.projection.kept.len() < 3;
                let orbit = if flat { Orbit::IDENTITY } else { *orbit };
                build_torus_scene(layout, &values, &style, &orbit, aspect)
            }
            RunLayout::Plane(layout) => build_plane_scene(run.network(), layout, &input, &style, aspect),
        }
    }
}

/// `run — torus 3D (x y z) — code_region = 1`.
pub fn default_title(run: &Run, spec: &RunViewSpec) -> String {
    let axes = &run.network().axes;
    let name = |i: &usize| axes.get(*i).cloned().unwrap_or_else(|| i.to_string());
    let module = match &spec.module {
        RunModule::Torus { kept } => {
            format!("torus ({})", kept.iter().map(name).collect::<Vec<_>>().join(" "))
        }
        RunModule::TorusFlat { down } => format!("torus 2D, looking down {}", name(down)),
        RunModule::Generic2d => "generic 2D".into(),
    };
    let filter: Vec<String> = spec.conditions.iter().map(|c| c.to_string()).collect();
    match filter.is_empty() {
        true => format!("{} — {module}", run.name()),
        false => format!("{} — {module} — {}", run.name(), filter.join(" and ")),
    }
}

impl Prepared {
    /// The network nodes behind mark `i` of this view's scene (a merged cell has several).
    pub fn mark_members(&self, i: usize) -> Vec<usize> {
        match &self.layout {
            RunLayout::Torus(l) => l.cell_members.get(i).cloned().unwrap_or_default(),
            RunLayout::Plane(_) => vec![i],
        }
    }

    /// The network links behind half `i` (its `end.index()`) of this view's scene.
    pub fn half_members(&self, i: usize) -> Vec<usize> {
        match &self.layout {
            RunLayout::Torus(l) => l.links.get(i).map(|m| m.members.clone()).unwrap_or_default(),
            RunLayout::Plane(_) => vec![i],
        }
    }

    /// Tooltip lines for mark `i`: ids, coordinates, the coloured value.
    pub fn describe_mark(&self, run: &Run, spec: &RunViewSpec, i: usize) -> Vec<String> {
        let net = run.network();
        let members = self.mark_members(i);
        let mut lines = Vec::new();
        match members.as_slice() {
            [n] => {
                let node = net.nodes.get(*n);
                let name = node.and_then(|n| n.name.clone()).map(|s| format!(" {s}")).unwrap_or_default();
                lines.push(format!("node {}{name}", node.map_or(0, |n| n.id)));
                lines.push(coords_text(net, *n));
            }
            many => {
                lines.push(format!("{} nodes merged", many.len()));
                let ids: Vec<String> =
                    many.iter().take(8).filter_map(|&n| net.nodes.get(n)).map(|n| n.id.to_string()).collect();
                lines.push(format!("ids {}{}", ids.join(", "), if many.len() > 8 { ", …" } else { "" }));
            }
        }
        let values: Vec<f64> =
            members.iter().filter_map(|&n| self.node_values.get(n).copied().flatten()).collect();
        lines.push(value_text(spec.node_attribute.as_deref(), &values, spec.merge));
        lines
    }

    /// Tooltip lines for half `i`: link ids, ends with coordinates, identity, the coloured value.
    pub fn describe_half(&self, run: &Run, spec: &RunViewSpec, i: usize) -> Vec<String> {
        let net = run.network();
        let members = self.half_members(i);
        let mut lines = Vec::new();
        if let RunLayout::Torus(l) = &self.layout
            && let Some(id) = l.links.get(i).and_then(|m| m.id.as_ref())
        {
            let axes = &net.axes;
            let kept = &l.projection.kept;
            let lower: Vec<String> = id.lower.iter().map(u32::to_string).collect();
            let axis = kept.get(id.axis).and_then(|&a| axes.get(a)).cloned().unwrap_or_default();
            let wrap = if id.wraps { ", wrap-around" } else { "" };
            lines.push(format!("link ({}) {axis}{}{wrap}", lower.join(", "), id.direction.symbol()));
        }
        for &m in members.iter().take(if members.len() == 1 { 1 } else { 4 }) {
            let Some(link) = net.links.get(m) else { continue };
            let id = |n: usize| net.nodes.get(n).map_or(0, |n| n.id);
            lines.push(format!(
                "link {}: node {} ({}) -> node {} ({})",
                link.id,
                id(link.source),
                coords_text(net, link.source),
                id(link.target),
                coords_text(net, link.target)
            ));
        }
        if members.len() > 1 {
            lines.push(format!("{} directed links merged", members.len()));
        }
        let values: Vec<f64> = members
            .iter()
            .filter(|&&m| self.link_pass.get(m).copied().unwrap_or(true))
            .filter_map(|&m| self.link_values.get(m).copied().flatten())
            .collect();
        lines.push(value_text(spec.link_attribute.as_deref(), &values, spec.merge));
        lines
    }
}

fn coords_text(net: &crate::model::Network, n: usize) -> String {
    let Some(node) = net.nodes.get(n) else { return String::new() };
    let parts: Vec<String> = node
        .coords
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{} {c}", net.axes.get(i).map_or("?", |s| s.as_str())))
        .collect();
    parts.join(", ")
}

fn value_text(attribute: Option<&str>, values: &[f64], merge: torus::Aggregate) -> String {
    use super::network::format_number;
    match (attribute, values) {
        (None, _) => "not coloured".into(),
        (Some(a), []) => format!("{a}: no value (or filtered out)"),
        (Some(a), [v]) => format!("{a}: {}", format_number(*v)),
        (Some(a), many) => {
            let v = merge.combine(many.iter().copied()).unwrap_or(0.0);
            format!("{a}: {} ({} of {})", format_number(v), merge.name(), many.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::MarkOf;
    use crate::scene::run_synthetic::{packets, synthetic_run};

    fn spec_for(run: &Run, region: i64) -> RunViewSpec {
        let mut spec = RunViewSpec::for_run(run);
        spec.conditions = vec![Condition::parse(&format!("code_region = {region}")).unwrap()];
        spec
    }

    #[test]
    fn a_torus_view_colours_each_direction_by_its_own_region_value() {
        let run = synthetic_run(&["x", "y", "z"], &[4, 4, 4]);
        let spec = spec_for(&run, 1);
        assert_eq!(spec.link_attribute.as_deref(), Some("packets"));
        assert_eq!(spec.node_attribute.as_deref(), Some("muls"));
        let prepared = prepare(&run, &spec, &[]).unwrap();
        assert!(prepared.problems.is_empty(), "{:?}", prepared.problems);
        let net = run.network();
        for (l, v) in prepared.link_values.iter().enumerate() {
            assert_eq!(*v, Some(packets(net, l, 1)));
        }
        let scene = prepared.scene(&run, &spec, (None, None), &RunLit::default(), &Orbit::default(), 1.0);
        assert_eq!(scene.halves.len(), net.links.len());
        let scale = &scene.legends[1].scale;
        assert_eq!(scale.max, 1300.0);
        for h in &scene.halves {
            assert_eq!(h.colour, scale.colour(packets(net, h.end.index(), 1)));
        }
    }

    #[test]
    fn a_node_filter_reaches_links_and_a_rank_highlight_lights_its_node_and_links() {
        let run = synthetic_run(&["x", "y", "z"], &[4, 4, 4]);
        let mut spec = spec_for(&run, 2);
        spec.conditions.push(Condition::parse("nodes.muls >= 30").unwrap());
        let prepared = prepare(&run, &spec, &[]).unwrap();
        let net = run.network();
        for (l, link) in net.links.iter().enumerate() {
            let muls = 2 * (10 + net.nodes[link.source].id % 7);
            assert_eq!(prepared.link_pass[l], muls >= 30, "link {l}");
        }
        let highlight = RunHighlight { domain: Some(Domain::Ranks), ids: vec![5] };
        let lit = highlight.lit(&run);
        assert_eq!(lit.nodes.iter().filter(|&&l| l).count(), 1);
        assert!(lit.nodes[2]);
        assert_eq!(lit.links.iter().filter(|&&l| l).count(), 6);
        let scene = prepared.scene(&run, &spec, (None, None), &lit, &Orbit::default(), 1.0);
        let lit_mark = scene.marks.last().unwrap();
        assert_eq!(lit_mark.of, MarkOf::Node(2), "the lit node is painted last, on top");
    }

    #[test]
    fn the_flat_view_merges_columns_and_describes_what_it_merged() {
        let run = synthetic_run(&["x", "y", "z"], &[4, 4, 4]);
        let mut spec = spec_for(&run, 1);
        spec.module = RunModule::TorusFlat { down: 2 };
        let prepared = prepare(&run, &spec, &[]).unwrap();
        let RunLayout::Torus(layout) = &prepared.layout else { panic!("a torus layout") };
        assert_eq!(layout.cells.len(), 16);
        // x + links of a column all carry 1000 + 100·x: their mean is the same.
        let first_x_plus =
            layout.links.iter().position(|l| l.id.as_ref().is_some_and(|id| id.axis == 0)).unwrap();
        let lines = prepared.describe_half(&run, &spec, first_x_plus);
        assert!(lines[0].starts_with("link (0, 0) x+"), "{lines:?}");
        assert!(lines.iter().any(|l| l == "4 directed links merged"), "{lines:?}");
        assert!(lines.last().unwrap().starts_with("packets: 1000 (mean of 4)"), "{lines:?}");
        assert_eq!(prepared.mark_members(0).len(), 4);
    }
}
