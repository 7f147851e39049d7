//! What a traffic matrix keeps between rebuilds (issue 23): a region's pair table (per
//! granularity) and its rows folded for one rail choice and one kind of value, with entities
//! numbered. Neither depends on the order, the focus, the canvas or the colours, so a view that
//! changes only those reuses them: a rebuild is then one pass over the folded cells into bins.
//! [`MatrixCache`] keeps the last few; a view's state holds one and drops it when its data set
//! changes.

use std::sync::Arc;

use crate::model::message_counts::sent_messages;
use crate::routing::pair_messages::add_messages;
use crate::routing::pair_table::{Granularity, PairRow, PairTable, pair_table};
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
        let table = self.table(fabric, key, options.by)?;
        let folded = if options.values == CellValues::Messages {
            let mut counted = (*table).clone();
            add_region_messages(&mut counted, fabric, key, flows_of(fabric, key)?);
            fold(&counted, options)?
        } else {
            fold(&table, options)?
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
    let wanted = |row: &&PairRow| match options.rail {
        RailChoice::Worse => true,
        RailChoice::Rail(n) => row.rail.is_none_or(|r| r == n),
    };
    let leaf = options.by == Granularity::Leaf;
    let entity = |row: &PairRow, id: u32| (if leaf { row.rail.unwrap_or(0) } else { 0 }, id);
    let named = table.rows.iter().filter(wanted).flat_map(|row| [entity(row, row.src), entity(row, row.dst)]);
    let numbering = Numbering::of(named, table.rows.len() * 2);
    let entities = numbering.entities.clone();
    let index = |e: Entity| numbering.index(e);
    let mut cells: Vec<(u32, u32, f64, Option<u32>)> = Vec::new();
    // One sender's classes while its rows go by (rows are sorted by sender).
    let mut split: Vec<(u32, Option<u32>, f64)> = Vec::new();
    let mut run: Vec<(u32, Option<u32>, f64)> = Vec::new();
    let mut run_src = None;
    for row in table.rows.iter().filter(wanted) {
        let value = cell_value(row, options.values)?;
        let (src, dst) = (index(entity(row, row.src)), index(entity(row, row.dst)));
        match cells.last_mut() {
            Some(last) if (last.0, last.1) == (src, dst) => {
                last.2 += value;
                last.3 = worse(last.3, row.hops);
            }
            _ => cells.push((src, dst, value, worse(Some(0), row.hops))),
        }
        if run_src != Some(row.src) {
            split.append(&mut run);
            run_src = Some(row.src);
        }
        match run.iter_mut().find(|c| (c.0, c.1) == (src, row.hops)) {
            Some(class) => class.2 += value,
            None => run.push((src, row.hops, value)),
        }
    }
    split.append(&mut run);
    Ok(Folded { entities, cells, split })
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
