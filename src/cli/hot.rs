//! `shoal hot`: the busiest link ends and who sent their bytes; with `--contended`, the ends
//! several jobs share, ranked by what the second-largest job sent there.

use anyhow::{Result, bail};
use clap::Args;
use shoal::model::{Cluster, LinkEnd};
use shoal::pipeline::{JobsAnalysis, region_flows};
use shoal::routing::loads_input::TopKTable;
use shoal::routing::{FlowSet, HotEnd, PairBytes, RegionKey, RegionLoads, hottest, pairs_through};
use shoal::units::format_bytes;

use super::common::{ProfileArgs, RailArgs, analyse_jobs, analyse_loads_file, require_profile};

#[derive(Args, Debug)]
pub struct HotArgs {
    #[command(flatten)]
    pub rails: RailArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
    /// The region to rank (its own bytes: dump N − dump N−1). Default: the whole run. Regions
    /// belong to one job: with several jobs, their totals are summed instead.
    #[arg(long)]
    pub region: Option<u32>,
    /// How many link ends to list.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// How many source → destination host pairs to name per link end (per job with --contended).
    #[arg(long, default_value_t = 3)]
    pub pairs: usize,
    /// Rank the link ends two or more jobs send through by the second-largest job's bytes there,
    /// with each job's bytes and host pairs.
    #[arg(long)]
    pub contended: bool,
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
    if args.contended && args.region.is_some() {
        bail!("--contended compares the jobs' totals; --region belongs to one job");
    }
    if args.profile.loads.is_some() {
        if args.contended {
            bail!("--contended compares jobs traced from profiles, not a loads file");
        }
        return from_loads_file(args);
    }
    let analysis = analyse_jobs(&args.rails, &args.profile)?;
    if args.contended {
        return contended(&analysis, args);
    }
    match analysis.jobs.as_slice() {
        [job] => {
            let key = args.region.map_or(RegionKey::Total, RegionKey::Region);
            let data = &job.analysis;
            let Some(loads) = data.loads.get(key) else {
                let known: Vec<String> =
                    data.loads.regions.iter().filter_map(|r| r.region).map(|n| n.to_string()).collect();
                bail!(
                    "the profile has no region {:?}; it has {}",
                    args.region.unwrap_or_default(),
                    known.join(", ")
                );
            };
            let flows = region_flows(&analysis.cluster, data, key);
            let title = region_title(key, loads);
            let hot = hottest(&analysis.cluster, loads, &flows, args.top, args.pairs);
            print_hot(&analysis.cluster, &title, &hot);
        }
        jobs => {
            if args.region.is_some() {
                bail!(
                    "regions belong to one job; with {} jobs, hot ranks the sum of their totals",
                    jobs.len()
                );
            }
            let mut flows = FlowSet::default();
            for job in jobs {
                append(&mut flows, region_flows(&analysis.cluster, &job.analysis, RegionKey::Total));
            }
            let names: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
            let title = format!("all jobs ({})", names.join(" + "));
            let hot = hottest(&analysis.cluster, &analysis.all_total(), &flows, args.top, args.pairs);
            print_hot(&analysis.cluster, &title, &hot);
        }
    }
    Ok(())
}

/// `--loads FILE`: the busiest ends of loads already traced, pairs from the file's top-K summary.
fn from_loads_file(args: &HotArgs) -> Result<()> {
    let analysis = analyse_loads_file(&args.rails, &args.profile)?;
    let Some(all) = analysis.loads() else { bail!("no loads file was loaded") };
    let key = args.region.map_or(RegionKey::Total, RegionKey::Region);
    let Some(loads) = all.get(key) else {
        let known: Vec<String> = all.regions.iter().filter_map(|r| r.region).map(|n| n.to_string()).collect();
        bail!("no region {:?} was loaded; there are {}", args.region.unwrap_or_default(), known.join(", "));
    };
    let top = analysis.loads_file.as_ref().and_then(|f| f.top_k.as_ref());
    match top {
        Some(t) => println!("Pairs come from the loads file's top-{} summary: lower bounds.", t.k),
        None => println!("The loads file has no top-K summary (IBPROF_TOPK): no pairs to name."),
    }
    let hot = hottest_from_summary(&analysis.cluster, loads, top, key, args.top, args.pairs);
    print_hot(&analysis.cluster, &region_title(key, loads), &hot);
    Ok(())
}

fn region_title(key: RegionKey, loads: &RegionLoads) -> String {
    match key {
        RegionKey::Total => "the whole run".to_string(),
        RegionKey::Region(n) => match &loads.name {
            Some(name) => format!("region {n} \"{name}\""),
            None => format!("region {n}"),
        },
    }
}

fn append(into: &mut FlowSet, from: FlowSet) {
    into.flows.resize_with(from.flows.len().max(into.flows.len()), Vec::new);
    into.origins.resize_with(from.origins.len().max(into.origins.len()), Vec::new);
    for (r, (flows, origins)) in from.flows.into_iter().zip(from.origins).enumerate() {
        into.flows[r].extend(flows);
        into.origins[r].extend(origins);
    }
    into.intra_node_bytes += from.intra_node_bytes;
    into.unplaced_bytes += from.unplaced_bytes;
}

fn print_hot(cluster: &Cluster, title: &str, hot: &[HotEnd]) {
    let max = hot.first().map_or(0, |h| h.bytes).max(1);
    println!("Busiest link ends in {title}:");
    println!("{:>4}  {:>4}  {:<60} {:>10} {:>6}", "#", "rail", "from (port) -> to (port)", "bytes", "share");
    for (i, end) in hot.iter().enumerate() {
        let share = 100.0 * end.bytes as f64 / max as f64;
        let link = describe(cluster, end.rail, end.end);
        println!("{:>4}  {:>4}  {link:<60} {:>10} {share:>5.1}%", i + 1, end.rail, format_bytes(end.bytes));
        print_pairs(cluster, &end.pairs, 12);
    }
}

/// `L1-00 (3) -> S2-01 (1)`: the sending node and port, then the receiving ones.
fn describe(cluster: &Cluster, rail: usize, end: LinkEnd) -> String {
    let fabric = &cluster.rails[rail];
    match fabric.link_end_nodes(end) {
        Some(((a, ap), (b, bp))) => {
            format!("{} ({ap}) -> {} ({bp})", fabric.node(a).description, fabric.node(b).description)
        }
        None => format!("link end {}", end.index()),
    }
}

fn print_pairs(cluster: &Cluster, pairs: &PairBytes, indent: usize) {
    let name = |h: &Option<usize>| h.map_or_else(|| "?".to_string(), |h| cluster.hosts[h].name.clone());
    for (src, dst, bytes) in pairs {
        println!("{:>indent$}{} -> {}  {}", "", name(src), name(dst), format_bytes(*bytes));
    }
}

fn contended(analysis: &JobsAnalysis, args: &HotArgs) -> Result<()> {
    if analysis.jobs.len() < 2 {
        bail!("--contended needs two or more jobs (--job NAME=PROFILE, repeated)");
    }
    let cluster = &analysis.cluster;
    let mut ends = analysis.contended();
    let count = ends.len();
    ends.truncate(args.top);
    let wanted: Vec<(usize, LinkEnd)> = ends.iter().map(|e| (e.rail, e.end)).collect();
    let pairs: Vec<_> = analysis
        .jobs
        .iter()
        .map(|job| {
            let flows = region_flows(cluster, &job.analysis, RegionKey::Total);
            pairs_through(cluster, &flows, &wanted, args.pairs)
        })
        .collect();
    let names: Vec<&str> = analysis.jobs.iter().map(|j| j.name.as_str()).collect();
    println!(
        "Contended link ends ({count} carry two or more of {}), ranked by the second-largest job's bytes:",
        names.join(", ")
    );
    println!("{:>4}  {:>4}  {:<60} {:>10}", "#", "rail", "from (port) -> to (port)", "second");
    for (i, end) in ends.iter().enumerate() {
        let link = describe(cluster, end.rail, end.end);
        println!("{:>4}  {:>4}  {link:<60} {:>10}", i + 1, end.rail, format_bytes(end.second_bytes()));
        for &(j, bytes) in &end.jobs {
            println!("{:>12}job {}: {}", "", names[j], format_bytes(bytes));
            let job_pairs = pairs[j].get(&(end.rail, end.end.index())).cloned().unwrap_or_default();
            print_pairs(cluster, &job_pairs, 16);
        }
    }
    Ok(())
}
