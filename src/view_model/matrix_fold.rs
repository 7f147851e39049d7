//! What a traffic matrix keeps between rebuilds (issue 23): a region's pair table (per
//! granularity) and its rows folded for one rail choice and one kind of value, with entities
//! numbered. Neither depends on the order, the focus, the canvas or the colours, so a view that
//! changes only those reuses them: a rebuild is then one pass over the folded cells into bins.
//! [`MatrixCache`] keeps the last few; a view's state holds one and drops it when its data set
//! changes.
//!
//! A fold of bytes is made straight from the region's flows where the merge can take them in
//! order (rank granularity): its rows go to the fold one by one, and the pair table (2 million
//! rows, 96 MB at 10,000 ranks × 100 peers on two rails) is never held. Message counts, flows
//! out of order (host, leaf) and `shoal matrix` still build the table.

use std::sync::Arc;

use rayon::prelude::*;

use crate::model::Cluster;
use crate::model::message_counts::sent_messages;
use crate::routing::pair_messages::add_messages;
use crate::routing::pair_table::{Granularity, PairRow, PairTable, fold_merged_stretches, pair_table};
use crate::routing::{FlowSet, RegionKey};

use super::dataset::FabricData;
use super::matrix_filter::KeptPairs;
use super::matrix_options::{CellValues, Entity, MatrixOptions, RailChoice, worse};

/// Tables and folds kept: each may hold millions of rows, so only the last few.
const TABLES_KEPT: usize = 2;
const FOLDS_KEPT: usize = 4;

/// One region's rows for one rail choice and value: entities by id, and cells by their index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Folded {
    /// Every entity a wanted row names, sorted.
    pub entities: Vec<Entity>,
    /// `(src, dst, value, hops)` by entity index. Rows of one pair on several rails are one cell
    /// where they are adjacent in the table; a pair may still appear more than once (binning
    /// adds them up, its hop class the worse).
    pub cells: Vec<(u32, u32, f64, Option<u32>)>,
    /// `(sender, hops, value)`: each sender's value by the hop class of its rows (on their own
    /// rails), one entry per sender and class.
    pub split: Vec<(u32, Option<u32>, f64)>,
}

type TableKey = (RegionKey, Granularity);
type FoldKey = (RegionKey, Granularity, RailChoice, CellValues);

/// The last tables and folds built, newest last.
#[derive(Clone, Debug, Default)]
pub struct MatrixCache {
    tables: Vec<(TableKey, Arc<PairTable>)>,
    folds: Vec<(FoldKey, Arc<Folded>)>,
}

impl MatrixCache {
    /// Region `key`'s rows folded as `options` say, built unless kept.
    pub fn folded(
        &mut self,
        fabric: &FabricData,
        key: RegionKey,
        options: &MatrixOptions,
    ) -> Result<Arc<Folded>, String> {
        let fold_key = (key, options.by, options.rail, options.values);
        if let Some(found) = take(&mut self.folds, &fold_key) {
            return Ok(keep(&mut self.folds, fold_key, found, FOLDS_KEPT));
        }
        // Bytes fold straight from the flows where they are in order (at rank granularity):
        // the table (millions of rows) is built only where it is needed.
        let flows = flows_of(fabric, key)?;
        let folded = match fold_flows(&fabric.cluster, flows, options) {
            Some(folded) => folded,
            None if options.values == CellValues::Messages => {
                let mut counted = (*self.table(fabric, key, options.by)?).clone();
                add_region_messages(&mut counted, fabric, key, flows);
                fold(&counted, options)?
            }
            None => fold(&*self.table(fabric, key, options.by)?, options)?,
        };
        Ok(keep(&mut self.folds, fold_key, Arc::new(folded), FOLDS_KEPT))
    }

    /// [`MatrixCache::folded`] of only the pairs `keep` keeps; a filtered fold is built each
    /// time (the filter's pairs are not part of the cache's keys).
    pub fn folded_kept(
        &mut self,
        fabric: &FabricData,
        key: RegionKey,
        options: &MatrixOptions,
        keep: Option<&KeptPairs>,
    ) -> Result<Arc<Folded>, String> {
        let Some(keep) = keep else { return self.folded(fabric, key, options) };
        let flows = keep.flows(flows_of(fabric, key)?);
        if let Some(folded) = fold_flows(&fabric.cluster, &flows, options) {
            return Ok(Arc::new(folded));
        }
        let mut table = pair_table(&fabric.cluster, &flows, options.by);
        if options.values == CellValues::Messages {
            add_region_messages(&mut table, fabric, key, &flows);
        }
        Ok(Arc::new(fold(&table, options)?))
    }

    /// Region `key`'s pair table at granularity `by`, built unless kept.
    pub fn table(
        &mut self,
        fabric: &FabricData,
        key: RegionKey,
        by: Granularity,
    ) -> Result<Arc<PairTable>, String> {
        if let Some(found) = take(&mut self.tables, &(key, by)) {
            return Ok(keep(&mut self.tables, (key, by), found, TABLES_KEPT));
        }
        let table = Arc::new(pair_table(&fabric.cluster, flows_of(fabric, key)?, by));
        Ok(keep(&mut self.tables, (key, by), table, TABLES_KEPT))
    }
}

/// Adds the profile's message counts of region `key` to a table of `flows`' pairs.
fn add_region_messages(table: &mut PairTable, fabric: &FabricData, key: RegionKey, flows: &FlowSet) {
    let region = match key {
        RegionKey::Region(n) => Some(n),
        RegionKey::Total => None,
    };
    if let Some(messages) = fabric.profile.as_ref().and_then(|p| sent_messages(p, region)) {
        add_messages(table, &fabric.cluster, flows, &messages);
    }
}

fn flows_of(fabric: &FabricData, key: RegionKey) -> Result<&FlowSet, String> {
    fabric.flows.all().get(&key).map(|f| &**f).ok_or_else(|| format!("no {key:?} in the profile's flows"))
}

fn take<K: PartialEq, V>(list: &mut Vec<(K, V)>, key: &K) -> Option<V> {
    let at = list.iter().position(|(k, _)| k == key)?;
    Some(list.remove(at).1)
}

/// Puts `value` last (the newest) and drops the oldest past `kept`.
fn keep<K, V: Clone>(list: &mut Vec<(K, V)>, key: K, value: V, kept: usize) -> V {
    list.push((key, value.clone()));
    if list.len() > kept {
        list.remove(0);
    }
    value
}

/// Folds a pair table's rows as `options` say: the rows of the rail shown (every rail for
/// [`RailChoice::Worse`]; intra-node rows always), their entities numbered.
pub fn fold(table: &PairTable, options: &MatrixOptions) -> Result<Folded, String> {
    let mut folding = Folding::new(options.by, 0);
    for row in table.rows.iter().filter(|row| row.rail.is_none_or(|r| rail_wanted(options, r.into()))) {
        folding.row(row, cell_value(row, options.values)?);
    }
    Ok(folding.finish())
}

/// [`fold`] of the table of `flows` at `options.by` without the table: its rows, on the rails
/// shown, folded as the merge hands them over ([`fold_merged_stretches`]). `None` where the flows
/// are not in the merge's order, or for message counts (those are split over a pair's rows in
/// the table): fold the table then.
pub fn fold_flows(cluster: &Cluster, flows: &FlowSet, options: &MatrixOptions) -> Option<Folded> {
    if options.values != CellValues::Bytes {
        return None;
    }
    // Each stretch of senders folds on its own core; the stretches' cells, in order, are the
    // whole fold's (a sender's rows are all in one stretch).
    let (stretches, _) = fold_merged_stretches(
        cluster,
        flows,
        options.by,
        |r| rail_wanted(options, r),
        |rows| Folding::new(options.by, rows),
        |folding, row| folding.row(&row, row.bytes as f64),
    )?;
    Some(Folding::finish_all(stretches))
}

/// Whether rail `r`'s rows are shown.
fn rail_wanted(options: &MatrixOptions, r: usize) -> bool {
    match options.rail {
        RailChoice::Worse => true,
        RailChoice::Rail(n) => usize::from(n) == r,
    }
}

/// A fold under way: rows in the table's order become cells between entities named by id,
/// numbered when every entity is known.
struct Folding {
    leaf: bool,
    /// `(src id, dst id, value, hops)`, and each cell's rail part where entities are per rail.
    cells: Vec<(u32, u32, f64, Option<u32>)>,
    parts: Vec<u8>,
    /// One sender's classes while its rows go by (rows are sorted by sender), then all.
    split: Vec<(Entity, Option<u32>, f64)>,
    run: Vec<(Entity, Option<u32>, f64)>,
    run_src: Option<u32>,
}

impl Folding {
    /// `rows`: how many rows may come (room is kept for as many cells; 0: grow as they come).
    fn new(by: Granularity, rows: usize) -> Folding {
        let leaf = by == Granularity::Leaf;
        Folding {
            leaf,
            cells: Vec::with_capacity(rows),
            parts: Vec::with_capacity(if leaf { rows } else { 0 }),
            split: Vec::new(),
            run: Vec::new(),
            run_src: None,
        }
    }

    /// Adds a wanted row of `value`: to the last cell where it is the same pair (rails of one pair are
    /// adjacent), else as a new cell; and to its sender's split.
    #[inline]
    fn row(&mut self, row: &PairRow, value: f64) {
        let part = if self.leaf { row.rail.unwrap_or(0) } else { 0 };
        let same_part = !self.leaf || self.parts.last() == Some(&part);
        match self.cells.last_mut() {
            Some(last) if same_part && (last.0, last.1) == (row.src, row.dst) => {
                last.2 += value;
                last.3 = worse(last.3, row.hops);
            }
            _ => {
                self.cells.push((row.src, row.dst, value, worse(Some(0), row.hops)));
                if self.leaf {
                    self.parts.push(part);
                }
            }
        }
        if self.run_src != Some(row.src) {
            self.split.append(&mut self.run);
            self.run_src = Some(row.src);
        }
        let src = (part, row.src);
        match self.run.iter_mut().find(|c| (c.0, c.1) == (src, row.hops)) {
            Some(class) => class.2 += value,
            None => self.run.push((src, row.hops, value)),
        }
    }

    /// The cells and split with their entities numbered.
    fn finish(self) -> Folded {
        Folding::finish_all(vec![self])
    }

    /// The folds of consecutive stretches of senders as one: their cells and splits one after
    /// the other, their entities numbered together (each stretch renumbered on its own core).
    fn finish_all(mut stretches: Vec<Folding>) -> Folded {
        for folding in &mut stretches {
            folding.split.append(&mut folding.run);
        }
        let named = stretches.iter().flat_map(|f| {
            let part = |i: usize| f.parts.get(i).copied().unwrap_or(0);
            f.cells.iter().enumerate().flat_map(move |(i, c)| [(part(i), c.0), (part(i), c.1)])
        });
        let total = stretches.iter().map(|f| f.cells.len()).sum::<usize>();
        let numbering = Numbering::of(named, total * 2);
        stretches.par_iter_mut().for_each(|folding| {
            for (i, cell) in folding.cells.iter_mut().enumerate() {
                let part = folding.parts.get(i).copied().unwrap_or(0);
                (cell.0, cell.1) = (numbering.index((part, cell.0)), numbering.index((part, cell.1)));
            }
        });
        let mut parts = stretches.into_iter();
        let mut first = parts.next().unwrap_or_else(|| Folding::new(Granularity::Rank, 0));
        let (mut cells, mut split) = (std::mem::take(&mut first.cells), std::mem::take(&mut first.split));
        cells.reserve_exact(total - cells.len());
        for mut folding in parts {
            cells.append(&mut folding.cells);
            split.append(&mut folding.split);
        }
        cells.shrink_to_fit();
        let split = split.into_iter().map(|(src, hops, value)| (numbering.index(src), hops, value)).collect();
        Folded { entities: numbering.entities, cells, split }
    }
}

/// Entities numbered in sorted order. Ids no larger than a few times the rows are numbered
/// through a table per rail part (no sort, no search per row); sparser ones are sorted and
/// searched.
struct Numbering {
    entities: Vec<Entity>,
    /// `position[rail part][id]`, where the ids are dense enough.
    position: Option<Vec<Vec<u32>>>,
}

/// Not (yet) numbered.
const UNSEEN: u32 = u32::MAX;

impl Numbering {
    /// `named` yields at most `most` entities.
    fn of(named: impl Iterator<Item = Entity> + Clone, most: usize) -> Numbering {
        // The tables' size follows the rows held, never an id alone.
        let allowed = most.saturating_mul(4).max(1 << 16);
        let (mut position, mut slots) = (Vec::<Vec<u32>>::new(), 0usize);
        for (part, id) in named.clone() {
            let (part, id) = (usize::from(part), id as usize);
            if position.len() <= part {
                position.resize_with(part + 1, Vec::new);
            }
            let ids = &mut position[part];
            if ids.len() <= id {
                let grown = (id + 1).max(ids.len() * 2);
                slots += grown - ids.len();
                if slots > allowed {
                    return Numbering::sorted(named);
                }
                ids.resize(grown, UNSEEN);
            }
            ids[id] = 0;
        }
        let mut entities = Vec::new();
        for (part, ids) in position.iter_mut().enumerate() {
            for (id, at) in ids.iter_mut().enumerate().filter(|(_, at)| **at != UNSEEN) {
                *at = entities.len() as u32;
                entities.push((part as u8, id as u32));
            }
        }
        Numbering { entities, position: Some(position) }
    }

    fn sorted(named: impl Iterator<Item = Entity>) -> Numbering {
        let mut entities: Vec<Entity> = named.collect();
        entities.sort_unstable();
        entities.dedup();
        Numbering { entities, position: None }
    }

    fn index(&self, (part, id): Entity) -> u32 {
        match &self.position {
            Some(position) => position
                .get(usize::from(part))
                .and_then(|ids| ids.get(id as usize))
                .copied()
                .unwrap_or(UNSEEN),
            None => self.entities.binary_search(&(part, id)).map_or(UNSEEN, |i| i as u32),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(src: u32, dst: u32, rail: Option<u8>, bytes: u64, hops: Option<u32>) -> PairRow {
        PairRow { src, dst, rail, bytes, messages: None, hops }
    }

    /// Rows between entities `ids[0..3]`, rail 0 and 1 rows of one pair adjacent.
    fn table(ids: [u32; 3], by: Granularity) -> PairTable {
        let [a, b, c] = ids;
        let rows = vec![
            row(a, b, Some(0), 10, Some(3)),
            row(a, b, Some(1), 5, Some(1)),
            row(a, c, Some(0), 7, Some(1)),
            row(c, a, None, 2, Some(0)),
        ];
        PairTable { by, rows, without_entity_bytes: 0 }
    }

    #[test]
    fn ids_far_apart_fold_as_ids_close_together_do() {
        for by in [Granularity::Rank, Granularity::Leaf] {
            let options = MatrixOptions { by, ..MatrixOptions::default() };
            let close = fold(&table([0, 1, 2], by), &options).unwrap();
            let far = fold(&table([5, 70_000, 4_000_000_000], by), &options).unwrap();
            assert_eq!((close.cells, close.split), (far.cells.clone(), far.split));
            assert!(far.entities.windows(2).all(|w| w[0] < w[1]), "{:?}", far.entities);
            assert_eq!(close.entities.len(), far.entities.len());
            assert!(far.cells.iter().all(|c| c.0 != u32::MAX && c.1 != u32::MAX));
        }
    }

    #[test]
    fn a_pair_on_two_rails_is_one_cell_with_the_worse_class() {
        let options = MatrixOptions { by: Granularity::Rank, ..MatrixOptions::default() };
        let folded = fold(&table([0, 1, 2], Granularity::Rank), &options).unwrap();
        assert_eq!(folded.entities, vec![(0, 0), (0, 1), (0, 2)]);
        assert_eq!(folded.cells, vec![(0, 1, 15.0, Some(3)), (0, 2, 7.0, Some(1)), (2, 0, 2.0, Some(0))]);
    }
}

#[cfg(test)]
#[path = "matrix_fold_tests.rs"]
mod flows_tests;
