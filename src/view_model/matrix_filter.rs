//! A filter's clauses on pairs, applied to the traffic matrix (issue 23): `pairs.hops <= 1`
//! keeps the link ends of 1-hop paths in a fabric view, and in the matrix it keeps the cells of
//! those pairs only. The clauses are the query engine's, evaluated on the `pairs` domain
//! ([`super::dataset::pairs`]); what they keep is a set of (source host, destination host,
//! rail) pairs, and the matrix is built from the flows of those pairs alone, so a rank or leaf
//! cell holds exactly the kept pairs' bytes.

use std::collections::HashSet;

use crate::model::{Domain, Run};
use crate::routing::{FlowSet, RegionKey};

use super::filter::{Clause, Filter};
use super::query;
use super::relation::Relation;

/// The host pairs a filter keeps, and the clauses that chose them (for the view's note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptPairs {
    /// (source host, destination host, rail; `None` for bytes between ranks of one host).
    pub pairs: HashSet<(u32, u32, Option<u8>)>,
    /// The clauses, as typed, joined by their and/or.
    pub clauses: String,
}

/// The clauses of `filter` that a fabric view reads from the pairs table (`pairs.hops`, or
/// `hops`, which no link or node table has): those the matrix honours.
pub fn pair_clauses(run: &Run, filter: &Filter) -> Vec<Clause> {
    let on_pairs =
        |c: &&Clause| query::attribute_domain(run, Domain::Links, &c.attribute) == Some(Domain::Pairs);
    filter.clauses.iter().filter(on_pairs).cloned().collect()
}

/// The host pairs `filter`'s pair clauses keep in region `key` (each pair's row of that region
/// is tested), or `None` when the filter has no clause on pairs.
pub fn kept_pairs(run: &Run, filter: &Filter, key: RegionKey) -> Result<Option<KeptPairs>, String> {
    let clauses = pair_clauses(run, filter);
    if clauses.is_empty() {
        return Ok(None);
    }
    let region = match key {
        RegionKey::Total => -1,
        RegionKey::Region(n) => i64::from(n),
    };
    let base =
        [Clause { attribute: "pairs.region".into(), relation: Relation::Eq, value: region.to_string() }];
    let mask = query::mask_combined(run, Domain::Pairs, &base, &clauses, filter.combine)
        .map_err(|e| e.to_string())?;
    let table = run.tables_of(Domain::Pairs).next().ok_or("the data set has no pairs table")?;
    let column = |name: &str| table.column(name).ok_or_else(|| format!("the pairs table has no `{name}`"));
    let (src, dst, rail) = (column("src")?, column("dst")?, column("rail")?);
    let mut pairs = HashSet::new();
    for (row, &id) in table.ids.iter().enumerate() {
        if run.position(Domain::Pairs, id).is_none_or(|p| mask.get(p) != Some(&true)) {
            continue;
        }
        let (Some(s), Some(d), Some(r)) = (src.number(row), dst.number(row), rail.number(row)) else {
            continue;
        };
        pairs.insert((s as u32, d as u32, u8::try_from(r as i64).ok()));
    }
    let joint = match filter.combine {
        super::relation::Combine::All => " and ",
        super::relation::Combine::Any => " or ",
    };
    let clauses = clauses.iter().map(ToString::to_string).collect::<Vec<_>>().join(joint);
    Ok(Some(KeptPairs { pairs, clauses }))
}

impl KeptPairs {
    /// `set` with only the kept pairs' flows (the others' bytes are not in the matrix).
    pub fn flows(&self, set: &FlowSet) -> FlowSet {
        let keeps = |o: &crate::routing::flows::FlowOrigin, rail: Option<u8>| {
            o.src_host.zip(o.dst_host).is_some_and(|(s, d)| self.pairs.contains(&(s, d, rail)))
        };
        let mut kept = FlowSet { unplaced_bytes: 0, ..FlowSet::default() };
        for (rail, (flows, origins)) in set.flows.iter().zip(&set.origins).enumerate() {
            let rail_id = u8::try_from(rail).ok();
            let (mut f, mut o, mut h) = (Vec::new(), Vec::new(), Vec::new());
            // The kept switch counts follow their flows (a rail without them has none).
            let hops = set.hops.get(rail).filter(|h| h.len() == flows.len());
            for (i, (flow, origin)) in
                flows.iter().zip(origins).enumerate().filter(|(_, (_, o))| keeps(o, rail_id))
            {
                f.push(*flow);
                o.push(*origin);
                h.extend(hops.map(|hops| hops[i]));
            }
            kept.flows.push(f);
            kept.origins.push(o);
            kept.hops.push(h);
        }
        kept.intra_node_pairs =
            set.intra_node_pairs.iter().filter(|(o, _)| keeps(o, None)).copied().collect();
        kept.intra_node_bytes = kept.intra_node_pairs.iter().fold(0u64, |sum, (_, b)| sum.saturating_add(*b));
        kept
    }
}
