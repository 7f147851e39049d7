//! Tables beside the views: the pairs crossing a selected link end, and a diff's biggest changes.

use egui::Ui;

use crate::model::{Domain, LinkEnd};
use crate::routing::loads_input::TopKTable;
use crate::routing::{RegionKey, RoutingModel};
use crate::units::format_bytes_f64;
use crate::view_model::crossing::{Crossing, crossings_by};
use crate::view_model::dataset::{Attribution, Dataset};
use crate::view_model::diff::{Change, ranked_changes};
use crate::view_model::highlight::{Seed, describe};
use crate::view_model::values::RegionSelection;

/// Cached "who crossed this end" rows, recomputed when the question changes.
#[derive(Clone, Debug, Default)]
pub struct CrossingCache {
    key: Option<(u64, RegionSelection, Option<String>, usize, LinkEnd, RoutingModel)>,
    rows: Vec<Crossing>,
}

pub const TABLE_ROWS: usize = 50;

/// Ends a link end's name: `n0001 port 1 → L1-00 port 3`.
pub fn end_name(d: &Dataset, rail: usize, end: LinkEnd) -> String {
    let Some(f) = d.fabric.as_ref().and_then(|f| f.cluster.rails.get(rail)) else { return String::new() };
    let Some(((s, sp), (t, tp))) = f.link_end_nodes(end) else { return String::new() };
    let name = |n| {
        let node = f.node(n);
        if node.kind == crate::model::NodeKind::Ca {
            node.host_name().to_string()
        } else {
            node.description.clone()
        }
    };
    format!("{} p{sp} -> {} p{tp}", name(s), name(t))
}

pub fn crossings_ui(
    ui: &mut Ui,
    cache: &mut CrossingCache,
    d: &Dataset,
    generation: u64,
    (selection, job, model): (RegionSelection, Option<String>, RoutingModel),
    link: usize,
) {
    let Some(fabric) = &d.fabric else {
        ui.small("the pairs crossing a link come from a fabric's forwarding tables");
        return;
    };
    let Some((rail, end)) = fabric.index.link(link) else { return };
    match &fabric.attribution {
        Attribution::Flows => {}
        Attribution::TopK(table) => return top_k_ui(ui, d, table, selection, rail, end),
        Attribution::None => {
            ui.strong(format!("crossing {} (rail {rail})", end_name(d, rail, end)));
            ui.small("no pairs to name: the loads file has no top-K summary (collect with IBPROF_TOPK=K)");
            return;
        }
    }
    let key = (generation, selection, job.clone(), rail, end, model);
    if cache.key.as_ref() != Some(&key) {
        let flows = d.flows_for(selection, job.as_deref());
        cache.rows = crossings_by(&fabric.cluster, &flows, (rail, end), TABLE_ROWS, model);
        cache.key = Some(key);
    }
    ui.strong(format!("crossing {} (rail {rail})", end_name(d, rail, end)));
    if model == RoutingModel::AdaptiveModelled {
        ui.small("AR modelled: each pair's bytes are what its spread over the AR groups puts here");
    }
    if cache.rows.is_empty() {
        ui.small("no traced flow crosses this link end in this selection");
        return;
    }
    let host = |h: Option<usize>| {
        h.and_then(|h| fabric.cluster.hosts.get(h)).map_or("?".to_string(), |x| x.name.clone())
    };
    egui::Grid::new("crossings").striped(true).num_columns(3).show(ui, |ui| {
        ui.strong("source -> destination");
        ui.strong("ranks");
        ui.strong("bytes");
        ui.end_row();
        for r in &cache.rows {
            row(
                ui,
                &[
                    format!("{} -> {}", host(r.src_host), host(r.dst_host)),
                    format!("{} -> {}", r.src_rank, r.dst_rank.map_or("port".into(), |x| x.to_string())),
                    format_bytes_f64(r.bytes as f64),
                ],
            );
        }
    });
}

/// The pairs of a loads file's top-K summary for one link end: per region or the total only.
fn top_k_ui(
    ui: &mut Ui,
    d: &Dataset,
    table: &TopKTable,
    selection: RegionSelection,
    rail: usize,
    end: LinkEnd,
) {
    ui.strong(format!("crossing {} (rail {rail})", end_name(d, rail, end)));
    ui.small(format!(
        "from the loads file's top-{} summary: counts are lower bounds (see docs/formats/loads.md)",
        table.k
    ));
    let key = match selection {
        RegionSelection::Total => RegionKey::Total,
        RegionSelection::Region(n) => RegionKey::Region(n),
        _ => {
            ui.small("the summary is kept per region: pick one region or the whole run");
            return;
        }
    };
    let pairs = table.pairs(key, rail, end);
    if pairs.is_empty() {
        ui.small("the summary names no pair for this link end in this selection");
        return;
    }
    let Some(fabric) = &d.fabric else { return };
    let host = |h: Option<usize>| {
        h.and_then(|h| fabric.cluster.hosts.get(h)).map_or("?".to_string(), |x| x.name.clone())
    };
    egui::Grid::new("top-k crossings").striped(true).num_columns(2).show(ui, |ui| {
        ui.strong("source -> destination");
        ui.strong("bytes (at least)");
        ui.end_row();
        for &(src, dst, bytes) in pairs {
            row(ui, &[format!("{} -> {}", host(src), host(dst)), format_bytes_f64(bytes as f64)]);
        }
    });
}

/// Cached diff rows.
#[derive(Clone, Debug, Default)]
pub struct DiffCache {
    /// The data, the view's spec and its scene builds (a rebuilt view may have re-prepared).
    key: Option<(u64, crate::view_model::ViewSpec, u64)>,
    pub rows: Vec<Change>,
}

/// The biggest changes of a diff view, ranked by magnitude, among the links the view shows
/// (with its colour attribute and filter): a fabric's link ends named by their ports and rail,
/// a run's links by their nodes.
pub fn diff_ui(
    ui: &mut Ui,
    cache: &mut DiffCache,
    d: &Dataset,
    generation: u64,
    view: &super::workspace::View,
) {
    let selection = view.spec.selection;
    let network = view.network();
    let key = (generation, view.spec.clone(), network.map_or(0, |n| n.builds));
    if cache.key.as_ref() != Some(&key) {
        let prepared = network.and_then(|n| n.prepared.as_ref()).and_then(|p| p.as_ref().ok());
        cache.rows = prepared.map(|p| ranked_changes(p, TABLE_ROWS)).unwrap_or_default();
        cache.key = Some(key);
    }
    ui.strong(format!("biggest changes, {}", selection.label()));
    if cache.rows.is_empty() {
        ui.small("no link end changed");
        return;
    }
    let unit = view.spec.link_attribute.as_deref();
    let text = |v: f64| super::filter::value_text(unit, v);
    egui::Grid::new("diff table").striped(true).num_columns(5).show(ui, |ui| {
        for h in ["#", "link end", "A", "B", "A − B"] {
            ui.strong(h);
        }
        ui.end_row();
        for (i, c) in cache.rows.iter().enumerate() {
            let fabric_end = d.fabric.as_ref().and_then(|f| f.index.link(c.link));
            let name = match fabric_end {
                Some((rail, end)) => format!("{} (rail {rail})", end_name(d, rail, end)),
                None => {
                    let id = d.run.ids(Domain::Links).get(c.link).copied().unwrap_or_default();
                    describe(d, Seed::Id { domain: Domain::Links, id })
                }
            };
            let sign = if c.delta > 0.0 { "+" } else { "" };
            row(ui, &[format!("{}", i + 1), name, text(c.a), text(c.b), format!("{sign}{}", text(c.delta))]);
        }
    });
}

fn row(ui: &mut Ui, cells: &[String]) {
    for c in cells {
        ui.label(c);
    }
    ui.end_row();
}
