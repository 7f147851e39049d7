//! `shoal hot`: the busiest link ends and who sent their bytes; with port counters, ranked by
//! what was observed or by the residual (observed − predicted); with `--contended`, the ends
//! several jobs share, ranked by what the second-largest job sent there. With `--routing ar`
//! (or AR tables beside a static ranking) see [`super::hot_routing`].

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use shoal::model::bytes::sum_bytes;
use shoal::model::echo::echo;
use shoal::model::{Cluster, LinkEnd};
use shoal::routing::ar::{ar_region, cluster_has_ar};
use shoal::routing::loads_input::TopKTable;
use shoal::routing::{
    FlowSet, HotEnd, Observed, RailLoad, RankBy, RankedEnd, RegionKey, RegionLoads, RoutingModel,
    contended_ends, hottest, hottest_by, pairs_through, pairs_through_by, rank_ends,
};
use shoal::units::format_bytes;
use shoal::view_model::dataset::{Attribution, FabricData};
use shoal::view_model::{JobRequest, OpenRequest, open_regions};

use super::common::{Routing, link_name, parse_routing, report_counters, report_warnings, traffic_summary};
use super::hot_health::{CounterRank, print_by_counters};
use super::hot_json::{EndJson, HotJson, JobJson, end_json, pairs_json};
use super::hot_routing::{Beside, heading, routing_model, shown_and_beside, summary_title};
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct HotArgs {
    #[command(flatten)]
    pub open: OpenArgs,
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
    /// Rank by the predicted bytes, the observed ones (needs --counters), or the residual
    /// observed − predicted by its size (needs --counters and --profile or --loads); or, from
    /// the counters alone, by stall, utilisation or errors.
    #[arg(long, value_enum, default_value = "predicted")]
    pub by: By,
    /// `static` (the default): rank the loads of the forwarding tables; `ar`: rank the AR
    /// spread (modelled) of the dumps' adaptive-routing tables. When AR tables are found both
    /// are computed and the other is printed beside.
    #[arg(long, value_name = "static|ar", value_parser = parse_routing)]
    pub routing: Option<Routing>,
    /// Print the ranking as one JSON object (title, ranked_by, routing, ends with their figures
    /// and host pairs) instead of the table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum By {
    Predicted,
    Observed,
    Residual,
    /// The sender's XmitWait as a % of the interval (needs --counters).
    Stall,
    /// Observed bytes as a % of the link's capacity over the interval (needs --counters).
    Utilisation,
    /// Ports by the error counters that moved (needs --counters).
    Errors,
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

/// The fabric the flags open, tracing only region `--region N` (and the total) when no jobs
/// share it; every profile is a job on the jobs road.
fn open_fabric(args: &HotArgs, jobs: bool) -> Result<FabricData> {
    let mut request: OpenRequest = args.open.request()?;
    if let Some(run) = &request.run {
        bail!("hot ranks a fabric's link ends; {} is run data (see `shoal query`)", run.display());
    }
    let only = if jobs {
        if let Some(p) = request.profile.take() {
            request.jobs.insert(0, JobRequest::from_profile(&p));
        }
        None
    } else {
        args.region
    };
    let progress = super::progress::Progress::new("hot");
    let dataset = open_regions(&request, only, &progress.of_open())?;
    drop(progress);
    report_warnings(&dataset.warnings, args.open.verbose);
    let fabric = dataset.fabric.context("hot needs fabric dumps")?;
    report_counters(&fabric);
    Ok(fabric)
}

fn require_profile(args: &HotArgs) -> Result<()> {
    let open = &args.open;
    if open.profile.is_none() && open.jobs.jobs.is_empty() && open.loads.is_none() {
        bail!("this command needs --profile, --job or --loads");
    }
    Ok(())
}

/// What `--by` ranks from the counters alone, if that.
fn counter_rank(by: By) -> Option<CounterRank> {
    match by {
        By::Stall => Some(CounterRank::Stall),
        By::Utilisation => Some(CounterRank::Utilisation),
        By::Errors => Some(CounterRank::Errors),
        By::Predicted | By::Observed | By::Residual => None,
    }
}

/// Checks of the jobs road: a profile per job, counters for `--by`, no `--contended` by them.
fn check_jobs_flags(args: &HotArgs) -> Result<()> {
    if args.open.loads.is_some() {
        bail!("--loads shows loads already traced; --job, --place and --contended need profiles");
    }
    if !matches!(args.by, By::Predicted) && !args.open.has_counters() {
        bail!("--by observed|residual needs --counters or --prometheus");
    }
    if !matches!(args.by, By::Predicted) && args.contended {
        bail!(
            "--contended ranks the jobs' shared ends by prediction; --by observed|residual ranks one prediction against the counters"
        );
    }
    require_profile(args)
}

pub fn run(args: &HotArgs) -> Result<()> {
    if let Some(rank) = counter_rank(args.by) {
        if !args.open.has_counters() {
            bail!("--by stall|utilisation|errors needs --counters or --prometheus");
        }
        if args.contended || args.region.is_some() {
            bail!(
                "--by stall|utilisation|errors ranks what the counters saw; --contended and --region rank a prediction"
            );
        }
        let fabric = open_fabric(args, false)?;
        print_by_counters(&fabric, rank, args.top);
        return Ok(());
    }
    if args.contended && args.region.is_some() {
        bail!("--contended compares the jobs' totals; --region belongs to one job");
    }
    if args.open.jobs.any() || args.contended {
        check_jobs_flags(args)?;
        let fabric = open_fabric(args, true)?;
        let model = routing_model(args.routing, &fabric.cluster, true)?;
        if args.contended {
            if model == RoutingModel::AdaptiveModelled {
                bail!("--contended compares the jobs' static loads; --routing ar is not modelled for it");
            }
            return contended(&fabric, args);
        }
        if !matches!(args.by, By::Predicted) {
            return jobs_against_counters(&fabric, args, model);
        }
        return jobs_hot(&fabric, args, model);
    }
    match args.by {
        By::Observed | By::Residual if !args.open.has_counters() => {
            bail!(
                "--by {} needs --counters or --prometheus",
                if matches!(args.by, By::Observed) { "observed" } else { "residual" }
            )
        }
        By::Predicted | By::Residual => require_profile(args)?,
        By::Observed | By::Stall | By::Utilisation | By::Errors => {}
    }
    // With --region N only that region (and the total) is traced: the one it ranks.
    let fabric = open_fabric(args, false)?;
    one_profile(&fabric, args)
}

/// The known region numbers for an error: the profile's own (only the asked one was traced),
/// else the loads file's.
fn known_regions(fabric: &FabricData) -> Vec<u32> {
    match &fabric.profile {
        Some(p) => shoal::model::region_table(p, "").0.regions.iter().map(|r| r.number).collect(),
        None => fabric.loads.regions.iter().filter_map(|r| r.region).collect(),
    }
}

/// One profile (or loads file): a region or the whole run, by prediction or against counters.
fn one_profile(fabric: &FabricData, args: &HotArgs) -> Result<()> {
    let cluster = &fabric.cluster;
    let has_loads = fabric.profile.is_some() || args.open.loads.is_some();
    let model = routing_model(args.routing, cluster, fabric.profile.is_some())?;
    let key = args.region.map_or(RegionKey::Total, RegionKey::Region);
    let loads = match has_loads {
        true => Some(fabric.loads.get(key).with_context(|| {
            let known = known_regions(fabric);
            format!("no region {} was loaded; there are {}", args.region.unwrap_or_default(), listing(&known))
        })?),
        false => None,
    };
    let title = title(key, loads);
    // Flows to name pairs by and to spread: only a profile has them.
    let flows = fabric.profile.as_ref().and_then(|_| fabric.flows.all().get(&key)).map(|f| &**f);
    let ar = match (flows, loads) {
        (Some(flows), Some(loads)) if cluster_has_ar(cluster) => Some(ar_region(cluster, loads, Some(flows))),
        _ => None,
    };
    match args.by {
        By::Predicted => {
            let loads = loads.context("no profile or loads file was loaded")?;
            let (shown, beside) = shown_and_beside(model, loads, ar.as_ref());
            print_predicted(args, fabric, (key, model), (shown, beside, flows), &title)
        }
        By::Observed | By::Residual | By::Stall | By::Utilisation | By::Errors => {
            let observed = fabric.observed.clone().unwrap_or_default();
            let predicted = if model == RoutingModel::AdaptiveModelled { ar.as_ref() } else { loads };
            print_against_counters(args, cluster, model, (predicted, flows), &observed, &title)
        }
    }
}

/// Region numbers for an error: all of a few (`1, 2, 3`), or how many and the first and last
/// of many (`20000 regions, 1 … 20000`), so a long time loop does not flood the terminal.
fn listing(numbers: &[u32]) -> String {
    const SHOWN: usize = 20;
    match numbers {
        [] => "none".to_string(),
        [first, .., last] if numbers.len() > SHOWN => format!("{} regions, {first} … {last}", numbers.len()),
        _ => numbers.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
    }
}

fn title(key: RegionKey, loads: Option<&RegionLoads>) -> String {
    match (key, loads.and_then(|l| l.name.as_ref())) {
        (RegionKey::Total, _) => "the whole run".to_string(),
        (RegionKey::Region(n), Some(name)) => format!("region {n} \"{name}\""),
        (RegionKey::Region(n), None) => format!("region {n}"),
    }
}

fn print_predicted(
    args: &HotArgs,
    fabric: &FabricData,
    (key, model): (RegionKey, RoutingModel),
    (loads, beside, flows): (&RegionLoads, Option<Beside>, Option<&FlowSet>),
    title: &str,
) -> Result<()> {
    let cluster = &fabric.cluster;
    let summary = match &fabric.attribution {
        Attribution::TopK(table) if fabric.profile.is_none() => Some(table),
        _ => None,
    };
    let hot = match flows {
        Some(flows) => hottest_by(cluster, loads, flows, (args.top, args.pairs), model),
        None => {
            let top = summary;
            match top {
                _ if args.json => {}
                Some(t) => println!("Pairs come from the loads file's top-{} summary: lower bounds.", t.k),
                None => println!("The loads file has no top-K summary (IBPROF_TOPK): no pairs to name."),
            }
            hottest_from_summary(cluster, loads, top, key, args.top, args.pairs)
        }
    };
    if args.json {
        let mut json = HotJson::new(title, "bytes", model);
        json.pairs_are_lower_bounds = summary.is_some() && flows.is_none();
        json.ends = ranked_json(cluster, &hot, beside.as_ref());
        json.print()?;
        eprintln!("{}", traffic_summary(loads, &summary_title(model, title)));
        return Ok(());
    }
    println!("{}", heading(model, title, beside.as_ref()));
    let w = bytes_width(hot.iter().map(|h| format_bytes(h.bytes)));
    print_header(beside.as_ref(), w);
    for (i, end) in hot.iter().enumerate() {
        let Some(link) = link_name(cluster, end.rail, end.end) else { continue };
        print_row(i, end, &link, hot[0].bytes, beside.as_ref(), w);
        // A summary's counts are lower bounds: say by how much each may be short.
        let short_by = summary.map(|t| {
            let kept = sum_bytes(t.pairs(key, end.rail, end.end).iter().map(|p| p.2));
            // K + 1 with K up to 2^64 − 1 from the file: saturate, never divide by zero.
            end.bytes.saturating_sub(kept) / (t.k as u64).saturating_add(1)
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
    eprintln!("{}", traffic_summary(loads, &summary_title(model, title)));
    Ok(())
}

/// Ranked ends by bytes as JSON: share of the busiest, the other model's bytes, the pairs.
fn ranked_json(cluster: &Cluster, hot: &[HotEnd], beside: Option<&Beside>) -> Vec<EndJson> {
    let max = hot.first().map_or(0, |h| h.bytes).max(1);
    hot.iter()
        .enumerate()
        .filter_map(|(i, end)| {
            let mut json = end_json(cluster, i, end.rail, end.end)?;
            json.bytes = Some(end.bytes);
            json.share_percent = Some((1000.0 * end.bytes as f64 / max as f64).round() / 10.0);
            json.beside = beside.map(|b| b.json(end));
            json.pairs = pairs_json(cluster, &end.pairs);
            Some(json)
        })
        .collect()
}

/// The column heads of a ranking by bytes (`w` wide), with the other model's column when there
/// is one.
fn print_header(beside: Option<&Beside>, w: usize) {
    let other = beside.map_or(String::new(), |b| format!(" {:>10}", b.label));
    println!("{COLUMNS}");
    println!(
        "{:>4}  {:>4}  {:<60} {:>w$} {:>6}{other}",
        "#", "rail", "from (port) -> to (port)", "bytes", "share"
    );
}

/// One ranked end: its bytes, its share of the busiest end's, and the other model's bytes.
fn print_row(i: usize, end: &HotEnd, link: &str, max: u64, beside: Option<&Beside>, w: usize) {
    let share = 100.0 * end.bytes as f64 / max.max(1) as f64;
    let other = beside.map_or(String::new(), |b| format!(" {:>10}", b.cell(end)));
    println!(
        "{:>4}  {:>4}  {link:<60} {:>w$} {share:>5.1}%{other}",
        i + 1,
        end.rail,
        format_bytes(end.bytes)
    );
}

fn print_against_counters(
    args: &HotArgs,
    cluster: &Cluster,
    model: RoutingModel,
    (loads, flows): (Option<&RegionLoads>, Option<&FlowSet>),
    observed: &Observed,
    title: &str,
) -> Result<()> {
    let by = if matches!(args.by, By::Residual) { RankBy::Residual } else { RankBy::Observed };
    let ranked_by = if by == RankBy::Residual { "residual" } else { "observed" };
    let ends: Vec<usize> = cluster.rails.iter().map(|f| f.link_end_count()).collect();
    let ranked = rank_ends(&ends, loads, Some(observed), by, args.top);
    let mut pairs = match flows {
        Some(flows) if args.pairs > 0 => {
            let wanted: Vec<(usize, LinkEnd)> = ranked.iter().map(|e| (e.rail, e.end)).collect();
            pairs_through_by(cluster, flows, &wanted, args.pairs, model)
        }
        _ => Default::default(),
    };
    if args.json {
        let mut json = HotJson::new(title, ranked_by, model);
        for (i, end) in ranked.iter().enumerate() {
            let Some(mut row) = end_json(cluster, i, end.rail, end.end) else { continue };
            (row.observed, row.predicted, row.residual) = (end.observed, end.predicted, end.residual);
            row.pairs = pairs_json(cluster, &pairs.remove(&(end.rail, end.end.index())).unwrap_or_default());
            json.ends.push(row);
        }
        return json.print();
    }
    let predicted = match model {
        RoutingModel::AdaptiveModelled => ", predicted = AR modelled (spread evenly over AR groups)",
        RoutingModel::Static => "",
    };
    match by {
        RankBy::Residual => println!("Largest residuals (observed − predicted) in {title}{predicted}:"),
        _ => println!("Busiest observed link ends in {title}{predicted}:"),
    }
    let or_dash = |v: Option<u64>| v.map_or_else(|| "-".to_string(), format_bytes);
    let w = bytes_width(ranked.iter().flat_map(|e| [or_dash(e.observed), or_dash(e.predicted)]));
    let rw = bytes_width(ranked.iter().map(signed)).max(11);
    println!(
        "{:>4}  {:>4}  {:<60} {:>w$} {:>w$} {:>rw$}",
        "#", "rail", "from (port) -> to (port)", "observed", "predicted", "residual"
    );
    for (i, end) in ranked.iter().enumerate() {
        let Some(link) = link_name(cluster, end.rail, end.end) else { continue };
        let (seen, predicted) = (or_dash(end.observed), or_dash(end.predicted));
        println!("{:>4}  {:>4}  {link:<60} {seen:>w$} {predicted:>w$} {:>rw$}", i + 1, end.rail, signed(end));
        print_pairs(cluster, &pairs.remove(&(end.rail, end.end.index())).unwrap_or_default(), 12);
    }
    Ok(())
}

fn signed(end: &RankedEnd) -> String {
    match end.residual {
        Some(r) if r < 0 => format!("-{}", format_bytes(r.unsigned_abs())),
        Some(r) => format!("+{}", format_bytes(r.unsigned_abs())),
        None => "-".to_string(),
    }
}

fn print_pairs(cluster: &Cluster, pairs: &[(Option<usize>, Option<usize>, u64)], indent: usize) {
    for (src, dst, bytes) in pairs {
        let name = |h: &Option<usize>| {
            h.map_or_else(|| "?".to_string(), |h| echo(&cluster.hosts[h].name).into_owned())
        };
        println!("{:>indent$}{} -> {}  {}", "", name(src), name(dst), format_bytes(*bytes));
    }
}

/// `--job`: one job's region or whole run, or with several jobs the sum of their totals.
fn jobs_hot(fabric: &FabricData, args: &HotArgs, model: RoutingModel) -> Result<()> {
    let cluster = &fabric.cluster;
    let (title, loads, flows) = jobs_selection(fabric, args)?;
    let ar = cluster_has_ar(cluster).then(|| ar_region(cluster, &loads, Some(&flows)));
    let (shown, beside) = shown_and_beside(model, &loads, ar.as_ref());
    let hot = hottest_by(cluster, shown, &flows, (args.top, args.pairs), model);
    if args.json {
        let mut json = HotJson::new(&title, "bytes", model);
        json.ends = ranked_json(cluster, &hot, beside.as_ref());
        json.print()?;
        eprintln!("{}", traffic_summary(shown, &summary_title(model, &title)));
        return Ok(());
    }
    println!("{}", heading(model, &title, beside.as_ref()));
    let w = bytes_width(hot.iter().map(|h| format_bytes(h.bytes)));
    print_header(beside.as_ref(), w);
    for (i, end) in hot.iter().enumerate() {
        let Some(link) = link_name(cluster, end.rail, end.end) else { continue };
        print_row(i, end, &link, hot[0].bytes, beside.as_ref(), w);
        print_pairs(cluster, &end.pairs, 12);
    }
    eprintln!("{}", traffic_summary(shown, &summary_title(model, &title)));
    Ok(())
}

/// `--job … --counters … --by observed|residual`: the counters against every job's prediction
/// summed, so a residual is traffic none of these jobs explains (another job, management, AR).
fn jobs_against_counters(fabric: &FabricData, args: &HotArgs, model: RoutingModel) -> Result<()> {
    let cluster = &fabric.cluster;
    let (title, loads, flows) = jobs_selection(fabric, args)?;
    let ar = (model == RoutingModel::AdaptiveModelled).then(|| ar_region(cluster, &loads, Some(&flows)));
    let observed = fabric.observed.clone().unwrap_or_default();
    let predicted = ar.as_ref().unwrap_or(&loads);
    print_against_counters(args, cluster, model, (Some(predicted), Some(&flows)), &observed, &title)
}

/// The loads and flows `--job` ranks: one job's region or whole run, or with several jobs the
/// sum of their totals, and a title naming which.
fn jobs_selection(fabric: &FabricData, args: &HotArgs) -> Result<(String, RegionLoads, FlowSet)> {
    let flows_of = |k: usize, key: RegionKey| {
        fabric.job_flows.get(k).and_then(|(_, f)| f.get(&key)).map(|f| (**f).clone()).unwrap_or_default()
    };
    Ok(match fabric.jobs.as_slice() {
        [job] => {
            let key = args.region.map_or(RegionKey::Total, RegionKey::Region);
            let Some(loads) = job.loads.get(key) else {
                let known: Vec<u32> = job.loads.regions.iter().filter_map(|r| r.region).collect();
                bail!(
                    "the profile has no region {}; it has {}",
                    args.region.unwrap_or_default(),
                    listing(&known)
                );
            };
            (title(key, Some(loads)), loads.clone(), flows_of(0, key))
        }
        jobs => {
            if args.region.is_some() {
                bail!(
                    "regions belong to one job; with {} jobs, hot ranks the sum of their totals",
                    jobs.len()
                );
            }
            let mut flows = FlowSet::default();
            for k in 0..jobs.len() {
                append(&mut flows, flows_of(k, RegionKey::Total));
            }
            let names: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
            (format!("all jobs ({})", names.join(" + ")), all_total(fabric), flows)
        }
    })
}

/// Job `all`: the sum of every job's total, on every rail.
fn all_total(fabric: &FabricData) -> RegionLoads {
    let mut sum = fabric.loads.total.clone();
    sum.rails.resize_with(fabric.cluster.rails.len(), || RailLoad::with_link_ends(0));
    sum
}

fn append(into: &mut FlowSet, from: FlowSet) {
    into.flows.resize_with(from.flows.len().max(into.flows.len()), Vec::new);
    into.origins.resize_with(from.origins.len().max(into.origins.len()), Vec::new);
    for (r, (flows, origins)) in from.flows.into_iter().zip(from.origins).enumerate() {
        into.flows[r].extend(flows);
        into.origins[r].extend(origins);
    }
    shoal::model::bytes::add_bytes(&mut into.intra_node_bytes, from.intra_node_bytes);
    shoal::model::bytes::add_bytes(&mut into.unplaced_bytes, from.unplaced_bytes);
}

/// `--contended`: the ends two or more jobs share, by the second-largest job's bytes.
fn contended(fabric: &FabricData, args: &HotArgs) -> Result<()> {
    if fabric.jobs.len() < 2 {
        bail!("--contended needs two or more jobs (--job NAME=PROFILE, repeated)");
    }
    let cluster = &fabric.cluster;
    let totals: Vec<&RegionLoads> = fabric.jobs.iter().map(|j| &j.loads.total).collect();
    let mut ends = contended_ends(&totals);
    let count = ends.len();
    ends.truncate(args.top);
    let wanted: Vec<(usize, LinkEnd)> = ends.iter().map(|e| (e.rail, e.end)).collect();
    let none = FlowSet::default();
    let pairs: Vec<_> = fabric
        .job_flows
        .iter()
        .map(|(_, flows)| {
            pairs_through(cluster, flows.get(&RegionKey::Total).map_or(&none, |f| &**f), &wanted, args.pairs)
        })
        .collect();
    let names: Vec<String> = fabric.jobs.iter().map(|j| echo(&j.name).into_owned()).collect();
    if args.json {
        let mut json =
            HotJson::new(&format!("jobs {}", names.join(", ")), "second_job_bytes", RoutingModel::Static);
        for (i, end) in ends.iter().enumerate() {
            let Some(mut row) = end_json(cluster, i, end.rail, end.end) else { continue };
            row.bytes = Some(end.second_bytes());
            for &(j, bytes) in &end.jobs {
                let job_pairs = pairs[j].get(&(end.rail, end.end.index())).cloned().unwrap_or_default();
                row.jobs.push(JobJson {
                    job: names[j].clone(),
                    bytes,
                    pairs: pairs_json(cluster, &job_pairs),
                });
            }
            json.ends.push(row);
        }
        return json.print();
    }
    println!(
        "Contended link ends ({count} carry two or more of {}), ranked by the second-largest job's bytes:",
        names.join(", ")
    );
    let w = bytes_width(ends.iter().map(|e| format_bytes(e.second_bytes())));
    println!("{:>4}  {:>4}  {:<60} {:>w$}", "#", "rail", "from (port) -> to (port)", "second");
    for (i, end) in ends.iter().enumerate() {
        let Some(link) = link_name(cluster, end.rail, end.end) else { continue };
        println!("{:>4}  {:>4}  {link:<60} {:>w$}", i + 1, end.rail, format_bytes(end.second_bytes()));
        for &(j, bytes) in &end.jobs {
            println!("{:>12}job {}: {}", "", names[j], format_bytes(bytes));
            let job_pairs = pairs[j].get(&(end.rail, end.end.index())).cloned().unwrap_or_default();
            print_pairs(cluster, &job_pairs, 16);
        }
    }
    eprintln!("{}", traffic_summary(&all_total(fabric), "all jobs"));
    Ok(())
}

/// The line over the column heads of a ranking by bytes: what each column means.
pub const COLUMNS: &str = "(rail: the subnet; from -> to: the sending end's node (port) and the far end's; \
bytes: what the end sent; share: its bytes as a percentage of the busiest end's; below each end, the \
host pairs that sent the most through it)";

/// The width of a column of byte counts: 10, or the longest value's (a capped sum prints as
/// `16 EiB (overflow)`), so every value and the next column stay aligned.
fn bytes_width(values: impl Iterator<Item = String>) -> usize {
    values.map(|v| v.chars().count()).max().unwrap_or(0).max(10)
}
