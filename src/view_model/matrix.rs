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

use crate::routing::RegionKey;
use crate::routing::pair_table::{Granularity, entity_name};

use super::dataset::FabricData;
use super::matrix_filter::KeptPairs;
use super::matrix_fold::{Folded, MatrixCache};
pub use super::matrix_options::{
    CellValues, Entity, MatrixOptions, MatrixOrder, MatrixShow, RailChoice, worse,
};
use super::matrix_order::clustered;

/// One non-empty cell: bins `row` (sender) and `col` (receiver).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatrixCell {
    pub row: u32,
    pub col: u32,
    pub value: f64,
    /// Switches crossed (the most of the cell's pairs); `None`: a path not delivered.
    pub hops: Option<u32>,
}

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

/// Builds the matrix of region `key` (minus region `minus`, for a diff) in at most
/// `max_side` bins per side.
pub fn build(
    fabric: &FabricData,
    key: RegionKey,
    minus: Option<RegionKey>,
    options: &MatrixOptions,
    max_side: usize,
) -> Result<MatrixGrid, String> {
    build_with(&mut MatrixCache::default(), fabric, (key, minus), options, (max_side, [None, None]))
}

/// [`build`], reusing (and keeping) the tables and folds in `cache`: a rebuild that changes only
/// the order, the focus or the canvas is one pass over the folded cells. With `keep`, only the
/// pairs a filter keeps (`keep[0]` in region `key`, `keep[1]` in `minus`) are in the matrix.
pub fn build_with(
    cache: &mut MatrixCache,
    fabric: &FabricData,
    (key, minus): (RegionKey, Option<RegionKey>),
    options: &MatrixOptions,
    (max_side, keep): (usize, [Option<&KeptPairs>; 2]),
) -> Result<MatrixGrid, String> {
    if options.show == MatrixShow::Bars && minus.is_some() {
        return Err("the hop-class bars show one region or the whole run; a diff is drawn as cells".into());
    }
    let a = cache.folded_kept(fabric, key, options, keep[0])?;
    let b = minus.map(|k| cache.folded_kept(fabric, k, options, keep[1])).transpose()?;
    // Every entity of A and B, sorted, and where each fold's entities sit in it.
    let (all, a_at, b_at) = union(&a, b.as_deref());
    let mut entities = match options.order {
        MatrixOrder::Clustered => {
            let b_weights = b.as_deref().map(|f| weights(f, &b_at, &all)).into_iter().flatten();
            clustered(&all, weights(&a, &a_at, &all).chain(b_weights))
        }
        _ => {
            let mut sorted = all.clone();
            sort_entities(fabric, options, &mut sorted);
            sorted
        }
    };
    if let Some((from, to)) = options.focus {
        let to = to.min(entities.len());
        entities = entities.get(from.min(to)..to).map(<[Entity]>::to_vec).unwrap_or_default();
    }
    let per_bin = entities.len().div_ceil(max_side.max(1)).max(1);
    // Per entity of `all`: its bin, or none outside the focus.
    let mut bin_of = vec![NO_BIN; all.len()];
    for (position, e) in entities.iter().enumerate() {
        if let Ok(i) = all.binary_search(e) {
            bin_of[i] = (position / per_bin) as u32;
        }
    }
    let labels = labels(fabric, options.by, &entities, per_bin);
    let mut bins = Bins::new(labels.len());
    bins.add(&a, &a_at, &bin_of, 1.0);
    if let Some(b) = &b {
        bins.add(b, &b_at, &bin_of, -1.0);
    }
    let cells = bins.cells();
    let max = cells.iter().map(|c| c.value.abs()).fold(0.0, f64::max);
    let bars = bars(&a, &a_at, &bin_of, labels.len());
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

/// A fold's cells as (src, dst) entities → |value|, what the clustered order weighs.
fn weights<'a>(
    fold: &'a Folded,
    at: &'a [u32],
    all: &'a [Entity],
) -> impl Iterator<Item = ((Entity, Entity), f64)> + 'a {
    let entity = move |i: u32| all[at[i as usize] as usize];
    fold.cells.iter().map(move |c| ((entity(c.0), entity(c.1)), c.2.abs()))
}

/// An entity outside the focus.
const NO_BIN: u32 = u32::MAX;

/// The sorted union of A's and B's entities, and each one's entity positions in it.
fn union(a: &Folded, b: Option<&Folded>) -> (Vec<Entity>, Vec<u32>, Vec<u32>) {
    let Some(b) = b else {
        return (a.entities.clone(), (0..a.entities.len() as u32).collect(), Vec::new());
    };
    let mut all: Vec<Entity> = a.entities.iter().chain(&b.entities).copied().collect();
    all.sort_unstable();
    all.dedup();
    let at = |f: &Folded| f.entities.iter().map(|e| all.binary_search(e).map_or(0, |i| i as u32)).collect();
    let (a_at, b_at) = (at(a), at(b));
    (all, a_at, b_at)
}

/// The binned cells: `(value, hops)` per bin, dense while the side allows, else by key.
enum Bins {
    Dense { side: usize, cells: Vec<(f64, Option<u32>, bool)> },
    Sparse(BTreeMap<(u32, u32), (f64, Option<u32>)>),
}

/// Bins a dense grid may hold (a 2048-bin side); past it, only the bins with traffic are kept.
const DENSE_BINS: usize = 1 << 22;

impl Bins {
    fn new(side: usize) -> Bins {
        match side.checked_mul(side).filter(|&n| n <= DENSE_BINS) {
            Some(n) => Bins::Dense { side, cells: vec![(0.0, Some(0), false); n] },
            None => Bins::Sparse(BTreeMap::new()),
        }
    }

    /// Adds a fold's cells with `sign`. A diff's hue is A's class; B adds its class only where
    /// A has none.
    fn add(&mut self, fold: &Folded, at: &[u32], bin_of: &[u32], sign: f64) {
        for &(src, dst, value, hops) in &fold.cells {
            let (r, c) = (bin_of[at[src as usize] as usize], bin_of[at[dst as usize] as usize]);
            if r == NO_BIN || c == NO_BIN {
                continue;
            }
            let cell = match self {
                Bins::Dense { side, cells } => {
                    let cell = &mut cells[r as usize * *side + c as usize];
                    cell.2 = true;
                    (&mut cell.0, &mut cell.1)
                }
                Bins::Sparse(map) => {
                    let cell = map.entry((r, c)).or_insert((0.0, Some(0)));
                    (&mut cell.0, &mut cell.1)
                }
            };
            *cell.0 += sign * value;
            if sign > 0.0 || *cell.1 == Some(0) {
                *cell.1 = worse(*cell.1, hops);
            }
        }
    }

    /// The non-empty bins, row by row.
    fn cells(self) -> Vec<MatrixCell> {
        let all: Vec<((u32, u32), (f64, Option<u32>))> = match self {
            Bins::Dense { side, cells } => cells
                .into_iter()
                .enumerate()
                .filter(|(_, c)| c.2)
                .map(|(i, c)| (((i / side) as u32, (i % side) as u32), (c.0, c.1)))
                .collect(),
            Bins::Sparse(map) => map.into_iter().collect(),
        };
        all.into_iter()
            .filter(|(_, (v, _))| *v != 0.0)
            .map(|((row, col), (value, hops))| MatrixCell { row, col, value, hops })
            .collect()
    }
}

/// Each bin's split by hop class (`None`, not delivered, last).
fn bars(fold: &Folded, at: &[u32], bin_of: &[u32], bins: usize) -> Vec<Vec<(Option<u32>, f64)>> {
    let mut by_bin: Vec<BTreeMap<u32, f64>> = vec![BTreeMap::new(); bins];
    for &(sender, hops, value) in &fold.split {
        let Some(bin) = by_bin.get_mut(bin_of[at[sender as usize] as usize] as usize) else { continue };
        // u32::MAX sorts an undelivered path after every real class.
        *bin.entry(hops.unwrap_or(u32::MAX)).or_default() += value;
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
