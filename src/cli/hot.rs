//! `shoal hot`: the busiest link ends and who sent their bytes.

use anyhow::{Context, Result, bail};
use clap::Args;
use shoal::model::Cluster;
use shoal::model::echo::echo;
use shoal::pipeline::region_flows;
use shoal::routing::loads_input::TopKTable;
use shoal::routing::{FlowSet, HotEnd, RegionKey, RegionLoads, hottest};
use shoal::units::format_bytes;

use super::common::{ProfileArgs, RailArgs, analyse, require_profile, traffic_summary};

#[derive(Args, Debug)]
pub struct HotArgs {
    #[command(flatten)]
    pub rails: RailArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The region to rank (its own bytes: dump N − dump N−1). Default: the whole run.
    #[arg(long)]
    pub region: Option<u32>,
    /// How many link ends to list.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// How many source → destination host pairs to name per link end.
    #[arg(long, default_value_t = 3)]
    pub pairs: usize,
}

/// The busiest link ends of loads read from a file, their pairs from its top-K summary.
fn hottest_from_summary(
    cluster: &Cluster,
    loads: &RegionLoads,
    top: Option<&TopKTable>,
    key: RegionKey,
    count: usize,
    pairs: usize,
) -> Vec<HotEnd> {
    let mut hot = hottest(cluster, loads, &FlowSet::default(), count, 0);
    if let Some(top) = top {
        for end in &mut hot {
            end.pairs = top.pairs(key, end.rail, end.end).iter().take(pairs).copied().collect();
        }
    }
    hot
}

pub fn run(args: &HotArgs) -> Result<()> {
    require_profile(&args.profile)?;
    let analysis = analyse(&args.rails, &args.profile)?;
    let all = analysis.loads().context("no profile or loads file was loaded")?;
    let key = args.region.map_or(RegionKey::Total, RegionKey::Region);
    let Some(loads) = all.get(key) else {
        let known: Vec<String> = all.regions.iter().filter_map(|r| r.region).map(|n| n.to_string()).collect();
        bail!("no region {:?} was loaded; there are {}", args.region.unwrap_or_default(), known.join(", "));
    };
    let cluster = &analysis.cluster;
    let hot = match (&analysis.profile, &analysis.loads_file) {
        (Some(data), _) => hottest(cluster, loads, &region_flows(cluster, data, key), args.top, args.pairs),
        (None, file) => {
            let top = file.as_ref().and_then(|f| f.top_k.as_ref());
            match top {
                Some(t) => println!("Pairs come from the loads file's top-{} summary: lower bounds.", t.k),
                None => println!("The loads file has no top-K summary (IBPROF_TOPK): no pairs to name."),
            }
            hottest_from_summary(cluster, loads, top, key, args.top, args.pairs)
        }
    };
    let max = hot.first().map_or(0, |h| h.bytes).max(1);
    let title = match key {
        RegionKey::Total => "the whole run".to_string(),
        RegionKey::Region(n) => match &loads.name {
            Some(name) => format!("region {n} \"{name}\""),
            None => format!("region {n}"),
        },
    };
    println!("Busiest link ends in {title}:");
    println!("{:>4}  {:>4}  {:<60} {:>10} {:>6}", "#", "rail", "from (port) -> to (port)", "bytes", "share");
    for (i, end) in hot.iter().enumerate() {
        let fabric = &cluster.rails[end.rail];
        let Some(((a, ap), (b, bp))) = fabric.link_end_nodes(end.end) else { continue };
        let link = format!(
            "{} ({ap}) -> {} ({bp})",
            echo(&fabric.node(a).description),
            echo(&fabric.node(b).description)
        );
        let share = 100.0 * end.bytes as f64 / max as f64;
        println!("{:>4}  {:>4}  {link:<60} {:>10} {share:>5.1}%", i + 1, end.rail, format_bytes(end.bytes));
        // A summary's counts are lower bounds: say by how much each may be short.
        let summary =
            analysis.profile.is_none().then(|| analysis.loads_file.as_ref()?.top_k.as_ref()).flatten();
        let short_by = summary.map(|t| {
            let kept: u64 = t.pairs(key, end.rail, end.end).iter().map(|p| p.2).sum();
            end.bytes.saturating_sub(kept) / (t.k as u64 + 1)
        });
        for (src, dst, bytes) in &end.pairs {
            let name = |h: &Option<usize>| {
                h.map_or_else(|| "?".to_string(), |h| echo(&cluster.hosts[h].name).into_owned())
            };
            let bound =
                short_by.map_or(String::new(), |b| format!(" (at least; up to {} more)", format_bytes(b)));
            println!("{:>12}{} -> {}  {}{bound}", "", name(src), name(dst), format_bytes(*bytes));
        }
    }
    eprintln!("{}", traffic_summary(loads, &title));
    Ok(())
}
