//! `shoal render`'s flags → the one [`ViewSpec`] every module draws from (the window builds the
//! same spec from its panels), and the pieces of flag syntax that need more than clap: the
//! module, the threshold, axes by name.

use anyhow::{Result, bail};
use shoal::layout::torus::TorusError;
use shoal::layout::torus::{KeptAxes, LookingDown};
use shoal::model::Shape;
use shoal::routing::RegionKey;
use shoal::view_model::dataset::{ALL_JOBS, CONTENTION};
use shoal::view_model::filter::Clause;
use shoal::view_model::view::default_module;
use shoal::view_model::view::region_attribute;
use shoal::view_model::{ColourMap, Dataset, ModuleSpec, RegionSelection, ScaleKind, ViewSpec};

use super::render_args::{ColourBy, ModuleArg, RenderCli};

/// An axis by name (`x`, `c`) or index (`2`).
pub fn axis_index(axes: &[String], text: &str) -> Result<usize> {
    let t = text.trim();
    if let Some(i) = axes.iter().position(|a| a.eq_ignore_ascii_case(t)) {
        return Ok(i);
    }
    match t.parse::<usize>() {
        Ok(i) if i < axes.len() => Ok(i),
        _ => bail!("no axis `{t}` (the run's axes: {})", axes.join(" ")),
    }
}

/// The link attribute `--colour-by` names: `None` keeps the data set's default (bytes).
fn colour_attribute(dataset: &Dataset, r: &RenderCli) -> Result<Option<String>> {
    use shoal::view_model::dataset::counters::{OBSERVED, RESIDUAL};
    use shoal::view_model::dataset::link_health::{ERRORS, STALL, UTILISATION, why_empty};
    let name = match r.colour_by {
        ColourBy::Predicted | ColourBy::Job(_) => return Ok(None),
        ColourBy::Observed => OBSERVED,
        ColourBy::Residual => RESIDUAL,
        ColourBy::Utilisation => UTILISATION,
        ColourBy::Stall => STALL,
        ColourBy::Errors => ERRORS,
    };
    let Some(observed) = dataset.fabric.as_ref().and_then(|f| Some((&f.cluster, f.observed.as_ref()?)))
    else {
        bail!("--colour-by {name} needs --counters (and fabric dumps)");
    };
    // An empty colouring is drawn (every end neutral) but never unexplained.
    if let Some(why) = why_empty(observed.0, observed.1, name) {
        eprintln!("shoal: warning: --colour-by {name}: every link end is empty: {why}");
    }
    Ok(Some(name.to_string()))
}

/// The view the flags describe, on the data set's own defaults ([`ViewSpec::for_dataset`]).
/// The threshold is not in it yet: it is a fraction of the prepared view's range (see
/// [`super::render::run`]).
pub fn spec_from_flags(dataset: &Dataset, r: &RenderCli) -> Result<ViewSpec> {
    let mut spec = ViewSpec::for_dataset(dataset);
    spec.module = module_kind(dataset, r)?;
    spec.link_attribute = colour_attribute(dataset, r)?.or(spec.link_attribute);
    spec.selection = selection(dataset, r)?;
    jobs(dataset, r, &mut spec)?;
    for c in &r.conditions {
        spec.filter.clauses.push(Clause::parse(c)?);
    }
    spec.filter.hide_unused = r.hide_unused;
    spec.health_layer = r.health_layer;
    spec.interval = interval(dataset, r)?;
    if r.routing == super::common::Routing::Ar {
        if dataset.fabric.as_ref().is_none_or(|f| f.ar_loads.is_none()) {
            bail!(
                "--routing ar: the dumps hold no adaptive-routing tables (ibdiagnet2.far); nothing to spread"
            );
        }
        spec.link_attribute = Some("bytes_ar".into());
    }
    if r.attr.is_some() {
        spec.link_attribute = r.attr.clone();
    }
    if r.node_attr.is_some() {
        spec.node_attribute = r.node_attr.clone();
    }
    if let Some(rows) = r.agg {
        spec.rows = rows;
    }
    spec.merge = r.merge;
    if let Some(map) = r.colormap {
        colour_map(&mut spec, map, dataset.fabric.is_some());
    }
    spec.scale = if r.log { ScaleKind::Log } else { ScaleKind::Linear };
    Ok(spec)
}

/// `--interval N`, counted from 1, as the spec's 0-based interval; an interval the counters'
/// series lacks is an error saying which it has.
fn interval(dataset: &Dataset, r: &RenderCli) -> Result<Option<u32>> {
    let Some(n) = r.interval else { return Ok(None) };
    let Some(index) = n.checked_sub(1) else { bail!("--interval: intervals are counted from 1") };
    if let Err(why) = shoal::view_model::interval::named_interval(dataset, Some(index)) {
        bail!("--interval {n}: {why}");
    }
    Ok(Some(index))
}

/// `--module`, `--down` and `--axes`; no `--module`: the data set's natural module.
fn module_kind(dataset: &Dataset, r: &RenderCli) -> Result<ModuleSpec> {
    let net = dataset.run.network();
    let axes = &net.axes;
    let module = match (r.module, &r.down, &r.axes) {
        (None, None, None) => default_module(dataset),
        (Some(ModuleArg::FatTree), None, None) => ModuleSpec::of("fat_tree"),
        (Some(ModuleArg::TimeStrip), None, None) => ModuleSpec::of("time_strip"),
        (Some(ModuleArg::Generic2d), None, None) => ModuleSpec::of("generic_2d"),
        (Some(ModuleArg::Matrix), None, None) => ModuleSpec::with("matrix", &r.matrix.options()),
        (Some(ModuleArg::Congestion), None, None) => ModuleSpec::of("congestion"),
        (
            None
            | Some(
                ModuleArg::FatTree
                | ModuleArg::Generic2d
                | ModuleArg::TimeStrip
                | ModuleArg::Matrix
                | ModuleArg::Congestion,
            ),
            _,
            _,
        ) => {
            bail!("--down and --axes apply to --module torus")
        }
        (Some(ModuleArg::Torus), Some(_), Some(_)) => {
            bail!("--down (the flat view) and --axes (the 3D view) exclude each other")
        }
        (Some(ModuleArg::Torus), Some(d), None) => {
            ModuleSpec::with("torus_flat", &LookingDown { down: axis_index(axes, d)? })
        }
        (Some(ModuleArg::Torus), None, Some(kept)) => {
            let kept = kept.iter().map(|a| axis_index(axes, a)).collect::<Result<_>>()?;
            ModuleSpec::with("torus", &KeptAxes { kept })
        }
        (Some(ModuleArg::Torus), None, None) => ModuleSpec::with("torus", &KeptAxes::first_three(axes.len())),
    };
    let torus = module.is("torus") || module.is("torus_flat");
    if torus && !matches!(net.shape, Shape::Torus { .. }) {
        return Err(TorusError::NotATorus.into());
    }
    Ok(module)
}

/// `--region N` (a fabric's profile region, or a run's `code_region`/`region` value) or
/// `--diff A B`; neither: the whole data set. A region the data set lacks is an error that
/// lists the ones it has.
fn selection(dataset: &Dataset, r: &RenderCli) -> Result<RegionSelection> {
    let diff = r.diff.as_ref().and_then(|v| Some((*v.first()?, *v.get(1)?)));
    let selection = match (r.region, diff) {
        (Some(_), Some(_)) => bail!("--region and --diff exclude each other"),
        (Some(n), None) => RegionSelection::Region(n),
        (None, Some((a, b))) => RegionSelection::Diff(RegionKey::Region(a), RegionKey::Region(b)),
        (None, None) => return Ok(RegionSelection::Total),
    };
    match &dataset.fabric {
        Some(fabric) if fabric.profile.is_none() && fabric.jobs.is_empty() => {
            bail!("the fabric has no profile, so no such region: --region and --diff need --profile")
        }
        None if region_attribute(&dataset.run).is_none() => {
            bail!("--region: the run has no code_region or region")
        }
        _ => {}
    }
    let have: Vec<u32> = dataset.regions().iter().map(|r| r.number).collect();
    let named = match selection {
        RegionSelection::Diff(a, b) => vec![a, b],
        _ => r.region.map(RegionKey::Region).into_iter().collect(),
    };
    let missing = named.iter().any(|k| matches!(k, RegionKey::Region(n) if !have.contains(n)));
    if missing {
        let have: Vec<String> = have.iter().map(u32::to_string).collect();
        let what = if dataset.fabric.is_some() { "profile" } else { "run" };
        bail!("the {what} has no such region (it has: {})", have.join(", "));
    }
    Ok(selection)
}

/// `--colour-by` and `--diff-jobs`: which job's rows each side shows. Naming a job the data set
/// lacks is an error listing the ones it has.
fn jobs(dataset: &Dataset, r: &RenderCli, spec: &mut ViewSpec) -> Result<()> {
    let jobs = dataset.jobs();
    let colour_job = match &r.colour_by {
        ColourBy::Job(job) => Some(job),
        _ => None,
    };
    if jobs.is_empty() && (colour_job.is_some() || r.diff_jobs.is_some()) {
        bail!("--colour-by job:NAME|all|contention and --diff-jobs need jobs (--job NAME=PROFILE)");
    }
    let known = |name: &str| -> Result<String> {
        if name == ALL_JOBS || name == CONTENTION || jobs.iter().any(|j| j == name) {
            return Ok(name.to_string());
        }
        bail!("no job named {name} (the jobs: {})", jobs.join(", "))
    };
    if let Some(job) = colour_job {
        spec.job = Some(known(job)?);
    }
    if let Some([a, b]) = r.diff_jobs.as_deref() {
        spec.selection = RegionSelection::Diff(RegionKey::Total, RegionKey::Total);
        spec.job = Some(known(a)?);
        spec.job_b = Some(known(b)?);
    }
    Ok(())
}

/// `--colormap`, with the meaning it has always had: a sequential map colours a fabric's links
/// and nodes (both show bytes) but only a run's links (its nodes keep their own map); a
/// diverging map is for `--diff` on a fabric, and colours a run's links as given.
fn colour_map(spec: &mut ViewSpec, map: ColourMap, fabric: bool) {
    if map.is_diverging() {
        spec.diverging_map = map;
        if !fabric {
            spec.link_map = map;
        }
    } else {
        spec.link_map = map;
        if fabric {
            spec.node_map = map;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::render_args::Threshold;
    use super::*;

    #[test]
    fn thresholds_parse_as_bytes_or_percent() {
        assert_eq!(Threshold::parse("25%"), Some(Threshold::Percent(25.0)));
        assert_eq!(Threshold::parse("2 MiB"), Some(Threshold::Bytes(2.0 * 1048576.0)));
        assert_eq!(Threshold::parse("120%"), None);
        assert_eq!(Threshold::parse("-3"), None);
        assert_eq!(Threshold::Percent(50.0).bytes(10.0), 5.0);
    }

    #[test]
    fn modules_parse_in_every_spelling_and_pick_the_road() {
        for (text, module) in [
            ("fattree", ModuleArg::FatTree),
            ("Fat-Tree", ModuleArg::FatTree),
            ("torus", ModuleArg::Torus),
            ("generic2d", ModuleArg::Generic2d),
            ("generic-2d", ModuleArg::Generic2d),
            ("2d", ModuleArg::Generic2d),
        ] {
            assert_eq!(ModuleArg::parse(text), Some(module), "{text}");
        }
        assert_eq!(ModuleArg::parse("ring"), None);
    }

    #[test]
    fn axes_are_named_or_numbered() {
        let axes: Vec<String> = ["x", "y", "z"].map(String::from).into();
        assert_eq!(axis_index(&axes, "Z").unwrap(), 2);
        assert_eq!(axis_index(&axes, "1").unwrap(), 1);
        assert_eq!(axis_index(&axes, "w").unwrap_err().to_string(), "no axis `w` (the run's axes: x y z)");
    }
}
