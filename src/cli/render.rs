//! `shoal render`: one view of a data set, written as PNG or SVG without a window, down the one
//! road the window takes: load a [`Dataset`] (the RAILs' fabric and profile, or one run), build
//! one [`ViewSpec`] from the flags ([`super::render_spec`]), `prepare` it, draw its scene and
//! paint it with `shoal::export`.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use shoal::layout::torus;
use shoal::load::{LoadRequest, load_dataset, load_run_dataset};
use shoal::scene::camera::Camera;
use shoal::scene::colour::ColourMap;
use shoal::scene::draw::plot_rect;
use shoal::scene::highlight::{Highlight, project};
use shoal::scene::orbit::Orbit;
use shoal::scene::query;
use shoal::scene::{Dataset, Filter, ModuleKind, ViewSpec, prepare};

use shoal::scene::time_strip::StripRows;

use super::common::{CounterArgs, JobArgs, LayoutArgs, RailArgs, report_warnings};
use super::render_strip::StripColumns;

/// What colours the link ends of a fabric: `predicted`, `observed`, `residual` (port
/// counters), or with jobs `job:NAME`, `all` or `contention` (a job's rows, named as the data
/// set's `job` column names them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ColourBy {
    #[default]
    Predicted,
    Observed,
    Residual,
    /// A job's name, `all` or `contention`.
    Job(String),
}
use super::render_spec::{ModuleArg, Threshold, spec_from_flags};

#[derive(Args, Debug)]
pub struct RenderCli {
    #[command(flatten)]
    pub rails: RailArgs,
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// `static` (the default): loads traced through the forwarding tables; `ar`: where the dumps
    /// hold adaptive-routing tables (ibdiagnet2.far), the AR spread (modelled), colouring by
    /// `bytes_ar`. Both are computed whenever AR tables are found.
    #[arg(long, value_name = "static|ar", default_value = "static", value_parser = super::common::parse_routing)]
    pub routing: super::common::Routing,
    /// The ibprof profile whose traffic colours the links.
    #[arg(long, value_name = "P", conflicts_with = "loads")]
    pub profile: Option<PathBuf>,
    /// A loads file (`IBPROF_LOADS`, or `shoal convert`'s links.csv) instead of a profile.
    #[arg(long, value_name = "FILE")]
    pub loads: Option<PathBuf>,
    #[command(flatten)]
    pub counters: CounterArgs,
    #[command(flatten)]
    pub jobs: JobArgs,
    /// What colours the link ends: the predicted bytes (the profile's trace), the observed ones
    /// (port counters, needs --counters), or the residual observed − predicted (diverging map);
    /// with jobs, one job's bytes (`job:NAME`), their sum (`all`, the default with several
    /// jobs), or `contention` (each end by the second-largest job's bytes there; ends one job or
    /// none used stay neutral).
    #[arg(
        long,
        value_name = "predicted|observed|residual|job:NAME|all|contention",
        default_value = "predicted",
        value_parser = parse_colour_by
    )]
    pub colour_by: ColourBy,
    /// Job A's total minus job B's, on a diverging colour map (the jobs' diff).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["diff", "region"])]
    pub diff_jobs: Option<Vec<String>>,
    /// One region's own traffic (default: the cumulative total).
    #[arg(long, conflicts_with = "diff")]
    pub region: Option<u32>,
    /// Region A minus region B, on a diverging colour map.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub diff: Option<Vec<u32>>,
    /// Hide link ends below this: bytes (`2MiB`) or percent of the maximum (`25%`).
    #[arg(long, value_parser = parse_threshold)]
    pub threshold: Option<Threshold>,
    /// copper, viridis, cividis, magma (sequential); rdbu, puor (for --diff).
    #[arg(long, value_parser = parse_colour_map)]
    pub colormap: Option<ColourMap>,
    /// Colour by log(1 + bytes) instead of bytes.
    #[arg(long)]
    pub log: bool,
    /// Hide link ends that carried no bytes.
    #[arg(long)]
    pub hide_unused: bool,
    #[arg(long, default_value_t = 1920)]
    pub width: u32,
    #[arg(long, default_value_t = 1080)]
    pub height: u32,
    /// The output file: .png or .svg.
    #[arg(long)]
    pub out: PathBuf,
    /// The module that draws the view: `fattree` (the default: the RAILs' fabric), or `torus` or
    /// `generic2d` to draw a run (a Boxfish `*_meta.yaml` or a CSV pair, given as the one RAIL
    /// argument); `--region N` then picks the rows whose `code_region` (`region` in a CSV pair) is N.
    /// `time-strip`: the fabric's traffic over time, regions (or the intervals of three or more
    /// `--counters` snapshots) × link-end groups; `--region N` outlines that region.
    #[arg(long, value_parser = parse_module)]
    pub module: Option<ModuleArg>,
    /// With `--module time-strip`: the rows, `groups` (rail · level · direction) or `top:N`
    /// (the N busiest link ends).
    #[arg(long, value_name = "groups|top:N", default_value = "groups", value_parser = parse_strip_rows)]
    pub strip_rows: StripRows,
    /// With `--module time-strip`: the columns, `regions` (the profile's, in dump-time order) or
    /// `intervals` (between consecutive `--counters` snapshots). Default: regions when the profile
    /// has any, else intervals.
    #[arg(long, value_name = "regions|intervals", value_parser = parse_strip_columns)]
    pub strip_columns: Option<StripColumns>,
    /// Torus view angles in degrees, `YAW,PITCH` (0,0 looks straight down −z; default −35,25).
    #[arg(long, value_name = "YAW,PITCH", value_parser = parse_rotate)]
    pub rotate: Option<(f32, f32)>,
    /// The flattened torus view, looking down this axis (name or index).
    #[arg(long, value_name = "AXIS")]
    pub down: Option<String>,
    /// The three kept axes of a 5D torus, e.g. `a,c,e`; the others are aggregated.
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub axes: Option<Vec<String>>,
    /// A filter clause `ATTR REL VALUE` on any attribute of the data set; repeat to AND them.
    #[arg(long = "where", value_name = "CLAUSE")]
    pub conditions: Vec<String>,
    /// The link attribute that colours the links (default: the first measured one).
    #[arg(long, value_name = "NAME")]
    pub attr: Option<String>,
    /// The node attribute that colours the nodes.
    #[arg(long, value_name = "NAME")]
    pub node_attr: Option<String>,
    /// How an id's rows combine: mean, sum, max, min (default: mean for a run, sum for a fabric).
    #[arg(long, alias = "rows", value_parser = parse_rows)]
    pub agg: Option<query::Aggregate>,
    /// How nodes and links merged by a torus projection combine: mean, sum, max.
    #[arg(long, default_value = "mean", value_parser = parse_merge)]
    pub merge: torus::Aggregate,
}

fn parse_colour_by(s: &str) -> Result<ColourBy, String> {
    match s {
        "predicted" => Ok(ColourBy::Predicted),
        "observed" => Ok(ColourBy::Observed),
        "residual" => Ok(ColourBy::Residual),
        "all" | "contention" => Ok(ColourBy::Job(s.to_string())),
        _ => match s.strip_prefix("job:") {
            Some(name) if !name.is_empty() => Ok(ColourBy::Job(name.to_string())),
            _ => {
                Err(format!("expected predicted, observed, residual, job:NAME, all or contention, got `{s}`"))
            }
        },
    }
}

fn parse_module(s: &str) -> Result<ModuleArg, String> {
    ModuleArg::parse(s)
        .ok_or_else(|| format!("unknown module {s:?}: fattree, torus, generic2d or time-strip"))
}

fn parse_strip_rows(s: &str) -> Result<StripRows, String> {
    match s.strip_prefix("top:").map(str::parse::<usize>) {
        None if s == "groups" => Ok(StripRows::Groups),
        Some(Ok(n)) if n > 0 => Ok(StripRows::TopEnds(n)),
        _ => Err(format!("expected `groups` or `top:N` (N > 0), got `{s}`")),
    }
}

fn parse_strip_columns(s: &str) -> Result<StripColumns, String> {
    match s {
        "regions" => Ok(StripColumns::Regions),
        "intervals" => Ok(StripColumns::Intervals),
        _ => Err(format!("expected `regions` or `intervals`, got `{s}`")),
    }
}

fn parse_rotate(s: &str) -> Result<(f32, f32), String> {
    let mut parts = s.split(',').map(|p| p.trim().parse::<f32>());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(yaw)), Some(Ok(pitch)), None) if yaw.is_finite() && pitch.is_finite() => Ok((yaw, pitch)),
        _ => Err(format!("{s:?} is not YAW,PITCH in degrees")),
    }
}

fn parse_rows(s: &str) -> Result<query::Aggregate, String> {
    query::Aggregate::parse(s).ok_or_else(|| format!("unknown aggregate {s:?}: mean, sum, max or min"))
}

fn parse_merge(s: &str) -> Result<torus::Aggregate, String> {
    torus::Aggregate::parse(s).ok_or_else(|| format!("unknown merge rule {s:?}: mean, sum, max or min"))
}

fn parse_threshold(s: &str) -> Result<Threshold, String> {
    Threshold::parse(s).ok_or_else(|| format!("{s:?} is neither bytes (2MiB) nor a percentage (25%)"))
}

fn parse_colour_map(s: &str) -> Result<ColourMap, String> {
    ColourMap::parse(s).ok_or_else(|| format!("unknown colour map {s:?}"))
}

/// The data set the paths name, recognised as the window does: one run (a Boxfish meta file,
/// a CSV pair or a folder holding one), else the RAILs' fabric with the profile (if any). Any
/// module draws either, where it can (a torus needs a torus).
fn load(r: &RenderCli) -> Result<Dataset> {
    let run = match r.rails.rails.as_slice() {
        [one] if shoal::load::is_run_path(std::path::Path::new(one)) => Some(one),
        _ => None,
    };
    let Some(run) = run else {
        if r.jobs.any() && r.loads.is_some() {
            bail!("--loads shows loads already traced; --job and --place need profiles");
        }
        let request = if r.jobs.any() {
            LoadRequest {
                rails: r.rails.rail_paths(),
                jobs: r.jobs.specs(r.profile.as_deref())?,
                layout: r.layout.options(),
                counters: r.counters.counters.clone(),
                ..Default::default()
            }
        } else {
            LoadRequest {
                rails: r.rails.rail_paths(),
                profile: r.profile.clone(),
                loads: r.loads.clone(),
                layout: r.layout.options(),
                counters: r.counters.counters.clone(),
                ..Default::default()
            }
        };
        return Ok(load_dataset(&request, &|_| {})?);
    };
    if r.profile.is_some() || r.loads.is_some() || r.jobs.any() || !r.counters.counters.is_empty() {
        bail!("--profile, --loads, --job and --counters belong to fabric dumps, not to a run ({run})");
    }
    Ok(load_run_dataset(std::path::Path::new(run))?)
}

pub fn run(r: &RenderCli) -> Result<()> {
    if r.width < 64 || r.height < 64 || r.width > 16384 || r.height > 16384 {
        bail!("--width and --height must be between 64 and 16384 pixels");
    }
    if shoal::export::Format::of_path(&r.out).is_none() {
        bail!("{}: the output must end in .png or .svg", r.out.display());
    }
    let dataset = load(r)?;
    if r.module == Some(ModuleArg::TimeStrip) {
        return super::render_strip::render_strip(&dataset, r);
    }
    let mut spec: ViewSpec = spec_from_flags(&dataset, r)?;
    let mut prepared = prepare(&dataset, &spec, &Filter::default()).map_err(anyhow::Error::msg)?;
    if let Some(t) = r.threshold {
        spec.filter.value_range = Some((t.bytes(prepared.link_max()), f64::INFINITY));
        prepared.apply_value_filter(&spec, &Filter::default());
    }
    let orbit = r.rotate.map_or_else(Orbit::default, |(yaw, pitch)| Orbit::from_yaw_pitch(yaw, pitch));
    let ppp = shoal::export::pixels_per_point_for(r.width, r.height);
    let plot = plot_rect(r.width as f32 / ppp, r.height as f32 / ppp);
    let lit = project(&dataset, &Highlight::default());
    let scene = prepared.scene(&dataset, &spec, (None, None), &lit, &orbit, plot.w / plot.h.max(1.0));
    shoal::export::write(&scene, &Camera::default(), r.width, r.height, &r.out)?;
    report_warnings(&dataset.warnings, r.rails.verbose);
    for p in &prepared.problems {
        eprintln!("shoal: warning: {p}");
    }
    // The summary line scripts read: links for a fat tree, link ends and nodes for the others.
    match spec.module {
        ModuleKind::FatTree => eprintln!("{}: {} links drawn", r.out.display(), scene.visible_link_count()),
        _ => eprintln!(
            "{}: {} link ends and {} nodes drawn",
            r.out.display(),
            scene.halves.len(),
            scene.marks.len()
        ),
    }
    Ok(())
}
