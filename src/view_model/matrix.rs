//! The traffic matrix a view shows (issue 23): entity × entity cells of one region's pair table
//! ([`crate::routing::pair_table`]) on one rail or the worse of the rails, ordered, and folded
//! into at most as many bins per side as the canvas has room for (INTAP-MPI's matrix, PFProf's).
//!
//! - A cell's value is the bytes (or messages) its pairs sent; its hop class the most switches
//!   any of them crosses on the rail shown (with every rail: the worse of them).
//! - With more entities than `max_side`, consecutive entities of the order share a bin: the
//!   matrix never holds more than `max_side²` cells, whatever the profile claims, and says how
//!   many entities a bin holds. `focus` is a drill-down: a range of the order shown alone.
//! - A diff is A − B cell by cell, on the same order; its hop class is A's (else B's).

use std::collections::{BTreeMap, HashSet};

use crate::model::message_counts::sent_messages;
use crate::routing::pair_messages::add_messages;
use crate::routing::pair_table::{Granularity, PairRow, entity_name, pair_table};
use crate::routing::{FlowSet, RegionKey};

use super::dataset::FabricData;
use super::matrix_filter::KeptPairs;
use super::matrix_order::clustered;

/// Which rail's paths the hues show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RailChoice {
    /// Every rail's bytes, each cell's hue the worse rail's hop class.
    #[default]
    Worse,
    Rail(u8),
}

/// What a cell counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellValues {
    #[default]
    Bytes,
    Messages,
}

/// The order of rows (and of columns, the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixOrder {
    /// By rank number, host name or leaf.
    #[default]
    Id,
    /// By the layout's host order (left to right), ranks by their host's place.
    Layout,
    /// Heavy partners next to each other ([`super::matrix_order::clustered`]): blocks of
    /// entities that talk among themselves show as squares on the diagonal.
    Clustered,
}

/// What the view draws of the matrix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixShow {
    /// Entity × entity cells.
    #[default]
    Cells,
    /// INTAP-MPI's stacked bars: each row's sent bytes split by hop class.
    Bars,
}

/// How a matrix is built.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct MatrixOptions {
    pub by: Granularity,
    pub rail: RailChoice,
    pub values: CellValues,
    pub order: MatrixOrder,
    /// Positions `a..b` of the order shown alone (a drill-down), if any.
    pub focus: Option<(usize, usize)>,
    pub show: MatrixShow,
}

impl Default for MatrixOptions {
    fn default() -> Self {
        MatrixOptions {
            by: Granularity::Host,
            rail: RailChoice::Worse,
            values: CellValues::Bytes,
            order: MatrixOrder::Id,
            focus: None,
            show: MatrixShow::Cells,
        }
    }
}

/// One non-empty cell: bins `row` (sender) and `col` (receiver).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatrixCell {
    pub row: u32,
    pub col: u32,
    pub value: f64,
    /// Switches crossed (the most of the cell's pairs); `None`: a path not delivered.
    pub hops: Option<u32>,
}

/// An entity of the order: `(rail, id)` — leaves are per rail, ranks and hosts on rail 0.
pub type Entity = (u8, u32);

/// The matrix, binned, ready to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatrixGrid {
    pub options: MatrixOptions,
    /// Every entity shown, in order (within the focus).
    pub entities: Vec<Entity>,
    /// Entities per bin (1: one row per entity).
    pub per_bin: usize,
    /// A label per bin: the entity's name, or `first – last`.
    pub labels: Vec<String>,
    pub cells: Vec<MatrixCell>,
    /// The largest |value|: intensities are over it.
    pub max: f64,
    pub signed: bool,
    /// Per bin, what its entities sent split by the hop class of each path (on its own rail):
    /// `(hops, value)` by class, `None` (not delivered) last. Region A's for a diff.
    pub bars: Vec<Vec<(Option<u32>, f64)>>,
    /// The filter's clauses on pairs, when only the pairs they keep are in the matrix.
    pub pair_filter: Option<String>,
}

impl MatrixGrid {
    pub fn side(&self) -> usize {
        self.labels.len()
    }

    /// The positions of the order a bin holds (what a drill-down focuses on).
    pub fn bin_range(&self, bin: usize) -> (usize, usize) {
        let start = self.options.focus.map_or(0, |f| f.0);
        let a = start + bin * self.per_bin;
        (a, (a + self.per_bin).min(start + self.entities.len()))
    }
}

/// Cells `(src, dst) → (value, hops)`.
type Cells = BTreeMap<(Entity, Entity), (f64, Option<u32>)>;
/// Each sender's value by the hop class of each of its rows.
type Split = BTreeMap<Entity, BTreeMap<Option<u32>, f64>>;

/// The pair table of region `key` as the options fold it: the cells, and each sender's split.
fn folded(
    fabric: &FabricData,
    key: RegionKey,
    options: &MatrixOptions,
    keep: Option<&KeptPairs>,
) -> Result<(Cells, Split), String> {
    let flows: &FlowSet =
        fabric.flows.get(&key).ok_or_else(|| format!("no {key:?} in the profile's flows"))?;
    let kept = keep.map(|k| k.flows(flows));
    let flows = kept.as_ref().unwrap_or(flows);
    let mut table = pair_table(&fabric.cluster, flows, options.by);
    if options.values == CellValues::Messages {
        let region = match key {
            RegionKey::Region(n) => Some(n),
            RegionKey::Total => None,
        };
        if let Some(messages) = fabric.profile.as_ref().and_then(|p| sent_messages(p, region)) {
            add_messages(&mut table, &fabric.cluster, flows, &messages);
        }
    }
    let (mut cells, mut split) = (Cells::new(), Split::new());
    for row in &table.rows {
        let wanted = match options.rail {
            RailChoice::Worse => true,
            RailChoice::Rail(n) => row.rail.is_none_or(|r| r == n),
        };
        if !wanted {
            continue;
        }
        let value = cell_value(row, options.values)?;
        let rail = if options.by == Granularity::Leaf { row.rail.unwrap_or(0) } else { 0 };
        let cell = cells.entry(((rail, row.src), (rail, row.dst))).or_insert((0.0, Some(0)));
        cell.0 += value;
        cell.1 = worse(cell.1, row.hops);
        *split.entry((rail, row.src)).or_default().entry(row.hops).or_default() += value;
    }
    Ok((cells, split))
}

fn cell_value(row: &PairRow, values: CellValues) -> Result<f64, String> {
    match values {
        CellValues::Bytes => Ok(row.bytes as f64),
        CellValues::Messages => row
            .messages
            .map(|m| m as f64)
            .ok_or_else(|| "the profile has no message counts: show bytes instead".to_string()),
    }
}

/// The worse of two hop classes: more switches, and an undelivered path worst of all.
pub fn worse(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    Some(a?.max(b?))
}

/// Builds the matrix of region `key` (minus region `minus`, for a diff) in at most
/// `max_side` bins per side.
pub fn build(
    fabric: &FabricData,
    key: RegionKey,
    minus: Option<RegionKey>,
    options: &MatrixOptions,
    max_side: usize,
) -> Result<MatrixGrid, String> {
    build_kept(fabric, (key, minus), options, max_side, [None, None])
}

/// [`build`] of only the pairs a filter keeps: `keep[0]` in region `key`, `keep[1]` in `minus`.
pub fn build_kept(
    fabric: &FabricData,
    (key, minus): (RegionKey, Option<RegionKey>),
    options: &MatrixOptions,
    max_side: usize,
    keep: [Option<&KeptPairs>; 2],
) -> Result<MatrixGrid, String> {
    if options.show == MatrixShow::Bars && minus.is_some() {
        return Err("the hop-class bars show one region or the whole run; a diff is drawn as cells".into());
    }
    let (a, a_split) = folded(fabric, key, options, keep[0])?;
    let b = match minus {
        Some(k) => Some(folded(fabric, k, options, keep[1])?.0),
        None => None,
    };
    let mut seen: HashSet<Entity> = HashSet::new();
    for map in std::iter::once(&a).chain(b.as_ref()) {
        for (src, dst) in map.keys() {
            seen.insert(*src);
            seen.insert(*dst);
        }
    }
    let mut entities: Vec<Entity> = seen.into_iter().collect();
    match options.order {
        MatrixOrder::Clustered => {
            let weights =
                std::iter::once(&a).chain(b.as_ref()).flat_map(|m| m.iter().map(|(k, v)| (*k, v.0.abs())));
            entities = clustered(&entities, weights);
        }
        _ => sort_entities(fabric, options, &mut entities),
    }
    if let Some((from, to)) = options.focus {
        let to = to.min(entities.len());
        entities = entities.get(from.min(to)..to).map(<[Entity]>::to_vec).unwrap_or_default();
    }
    let per_bin = entities.len().div_ceil(max_side.max(1)).max(1);
    let position: std::collections::HashMap<Entity, usize> =
        entities.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    let mut binned: BTreeMap<(u32, u32), (f64, Option<u32>)> = BTreeMap::new();
    let mut add = |map: &BTreeMap<(Entity, Entity), (f64, Option<u32>)>, sign: f64| {
        for (&(src, dst), &(value, hops)) in map {
            let (Some(r), Some(c)) = (position.get(&src), position.get(&dst)) else { continue };
            let cell = binned.entry(((r / per_bin) as u32, (c / per_bin) as u32)).or_insert((0.0, Some(0)));
            cell.0 += sign * value;
            // A diff's hue is A's class; B adds its class only where A has none.
            if sign > 0.0 || cell.1 == Some(0) {
                cell.1 = worse(cell.1, hops);
            }
        }
    };
    add(&a, 1.0);
    if let Some(b) = &b {
        add(b, -1.0);
    }
    let cells: Vec<MatrixCell> = binned
        .into_iter()
        .filter(|(_, (v, _))| *v != 0.0)
        .map(|((row, col), (value, hops))| MatrixCell { row, col, value, hops })
        .collect();
    let max = cells.iter().map(|c| c.value.abs()).fold(0.0, f64::max);
    let labels = labels(fabric, options.by, &entities, per_bin);
    let bars = bars(&a_split, &position, per_bin, labels.len());
    Ok(MatrixGrid {
        options: options.clone(),
        entities,
        per_bin,
        labels,
        cells,
        max,
        signed: b.is_some(),
        bars,
        pair_filter: keep[0].map(|k| k.clauses.clone()),
    })
}

/// Each bin's split by hop class (`None`, not delivered, last).
fn bars(
    split: &Split,
    position: &std::collections::HashMap<Entity, usize>,
    per_bin: usize,
    bins: usize,
) -> Vec<Vec<(Option<u32>, f64)>> {
    let mut by_bin: Vec<BTreeMap<u32, f64>> = vec![BTreeMap::new(); bins];
    for (entity, classes) in split {
        let Some(bin) = position.get(entity).and_then(|p| by_bin.get_mut(p / per_bin)) else { continue };
        for (hops, value) in classes {
            // u32::MAX sorts an undelivered path after every real class.
            *bin.entry(hops.unwrap_or(u32::MAX)).or_default() += value;
        }
    }
    by_bin
        .into_iter()
        .map(|classes| classes.into_iter().map(|(h, v)| ((h != u32::MAX).then_some(h), v)).collect())
        .collect()
}

/// Orders entities by id, or by the layout's host order (ranks by their host's place, then rank).
/// [`MatrixOrder::Clustered`] needs the traffic: see [`clustered`]; here it falls back to id.
fn sort_entities(fabric: &FabricData, options: &MatrixOptions, entities: &mut [Entity]) {
    let x_of_host = |h: usize| fabric.layout.hosts.get(h).map_or(f32::MAX, |p| p.x);
    match (options.order, options.by) {
        (MatrixOrder::Id | MatrixOrder::Clustered, _) | (MatrixOrder::Layout, Granularity::Leaf) => {
            entities.sort_unstable();
        }
        (MatrixOrder::Layout, Granularity::Host) => {
            entities
                .sort_by(|a, b| x_of_host(a.1 as usize).total_cmp(&x_of_host(b.1 as usize)).then(a.cmp(b)));
        }
        (MatrixOrder::Layout, Granularity::Rank) => {
            let x = |e: &Entity| fabric.rank_hosts.get(&e.1).map_or(f32::MAX, |&h| x_of_host(h));
            entities.sort_by(|a, b| x(a).total_cmp(&x(b)).then(a.cmp(b)));
        }
    }
}

/// A bin's label: its entity's name, or the first and last of its entities.
fn labels(fabric: &FabricData, by: Granularity, entities: &[Entity], per_bin: usize) -> Vec<String> {
    let name = |e: &Entity| entity_name(&fabric.cluster, by, Some(e.0), e.1);
    entities
        .chunks(per_bin)
        .map(|bin| match bin {
            [one] => name(one),
            [first, .., last] => format!("{} – {}", name(first), name(last)),
            [] => String::new(),
        })
        .collect()
}

/// The cluster host of an entity, where it has one (leaves have none).
pub fn entity_host(fabric: &FabricData, by: Granularity, entity: Entity) -> Option<usize> {
    match by {
        Granularity::Rank => fabric.rank_hosts.get(&entity.1).copied(),
        Granularity::Host => Some(entity.1 as usize),
        Granularity::Leaf => None,
    }
}

/// The cells whose pairs include a host pair in `pairs` (those whose paths cross a selected
/// link end): bins `(row, col)`.
pub fn cells_of_host_pairs(
    fabric: &FabricData,
    grid: &MatrixGrid,
    pairs: &HashSet<(usize, usize)>,
) -> HashSet<(u32, u32)> {
    let by = grid.options.by;
    let mut at_host: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
    for (position, &e) in grid.entities.iter().enumerate() {
        if let Some(h) = entity_host(fabric, by, e) {
            at_host.entry(h).or_default().push(position / grid.per_bin);
        }
    }
    let mut lit = HashSet::new();
    for (s, d) in pairs {
        let (Some(rows), Some(cols)) = (at_host.get(s), at_host.get(d)) else { continue };
        for &r in rows {
            for &c in cols {
                lit.insert((r as u32, c as u32));
            }
        }
    }
    lit
}
