//! What one view shows, for every module alike: which module draws it, which region, its
//! filter, which attributes colour links and nodes and how. The same [`ViewSpec`] drives a fat
//! tree, a torus and a generic-2D view of a fabric or of a run; [`super::prepare`] turns it into
//! values, masks and a scene.

use crate::layout::torus;
use crate::model::network::Shape;
use crate::model::{Domain, Run};
use crate::routing::RegionKey;

use super::colour_choice::{ColourMap, ScaleKind};
use super::dataset::Dataset;
pub use super::dataset::region_attribute;
use super::filter::{Filter, Relation};
use super::query::{self, Condition};
use super::routing_shown::RoutingShown;
use super::values::RegionSelection;

pub use super::module_spec::ModuleSpec;

/// The module a data set suits: the fat tree for a fabric, the 3D torus for a torus (its first
/// three axes), generic 2D for a plane. Class ids only: the classes are `modules`'.
pub fn default_module(dataset: &Dataset) -> ModuleSpec {
    if dataset.fabric.is_some() {
        return ModuleSpec::of("fat_tree");
    }
    match &dataset.run.network().shape {
        Shape::Torus { dims } => ModuleSpec::with("torus", &torus::KeptAxes::first_three(dims.len())),
        Shape::Plane => ModuleSpec::of("generic_2d"),
    }
}

/// The fabric attributes that hold adaptive-routing loads (see `routing::ar`): modelled.
pub const AR_MODELLED: [&str; 2] = ["bytes_ar", "ar_minus_static"];

/// What a view shows and how.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ViewSpec {
    /// The class that draws the view, with its parameters.
    pub module: ModuleSpec,
    /// Which region's rows (see [`selection_conditions`]).
    pub selection: RegionSelection,
    /// Which job's rows, when the data set has jobs: a job's name, `all` (the sum over jobs) or
    /// `contention` (the second-largest job's bytes per end; single-job ends 0, neutral).
    /// `None`: the data set's default ([`ViewSpec::job_shown`]).
    pub job: Option<String>,
    /// A diff's side B job (`None`: the same as side A's), so two jobs diff like two regions.
    pub job_b: Option<String>,
    /// The view's own filter; its link group's is ANDed in.
    pub filter: Filter,
    /// The link and node attributes that colour; `None`: neutral.
    pub link_attribute: Option<String>,
    pub node_attribute: Option<String>,
    /// How an id's passing rows combine (a cumulative selection always sums).
    pub rows: query::Aggregate,
    /// How merged nodes and links of a torus projection combine.
    pub merge: torus::Aggregate,
    pub link_map: ColourMap,
    pub node_map: ColourMap,
    /// For signed values (a diff); sequential maps are swapped for this one.
    pub diverging_map: ColourMap,
    pub scale: ScaleKind,
    /// Empty: a title made from the data set, module and selection.
    pub title: String,
    /// A fabric's health layer on top: degraded links dashed, ports whose error counters moved
    /// ringed (issue 22). Written to a session only when on, so older sessions read the same.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub health_layer: bool,
    /// The counter interval whose values the counter attributes show (0-based, in the series'
    /// order; the strip and titles count from 1), set by the link group's time cursor; `None`:
    /// the whole window ([`super::interval`]). Written to a session only when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<u32>,
}

impl Default for ViewSpec {
    fn default() -> Self {
        ViewSpec {
            module: ModuleSpec::of("fat_tree"),
            selection: RegionSelection::Total,
            job: None,
            job_b: None,
            filter: Filter::default(),
            link_attribute: Some("bytes".into()),
            node_attribute: Some("bytes_sent".into()),
            rows: query::Aggregate::Sum,
            merge: torus::Aggregate::Mean,
            link_map: ColourMap::default(),
            node_map: ColourMap::default(),
            diverging_map: ColourMap::RdBu,
            scale: ScaleKind::Linear,
            title: String::new(),
            health_layer: false,
            interval: None,
        }
    }
}

impl ViewSpec {
    /// The data set's natural module. A fabric is coloured by bytes (links: sent at that end;
    /// nodes: sent into their links), summed over a region's rows; a run by its first numeric
    /// link and node attributes that are not ids or coordinates, averaged.
    pub fn for_dataset(dataset: &Dataset) -> ViewSpec {
        let module = default_module(dataset);
        if dataset.fabric.is_some() {
            let mut spec = ViewSpec { module, ..Default::default() };
            if dataset.routing == crate::view_model::RoutingMode::Ar {
                spec.show_routing(RoutingShown::ArModelled);
            }
            if counters_alone(dataset) {
                // Nothing was traced: predicted bytes are all 0 B; what the counters saw is the picture.
                spec.link_attribute = Some(super::dataset::counters::OBSERVED.into());
                spec.node_attribute = None;
            }
            return spec;
        }
        let run = &dataset.run;
        ViewSpec {
            module,
            link_attribute: default_attribute(run, Domain::Links),
            node_attribute: default_attribute(run, Domain::Nodes),
            rows: query::Aggregate::Mean,
            node_map: ColourMap::Viridis,
            ..Default::default()
        }
    }

    /// `packets (mean)`; with a projection that merges, `packets (mean/sum)`.
    pub fn caption(&self, attribute: Option<&str>, merges: bool) -> String {
        let rows = self.rows_aggregate().name();
        // Adaptive-routing loads are a model's spread, not a trace: say so wherever they show.
        let modelled = attribute.filter(|a| AR_MODELLED.contains(a)).map(|a| format!("{a}, AR modelled"));
        // A contention view's values are not any one job's bytes: name what they are.
        let contention = (self.job.as_deref() == Some(super::dataset::CONTENTION)).then(|| {
            format!("{}: second-largest job's", modelled.as_deref().or(attribute).unwrap_or_default())
        });
        match contention.as_deref().filter(|_| attribute.is_some()).or(modelled.as_deref()).or(attribute) {
            None => "not coloured".into(),
            Some(a) if merges => format!("{a} ({rows}/{})", self.merge.name()),
            Some(a) if self.selection.is_diff() => format!("{a} ({rows}), A − B"),
            Some(a) => format!("{a} ({rows})"),
        }
    }

    /// The job whose rows side A shows, if the data set has jobs: the chosen one, else its only
    /// job, else `all`.
    pub fn job_shown(&self, dataset: &Dataset) -> Option<String> {
        let jobs = dataset.jobs();
        if jobs.is_empty() {
            return None;
        }
        Some(self.job.clone().unwrap_or_else(|| match jobs {
            [one] => one.clone(),
            _ => super::dataset::ALL_JOBS.to_string(),
        }))
    }

    /// Side B's job of a diff.
    pub fn job_shown_b(&self, dataset: &Dataset) -> Option<String> {
        self.job_b.clone().filter(|_| !dataset.jobs().is_empty()).or_else(|| self.job_shown(dataset))
    }

    /// The trace the view shows where the dumps hold AR tables (its link colour), if one.
    pub fn routing_shown(&self) -> Option<RoutingShown> {
        RoutingShown::of_attribute(self.link_attribute.as_deref())
    }

    /// Shows a trace: colours the link ends by its attribute.
    pub fn show_routing(&mut self, shown: RoutingShown) {
        self.link_attribute = Some(shown.attribute().to_string());
    }

    /// How rows combine under this selection: a cumulative view sums its regions.
    pub fn rows_aggregate(&self) -> query::Aggregate {
        match self.selection {
            RegionSelection::Cumulative(_) | RegionSelection::Window(..) => query::Aggregate::Sum,
            _ => self.rows,
        }
    }

    /// Whether the view's interval changes what it shows: it colours links by, or filters on, a
    /// counter attribute an interval changes ([`super::interval::PER_INTERVAL`]).
    pub fn interval_applies(&self) -> bool {
        let changes = |a: &str| super::interval::PER_INTERVAL.contains(&a);
        self.interval.is_some()
            && (self.link_attribute.as_deref().is_some_and(changes)
                || self.filter.clauses.iter().any(|c| changes(c.attribute.as_str())))
    }

    /// `name — module — selection — clauses`, where the view's class calls its module
    /// `module_title` (`modules::registry::module_title`).
    pub fn default_title(&self, dataset: &Dataset, module_title: &str) -> String {
        let module = module_title.to_string();
        let mut parts = vec![dataset.name.clone(), module];
        if dataset.region_rows().attribute.is_some() {
            parts.push(self.selection.label());
        }
        // Which interval the counter colours are of, when the time cursor picked one.
        if let Some(n) = self.interval.filter(|_| self.interval_applies())
            && let Ok(Some(interval)) = super::interval::named_interval(dataset, Some(n))
        {
            parts.push(super::interval::label(n, interval));
        }
        match (self.job_shown(dataset), self.job_shown_b(dataset)) {
            (Some(a), Some(b)) if self.selection.is_diff() && a != b => {
                parts.push(format!("job {a} − job {b}"))
            }
            (Some(a), _) => parts.push(format!("job {a}")),
            _ => {}
        }
        // Which trace, where the dumps hold AR tables: AR loads are a model, never unlabelled.
        if RoutingShown::available(dataset) {
            parts.push(match self.routing_shown() {
                Some(RoutingShown::ArModelled) => "AR spread (modelled)".into(),
                Some(RoutingShown::ArMinusStatic) => "AR − static (modelled)".into(),
                _ => "static routing".to_string(),
            });
        }
        let clauses: Vec<String> = self.filter.clauses.iter().map(|c| c.to_string()).collect();
        if !clauses.is_empty() {
            parts.push(clauses.join(if self.filter.combine == super::filter::Combine::Any {
                " or "
            } else {
                " and "
            }));
        }
        parts.join(" — ")
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

/// The row conditions a selection stands for: `[A]` or, for a diff, `[A, B]`. The whole run is
/// its negative-region rows when the run has them (so the mean of a total and its own parts is
/// never taken), else every row. A region clause the user typed in the filter wins over the
/// selection. Cumulative: regions `0..=n` (summed, see [`ViewSpec::rows_aggregate`]). When the
/// data set has jobs, each side also keeps its job's rows (`job = NAME`), unless the filter
/// names a job itself.
pub fn selection_conditions(dataset: &Dataset, spec: &ViewSpec) -> Vec<Vec<Condition>> {
    let mut sides = region_conditions(dataset, spec);
    if spec.filter.clauses.iter().any(|c| c.attribute == "job") {
        return sides;
    }
    let jobs = [spec.job_shown(dataset), spec.job_shown_b(dataset)];
    for (side, job) in sides.iter_mut().zip(jobs) {
        if let Some(job) = job {
            side.push(Condition { attribute: "job".into(), relation: Relation::Eq, value: job });
        }
    }
    sides
}

/// The region part of [`selection_conditions`].
fn region_conditions(dataset: &Dataset, spec: &ViewSpec) -> Vec<Vec<Condition>> {
    let rows = dataset.region_rows();
    let Some(attribute) = rows.attribute.clone() else { return vec![Vec::new()] };
    if spec.filter.clauses.iter().any(|c| c.attribute == attribute) {
        return vec![Vec::new()];
    }
    let clause = |relation: Relation, value: f64| Condition {
        attribute: attribute.clone(),
        relation,
        value: if value.fract() == 0.0 { format!("{value:.0}") } else { value.to_string() },
    };
    let key = |k: RegionKey| match k {
        RegionKey::Total => rows.whole.map(|w| clause(Relation::Eq, w)).into_iter().collect(),
        RegionKey::Region(n) => vec![clause(Relation::Eq, f64::from(n))],
    };
    match spec.selection {
        RegionSelection::Total => vec![key(RegionKey::Total)],
        RegionSelection::Region(n) => vec![key(RegionKey::Region(n))],
        RegionSelection::Cumulative(n) => {
            vec![vec![clause(Relation::Ge, 0.0), clause(Relation::Le, f64::from(n))]]
        }
        RegionSelection::Window(a, b) => {
            vec![vec![clause(Relation::Ge, f64::from(a.min(b))), clause(Relation::Le, f64::from(a.max(b)))]]
        }
        RegionSelection::Diff(a, b) => vec![key(a), key(b)],
    }
}

/// A fabric opened with port counters and no traffic traced (no profile, job or loads file):
/// its views colour what the counters observed.
pub fn counters_alone(dataset: &Dataset) -> bool {
    dataset.fabric.as_ref().is_some_and(|f| {
        f.observed.is_some()
            && f.profile.is_none()
            && f.jobs.is_empty()
            && f.loads.total.rails.iter().all(|r| r.bytes.nonzero().next().is_none())
    })
}

/// Whether a fabric has columns for a time strip: regions, or counter intervals (a series of
/// three or more snapshots).
pub fn has_time(dataset: &Dataset) -> bool {
    dataset.fabric.as_ref().is_some_and(|f| {
        !dataset.regions().is_empty() || f.observed.as_ref().is_some_and(|o| !o.series.is_empty())
    })
}

/// Whether a fabric's counters span an interval with times (two snapshots or a series).
pub fn has_counter_interval(dataset: &Dataset) -> bool {
    let observed = dataset.fabric.as_ref().and_then(|f| f.observed.as_ref());
    observed.is_some_and(|o| !o.series.is_empty() || o.window.as_ref().and_then(|w| w.seconds()).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_name_the_rows_and_what_the_values_are() {
        let plain = ViewSpec::default();
        assert_eq!(plain.caption(Some("bytes"), false), "bytes (sum)");
        assert_eq!(plain.caption(Some("bytes_ar"), false), "bytes_ar, AR modelled (sum)");
        assert_eq!(plain.caption(None, false), "not coloured");
        let contention = ViewSpec { job: Some("contention".into()), ..Default::default() };
        assert_eq!(contention.caption(Some("bytes"), false), "bytes: second-largest job's (sum)");
        assert_eq!(contention.caption(None, false), "not coloured");
    }
}
