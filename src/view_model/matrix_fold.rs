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
    fabric.flows.get(&key).map(|f| &**f).ok_or_else(|| format!("no {key:?} in the profile's flows"))
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
    let mut entities: Vec<Entity> = Vec::new();
    for row in table.rows.iter().filter(wanted) {
        let src = entity(row, row.src);
        if entities.last() != Some(&src) {
            entities.push(src);
        }
        entities.push(entity(row, row.dst));
    }
    entities.sort_unstable();
    entities.dedup();
    let index = |e: Entity| entities.binary_search(&e).map_or(u32::MAX, |i| i as u32);
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

fn cell_value(row: &PairRow, values: CellValues) -> Result<f64, String> {
    match values {
        CellValues::Bytes => Ok(row.bytes as f64),
        CellValues::Messages => row
            .messages
            .map(|m| m as f64)
            .ok_or_else(|| "the profile has no message counts: show bytes instead".to_string()),
    }
}
