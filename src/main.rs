use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use shoal::export::render_cmd::{RenderArgs, Threshold, render};
use shoal::scene::colour::{ColourMap, ScaleKind};

/// Visualise application traffic on InfiniBand fabrics. Without a subcommand, opens the app.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Draws a fabric's loads to a PNG or SVG file, without a window.
    Render(RenderCli),
}

#[derive(Args)]
struct RenderCli {
    /// Rails: one directory (or comma-separated dump files) per rail.
    #[arg(required = true, num_args = 1..)]
    rails: Vec<String>,
    /// The ibprof profile whose traffic colours the links.
    #[arg(long)]
    profile: Option<PathBuf>,
    /// One region's own traffic (default: the cumulative total).
    #[arg(long, conflicts_with = "diff")]
    region: Option<u32>,
    /// Region A minus region B, on a diverging colour map.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    diff: Option<Vec<u32>>,
    /// Hide link ends below this: bytes (`2MiB`) or percent of the maximum (`25%`).
    #[arg(long, value_parser = parse_threshold)]
    threshold: Option<Threshold>,
    /// copper, viridis, cividis, magma (sequential); rdbu, puor (for --diff).
    #[arg(long, value_parser = parse_colour_map)]
    colormap: Option<ColourMap>,
    /// Colour by log(1 + bytes) instead of bytes.
    #[arg(long)]
    log: bool,
    /// Hide link ends that carried no bytes.
    #[arg(long)]
    hide_unused: bool,
    #[arg(long, default_value_t = 1920)]
    width: u32,
    #[arg(long, default_value_t = 1080)]
    height: u32,
    /// The output file: .png or .svg.
    #[arg(long)]
    out: PathBuf,
}

fn parse_threshold(s: &str) -> Result<Threshold, String> {
    Threshold::parse(s).ok_or_else(|| format!("{s:?} is not bytes (2MiB) nor a percentage (25%)"))
}

fn parse_colour_map(s: &str) -> Result<ColourMap, String> {
    ColourMap::parse(s).ok_or_else(|| format!("unknown colour map {s:?}"))
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Render(r)) => {
            let args = RenderArgs {
                rails: r.rails.iter().map(|s| s.split(',').map(PathBuf::from).collect()).collect(),
                profile: r.profile,
                region: r.region,
                diff: r.diff.map(|v| (v[0], v[1])),
                threshold: r.threshold,
                colour_map: r.colormap,
                scale: if r.log { ScaleKind::Log } else { ScaleKind::Linear },
                hide_unused: r.hide_unused,
                width: r.width,
                height: r.height,
                out: r.out,
            };
            let report = render(&args)?;
            for w in &report.warnings {
                eprintln!("warning: {w}");
            }
            eprintln!("{}: {} links drawn", args.out.display(), report.visible_links);
            Ok(())
        }
        None => {
            println!("shoal");
            Ok(())
        }
    }
}
