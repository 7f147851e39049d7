//! Tables beside the views: the pairs crossing a selected link end, and a diff's biggest changes.

use egui::Ui;

use crate::model::LinkEnd;
use crate::scene::crossing::{Crossing, crossings};
use crate::scene::dataset::Dataset;
use crate::scene::diff::{Change, ranked_changes};
use crate::scene::values::RegionSelection;
use crate::units::format_bytes_f64;

/// Cached "who crossed this end" rows, recomputed when the question changes.
#[derive(Clone, Debug, Default)]
pub struct CrossingCache {
    key: Option<(u64, RegionSelection, usize, LinkEnd)>,
    rows: Vec<Crossing>,
}

pub const TABLE_ROWS: usize = 50;

/// Ends a link end's name: `n0001 port 1 → L1-00 port 3`.
pub fn end_name(d: &Dataset, rail: usize, end: LinkEnd) -> String {
    let Some(f) = d.cluster.rails.get(rail) else { return String::new() };
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
    selection: RegionSelection,
    (rail, end): (usize, LinkEnd),
) {
    let key = (generation, selection, rail, end);
    if cache.key != Some(key) {
        cache.rows = crossings(&d.cluster, &d.flows_for(selection), rail, end, TABLE_ROWS);
        cache.key = Some(key);
    }
    ui.strong(format!("crossing {} (rail {rail})", end_name(d, rail, end)));
    if cache.rows.is_empty() {
        ui.small("no traced flow crosses this link end in this selection");
        return;
    }
    let host =
        |h: Option<usize>| h.and_then(|h| d.cluster.hosts.get(h)).map_or("?".to_string(), |x| x.name.clone());
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

/// Cached diff rows.
#[derive(Clone, Debug, Default)]
pub struct DiffCache {
    key: Option<(u64, RegionSelection)>,
    pub rows: Vec<Change>,
}

pub fn diff_ui(ui: &mut Ui, cache: &mut DiffCache, d: &Dataset, generation: u64, selection: RegionSelection) {
    if cache.key != Some((generation, selection)) {
        cache.rows = ranked_changes(&d.loads, selection, TABLE_ROWS);
        cache.key = Some((generation, selection));
    }
    ui.strong(format!("biggest changes, {}", selection.label()));
    if cache.rows.is_empty() {
        ui.small("no link end changed");
        return;
    }
    egui::Grid::new("diff table").striped(true).num_columns(5).show(ui, |ui| {
        for h in ["#", "link end", "A", "B", "A − B"] {
            ui.strong(h);
        }
        ui.end_row();
        for (i, c) in cache.rows.iter().enumerate() {
            row(
                ui,
                &[
                    format!("{}", i + 1),
                    format!("{} (rail {})", end_name(d, c.rail, c.end), c.rail),
                    format_bytes_f64(c.a),
                    format_bytes_f64(c.b),
                    format!("{}{}", if c.delta > 0.0 { "+" } else { "" }, format_bytes_f64(c.delta)),
                ],
            );
        }
    });
}

fn row(ui: &mut Ui, cells: &[String]) {
    for c in cells {
        ui.label(c);
    }
    ui.end_row();
}
