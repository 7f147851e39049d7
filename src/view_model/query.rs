//! Filter, values and highlight over a [`Run`]'s attribute tables: what the torus and generic-2D
//! views draw, and what `shoal query` prints, computed by the same functions.
//!
//! A [`Condition`] is `ATTR REL VALUE` (`code_region = 1`, `packets >= 1e4`, `nodes.muls > 0`);
//! a query ANDs its conditions. Each condition's attribute is looked up, as Boxfish does, first
//! in the table being aggregated, then in the target domain's other tables, then in the domains
//! nearest by projection (a qualified name, `nodes.code_region`, forces the domain):
//!
//! - conditions on the aggregated table select **rows** (rows are per id × `code_region` …);
//! - conditions on any other table select **ids** of that table's domain (an id passes when one of
//!   its rows passes all of that table's conditions), which are then projected onto the target
//!   domain through the run's projections. So a node clause reaches links as in Boxfish: a link
//!   passes when its node (per the node–link policy) passes.
//!
//! Every output vector is indexed like [`Run::ids`] of its domain (for nodes and links: like
//! [`crate::model::Network::nodes`] / [`crate::model::Network::links`]).
//!
//! An [`Overlay`] stands in for some columns of one table, row for row (a counter interval's
//! values in place of the whole window's, issue 26): the `_over` functions read its columns
//! wherever they would read that table's, so the same rows, conditions and aggregation apply.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::model::{Column, Domain, Run, TextColumn};

use super::relation::{Relation, glob_match, parse_number};

/// One clause `ATTR REL VALUE`. `value` is text as typed: a number (compared numerically on a
/// numeric column), or text (compared as text; `*` is a wildcard for `=` and `!=`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Condition {
    pub attribute: String,
    pub relation: Relation,
    pub value: String,
}

impl Condition {
    /// Parses `ATTR REL VALUE`, relations `= == != < <= > >=`. The attribute may hold spaces
    /// (`Avg Hops-Extents > 2`); it ends at the first relation character.
    pub fn parse(text: &str) -> Result<Condition, QueryError> {
        let bad = || QueryError::BadCondition(text.to_string());
        let at = text.find(['=', '!', '<', '>']).ok_or_else(bad)?;
        let attribute = text[..at].trim();
        let rest = &text[at..];
        let (relation, len) = [
            ("==", Relation::Eq),
            ("!=", Relation::Ne),
            ("<=", Relation::Le),
            (">=", Relation::Ge),
            ("=", Relation::Eq),
            ("<", Relation::Lt),
            (">", Relation::Gt),
        ]
        .into_iter()
        .find(|(sym, _)| rest.starts_with(sym))
        .map(|(sym, rel)| (rel, sym.len()))
        .ok_or_else(bad)?;
        let value = rest[len..].trim();
        if attribute.is_empty() || value.is_empty() {
            return Err(bad());
        }
        Ok(Condition { attribute: attribute.to_string(), relation, value: value.to_string() })
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.attribute, self.relation.symbol(), self.value)
    }
}

/// A session file writes a clause as it is typed (`bytes > 1MiB`).
impl TryFrom<String> for Condition {
    type Error = QueryError;
    fn try_from(text: String) -> Result<Condition, QueryError> {
        Condition::parse(&text)
    }
}

impl From<Condition> for String {
    fn from(condition: Condition) -> String {
        condition.to_string()
    }
}

/// How the passing rows of one id become one value (the model's one aggregation).
pub use crate::model::table::Aggregate;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("`{0}` is not `ATTRIBUTE RELATION VALUE` (relations: = != < <= > >=)")]
    BadCondition(String),
    #[error("no table reachable from {domain} has an attribute `{attribute}` (the {domain}' own: {known})")]
    UnknownAttribute { attribute: String, domain: Domain, known: String },
    #[error("attribute `{attribute}` holds text; only numbers can be {what}")]
    NotNumeric { attribute: String, what: &'static str },
    #[error("`{value}` is not a number, but `{attribute}` is numeric")]
    NotANumber { attribute: String, value: String },
}

/// One attribute a domain's tables offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttributeInfo {
    pub name: String,
    /// The first table (by name) that has it.
    pub table: String,
    pub numeric: bool,
}

/// The attributes of a domain's own tables, in table then column order, each name once (for
/// the filter panel and the colour-by menu). The key column is included.
pub fn attributes(run: &Run, domain: Domain) -> Vec<AttributeInfo> {
    let mut out: Vec<AttributeInfo> = Vec::new();
    for t in run.tables_of(domain) {
        for (name, column) in t.names.iter().zip(&t.columns) {
            if !out.iter().any(|a| a.name == *name) {
                out.push(AttributeInfo {
                    name: name.clone(),
                    table: t.name.clone(),
                    numeric: column.is_numeric(),
                });
            }
        }
    }
    out
}

/// The distinct numbers an attribute of a domain takes, ascending (e.g. the `code_region`s, for
/// a region picker). Empty for an unknown or text attribute.
pub fn distinct_values(run: &Run, domain: Domain, attribute: &str) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    for t in run.tables_of(domain) {
        if let Some(c) = t.column(attribute) {
            out.extend((0..c.len()).filter_map(|r| c.number(r)));
        }
    }
    // Unstable: few distinct values in many rows, which pattern-defeating quicksort groups fast.
    out.sort_unstable_by(f64::total_cmp);
    out.dedup();
    out
}

/// Columns read in place of a table's own of the same names, row for row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// The table's name.
    pub table: String,
    pub names: Vec<String>,
    /// Each as long as the table.
    pub columns: Vec<Column>,
}

/// Table `table`'s column `name`, or the overlay's in its place.
fn column_of<'r>(run: &'r Run, overlay: Option<&'r Overlay>, table: usize, name: &str) -> Option<&'r Column> {
    let t = &run.tables()[table];
    let over = overlay.filter(|o| o.table == t.name).and_then(|o| {
        let i = o.names.iter().position(|n| n == name)?;
        o.columns.get(i).filter(|c| c.len() == t.rows())
    });
    over.or_else(|| t.column(name))
}

/// The value of `attribute` per id of `domain`: `agg` over the id's rows that pass
/// `conditions`. `None` for an id with no passing row (or only missing values).
///
/// The attribute is a numeric column of one of the domain's tables, or else of the nearest
/// domain's by projection: then an id's value aggregates the rows of the ids it projects to (a
/// rank gets its node's value; a link under the Source policy its source node's).
pub fn values(
    run: &Run,
    domain: Domain,
    conditions: &[Condition],
    agg: Aggregate,
    attribute: &str,
) -> Result<Vec<Option<f64>>, QueryError> {
    values_over(run, None, domain, conditions, agg, attribute)
}

/// [`values`], with `overlay`'s columns in place of its table's.
pub fn values_over(
    run: &Run,
    overlay: Option<&Overlay>,
    domain: Domain,
    conditions: &[Condition],
    agg: Aggregate,
    attribute: &str,
) -> Result<Vec<Option<f64>>, QueryError> {
    let table = resolve(run, domain, attribute, None)?;
    let (_, name) = split_qualified(attribute);
    let Some(column) = column_of(run, overlay, table, name).filter(|c| c.is_numeric()) else {
        return Err(QueryError::NotNumeric { attribute: attribute.to_string(), what: "aggregated" });
    };
    let plan = plan(run, overlay, domain, conditions, Some(table))?;
    let allowed = plan.allowed(run, domain);
    let n = run.ids(domain).len();
    let mut acc = vec![Accumulator::default(); n];
    let positions = run.row_positions(table);
    let source = run.tables()[table].domain;
    if source == domain {
        for (row, &pos) in positions.iter().enumerate() {
            if pos == Run::NO_POSITION {
                continue;
            }
            let pos = pos as usize;
            if allowed.as_ref().is_some_and(|a| !a[pos]) || !plan.row_passes(row) {
                continue;
            }
            if let Some(x) = column.number(row) {
                acc[pos].add(x);
            }
        }
    } else {
        // The table's rows by the position of their id, then each target id's related ids.
        let mut rows_at: Vec<Vec<u32>> = vec![Vec::new(); run.ids(source).len()];
        for (row, &pos) in positions.iter().enumerate() {
            if pos != Run::NO_POSITION && plan.row_passes(row) {
                rows_at[pos as usize].push(row as u32);
            }
        }
        for (pos, &id) in run.ids(domain).iter().enumerate() {
            if allowed.as_ref().is_some_and(|a| !a[pos]) {
                continue;
            }
            let related = run.project(domain, &HashSet::from([id]), source).unwrap_or_default();
            for other in related {
                let rows = run.position(source, other).and_then(|p| rows_at.get(p));
                for &row in rows.into_iter().flatten() {
                    if let Some(x) = column.number(row as usize) {
                        acc[pos].add(x);
                    }
                }
            }
        }
    }
    Ok(acc.into_iter().map(|a| a.value(agg)).collect())
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Accumulator {
    sum: f64,
    count: u32,
    min: f64,
    max: f64,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { sum: 0.0, count: 0, min: f64::INFINITY, max: f64::NEG_INFINITY }
    }
}

impl Accumulator {
    #[inline]
    pub(crate) fn add(&mut self, x: f64) {
        self.sum += x;
        self.count += 1;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    pub(crate) fn value(self, agg: Aggregate) -> Option<f64> {
        (self.count > 0).then(|| match agg {
            Aggregate::Mean => self.sum / f64::from(self.count),
            Aggregate::Sum => self.sum,
            Aggregate::Max => self.max,
            Aggregate::Min => self.min,
        })
    }
}

/// Which ids of `domain` pass all `conditions` (every condition selects ids, projected onto
/// `domain`). No conditions: all true.
pub fn mask(run: &Run, domain: Domain, conditions: &[Condition]) -> Result<Vec<bool>, QueryError> {
    mask_over(run, None, domain, conditions)
}

/// [`mask`], with `overlay`'s columns in place of its table's.
pub fn mask_over(
    run: &Run,
    overlay: Option<&Overlay>,
    domain: Domain,
    conditions: &[Condition],
) -> Result<Vec<bool>, QueryError> {
    let plan = plan(run, overlay, domain, conditions, None)?;
    Ok(plan.allowed(run, domain).unwrap_or_else(|| vec![true; run.ids(domain).len()]))
}

/// As [`mask`], with `clauses` combined by `combine` on top of `base` (a view's region
/// selection, ANDed always). Under "any", an id passes when `base` and at least one clause hold
/// together (so a clause on a per-region table is tested on the selected region's rows).
pub fn mask_combined(
    run: &Run,
    domain: Domain,
    base: &[Condition],
    clauses: &[Condition],
    combine: super::relation::Combine,
) -> Result<Vec<bool>, QueryError> {
    mask_combined_over(run, None, domain, base, (clauses, combine))
}

/// [`mask_combined`], with `overlay`'s columns in place of its table's.
pub fn mask_combined_over(
    run: &Run,
    overlay: Option<&Overlay>,
    domain: Domain,
    base: &[Condition],
    (clauses, combine): (&[Condition], super::relation::Combine),
) -> Result<Vec<bool>, QueryError> {
    if combine == super::relation::Combine::All || clauses.is_empty() {
        let all: Vec<Condition> = base.iter().chain(clauses).cloned().collect();
        return mask_over(run, overlay, domain, &all);
    }
    let mut any = vec![false; run.ids(domain).len()];
    for clause in clauses {
        let both: Vec<Condition> = base.iter().chain([clause]).cloned().collect();
        for (slot, pass) in any.iter_mut().zip(mask_over(run, overlay, domain, &both)?) {
            *slot |= pass;
        }
    }
    Ok(any)
}

/// A highlight made in one domain, projected into every domain a chain of projections reaches
/// (rank → node → link and back). The `from` domain gets `ids` themselves.
pub fn highlight(run: &Run, from: Domain, ids: &HashSet<i64>) -> HashMap<Domain, HashSet<i64>> {
    // A lazy domain not built yet (pairs) is lit once something names it, not by every highlight.
    Domain::ALL
        .into_iter()
        .filter(|&to| to == from || !run.is_pending(to))
        .filter_map(|to| run.project(from, ids, to).map(|set| (to, set)))
        .collect()
}

fn unknown(run: &Run, domain: Domain, attribute: &str) -> QueryError {
    let known: Vec<String> = attributes(run, domain).into_iter().map(|a| a.name).collect();
    let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
    QueryError::UnknownAttribute { attribute: attribute.to_string(), domain, known }
}

/// `nodes.code_region` → (Some(Nodes), `code_region`); anything else is a plain name.
fn split_qualified(attribute: &str) -> (Option<Domain>, &str) {
    if let Some((prefix, rest)) = attribute.split_once('.')
        && let Some(domain) = Domain::parse(prefix)
        && prefix.eq_ignore_ascii_case(domain.name())
    {
        return (Some(domain), rest.trim());
    }
    (None, attribute.trim())
}

/// A condition compiled against one column.
enum Test<'r> {
    Number {
        column: &'r Column,
        relation: Relation,
        value: f64,
    },
    /// Decided once per distinct value: `passes[code]`.
    Text {
        column: &'r TextColumn,
        passes: Vec<bool>,
    },
}

impl Test<'_> {
    #[inline]
    fn passes(&self, row: usize) -> bool {
        match self {
            Test::Number { column, relation, value } => {
                column.number(row).is_some_and(|x| relation.compare_numbers(x, *value))
            }
            Test::Text { column, passes } => {
                column.code(row).is_some_and(|c| passes.get(c as usize).copied().unwrap_or(false))
            }
        }
    }
}

/// How a text cell compares with a condition's value: `*` is a wildcard for `=` and `!=`, the
/// other relations compare as text. The row tests and the loads' rows ([`super::fabric_values`])
/// both ask here.
pub(crate) fn text_passes(relation: Relation, text: &str, value: &str) -> bool {
    let matched = if value.contains('*') { glob_match(value, text) } else { text == value };
    match relation {
        Relation::Eq => matched,
        Relation::Ne => !matched,
        r => compare_ord(r, text.cmp(value)),
    }
}

fn compare_ord(r: Relation, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match r {
        Relation::Eq => o == Equal,
        Relation::Ne => o != Equal,
        Relation::Lt => o == Less,
        Relation::Le => o != Greater,
        Relation::Gt => o == Greater,
        Relation::Ge => o != Less,
    }
}

/// Conditions grouped by the table they resolved to.
struct Plan<'r> {
    /// Tests on the aggregated table's rows.
    row_tests: Vec<Test<'r>>,
    /// (table index, its tests) for every other table.
    id_groups: Vec<(usize, Vec<Test<'r>>)>,
}

impl Plan<'_> {
    fn row_passes(&self, row: usize) -> bool {
        self.row_tests.iter().all(|t| t.passes(row))
    }

    /// The target ids the id groups leave, as a mask over [`Run::ids`]; `None` = all.
    fn allowed(&self, run: &Run, target: Domain) -> Option<Vec<bool>> {
        let mut mask: Option<Vec<bool>> = None;
        for (table, tests) in &self.id_groups {
            let t = &run.tables()[*table];
            let passing: HashSet<i64> = (0..t.rows())
                .filter(|&row| tests.iter().all(|x| x.passes(row)))
                .map(|row| t.ids[row])
                .collect();
            let projected = run.project(t.domain, &passing, target).unwrap_or_default();
            let m = mask.get_or_insert_with(|| vec![true; run.ids(target).len()]);
            for (slot, id) in m.iter_mut().zip(run.ids(target)) {
                *slot = *slot && projected.contains(id);
            }
        }
        mask
    }
}

fn plan<'r>(
    run: &'r Run,
    overlay: Option<&'r Overlay>,
    target: Domain,
    conditions: &[Condition],
    rows_of: Option<usize>,
) -> Result<Plan<'r>, QueryError> {
    let mut plan = Plan { row_tests: Vec::new(), id_groups: Vec::new() };
    for c in conditions {
        let table = resolve(run, target, &c.attribute, rows_of)?;
        let (_, name) = split_qualified(&c.attribute);
        let Some(column) = column_of(run, overlay, table, name) else {
            return Err(unknown(run, target, &c.attribute));
        };
        let test = match column {
            Column::Text(v) => Test::Text {
                column: v,
                passes: v.distinct().iter().map(|t| text_passes(c.relation, t, &c.value)).collect(),
            },
            numeric => match parse_number(&c.value) {
                Some(value) => Test::Number { column: numeric, relation: c.relation, value },
                None => {
                    return Err(QueryError::NotANumber {
                        attribute: c.attribute.clone(),
                        value: c.value.clone(),
                    });
                }
            },
        };
        if Some(table) == rows_of {
            plan.row_tests.push(test);
        } else if let Some(group) = plan.id_groups.iter_mut().find(|g| g.0 == table) {
            group.1.push(test);
        } else {
            plan.id_groups.push((table, vec![test]));
        }
    }
    Ok(plan)
}

/// The domain whose table a clause on `target`'s ids reads `attribute` from (`None`: no table
/// has it): how the traffic matrix tells a clause on pairs from one on links.
pub fn attribute_domain(run: &Run, target: Domain, attribute: &str) -> Option<Domain> {
    resolve(run, target, attribute, None).ok().and_then(|t| run.tables().get(t)).map(|t| t.domain)
}

/// The table a condition's attribute refers to: the aggregated table, then the target domain's
/// tables, then the other domains' by projection distance (ties in [`Domain::ALL`] order).
fn resolve(
    run: &Run,
    target: Domain,
    attribute: &str,
    preferred: Option<usize>,
) -> Result<usize, QueryError> {
    let (forced, name) = split_qualified(attribute);
    let tables = run.tables();
    if forced.is_none()
        && let Some(p) = preferred.filter(|&p| tables.get(p).is_some_and(|t| t.has(name)))
    {
        return Ok(p);
    }
    let mut domains: Vec<(usize, Domain)> = Domain::ALL
        .into_iter()
        .filter(|d| forced.is_none_or(|f| f == *d))
        .filter_map(|d| run.distance(d, target).map(|n| (n, d)))
        .collect();
    domains.sort();
    domains
        .into_iter()
        .find_map(|(_, d)| run.table_with(d, name))
        .ok_or_else(|| unknown(run, target, attribute))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_parse_with_spaces_and_every_relation() {
        let c = Condition::parse("Avg Hops-Extents >= 2.5").unwrap();
        assert_eq!(
            (c.attribute.as_str(), c.relation, c.value.as_str()),
            ("Avg Hops-Extents", Relation::Ge, "2.5")
        );
        assert_eq!(Condition::parse("code_region==1").unwrap().relation, Relation::Eq);
        assert_eq!(Condition::parse("x != y").unwrap().relation, Relation::Ne);
        assert_eq!(Condition::parse("x<1").unwrap().relation, Relation::Lt);
        assert!(Condition::parse("code_region 1").is_err());
        assert!(Condition::parse("= 1").is_err());
        assert!(Condition::parse("x =").is_err());
        assert_eq!(Condition::parse("a = b").unwrap().to_string(), "a = b");
    }

    #[test]
    fn qualified_names_force_a_domain_only_for_a_domain_prefix() {
        assert_eq!(split_qualified("nodes.code_region"), (Some(Domain::Nodes), "code_region"));
        assert_eq!(split_qualified("node.x"), (None, "node.x"));
        assert_eq!(split_qualified("a.b"), (None, "a.b"));
    }

    #[test]
    fn aggregates_parse_by_name() {
        assert_eq!(Aggregate::parse("MAX"), Some(Aggregate::Max));
        assert_eq!(Aggregate::parse("median"), None);
    }
}
