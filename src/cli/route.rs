//! `shoal route`: forwarding tables for a rail computed from its topology alone by one of
//! shoal's routing engines, written as OpenSM dumps (`opensm-subnet.lst`, `opensm.fdbs`) into a
//! directory that is then a RAIL like any other: a what-if of the fabric under another routing.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use shoal::model::RailId;
use shoal::profile_io::opensm_write::write_rail_dir;
use shoal::profile_io::rail::load_rail;
use shoal::routing::engines::compare::pairs_of;
use shoal::routing::engines::{Greedy, Topology, check_routes, route, route_by};

use super::common::report_warnings;
use super::route_traffic::{EngineChoice, TrafficArgs, comparison, parse_engine, traffic_flows};

/// The files `--out` receives.
const WRITTEN: [&str; 2] = ["opensm-subnet.lst", "opensm.fdbs"];

#[derive(Args, Debug)]
pub struct RouteArgs {
    /// One subnet's dumps: a directory, or files joined by commas. Only the topology is used
    /// (with its LIDs and LMC); forwarding tables in it, if any, are replaced.
    #[arg(value_name = "RAIL")]
    pub rail: String,
    /// `dmodk` (D-mod-k, fat trees only), `minhop` (OpenSM's default), `updn` (up*/down*), or
    /// PFSim's application-aware router on a profile's traffic: `greedy` (each host pair,
    /// heaviest first, on the shortest path whose busiest link end is least loaded) or
    /// `greedy-sum` (whose loads sum least); rows no pair fixed are filled as minhop fills them.
    #[arg(long, value_parser = parse_engine)]
    pub engine: EngineChoice,
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Directory to write `opensm-subnet.lst` and `opensm.fdbs` into (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// List every warning instead of a summary.
    #[arg(short, long)]
    pub verbose: bool,
}

pub fn run(args: &RouteArgs) -> Result<()> {
    let paths: Vec<PathBuf> = args.rail.split(',').filter(|p| !p.is_empty()).map(PathBuf::from).collect();
    refuse_overwriting_inputs(&paths, &args.out)?;
    let started = Instant::now();
    let progress = super::progress::Progress::new("route");
    progress.stage(0.0, "loading the rail");
    let (fabric, mut warnings) = load_rail(&paths, RailId(0)).context("loading the rail")?;
    // The tables are what this command makes: their absence is no news here.
    warnings.retain(|w| !w.message.starts_with("no forwarding tables"));
    let loaded = started.elapsed().as_secs_f64();
    let flows = traffic_flows(args.engine, &args.traffic, &args.rail, args.verbose)?;
    let routing = Instant::now();
    progress.stage(0.3, &format!("computing {} tables", args.engine));
    let (routed, more) = match (args.engine, &flows) {
        (EngineChoice::Tables(engine), _) => route(&fabric, engine, &args.rail)?,
        (EngineChoice::Greedy(objective), Some(flows)) => {
            route_by(&fabric, &Greedy { objective, pairs: pairs_of(flows) }, &args.rail)?
        }
        (EngineChoice::Greedy(_), None) => bail!("--engine {} needs traffic", args.engine),
    };
    warnings.extend(more);
    let routed_secs = routing.elapsed().as_secs_f64();
    progress.stage(0.7, "checking every (switch, LID) row");
    let topology = Topology::new(&routed, &args.rail);
    let check = check_routes(&routed, &topology);
    drop(progress);
    report_warnings(&warnings, args.verbose);
    println!(
        "{}: {} tables for {} switches × {} LIDs (loaded in {loaded:.2} s, routed in {routed_secs:.2} s)",
        args.rail,
        args.engine,
        topology.switches.len(),
        topology.destinations.len() + topology.stranded.len(),
    );
    let percent = |part: usize| 100.0 * part as f64 / check.rows.max(1) as f64;
    println!(
        "(switch, CA LID) rows: {} delivered of {} ({:.1} %), {} loops, {:.1} % on shortest paths",
        check.delivered,
        check.rows,
        percent(check.delivered),
        check.loops,
        percent(check.shortest)
    );
    let writing = Instant::now();
    write_rail_dir(&routed, &args.out).with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "wrote {} ({:.2} s)",
        WRITTEN.map(|f| args.out.join(f).display().to_string()).join(", "),
        writing.elapsed().as_secs_f64()
    );
    warn_about_other_dumps(&args.out);
    if let Some(flows) = &flows {
        print!("{}", comparison(&fabric, &routed, args.engine, flows, &args.rail));
    }
    if !check.all_delivered() {
        bail!(
            "{} (switch, CA LID) rows are not delivered; the tables were written anyway",
            check.rows - check.delivered
        );
    }
    Ok(())
}

/// `--out` must not be where the rail's own dumps are read from: they would be overwritten.
fn refuse_overwriting_inputs(paths: &[PathBuf], out: &Path) -> Result<()> {
    let Ok(out) = out.canonicalize() else { return Ok(()) }; // not there yet: nothing to overwrite
    for path in paths {
        let Ok(input) = path.canonicalize() else { continue };
        let clobbered = input == out
            || (input.parent() == Some(out.as_path())
                && input.file_name().and_then(|n| n.to_str()).is_some_and(|n| WRITTEN.contains(&n)));
        if clobbered {
            bail!(
                "--out {} holds the rail's own dumps, which would be overwritten; pick another directory",
                out.display()
            );
        }
    }
    Ok(())
}

/// Other dump files beside the written ones would be read too when `--out` is used as a RAIL.
fn warn_about_other_dumps(out: &Path) {
    let Ok(entries) = std::fs::read_dir(out) else { return };
    let others: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !WRITTEN.contains(&name.as_str()))
        .collect();
    if !others.is_empty() {
        eprintln!(
            "warning: {} also holds {}: read as a RAIL, the directory may mix them with the new tables",
            out.display(),
            others.join(", ")
        );
    }
}
