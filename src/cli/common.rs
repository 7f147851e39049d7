//! What the subcommands share: the rails of `trace` and `info`, warning and traffic reports.
//! The opening flags of the others are [`super::open_args::OpenArgs`].

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use shoal::model::Warning;

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

/// `--routing static|ar`: which trace the loads come from.
pub use shoal::view_model::RoutingMode as Routing;

pub fn parse_routing(text: &str) -> Result<Routing, String> {
    Routing::parse(text)
}

/// With counters: how many link ends they cover (printed once the data set is open).
pub fn report_counters(fabric: &shoal::view_model::dataset::FabricData) {
    if let Some(observed) = &fabric.observed {
        let ends: usize = fabric.cluster.rails.iter().map(|f| f.link_end_count()).sum();
        eprintln!("shoal: counters cover {} of {ends} link ends", observed.covered());
    }
}

/// Opens the RAILs' fabric alone (the tables `trace` walks), printing the warning summary.
pub fn open_fabric(rails: &RailArgs) -> Result<shoal::view_model::dataset::FabricData> {
    let request = shoal::view_model::OpenRequest::of_rails(rails.rail_paths());
    let dataset = shoal::view_model::open(&request, &|_| {})?;
    report_warnings(&dataset.warnings, rails.verbose);
    dataset.fabric.ok_or_else(|| anyhow::anyhow!("no fabric in the RAILs given"))
}

/// Prints warnings to stderr: all of them with `--verbose`, else a count and the first few.
/// Notes (a choice between equivalent inputs, nothing lost) are shown with `--verbose` only, as
/// `info:` lines, and are not counted.
pub fn report_warnings(all: &[Warning], verbose: bool) {
    const SHOWN: usize = 5;
    let (notes, warnings): (Vec<&Warning>, Vec<&Warning>) = all.iter().partition(|w| w.is_info());
    if verbose {
        for note in &notes {
            eprintln!("info: {note}");
        }
    }
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

/// `A (port) -> B (port)`: a link end as the commands print it.
pub fn link_name(cluster: &shoal::model::Cluster, rail: usize, end: shoal::model::LinkEnd) -> Option<String> {
    let fabric = &cluster.rails[rail];
    let ((a, ap), (b, bp)) = fabric.link_end_nodes(end)?;
    Some(format!(
        "{} ({ap}) -> {} ({bp})",
        shoal::model::echo::echo(&fabric.node(a).description),
        shoal::model::echo::echo(&fabric.node(b).description)
    ))
}
