//! The `shoal` binary: turns flags into validated arguments and calls the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Shoal: see which InfiniBand links an MPI job's bytes crossed.
///
/// A RAIL is one subnet's dumps: a directory, or a comma-separated list of files and folders.
/// Topology: a .lst link list (OpenSM, ibdiagnet, ibdiagnet2), ibdiagnet2.db_csv, ibnetdiscover
/// output or `ibnetdiscover -p`; forwarding tables: .fdbs, opensm-lfts.dump, or ibroute/dump_fts
/// output (one file, or a folder of per-switch files). Formats are recognised by content, and
/// any file may be gzipped. Give one RAIL per subnet of a multi-rail cluster, rail 0 first.
#[derive(Parser, Debug)]
#[command(name = "shoal", version, about, long_about, after_help = cli::EXAMPLES)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: open these in the window, a run (Boxfish `*_meta.yaml`, CSV pair)
    /// in its torus or generic-2D view, or rail directories.
    #[arg(value_name = "PATH")]
    paths: Vec<std::path::PathBuf>,
    /// With no subcommand: how rail-optimized subnets are laid out (see `render --help`).
    #[arg(long, value_name = "auto|off", default_value = "auto", value_parser = cli::common::parse_hca_planes)]
    hca_planes: shoal::layout::HcaPlanes,
    /// With no subcommand: the ibprof profile whose traffic the window shows.
    #[arg(long, value_name = "P", conflicts_with = "loads")]
    profile: Option<std::path::PathBuf>,
    /// With no subcommand: a loads file (`IBPROF_LOADS`, or `shoal convert`'s links.csv) whose
    /// link-end bytes the window shows instead of a profile's.
    #[arg(long, value_name = "FILE")]
    loads: Option<std::path::PathBuf>,
    /// With no subcommand: jobs sharing the fabric the window opens (see `shoal convert --help`).
    #[command(flatten)]
    jobs: cli::common::JobArgs,
    /// With no subcommand: port-counter files compared with the prediction (`[railN=]FILE`;
    /// once: as they stand, twice per rail: after − before).
    #[arg(long = "counters", value_name = "[railN=]FILE", value_parser = shoal::pipeline::CounterSpec::parse)]
    counters: Vec<shoal::pipeline::CounterSpec>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write node positions and per-link-end loads as tables (nodes.csv, links.csv).
    Convert(cli::convert::ConvertArgs),
    /// Print the path one LID takes to another through the forwarding tables.
    Trace(cli::trace::TraceArgs),
    /// Rank the busiest link ends, with the host pairs whose bytes put them there.
    Hot(cli::hot::HotArgs),
    /// Summarise what was found in the dumps (and profile): counts, coverage, warnings.
    Info(cli::info::InfoArgs),
    /// Write a synthetic three-level fat tree (beyond ibsim's 256 switches) as OpenSM dumps.
    Gen(cli::r#gen::GenArgs),
    /// Compute a rail's forwarding tables from its topology (dmodk, minhop, updn) and write
    /// them as OpenSM dumps: a new RAIL, the fabric under another routing.
    Route(cli::route::RouteArgs),
    /// Draw the fabric's loads to a PNG or SVG file, without a window.
    Render(Box<cli::render::RenderCli>),
    /// Write a synthetic job's profile (all-to-all, shift, I/O) to try placements with.
    Pattern(cli::pattern::PatternArgs),
    /// Print one value per node, link or rank of run data (Boxfish YAML or a CSV pair) as CSV.
    Query(cli::query::QueryArgs),
}

/// The window on PATHs, with `--profile`, `--loads` or `--job`/`--place`: with jobs, the profile
/// (`--profile`, or one among the PATHs) is the first job.
#[cfg(feature = "gui")]
fn window(
    paths: Vec<std::path::PathBuf>,
    profile: Option<std::path::PathBuf>,
    loads: Option<std::path::PathBuf>,
    jobs: &cli::common::JobArgs,
    counters: Vec<shoal::pipeline::CounterSpec>,
    hca_planes: shoal::layout::HcaPlanes,
) -> anyhow::Result<()> {
    if !jobs.any() {
        return shoal::gui::open::run_paths(paths, profile, loads, Vec::new(), counters, hca_planes);
    }
    if loads.is_some() {
        anyhow::bail!("--loads shows loads already traced; --job and --place need profiles");
    }
    let is_profile = |p: &std::path::PathBuf| {
        let name = p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        name.ends_with(".ibprof") || name.ends_with(".ibprof.gz")
    };
    let (mut profiles, rails): (Vec<_>, Vec<_>) = paths.into_iter().partition(is_profile);
    profiles.extend(profile);
    if profiles.len() > 1 {
        anyhow::bail!("give one profile (as a PATH or --profile) and the others as --job NAME=PROFILE");
    }
    let specs = jobs.specs(profiles.first().map(|p| p.as_path()))?;
    shoal::gui::open::run_paths(rails, None, None, specs, counters, hca_planes)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Some(Command::Convert(a)) => cli::convert::run(&a),
        Some(Command::Trace(a)) => cli::trace::run(&a),
        Some(Command::Hot(a)) => cli::hot::run(&a),
        Some(Command::Info(a)) => cli::info::run(&a),
        Some(Command::Gen(a)) => cli::r#gen::run(&a),
        Some(Command::Render(a)) => cli::render::run(&a),
        Some(Command::Route(a)) => cli::route::run(&a),
        Some(Command::Query(a)) => cli::query::run(&a),
        Some(Command::Pattern(a)) => cli::pattern::run(&a),
        #[cfg(feature = "gui")]
        None if !args.paths.is_empty() => {
            window(args.paths, args.profile, args.loads, &args.jobs, args.counters, args.hca_planes)
        }
        #[cfg(feature = "gui")]
        None => shoal::gui::run_sample(),
        #[cfg(not(feature = "gui"))]
        None => cli::info::run_sample(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("shoal: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
