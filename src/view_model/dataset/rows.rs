//! Which traffic rows exist and what they hold: the adapter writes its `traffic` and
//! `node_traffic` tables by these rules, and a clause-free view reads the same rows from the
//! loads by them ([`crate::view_model::fabric_values`]).

/// Above this many rows (link ends × regions) a region's rows list only the link ends (nodes)
/// that carried bytes: 20,000 regions of a 3,000-end fabric would otherwise be 60 million rows.
/// The whole run's rows stay one per end. Views without clauses read bytes from the loads
/// ([`crate::view_model::prepare`]) and are the same either way; a clause on a region's `bytes` then
/// sees only the ends that carried some.
pub const DENSE_ROWS: usize = 4_000_000;

/// Whether the traffic rows list only the ends and nodes that carried bytes (see [`DENSE_ROWS`]).
/// `links` link ends and `regions` regions (the whole run's included) over every traffic set.
pub fn sparse_rows(links: usize, regions: usize) -> bool {
    links.saturating_mul(regions) > DENSE_ROWS
}

/// Whether a link end has a row in region `number`: always when rows are dense and for the
/// whole run; else only where it carried bytes, statically or under AR.
pub fn link_row_kept(sparse: bool, number: i64, bytes: f64, ar_bytes: Option<f64>) -> bool {
    !sparse || bytes != 0.0 || ar_bytes.is_some_and(|x| x != 0.0) || number < 0
}

/// A link end's `bytes` cell. Contention has a value only where two jobs met: the other ends'
/// is missing (NaN), so they are drawn neutral, not hidden and not as zero.
pub fn link_row_bytes(job: Option<&str>, bytes: f64) -> f64 {
    if job == Some(super::CONTENTION) && bytes == 0.0 { f64::NAN } else { bytes }
}

/// Whether a node has a row in region `number` (as [`link_row_kept`], by what it sent or received).
pub fn node_row_kept(sparse: bool, number: i64, sent: f64, received: f64) -> bool {
    !sparse || sent != 0.0 || received != 0.0 || number < 0
}
