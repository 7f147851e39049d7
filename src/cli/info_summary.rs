//! What `shoal info` found, as plain data: the text report and `--json` are two printings of it.

use serde::Serialize;
use shoal::model::echo::echo;
use shoal::model::{Cluster, Fabric, LftEntry, NodeKind, RailRead, Warning};
use shoal::routing::{DropReason, ca_reachability};

/// Every rail, and the hosts of the cluster they make.
#[derive(Debug, Serialize)]
pub struct InfoSummary {
    pub rails: Vec<RailSummary>,
    pub cluster: ClusterSummary,
}

#[derive(Debug, Serialize)]
pub struct ClusterSummary {
    pub hosts: usize,
    /// Hosts with a CA on every rail.
    pub on_every_rail: usize,
}

/// One rail: what it was read from, what it holds, what its tables deliver, what was warned.
#[derive(Debug, Serialize)]
pub struct RailSummary {
    pub rail: usize,
    pub files: Vec<FileRead>,
    pub hosts: usize,
    pub cas: usize,
    pub switches: usize,
    pub links: usize,
    pub switch_links: usize,
    pub lids: usize,
    pub ports: usize,
    pub lmc: Vec<u8>,
    /// The highest LID, in hexadecimal as the InfiniBand tools print it (`0x0136`).
    pub highest_lid: String,
    pub tables: TableCoverage,
    /// `None` when the rail has no pair of CA ports to trace.
    pub ca_pairs: Option<PairDelivery>,
    pub warnings: Vec<Note>,
    /// Choices between equivalent inputs (which of two table dumps was read): nothing lost.
    pub notes: Vec<Note>,
}

#[derive(Debug, Serialize)]
pub struct FileRead {
    pub path: String,
    pub kind: &'static str,
}

#[derive(Debug, Serialize)]
pub struct TableCoverage {
    pub switches_with_tables: usize,
    pub switches: usize,
    /// Switch-to-CA-LID rows that name a port, of `possible_routes`.
    pub routes: usize,
    pub possible_routes: usize,
}

#[derive(Debug, Serialize)]
pub struct PairDelivery {
    pub delivered: usize,
    pub pairs: usize,
    /// The ten largest groups of undelivered pairs, by where and why they stopped.
    pub dropped: Vec<Dropped>,
}

#[derive(Debug, Serialize)]
pub struct Dropped {
    pub pairs: usize,
    /// `the source`, or the node that dropped them: kind, GUID and description.
    pub at: String,
    pub reason: &'static str,
    /// One pair to retrace with `shoal trace` (`source -> destination`), when there is one.
    pub example: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Note {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl From<&Warning> for Note {
    fn from(w: &Warning) -> Self {
        Note { file: w.shown_file().into_owned(), line: w.line, message: w.shown_message().into_owned() }
    }
}

/// Summarises each rail (its fabric, the files it was read from and their warnings).
pub fn summarise(rails: &[(Fabric, RailRead)]) -> InfoSummary {
    let summaries = rails
        .iter()
        .enumerate()
        .map(|(r, (f, read))| summarise_rail(r, f, &read.files, &read.warnings))
        .collect();
    let cluster = Cluster::new(rails.iter().map(|(fabric, _)| fabric.clone()).collect());
    let on_every_rail = cluster.hosts.iter().filter(|h| h.cas.iter().all(|c| !c.is_empty())).count();
    InfoSummary { rails: summaries, cluster: ClusterSummary { hosts: cluster.hosts.len(), on_every_rail } }
}

fn summarise_rail(
    rail: usize,
    fabric: &Fabric,
    files: &[(String, &'static str)],
    warnings: &[Warning],
) -> RailSummary {
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
    let ports: Vec<_> =
        fabric.graph.node_weights().flat_map(|n| n.ports.values()).filter(|p| p.lid.0 != 0).collect();
    let mut lmc: Vec<u8> = ports.iter().map(|p| p.lmc).collect();
    lmc.sort_unstable();
    lmc.dedup();
    let top = ports.iter().map(|p| u32::from(p.lid.0) + (1 << p.lmc) - 1).max().unwrap_or(0);
    let (notes, warned): (Vec<&Warning>, Vec<&Warning>) = warnings.iter().partition(|w| w.is_info());
    RailSummary {
        rail,
        files: files.iter().map(|(path, kind)| FileRead { path: path.clone(), kind }).collect(),
        hosts: hosts.len(),
        cas: count(NodeKind::Ca),
        switches: count(NodeKind::Switch),
        links: fabric.link_count(),
        switch_links,
        lids: ports.iter().map(|p| 1usize << p.lmc).sum(),
        ports: ports.len(),
        lmc,
        highest_lid: format!("0x{top:04x}"),
        tables: table_coverage(fabric),
        ca_pairs: pair_delivery(fabric),
        warnings: warned.into_iter().map(Note::from).collect(),
        notes: notes.into_iter().map(Note::from).collect(),
    }
}

fn table_coverage(fabric: &Fabric) -> TableCoverage {
    let switches = fabric.switches().count();
    let ca_lids: Vec<_> = fabric.cas().filter_map(|n| fabric.node(n).base_lid()).collect();
    let routes = fabric
        .switches()
        .filter_map(|s| fabric.lft(s))
        .map(|lft| ca_lids.iter().filter(|&&l| matches!(lft.get(l), LftEntry::Port(_))).count())
        .sum();
    TableCoverage {
        switches_with_tables: fabric.switches_with_lft(),
        switches,
        routes,
        possible_routes: switches * ca_lids.len(),
    }
}

fn pair_delivery(fabric: &Fabric) -> Option<PairDelivery> {
    let reach = ca_reachability(fabric);
    if reach.pairs == 0 {
        return None;
    }
    let dropped = reach
        .by_dropping_node()
        .into_iter()
        .take(10)
        .map(|(at, reason, pairs)| {
            let node = at.map_or("the source".to_string(), |n| {
                let node = fabric.node(n);
                format!("{} {} ({})", node.kind.as_str(), node.guid, echo(&node.description))
            });
            let example = reach
                .undelivered
                .iter()
                .find(|u| u.at == at && u.reason == reason && reason != DropReason::NoLid)
                .map(|u| format!("{} -> {}", u.example_source, u.destination));
            Dropped { pairs, at: node, reason: reason_text(reason), example }
        })
        .collect();
    Some(PairDelivery { delivered: reach.delivered, pairs: reach.pairs, dropped })
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
