//! One view of any data set in any module: the values and masks the query engine gives for its
//! spec, then its scene. The GUI modules, `shoal render` and the tests all go through here, so
//! they draw the same thing.
//!
//! Building a view is two steps, because a link group agrees on one colour range from its
//! members' own ranges before any of them is drawn:
//! 1. [`prepare`]: layout, values per node and link (`query::values` over the rows of the
//!    selected region that pass the view's and its group's clauses, aggregated per id; a diff
//!    is A − B), filter masks, and the view's own colour ranges;
//! 2. the scene draws it (`Prepared::scene`, in `crate::scene::build`): colours within the agreed ranges, the
//!    highlight, the orbit.
//!
//! Every vector is indexed like the run's ids of its domain ([`crate::model::Run::ids`]).

use crate::layout::generic2d::{PlaneLayout, layout_plane};
use crate::layout::torus::{self, TorusLayout};
use crate::model::{Domain, Run};

use super::dataset::Dataset;
use super::dataset::link_health::is_percent_attribute;
use super::fabric_values::{FabricValues, fabric_values};
use super::filter::Filter;
use super::highlight::Lit;
use super::query::{self, Condition, Overlay};
use super::torus_values::TorusValues;
use super::values::{NetworkInput, difference, draw_order, values_range};
use super::view::{ViewSpec, selection_conditions};

/// A view's colour ranges: (links, nodes); `None`: from its own values.
pub type Ranges = (Option<(f64, f64)>, Option<(f64, f64)>);

/// Where a view's nodes go.
#[derive(Clone, Debug)]
pub enum ViewLayout {
    /// The data set's own fat-tree layout.
    FatTree,
    Torus(TorusLayout),
    Plane(PlaneLayout),
}

/// Which layout a network view's class puts its nodes in: plain data, resolved against the
/// network by [`prepare`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LayoutChoice {
    /// The fabric's fat-tree layout.
    FatTree,
    /// A torus through these kept axes.
    Torus(torus::KeptAxes),
    /// The flattened torus looking down this axis.
    TorusDown(usize),
    /// Every node at its given position.
    Plane,
}

impl LayoutChoice {
    /// The layout of the data set's natural module ([`super::view::default_module`]).
    pub fn natural(dataset: &Dataset) -> LayoutChoice {
        if dataset.fabric.is_some() {
            return LayoutChoice::FatTree;
        }
        match &dataset.run.network().shape {
            crate::model::network::Shape::Torus { dims } => {
                LayoutChoice::Torus(torus::KeptAxes::first_three(dims.len()))
            }
            crate::model::network::Shape::Plane => LayoutChoice::Plane,
        }
    }
}

/// A view's data, ready to colour.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub layout: ViewLayout,
    pub node_values: Vec<Option<f64>>,
    pub link_values: Vec<Option<f64>>,
    pub node_pass: Vec<bool>,
    /// Links that pass the selection and the clauses, then also the value range and "hide
    /// unused" (the threshold slider and the histogram brush): [`Prepared::apply_value_filter`]
    /// redoes only this second step.
    pub link_pass: Vec<bool>,
    clause_pass: Vec<bool>,
    /// A diff: values are signed and coloured on the diverging map.
    pub signed: bool,
    /// The link values are signed: a diff, or a signed attribute such as the residual.
    pub links_signed: bool,
    /// A diff's link values of A and of B (the ranked table beside it shows both).
    pub link_sides: Option<[Vec<Option<f64>>; 2]>,
    /// Link ids by value, busiest last: the order a scene draws its link ends in.
    pub link_order: Vec<u32>,
    /// The view's own colour ranges, over what it colours.
    pub link_range: Option<(f64, f64)>,
    pub node_range: Option<(f64, f64)>,
    /// Filter or attribute problems (an unknown attribute …): shown, not fatal.
    pub problems: Vec<String>,
}

/// Step 1, in the layout the view's class chose. Fails only if that layout cannot hold the data
/// set (a torus layout of a plane, a fat tree without a fabric, a bad projection) or the
/// selection names what is not there.
pub fn prepare(
    dataset: &Dataset,
    spec: &ViewSpec,
    group: &Filter,
    layout: &LayoutChoice,
) -> Result<Prepared, String> {
    check_selection(dataset, spec)?;
    super::interval::named_interval(dataset, spec.interval)?;
    let layout = view_layout(dataset, layout)?;
    let sides = selection_conditions(dataset, spec);
    let signed = sides.len() == 2;
    // Link values are also signed when the attribute is a difference itself (the residual).
    let links_signed = signed
        || spec
            .link_attribute
            .as_deref()
            .is_some_and(crate::view_model::dataset::counters::is_signed_attribute);
    // One value engine: the loads when only the selection decides the rows, else the rows.
    let (values, problems) = match fabric_values(dataset, spec, group) {
        Some(fast) => (fast, Vec::new()),
        None => queried_values(dataset, spec, group, &sides),
    };
    let order = draw_order(&values.links);
    let mut prepared = Prepared {
        layout,
        node_values: values.nodes,
        link_values: values.links,
        node_pass: values.node_pass,
        link_pass: Vec::new(),
        clause_pass: values.link_pass,
        signed,
        links_signed,
        link_sides: values.link_sides,
        link_order: order,
        link_range: None,
        node_range: None,
        problems,
    };
    prepared.apply_value_filter(spec, group);
    Ok(prepared)
}

/// Where a layout puts the nodes of the data set's network.
fn view_layout(dataset: &Dataset, choice: &LayoutChoice) -> Result<ViewLayout, String> {
    let net = dataset.run.network();
    let torus = |kept| TorusLayout::new(net, kept).map_err(|e| e.to_string());
    Ok(match choice {
        LayoutChoice::FatTree if dataset.fabric.is_none() => {
            return Err("the fat tree needs fabric dumps".into());
        }
        LayoutChoice::FatTree => ViewLayout::FatTree,
        LayoutChoice::Torus(kept) => ViewLayout::Torus(torus(kept.clone())?),
        LayoutChoice::TorusDown(down) => {
            ViewLayout::Torus(torus(torus::KeptAxes::looking_down(net.axes.len(), *down))?)
        }
        LayoutChoice::Plane => ViewLayout::Plane(layout_plane(net)),
    })
}

/// The values and masks the query engine aggregates from the rows of each side (a diff is
/// A − B; the masks are side A's), and what went wrong on the way.
fn queried_values(
    dataset: &Dataset,
    spec: &ViewSpec,
    group: &Filter,
    sides: &[Vec<Condition>],
) -> (FabricValues, Vec<String>) {
    let run = &dataset.run;
    // A counter interval's columns in place of the whole window's, when the view names one.
    let overlay = super::interval::overlay(dataset, spec.interval);
    let overlay = overlay.as_ref();
    let mut problems = Vec::new();
    let mut link_sides = None;
    let mut values = |domain: Domain, attribute: &Option<String>| -> Vec<Option<f64>> {
        let Some(a) = attribute else { return Vec::new() };
        let per_side: Result<Vec<Vec<Option<f64>>>, _> = sides
            .iter()
            .map(|side| {
                let conditions = row_conditions(side, &spec.filter, group);
                query::values_over(run, overlay, domain, &conditions, spec.rows_aggregate(), a)
            })
            .collect();
        match per_side {
            Ok(v) if v.len() == 2 => {
                let delta = difference(&v[0], &v[1]);
                if domain == Domain::Links {
                    link_sides = <[Vec<Option<f64>>; 2]>::try_from(v).ok();
                }
                delta
            }
            Ok(mut v) => v.pop().unwrap_or_default(),
            Err(e) => {
                problems.push(format!("{domain} colour: {e}"));
                Vec::new()
            }
        }
    };
    let nodes = values(Domain::Nodes, &spec.node_attribute);
    let links = values(Domain::Links, &spec.link_attribute);
    let mut masks = |domain: Domain| {
        masks((run, overlay), domain, &sides[0], [&spec.filter, group]).unwrap_or_else(|e| {
            problems.push(format!("{domain} filter: {e}"));
            Vec::new()
        })
    };
    let (node_pass, link_pass) = (masks(Domain::Nodes), masks(Domain::Links));
    (FabricValues { links, nodes, link_sides, link_pass, node_pass }, problems)
}

/// A selection naming a region the data set does not have is an error the view shows.
fn check_selection(dataset: &Dataset, spec: &ViewSpec) -> Result<(), String> {
    use super::values::RegionSelection as S;
    use crate::routing::RegionKey;
    if spec.selection == S::Total {
        return Ok(());
    }
    let regions = dataset.regions();
    let has = |k: RegionKey| match k {
        RegionKey::Total => true,
        RegionKey::Region(n) => regions.iter().any(|r| r.number == n),
    };
    let ok = match spec.selection {
        S::Total => true,
        S::Region(n) | S::Cumulative(n) => has(RegionKey::Region(n)),
        S::Window(a, b) => has(RegionKey::Region(a)) && has(RegionKey::Region(b)),
        S::Diff(a, b) => has(a) && has(b),
    };
    if ok { Ok(()) } else { Err(format!("{} is not in this data set", spec.selection.label())) }
}

/// The rows that feed values: the selection's, and the clauses when they must all hold (under
/// "any", clauses only mask: a row cannot fail one clause and still count for another).
fn row_conditions(side: &[Condition], own: &Filter, group: &Filter) -> Vec<Condition> {
    let mut all = side.to_vec();
    for filter in [own, group] {
        if filter.combine == super::filter::Combine::All {
            all.extend(filter.clauses.iter().cloned());
        }
    }
    all
}

/// Ids that pass the selection and both filters' clauses (each filter with its own and/or).
fn masks(
    (run, overlay): (&Run, Option<&Overlay>),
    domain: Domain,
    side: &[Condition],
    filters: [&Filter; 2],
) -> Result<Vec<bool>, String> {
    let mut out: Option<Vec<bool>> = None;
    for filter in filters {
        if filter.clauses.is_empty() && out.is_some() {
            continue;
        }
        let mask = query::mask_combined_over(run, overlay, domain, side, (&filter.clauses, filter.combine))
            .map_err(|e| e.to_string())?;
        out = Some(match out {
            None => mask,
            Some(o) => o.into_iter().zip(mask).map(|(a, b)| a && b).collect(),
        });
    }
    Ok(out.unwrap_or_default())
}

/// `[0, max]`, or symmetric around 0 for signed values.
fn range_of(values: &[Option<f64>], signed: bool) -> Option<(f64, f64)> {
    let (lo, hi) = values_range(values)?;
    Some(if signed {
        let m = lo.abs().max(hi.abs());
        (-m, m)
    } else {
        (lo, hi)
    })
}

impl Prepared {
    /// Applies the value range and "hide unused" of the view's and its group's filters to the
    /// links that pass the clauses, and recomputes the view's own ranges: what a drag of the
    /// threshold slider or the histogram brush costs, without querying again.
    pub fn apply_value_filter(&mut self, spec: &ViewSpec, group: &Filter) {
        self.link_pass = self.clause_pass.clone();
        let by_value = |f: &Filter| f.value_range.is_some() || f.hide_unused;
        if by_value(&spec.filter) || by_value(group) {
            self.link_pass.resize(self.link_values.len().max(self.link_pass.len()), true);
            for (i, pass) in self.link_pass.iter_mut().enumerate() {
                let v = self.link_values.get(i).copied().flatten();
                *pass = *pass && spec.filter.value_passes(v) && group.value_passes(v);
            }
        }
        (self.link_range, self.node_range) = self.own_ranges(spec);
        // A % of capacity or of time is drawn on its whole scale, 0–100, so the thresholds on
        // its legend mean the same in every view.
        let percent = spec.link_attribute.as_deref().is_some_and(is_percent_attribute);
        if percent && !self.links_signed {
            self.link_range = Some((0.0, 100.0));
        }
    }

    /// The largest magnitude among the view's link values: what "percent of the maximum" means
    /// for the threshold, in the window, in scripted set-ups and in `shoal render` alike.
    pub fn link_max(&self) -> f64 {
        self.link_values.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()))
    }

    /// The view's own ranges: over every value (fat tree), the passing ones (plane), or the
    /// merged cells and links (torus).
    fn own_ranges(&self, spec: &ViewSpec) -> Ranges {
        let passing = |v: &[Option<f64>], p: &[bool]| -> Vec<Option<f64>> {
            v.iter().enumerate().map(|(i, x)| x.filter(|_| p.get(i).copied().unwrap_or(true))).collect()
        };
        match &self.layout {
            ViewLayout::FatTree => {
                (range_of(&self.link_values, self.links_signed), range_of(&self.node_values, self.signed))
            }
            ViewLayout::Torus(layout) => {
                let merged = TorusValues::compute(layout, &self.input(&Lit::default()), spec.merge);
                (range_of(&merged.links, self.links_signed), range_of(&merged.cells, self.signed))
            }
            ViewLayout::Plane(_) => (
                range_of(&passing(&self.link_values, &self.link_pass), self.links_signed),
                range_of(&passing(&self.node_values, &self.node_pass), self.signed),
            ),
        }
    }

    /// The network scene input, with a highlight.
    pub fn input<'a>(&'a self, lit: &'a Lit) -> NetworkInput<'a> {
        NetworkInput {
            node_values: &self.node_values,
            link_values: &self.link_values,
            node_pass: &self.node_pass,
            link_pass: &self.link_pass,
            node_lit: &lit.nodes,
            link_lit: &lit.links,
            link_order: &self.link_order,
        }
    }

    /// Whether a torus projection merges several links into one drawn link.
    pub fn merges(&self) -> bool {
        matches!(&self.layout, ViewLayout::Torus(l) if l.links.iter().any(|m| m.members.len() > 1))
    }
}
