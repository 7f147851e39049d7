//! The `shoal` binary: turns flags into validated arguments and calls the library.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

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
    /// With no subcommand: what the window opens. PATHs (the RAILs) are sorted by what they
    /// hold: rail directories and dumps, profiles, a loads file, counter snapshots; one run
    /// (Boxfish `*_meta.yaml`, CSV pair) opens in its torus or generic-2D view, one session file
    /// (`render --save-session`, File → Save session) as it was saved.
    #[command(flatten)]
    open: cli::open_args::OpenArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write node positions and per-link-end loads as tables (nodes.csv, links.csv).
    Convert(cli::convert::ConvertArgs),
    /// Print the path one LID takes to another through the forwarding tables.
    Trace(cli::trace::TraceArgs),
    /// Rank the busiest link ends, with the host pairs whose bytes put them there.
    ///
    /// Columns: `#` the rank; `rail` the subnet (0 first); `from (port) -> to (port)` the link
    /// end, named by the node that sends on it and its port, then the far node and port;
    /// `bytes` what that end sent (in the region, or the whole run); `share` its bytes as a
    /// percentage of the busiest end's (so the first row is 100%). Indented under each end: the
    /// source -> destination host pairs that sent the most bytes through it. With --by observed
    /// or residual the columns are observed, predicted and residual (observed − predicted); with
    /// --contended, `second` is the second-largest job's bytes, each job's below. --json prints
    /// the same as one JSON object.
    Hot(cli::hot::HotArgs),
    /// Summarise what was found in the dumps (and profile): counts, coverage, warnings.
    Info(cli::info::InfoArgs),
    /// List degraded links, ports whose error counters moved and ports that waited to send.
    Health(cli::health::HealthArgs),
    /// List the scheduler's jobs (`--jobs-from`, sacct output) with their footprints on the
    /// fabric, and with --shared-with JOB who shared that job's links, ranked by what the
    /// counters (files or --prometheus) saw on the shared link ends.
    Jobs(cli::jobs::JobsArgs),
    /// Why was my job slow: the congestion regions on its routes, its link ends ranked by stall
    /// × its share of the bytes, the bytes that were not its own, degraded links and error ports.
    Why(cli::why::WhyArgs),
    /// Write a synthetic three-level fat tree (beyond ibsim's 256 switches) as OpenSM dumps.
    Gen(cli::r#gen::GenArgs),
    /// Compute a rail's forwarding tables from its topology (dmodk, minhop, updn) and write
    /// them as OpenSM dumps: a new RAIL, the fabric under another routing.
    Route(cli::route::RouteArgs),
    /// Write a region's traffic matrix as CSV (src,dst,rail,bytes,messages,hops) by rank, host
    /// or leaf switch, with the switches each pair's path crosses on its rail; print the
    /// locality score (the bytes-weighted mean of switches crossed).
    Matrix(cli::matrix::MatrixArgs),
    /// Compare the locality score (bytes-weighted mean of switches crossed) of every region of
    /// a profile under each placement given, with each hop class's share of the bytes.
    Locality(cli::locality::LocalityArgs),
    /// Draw the fabric's loads to a PNG or SVG file, without a window.
    Render(Box<cli::render_args::RenderCli>),
    /// Write a synthetic job's profile (all-to-all, shift, I/O) to try placements with.
    Pattern(cli::pattern::PatternArgs),
    /// Print one value per node, link or rank as CSV: of run data (Boxfish YAML, a CSV pair), or
    /// of RAILs with a profile (`--domain links --attr bytes`: one row per link end).
    Query(cli::query::QueryArgs),
    /// Print the shell's tab completion script: `shoal completions bash > ~/.local/share/bash-completion/completions/shoal`.
    Completions(cli::shell::CompletionsArgs),
    /// Print the man page (`shoal man | man -l -`), or write every page with --out DIR.
    Man(cli::shell::ManArgs),
}

/// The window on the PATHs (the RAILs) and the opening flags: with jobs, the profile (`--profile`,
/// or one among the PATHs) is the first job.
#[cfg(feature = "gui")]
fn window(open: &cli::open_args::OpenArgs) -> anyhow::Result<()> {
    let paths = open.rails.iter().map(std::path::PathBuf::from).collect();
    shoal::gui::open::run_paths(paths, open.flags_request()?)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Some(Command::Convert(a)) => cli::convert::run(&a),
        Some(Command::Trace(a)) => cli::trace::run(&a),
        Some(Command::Hot(a)) => cli::hot::run(&a),
        Some(Command::Info(a)) => cli::info::run(&a),
        Some(Command::Health(a)) => cli::health::run(&a),
        Some(Command::Jobs(a)) => cli::jobs::run(&a),
        Some(Command::Why(a)) => cli::why::run(&a),
        Some(Command::Gen(a)) => cli::r#gen::run(&a),
        Some(Command::Render(a)) => cli::render::run(&a),
        Some(Command::Route(a)) => cli::route::run(&a),
        Some(Command::Query(a)) => cli::query::run(&a),
        Some(Command::Matrix(a)) => cli::matrix::run(&a),
        Some(Command::Locality(a)) => cli::locality::run(&a),
        Some(Command::Pattern(a)) => cli::pattern::run(&a),
        Some(Command::Completions(a)) => cli::shell::completions(&a, &mut Args::command()),
        Some(Command::Man(a)) => cli::shell::man(&a, Args::command()),
        #[cfg(feature = "gui")]
        None if !args.open.rails.is_empty() => window(&args.open),
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
