//! `shoal render`: flags → [`RenderArgs`]; the work is in `shoal::export::render_cmd`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use shoal::export::render_cmd::{RenderArgs, Threshold, render};
use shoal::export::render_run::{ModuleArg, RunRenderArgs, render_run};
use shoal::layout::torus;
use shoal::scene::colour::{ColourMap, ScaleKind};
use shoal::scene::query;

use super::common::{RailArgs, report_warnings};

#[derive(Args, Debug)]
pub struct RenderCli {
    #[command(flatten)]
    pub rails: RailArgs,
    /// The ibprof profile whose traffic colours the links.
    #[arg(long, value_name = "P")]
    pub profile: Option<PathBuf>,
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
    /// Draw a run (a Boxfish `*_meta.yaml` or a CSV pair, given as the one RAIL argument) with
    /// this module: `torus` or `generic2d`. `--region N` then means `--where 'code_region = N'` (`region` in a CSV pair).
    #[arg(long, value_parser = parse_module)]
    pub module: Option<ModuleArg>,
    /// Torus view angles in degrees, `YAW,PITCH` (0,0 looks straight down −z; default −35,25).
    #[arg(long, value_name = "YAW,PITCH", value_parser = parse_rotate)]
    pub rotate: Option<(f32, f32)>,
    /// The flattened torus view, looking down this axis (name or index).
    #[arg(long, value_name = "AXIS")]
    pub down: Option<String>,
    /// The three kept axes of a 5D torus, e.g. `a,c,e`; the others are aggregated.
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub axes: Option<Vec<String>>,
    /// A run filter clause `ATTR REL VALUE`; repeat to AND them.
    #[arg(long = "where", value_name = "CLAUSE")]
    pub conditions: Vec<String>,
    /// The link attribute that colours the links (default: the first measured one).
    #[arg(long, value_name = "NAME")]
    pub attr: Option<String>,
    /// The node attribute that colours the nodes.
    #[arg(long, value_name = "NAME")]
    pub node_attr: Option<String>,
    /// How an id's rows combine: mean, sum, max, min.
    #[arg(long, default_value = "mean", value_parser = parse_rows)]
    pub agg: query::Aggregate,
    /// How nodes and links merged by a torus projection combine: mean, sum, max.
    #[arg(long, default_value = "mean", value_parser = parse_merge)]
    pub merge: torus::Aggregate,
}

fn parse_module(s: &str) -> Result<ModuleArg, String> {
    ModuleArg::parse(s).ok_or_else(|| format!("unknown module {s:?}: torus or generic2d"))
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
    torus::Aggregate::parse(s).ok_or_else(|| format!("unknown merge rule {s:?}: mean, sum or max"))
}

fn run_module(r: &RenderCli, module: ModuleArg) -> Result<()> {
    let [run] = r.rails.rails.as_slice() else {
        anyhow::bail!("--module draws one run: give its meta file (or CSV pair) as the only path");
    };
    if r.diff.is_some() || r.threshold.is_some() || r.profile.is_some() || r.hide_unused {
        anyhow::bail!("--diff, --threshold, --profile and --hide-unused are fat-tree options; use --where");
    }
    let args = RunRenderArgs {
        run: PathBuf::from(run),
        module,
        rotate: r.rotate,
        down: r.down.clone(),
        axes: r.axes.clone(),
        conditions: r.conditions.clone(),
        region: r.region,
        link_attribute: r.attr.clone(),
        node_attribute: r.node_attr.clone(),
        rows: r.agg,
        merge: r.merge,
        colour_map: r.colormap,
        scale: if r.log { ScaleKind::Log } else { ScaleKind::Linear },
        width: r.width,
        height: r.height,
        out: r.out.clone(),
    };
    let report = render_run(&args)?;
    report_warnings(&report.warnings, r.rails.verbose);
    for p in &report.problems {
        eprintln!("shoal: warning: {p}");
    }
    eprintln!("{}: {} link ends and {} nodes drawn", args.out.display(), report.halves, report.marks);
    Ok(())
}

fn parse_threshold(s: &str) -> Result<Threshold, String> {
    Threshold::parse(s).ok_or_else(|| format!("{s:?} is neither bytes (2MiB) nor a percentage (25%)"))
}

fn parse_colour_map(s: &str) -> Result<ColourMap, String> {
    ColourMap::parse(s).ok_or_else(|| format!("unknown colour map {s:?}"))
}

pub fn run(r: &RenderCli) -> Result<()> {
    if let Some(module) = r.module {
        return run_module(r, module);
    }
    let args = RenderArgs {
        rails: r.rails.rail_paths(),
        profile: r.profile.clone(),
        region: r.region,
        diff: r.diff.as_ref().and_then(|v| Some((*v.first()?, *v.get(1)?))),
        threshold: r.threshold,
        colour_map: r.colormap,
        scale: if r.log { ScaleKind::Log } else { ScaleKind::Linear },
        hide_unused: r.hide_unused,
        width: r.width,
        height: r.height,
        out: r.out.clone(),
    };
    let report = render(&args)?;
    report_warnings(&report.warnings, r.rails.verbose);
    eprintln!("{}: {} links drawn", args.out.display(), report.visible_links);
    Ok(())
}
