//! `shoal info`: what was found in the dumps, so a user can trust (or question) them: per rail
//! the files read and their formats, counts of hosts, switches, links and LIDs, how much of the
//! forwarding tables is there, which CA pairs they deliver (and where the others are dropped),
//! and the warnings.

use shoal::model::echo::echo;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use shoal::model::{Cluster, Fabric, LftEntry, NodeKind, Warning};
use shoal::routing::{DropReason, ca_reachability};
use shoal::view_model::{OpenRequest, open};

use super::common::RailArgs;

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub rails: RailArgs,
}

/// One loaded rail and what it was loaded from.
struct RailReport {
    files: Vec<(String, &'static str)>,
    fabric: Fabric,
    warnings: Vec<Warning>,
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let reports = load(&args.rails.rail_paths())?;
    print!("{}", describe(&reports, args.rails.verbose));
    let warnings: usize = reports.iter().map(|r| r.warnings.len()).sum();
    if warnings > 0 {
        eprintln!("shoal: {warnings} warning{} (listed in the report)", if warnings == 1 { "" } else { "s" });
    }
    Ok(())
}

/// With no subcommand: describe the bundled two-rail sample.
#[cfg_attr(feature = "gui", allow(dead_code))] // without the GUI, `shoal` alone runs this
pub fn run_sample() -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let reports = load(&[vec![root.join("rail0")], vec![root.join("rail1")]])?;
    println!("Bundled sample: {}", root.display());
    print!("{}", describe(&reports, false));
    println!(
        "\nTry: shoal hot {0}/rail0 {0}/rail1 --profile {0}/samplesort.ibprof.gz --region 2",
        root.display()
    );
    Ok(())
}

/// Opens the rails as every command does, and takes each rail's fabric, files and warnings.
fn load(rails: &[Vec<PathBuf>]) -> Result<Vec<RailReport>> {
    let dataset = open(&OpenRequest::of_rails(rails.to_vec()), &|_| {})?;
    let fabric = dataset.fabric.context("no fabric in the RAILs given")?;
    Ok(fabric
        .cluster
        .rails
        .into_iter()
        .zip(fabric.rails_read)
        .map(|(fabric, read)| RailReport { files: read.files, fabric, warnings: read.warnings })
        .collect())
}

fn describe(reports: &[RailReport], verbose: bool) -> String {
    let mut out = String::new();
    for (r, report) in reports.iter().enumerate() {
        describe_rail(&mut out, r, report, verbose);
    }
    let cluster = Cluster::new(reports.iter().map(|r| r.fabric.clone()).collect());
    let on_all = cluster.hosts.iter().filter(|h| h.cas.iter().all(|c| !c.is_empty())).count();
    let _ = writeln!(out, "cluster: {} hosts, {on_all} on every rail", cluster.hosts.len());
    out
}

fn describe_rail(out: &mut String, r: usize, report: &RailReport, verbose: bool) {
    let fabric = &report.fabric;
    let _ = writeln!(out, "rail {r}:");
    for (file, kind) in &report.files {
        let _ = writeln!(out, "  read {file} ({kind})");
    }
    let count = |kind| fabric.graph.node_weights().filter(|n| n.kind == kind).count();
    let mut hosts: Vec<&str> = fabric.cas().map(|c| fabric.node(c).host_name()).collect();
    hosts.sort_unstable();
    hosts.dedup();
    let switch_links = fabric
        .graph
        .edge_indices()
        .filter(|&e| {
            let (a, b) = fabric.graph.edge_endpoints(e).unwrap_or_default();
            fabric.node(a).kind == NodeKind::Switch && fabric.node(b).kind == NodeKind::Switch
        })
        .count();
    let _ = writeln!(
        out,
        "  {} hosts ({} CAs), {} switches, {} links ({} switch-to-switch)",
        hosts.len(),
        count(NodeKind::Ca),
        count(NodeKind::Switch),
        fabric.link_count(),
        switch_links
    );
    let ports: Vec<_> =
        fabric.graph.node_weights().flat_map(|n| n.ports.values()).filter(|p| p.lid.0 != 0).collect();
    let lids: usize = ports.iter().map(|p| 1usize << p.lmc).sum();
    let mut lmcs: Vec<u8> = ports.iter().map(|p| p.lmc).collect();
    lmcs.sort_unstable();
    lmcs.dedup();
    let top = ports.iter().map(|p| u32::from(p.lid.0) + (1 << p.lmc) - 1).max().unwrap_or(0);
    let lmcs: Vec<String> = lmcs.iter().map(u8::to_string).collect();
    let _ =
        writeln!(out, "  {lids} LIDs on {} ports (LMC {}), highest 0x{top:04x}", ports.len(), lmcs.join("/"));
    describe_tables(out, fabric);
    describe_reachability(out, fabric);
    let shown = if verbose { report.warnings.len() } else { report.warnings.len().min(10) };
    let _ = writeln!(out, "  {} warnings", report.warnings.len());
    for warning in &report.warnings[..shown] {
        let _ = writeln!(out, "    {warning}");
    }
    if shown < report.warnings.len() {
        let _ = writeln!(out, "    … {} more (--verbose lists them all)", report.warnings.len() - shown);
    }
}

fn describe_tables(out: &mut String, fabric: &Fabric) {
    let switches = fabric.switches().count();
    let ca_lids: Vec<_> = fabric.cas().filter_map(|n| fabric.node(n).base_lid()).collect();
    let routed: usize = fabric
        .switches()
        .filter_map(|s| fabric.lft(s))
        .map(|lft| ca_lids.iter().filter(|&&l| matches!(lft.get(l), LftEntry::Port(_))).count())
        .sum();
    let possible = switches * ca_lids.len();
    let coverage = 100.0 * routed as f64 / possible.max(1) as f64;
    let _ = writeln!(
        out,
        "  forwarding tables: {} of {switches} switches; {routed} of {possible} switch-to-CA-LID routes ({coverage:.1}%)",
        fabric.switches_with_lft()
    );
}

fn describe_reachability(out: &mut String, fabric: &Fabric) {
    let reach = ca_reachability(fabric);
    if reach.pairs == 0 {
        return;
    }
    let share = 100.0 * reach.delivered as f64 / reach.pairs as f64;
    let _ = writeln!(out, "  CA pairs delivered: {} of {} ({share:.1}%)", reach.delivered, reach.pairs);
    for (at, reason, pairs) in reach.by_dropping_node().into_iter().take(10) {
        let node = at.map_or("the source".to_string(), |n| {
            let node = fabric.node(n);
            format!("{} {} ({})", node.kind.as_str(), node.guid, echo(&node.description))
        });
        let example = reach
            .undelivered
            .iter()
            .find(|u| u.at == at && u.reason == reason && reason != DropReason::NoLid);
        let example =
            example.map_or(String::new(), |u| format!(", e.g. {} -> {}", u.example_source, u.destination));
        let _ = writeln!(out, "    {pairs} pairs dropped at {node}: {}{example}", reason_text(reason));
    }
}

fn reason_text(reason: DropReason) -> &'static str {
    match reason {
        DropReason::MissingEntry => "no table row for the destination",
        DropReason::Unreachable => "the table marks the destination unreachable",
        DropReason::DeadPort => "routed out of a port with no link",
        DropReason::Loop => "routing loop",
        DropReason::NoTable => "switch has no forwarding table",
        DropReason::UnknownDestination => "no port owns the destination LID",
        DropReason::UnknownSource => "no port owns the source LID",
        DropReason::WrongEndpoint => "delivered to the wrong endpoint",
        DropReason::NoLid => "the CA port has no LID (LID 0), as source or destination",
    }
}
