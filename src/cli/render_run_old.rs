//! `shoal render RUN --module torus|generic2d`: a run's torus or generic-2D view, written as PNG
//! or SVG headless, through the same [`crate::scene::run_view`] steps the window takes.

use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::model::{Run, Warning};
use crate::scene::camera::Camera;
use crate::scene::colour::{ColourMap, ScaleKind};
use crate::scene::orbit::Orbit;
use crate::scene::query::{self, Condition};
use crate::scene::run_view::{RunHighlight, RunModule, RunViewSpec, prepare, region_attribute};

/// Which module draws a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleArg {
    Torus,
    Generic2d,
}

impl ModuleArg {
    pub fn parse(text: &str) -> Option<ModuleArg> {
        match text.trim().to_ascii_lowercase().as_str() {
            "torus" => Some(ModuleArg::Torus),
            "generic2d" | "generic-2d" | "2d" => Some(ModuleArg::Generic2d),
            _ => None,
        }
    }
}

/// Validated arguments of `shoal render RUN --module …`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRenderArgs {
    /// A Boxfish `*_meta.yaml`, or a CSV pair (its folder or `nodes.csv`).
    pub run: PathBuf,
    pub module: ModuleArg,
    /// Yaw and pitch in degrees (see [`Orbit::from_yaw_pitch`]); `None`: the default view.
    pub rotate: Option<(f32, f32)>,
    /// The flattened torus view looking down this axis (a name or an index).
    pub down: Option<String>,
    /// The kept axes of a torus of more than 3 (names or indices).
    pub axes: Option<Vec<String>>,
    /// Conditions `ATTR REL VALUE`, ANDed.
    pub conditions: Vec<String>,
    /// Shorthand for `code_region = N` (`region = N` in a CSV pair).
    pub region: Option<u32>,
    pub link_attribute: Option<String>,
    pub node_attribute: Option<String>,
    pub rows: query::Aggregate,
    pub merge: crate::layout::torus::Aggregate,
    pub colour_map: Option<ColourMap>,
    pub scale: ScaleKind,
    pub width: u32,
    pub height: u32,
    pub out: PathBuf,
}

/// What a run render did.
#[derive(Debug)]
pub struct RunRenderReport {
    pub halves: usize,
    pub marks: usize,
    pub problems: Vec<String>,
    pub warnings: Vec<Warning>,
}

/// Loads a run: a Boxfish meta file, a CSV pair (or `shoal convert`'s output), or a folder of
/// either (see [`crate::profile_io::runs::load_run`]).
pub fn load_any_run(path: &std::path::Path) -> anyhow::Result<(Run, Vec<Warning>)> {
    crate::profile_io::runs::load_run(path).with_context(|| format!("cannot read the run {}", path.display()))
}

/// An axis by name (`x`, `c`) or index (`2`).
pub fn axis_index(axes: &[String], text: &str) -> anyhow::Result<usize> {
    let t = text.trim();
    if let Some(i) = axes.iter().position(|a| a.eq_ignore_ascii_case(t)) {
        return Ok(i);
    }
    match t.parse::<usize>() {
        Ok(i) if i < axes.len() => Ok(i),
        _ => bail!("no axis `{t}` (the run's axes: {})", axes.join(" ")),
    }
}

/// The view spec the flags describe.
pub fn spec_from_args(run: &Run, args: &RunRenderArgs) -> anyhow::Result<RunViewSpec> {
    let mut spec = RunViewSpec::for_run(run);
    let axes = &run.network().axes;
    spec.module = match (args.module, &args.down, &args.axes) {
        (ModuleArg::Generic2d, None, None) => RunModule::Generic2d,
        (ModuleArg::Generic2d, _, _) => bail!("--down and --axes apply to --module torus"),
        (ModuleArg::Torus, Some(_), Some(_)) => {
            bail!("--down (the flat view) and --axes (the 3D view) exclude each other")
        }
        (ModuleArg::Torus, Some(d), None) => RunModule::TorusFlat { down: axis_index(axes, d)? },
        (ModuleArg::Torus, None, Some(kept)) => RunModule::Torus {
            kept: kept.iter().map(|a| axis_index(axes, a)).collect::<anyhow::Result<_>>()?,
        },
        (ModuleArg::Torus, None, None) => RunModule::Torus { kept: (0..axes.len().min(3)).collect() },
    };
    for c in &args.conditions {
        spec.conditions.push(Condition::parse(c)?);
    }
    if let Some(r) = args.region {
        let Some(attribute) = region_attribute(run) else {
            bail!("--region: the run has no code_region or region")
        };
        spec.conditions.push(Condition::parse(&format!("{attribute} = {r}"))?);
    }
    if args.link_attribute.is_some() {
        spec.link_attribute = args.link_attribute.clone();
    }
    if args.node_attribute.is_some() {
        spec.node_attribute = args.node_attribute.clone();
    }
    spec.rows = args.rows;
    spec.merge = args.merge;
    if let Some(map) = args.colour_map {
        spec.link_map = map;
    }
    spec.scale = args.scale;
    Ok(spec)
}

pub fn render_run(args: &RunRenderArgs) -> anyhow::Result<RunRenderReport> {
    if args.width < 64 || args.height < 64 || args.width > 16384 || args.height > 16384 {
        bail!("--width and --height must be between 64 and 16384 pixels");
    }
    if crate::export::Format::of_path(&args.out).is_none() {
        bail!("{}: the output must end in .png or .svg", args.out.display());
    }
    let (run, warnings) = load_any_run(&args.run)?;
    let spec = spec_from_args(&run, args)?;
    let prepared = prepare(&run, &spec, &[]).map_err(anyhow::Error::msg)?;
    let orbit = args.rotate.map_or_else(Orbit::default, |(yaw, pitch)| Orbit::from_yaw_pitch(yaw, pitch));
    let ppp = crate::export::pixels_per_point_for(args.width, args.height);
    let plot = crate::scene::draw::plot_rect(args.width as f32 / ppp, args.height as f32 / ppp);
    let lit = RunHighlight::default().lit(&run);
    let scene = prepared.scene(&run, &spec, (None, None), &lit, &orbit, plot.w / plot.h.max(1.0));
    crate::export::write(&scene, &Camera::default(), args.width, args.height, &args.out)?;
    Ok(RunRenderReport {
        halves: scene.halves.len(),
        marks: scene.marks.len(),
        problems: prepared.problems,
        warnings,
    })
}
