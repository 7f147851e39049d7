//! `shoal info`: what was found in the dumps, so a user can trust (or question) them: per rail
//! the files read and their formats, counts of hosts, switches, links and LIDs, how much of the
//! forwarding tables is there, which CA pairs they deliver (and where the others are dropped),
//! and the warnings. `--json` prints the same summary as one JSON object.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use shoal::view_model::{OpenRequest, open};

use super::common::RailArgs;
use super::info_summary::{InfoSummary, RailSummary, summarise};

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub rails: RailArgs,
    /// Print the summary as one JSON object (rails, cluster) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let summary = load(&args.rails.rail_paths())?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", describe(&summary, args.rails.verbose));
    }
    let warnings: usize = summary.rails.iter().map(|r| r.warnings.len()).sum();
    if warnings > 0 {
        eprintln!("shoal: {warnings} warning{} (listed in the report)", if warnings == 1 { "" } else { "s" });
    }
    Ok(())
}

/// With no subcommand: describe the bundled two-rail sample.
#[cfg_attr(feature = "gui", allow(dead_code))] // without the GUI, `shoal` alone runs this
pub fn run_sample() -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let summary = load(&[vec![root.join("rail0")], vec![root.join("rail1")]])?;
    println!("Bundled sample: {}", root.display());
    print!("{}", describe(&summary, false));
    println!(
        "\nTry: shoal hot {0}/rail0 {0}/rail1 --profile {0}/samplesort.ibprof.gz --region 2",
        root.display()
    );
    Ok(())
}

/// Opens the rails as every command does, and summarises each rail's fabric, files and warnings.
fn load(rails: &[Vec<PathBuf>]) -> Result<InfoSummary> {
    let mut dataset = open(&OpenRequest::of_rails(rails.to_vec()), &|_| {})?;
    let fabric = dataset.fabric.take().context("no fabric in the RAILs given")?;
    // The run shares the cluster (its lazy pairs domain would trace on it): let it go first.
    drop(dataset);
    let cluster = std::sync::Arc::unwrap_or_clone(fabric.cluster);
    let rails: Vec<_> = cluster.rails.into_iter().zip(fabric.rails_read).collect();
    Ok(summarise(&rails))
}

fn describe(summary: &InfoSummary, verbose: bool) -> String {
    let mut out = String::new();
    for rail in &summary.rails {
        describe_rail(&mut out, rail, verbose);
    }
    let cluster = &summary.cluster;
    let _ = writeln!(out, "cluster: {} hosts, {} on every rail", cluster.hosts, cluster.on_every_rail);
    out
}

fn describe_rail(out: &mut String, rail: &RailSummary, verbose: bool) {
    let _ = writeln!(out, "rail {}:", rail.rail);
    for file in &rail.files {
        let _ = writeln!(out, "  read {} ({})", file.path, file.kind);
    }
    let _ = writeln!(
        out,
        "  {} hosts ({} CAs), {} switches, {} links ({} switch-to-switch)",
        rail.hosts, rail.cas, rail.switches, rail.links, rail.switch_links
    );
    let lmcs: Vec<String> = rail.lmc.iter().map(u8::to_string).collect();
    let _ = writeln!(
        out,
        "  {} LIDs on {} ports (LMC {}), highest {}",
        rail.lids,
        rail.ports,
        lmcs.join("/"),
        rail.highest_lid
    );
    let t = &rail.tables;
    let coverage = 100.0 * t.routes as f64 / t.possible_routes.max(1) as f64;
    let _ = writeln!(
        out,
        "  forwarding tables: {} of {} switches; {} of {} switch-to-CA-LID routes ({coverage:.1}%)",
        t.switches_with_tables, t.switches, t.routes, t.possible_routes
    );
    if let Some(pairs) = &rail.ca_pairs {
        let share = 100.0 * pairs.delivered as f64 / pairs.pairs as f64;
        let _ = writeln!(out, "  CA pairs delivered: {} of {} ({share:.1}%)", pairs.delivered, pairs.pairs);
        for d in &pairs.dropped {
            let example = d.example.as_ref().map_or(String::new(), |e| format!(", e.g. {e}"));
            let _ = writeln!(out, "    {} pairs dropped at {}: {}{example}", d.pairs, d.at, d.reason);
        }
    }
    describe_warnings(out, rail, verbose);
}

/// The rail's warnings (ten, or all with `--verbose`), then with `--verbose` its notes.
fn describe_warnings(out: &mut String, rail: &RailSummary, verbose: bool) {
    let line = |w: &super::info_summary::Note| match w.line {
        Some(line) => format!("{}:{line}: {}", w.file, w.message),
        None => format!("{}: {}", w.file, w.message),
    };
    let shown = if verbose { rail.warnings.len() } else { rail.warnings.len().min(10) };
    let _ = writeln!(out, "  {} warnings", rail.warnings.len());
    for warning in &rail.warnings[..shown] {
        let _ = writeln!(out, "    {}", line(warning));
    }
    if shown < rail.warnings.len() {
        let _ = writeln!(out, "    … {} more (--verbose lists them all)", rail.warnings.len() - shown);
    }
    if verbose {
        for note in &rail.notes {
            let _ = writeln!(out, "  info: {}", line(note));
        }
    }
}
