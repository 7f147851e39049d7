//! `shoal info`: what was found in the dumps, so a user can trust (or question) them.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use shoal::model::{Cluster, NodeKind};
use shoal::pipeline;

use super::common::{RailArgs, load_cluster, report_warnings};

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub rails: RailArgs,
}

pub fn run(args: &InfoArgs) -> Result<()> {
    let cluster = load_cluster(&args.rails)?;
    print!("{}", describe(&cluster));
    Ok(())
}

/// With no subcommand: describe the bundled two-rail sample.
#[cfg_attr(feature = "gui", allow(dead_code))] // without the GUI, `shoal` alone runs this
pub fn run_sample() -> Result<()> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
    let rails = vec![vec![root.join("rail0")], vec![root.join("rail1")]];
    let (cluster, warnings) = pipeline::load_cluster(&rails)?;
    report_warnings(&warnings, false);
    println!("Bundled sample: {}", root.display());
    print!("{}", describe(&cluster));
    println!(
        "\nTry: shoal hot {0}/rail0 {0}/rail1 --profile {0}/samplesort.ibprof.gz --region 2",
        root.display()
    );
    Ok(())
}

fn describe(cluster: &Cluster) -> String {
    let mut out = String::new();
    for (r, fabric) in cluster.rails.iter().enumerate() {
        let count = |kind| fabric.graph.node_weights().filter(|n| n.kind == kind).count();
        let lids: usize = fabric
            .graph
            .node_weights()
            .flat_map(|n| n.ports.values())
            .filter(|p| p.lid.0 != 0)
            .map(|p| 1usize << p.lmc)
            .sum();
        let switches = count(NodeKind::Switch);
        let ca_lids: Vec<_> = fabric.cas().filter_map(|n| fabric.node(n).base_lid()).collect();
        let routed: usize = fabric
            .switches()
            .filter_map(|s| fabric.lft(s))
            .map(|lft| {
                ca_lids.iter().filter(|&&l| matches!(lft.get(l), shoal::model::LftEntry::Port(_))).count()
            })
            .sum();
        let coverage = 100.0 * routed as f64 / (switches * ca_lids.len()).max(1) as f64;
        out += &format!(
            "rail {r}: {} CAs, {} switches, {} links, {lids} LIDs; {} of {switches} switches have forwarding tables, covering {coverage:.1}% of CA LIDs\n",
            count(NodeKind::Ca),
            switches,
            fabric.link_count(),
            fabric.switches_with_lft(),
        );
    }
    let on_all = cluster.hosts.iter().filter(|h| h.cas.iter().all(|c| !c.is_empty())).count();
    out += &format!("{} hosts, {on_all} on every rail\n", cluster.hosts.len());
    out
}
