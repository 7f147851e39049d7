//! `shoal render`: flags → [`RenderArgs`]; the work is in `shoal::export::render_cmd`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use shoal::export::render_cmd::{RenderArgs, Threshold, render};
use shoal::scene::colour::{ColourMap, ScaleKind};

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
}

fn parse_threshold(s: &str) -> Result<Threshold, String> {
    Threshold::parse(s).ok_or_else(|| format!("{s:?} is neither bytes (2MiB) nor a percentage (25%)"))
}

fn parse_colour_map(s: &str) -> Result<ColourMap, String> {
    ColourMap::parse(s).ok_or_else(|| format!("unknown colour map {s:?}"))
}

pub fn run(r: &RenderCli) -> Result<()> {
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
