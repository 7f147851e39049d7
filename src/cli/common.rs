//! What the subcommands share: rail and profile arguments, loading, and warning reports.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;
use shoal::layout::{FatTreeOptions, HcaPlanes};
use shoal::model::{Cluster, Warning};
use shoal::pipeline::{self, Analysis, CounterSpec, JobSpec, JobsAnalysis};
use shoal::routing::placement::ParsedPolicy;
use shoal::routing::{HostMap, LoadOptions, Observed, PlacementPolicy, RailPolicy};

/// The fabric: one RAIL per subnet.
#[derive(Args, Debug, Clone)]
pub struct RailArgs {
    /// One subnet's dumps: a directory, or files joined by commas. Repeat for each rail.
    #[arg(value_name = "RAIL", required = true)]
    pub rails: Vec<String>,
    /// List every warning instead of a summary.
    #[arg(short, long)]
    pub verbose: bool,
}

impl RailArgs {
    pub fn rail_paths(&self) -> Vec<Vec<PathBuf>> {
        self.rails
            .iter()
            .map(|r| r.split(',').filter(|p| !p.is_empty()).map(PathBuf::from).collect())
            .collect()
    }
}

/// A profile and how its rank-level bytes are placed on rails.
#[derive(Args, Debug, Clone)]
pub struct ProfileArgs {
    /// A profile: ibprof v1 (file, .gz, or a directory of *.ibprof files) or PFProf JSON (a rank
    /// file, or a directory of them), told apart by content.
    #[arg(long, value_name = "P", conflicts_with = "loads")]
    pub profile: Option<PathBuf>,
    /// Link-end loads already traced: a loads file written in situ by libibprof
    /// (`IBPROF_LOADS`), or `shoal convert`'s links.csv. Used instead of a profile.
    #[arg(long, value_name = "FILE")]
    pub loads: Option<PathBuf>,
    /// `split` spreads rank-level bytes over the rails both hosts share; `rail:N` uses rail N.
    #[arg(long, value_name = "POLICY", default_value = "split", value_parser = parse_policy)]
    pub rail_policy: RailPolicy,
    /// Maps the profile's ranks onto the fabric's hosts (node descriptions' first words): lines
    /// `profile-host fabric-host`, or `rank R fabric-host` for one rank. `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    pub host_map: Option<PathBuf>,
    #[command(flatten)]
    pub jobs: JobArgs,
}

/// Several jobs on the fabric, and where their ranks run.
#[derive(Args, Debug, Clone, Default)]
pub struct JobArgs {
    /// A job: its name and its profile. Repeat for each job sharing the fabric; `--profile P`
    /// is one more job, named after the file (`md.ibprof.gz` → `md`), listed first.
    #[arg(long = "job", value_name = "NAME=PROFILE", value_parser = parse_job)]
    pub jobs: Vec<(String, PathBuf)>,
    /// Where a job's ranks run: `as-recorded` (default), `linear`, `random-node:SEED`,
    /// `random-switch:SEED` or `hosts:FILE` (one host per line, rank order). Placed jobs take
    /// hosts no other job holds, in command-line order.
    #[arg(long = "place", value_name = "NAME=POLICY", value_parser = parse_place)]
    pub place: Vec<(String, String)>,
}

fn parse_job(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, path)) if !name.trim().is_empty() && !path.is_empty() => {
            Ok((name.trim().to_string(), PathBuf::from(path)))
        }
        _ => Err(format!("expected NAME=PROFILE, got `{text}`")),
    }
}

fn parse_place(text: &str) -> Result<(String, String), String> {
    let (name, policy) = text.split_once('=').ok_or_else(|| format!("expected NAME=POLICY, got `{text}`"))?;
    PlacementPolicy::parse(policy)?;
    Ok((name.trim().to_string(), policy.to_string()))
}

impl JobArgs {
    /// Whether jobs were asked for (then every profile goes down the jobs road).
    pub fn any(&self) -> bool {
        !self.jobs.is_empty() || !self.place.is_empty()
    }

    /// The jobs: `--profile` first (named after its file), then each `--job`, each with its
    /// `--place` (a host file read here).
    pub fn specs(&self, profile: Option<&Path>) -> Result<Vec<JobSpec>> {
        let mut specs: Vec<JobSpec> = profile.map(JobSpec::from_profile).into_iter().collect();
        specs.extend(self.jobs.iter().map(|(name, path)| JobSpec {
            name: name.clone(),
            profile: path.clone(),
            place: PlacementPolicy::AsRecorded,
        }));
        let mut placed = std::collections::HashSet::new();
        for (name, text) in &self.place {
            let known: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
            let Some(spec) = specs.iter_mut().find(|s| s.name == *name) else {
                bail!("--place {name}=…: no job is named {name} (the jobs: {})", known.join(", "));
            };
            if !placed.insert(name.clone()) {
                bail!("--place {name} is given twice");
            }
            spec.place = match PlacementPolicy::parse(text).map_err(anyhow::Error::msg)? {
                ParsedPolicy::Ready(policy) => policy,
                ParsedPolicy::HostsFile(path) => PlacementPolicy::Hosts(read_host_list(Path::new(&path))?),
            };
        }
        Ok(specs)
    }
}

/// One host name per line (the first word); blank lines and `#` comments are skipped.
fn read_host_list(path: &Path) -> Result<Vec<String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading the host list {}", path.display()))?;
    let hosts: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap_or(l).to_string())
        .collect();
    if hosts.is_empty() {
        bail!("the host list {} names no host", path.display());
    }
    Ok(hosts)
}

/// How the fat tree is laid out.
#[derive(Args, Debug, Clone)]
pub struct LayoutArgs {
    /// `auto`: where a subnet is rail-optimized (hosts with several HCAs, each HCA index on its
    /// own leaves: planes), draw every CA on the host row grouped by plane, a host marked by all
    /// of its CAs; `off`: one dot per host, as the thesis draws it.
    #[arg(long, value_name = "auto|off", default_value = "auto", value_parser = parse_hca_planes)]
    pub hca_planes: HcaPlanes,
}

impl LayoutArgs {
    pub fn options(&self) -> FatTreeOptions {
        FatTreeOptions { hca_planes: self.hca_planes, ..FatTreeOptions::default() }
    }
}

pub fn parse_hca_planes(text: &str) -> Result<HcaPlanes, String> {
    HcaPlanes::parse(text).ok_or_else(|| format!("expected `auto` or `off`, got `{text}`"))
}

/// `--routing static|ar`: which trace the loads come from.
pub use shoal::view_model::RoutingMode as Routing;

pub fn parse_routing(text: &str) -> Result<Routing, String> {
    Routing::parse(text)
}

fn parse_policy(text: &str) -> Result<RailPolicy, String> {
    match text {
        "split" => Ok(RailPolicy::Split),
        _ => text
            .strip_prefix("rail:")
            .and_then(|n| n.parse::<u8>().ok())
            .map(RailPolicy::Rail)
            .ok_or_else(|| format!("expected `split` or `rail:N`, got `{text}`")),
    }
}

impl ProfileArgs {
    pub fn load_options(&self) -> Result<(LoadOptions, Vec<Warning>)> {
        let (host_map, warnings) = match &self.host_map {
            Some(path) => pipeline::read_host_map(path)
                .with_context(|| format!("reading --host-map {}", path.display()))?,
            None => (HostMap::default(), Vec::new()),
        };
        Ok((LoadOptions { policy: self.rail_policy, host_map, only_region: None }, warnings))
    }
}

/// Loads the rails, printing the warning summary.
pub fn load_cluster(rails: &RailArgs) -> Result<Cluster> {
    let (cluster, warnings) = pipeline::load_cluster(&rails.rail_paths())?;
    report_warnings(&warnings, rails.verbose);
    Ok(cluster)
}

/// Loads the rails and a loads file (`--loads`), printing the warning summary.
pub fn analyse_loads_file(
    rails: &RailArgs,
    profile: &ProfileArgs,
    layout: &FatTreeOptions,
) -> Result<Analysis> {
    if profile.jobs.any() {
        bail!("--loads shows loads already traced; --job and --place need profiles");
    }
    analyse_laid_out(rails, profile, layout)
}

/// Loads rails and every job (`--profile` and `--job`), places and traces each job, printing
/// the warning summary.
pub fn analyse_jobs(
    rails: &RailArgs,
    profile: &ProfileArgs,
    layout: &FatTreeOptions,
) -> Result<JobsAnalysis> {
    check_rail_policy(profile.rail_policy, rails.rail_paths().len())?;
    let specs = profile.jobs.specs(profile.profile.as_deref())?;
    let (options, mut warnings) = profile.load_options()?;
    let analysis = pipeline::analyse_jobs_with_layout(&rails.rail_paths(), &specs, &options, layout)?;
    warnings.extend(analysis.warnings.iter().cloned());
    report_warnings(&warnings, rails.verbose);
    Ok(analysis)
}

/// [`analyse`] with the layout's options.
pub fn analyse_laid_out(
    rails: &RailArgs,
    profile: &ProfileArgs,
    layout: &FatTreeOptions,
) -> Result<Analysis> {
    analyse_regions(rails, profile, layout, None)
}

/// [`analyse_laid_out`], tracing only region `only_region` (and the total) when given.
pub fn analyse_regions(
    rails: &RailArgs,
    profile: &ProfileArgs,
    layout: &FatTreeOptions,
    only_region: Option<u32>,
) -> Result<Analysis> {
    check_rail_policy(profile.rail_policy, rails.rail_paths().len())?;
    let (mut options, mut warnings) = profile.load_options()?;
    options.only_region = only_region;
    let analysis = pipeline::analyse_inputs_with_layout(
        &rails.rail_paths(),
        (profile.profile.as_deref(), profile.loads.as_deref()),
        &options,
        layout,
    )?;
    warnings.extend(analysis.warnings.iter().cloned());
    report_warnings(&warnings, rails.verbose);
    Ok(analysis)
}

/// `--rail-policy rail:N` names one of the rails given: otherwise every rank-level byte would be
/// unplaced and the command would still succeed (issue 16).
fn check_rail_policy(policy: RailPolicy, rails: usize) -> Result<()> {
    if let RailPolicy::Rail(n) = policy
        && usize::from(n) >= rails
    {
        bail!(
            "--rail-policy rail:{n}, but {rails} rail{} given (rails are numbered from 0, in the order given)",
            if rails == 1 { " was" } else { "s were" }
        );
    }
    Ok(())
}

/// Prints warnings to stderr: all of them with `--verbose`, else a count and the first few.
pub fn report_warnings(warnings: &[Warning], verbose: bool) {
    const SHOWN: usize = 5;
    if warnings.is_empty() {
        return;
    }
    let shown = if verbose { warnings.len() } else { SHOWN.min(warnings.len()) };
    for warning in &warnings[..shown] {
        eprintln!("warning: {warning}");
    }
    if shown < warnings.len() {
        eprintln!(
            "shoal: {} warnings ({} more not shown; --verbose lists them all)",
            warnings.len(),
            warnings.len() - shown
        );
    } else {
        eprintln!("shoal: {} warning{}", warnings.len(), if warnings.len() == 1 { "" } else { "s" });
    }
}

/// Parses a LID typed on the command line: bare digits are decimal, as `ibtracert` and
/// `perfquery` read them; `0x` means hexadecimal.
pub fn parse_lid(text: &str) -> Result<shoal::model::Lid, String> {
    shoal::model::Lid::parse_typed(text).ok_or_else(|| {
        format!("`{text}` is not a LID (decimal, e.g. 18, or hexadecimal with 0x, e.g. 0x0012)")
    })
}

/// The one line `convert` and `hot` end with: where the counted bytes went, so undelivered and
/// unplaced bytes are never only in the warnings (issue 16).
pub fn traffic_summary(loads: &shoal::routing::RegionLoads, what: &str) -> String {
    use shoal::model::bytes::sum_bytes;
    use shoal::units::format_bytes;
    let injected = sum_bytes(loads.rails.iter().map(|r| r.injected));
    let delivered = sum_bytes(loads.rails.iter().map(|r| r.delivered));
    let undelivered = sum_bytes(loads.rails.iter().map(|r| r.undelivered));
    format!(
        "shoal: {what}: {} traced, {} delivered, {} undelivered (dropped by the fabric), \
         {} unplaced (not on any rail), {} intra-node (not traced)",
        format_bytes(injected),
        format_bytes(delivered),
        format_bytes(undelivered),
        format_bytes(loads.unplaced_bytes),
        format_bytes(loads.intra_node_bytes)
    )
}

pub fn require_profile(profile: &ProfileArgs) -> Result<()> {
    if profile.profile.is_none() && profile.jobs.jobs.is_empty() && profile.loads.is_none() {
        bail!("this command needs --profile, --job or --loads");
    }
    Ok(())
}

/// Port counters to compare with the prediction.
#[derive(Args, Debug, Clone, Default)]
pub struct CounterArgs {
    /// A port-counter file (perfquery, ibqueryerrors, ibdiagnet2 db_csv/.pm, PerfMgr dump,
    /// Prometheus), recognised by content. Once: counters as they stand; twice for the same
    /// rail: the second minus the first. `railN=FILE` puts a LID-only file on rail N (default 0).
    #[arg(long = "counters", value_name = "[railN=]FILE", value_parser = CounterSpec::parse)]
    pub counters: Vec<CounterSpec>,
}

impl CounterArgs {
    /// The observed bytes per link end, if counters were given (printing their warnings).
    pub fn observe(&self, cluster: &Cluster, verbose: bool) -> Result<Option<Observed>> {
        if self.counters.is_empty() {
            return Ok(None);
        }
        let (observed, warnings) = pipeline::read_observed(cluster, &self.counters)?;
        report_warnings(&warnings, verbose);
        let ends: usize = cluster.rails.iter().map(|f| f.link_end_count()).sum();
        eprintln!("shoal: counters cover {} of {ends} link ends", observed.covered());
        Ok(Some(observed))
    }
}
