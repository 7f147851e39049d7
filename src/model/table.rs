//! Attribute tables: what each node, link, rank or communicator *measured*, one row per id and
//! whatever else the rows are split by (`code_region`, a time step …).
//!
//! A table is columnar and typed, as Boxfish's numpy record arrays are: integer, float or text
//! columns of equal length. A missing number (an empty CSV cell) is a float `NaN` and fails every
//! comparison; it is never averaged in. The key column (`nodeid`, `linkid`, `mpirank` …) is kept
//! as integer ids beside the columns, row for row, and also stays a column, so it can be filtered.

use std::fmt;

use super::text_column::TextColumn;

/// The kinds of things a data set's tables describe. Boxfish's `(domain, type)` pairs map onto
/// these: `HW NODE` → nodes, `HW LINK` → links, `COMM RANK` → ranks, `COMM COMMUNICATOR` →
/// communicators. A fabric adds its CA ports (a host's adapters, one per rail or HCA).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Domain {
    Nodes,
    Links,
    Ranks,
    Communicators,
    Ports,
    /// A fabric profile's host pairs per rail and region, with their hop class (issue 23).
    Pairs,
}

impl Domain {
    pub const ALL: [Domain; 6] =
        [Domain::Nodes, Domain::Links, Domain::Ranks, Domain::Communicators, Domain::Ports, Domain::Pairs];

    /// The plural name used on the command line and in qualified attributes (`nodes.code_region`).
    pub fn name(self) -> &'static str {
        match self {
            Domain::Nodes => "nodes",
            Domain::Links => "links",
            Domain::Ranks => "ranks",
            Domain::Communicators => "communicators",
            Domain::Ports => "ports",
            Domain::Pairs => "pairs",
        }
    }

    /// `nodes`, `node`, `NODE` …: the plural or singular name, any case.
    pub fn parse(text: &str) -> Option<Domain> {
        let lower = text.trim().to_ascii_lowercase();
        let singular = lower.strip_suffix('s').unwrap_or(&lower);
        Domain::ALL.into_iter().find(|d| d.name().strip_suffix('s') == Some(singular))
    }

    /// Boxfish's `type:` word (`NODE`, `LINK`, `RANK`, `COMMUNICATOR`), any case.
    pub fn from_boxfish_type(word: &str) -> Option<Domain> {
        match word.trim().to_ascii_uppercase().as_str() {
            "NODE" => Some(Domain::Nodes),
            "LINK" => Some(Domain::Links),
            "RANK" => Some(Domain::Ranks),
            "COMMUNICATOR" => Some(Domain::Communicators),
            _ => None,
        }
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How several values become one: the rows of an id (a query), or the members of a merged
/// torus cell or link (a projection that drops axes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aggregate {
    #[default]
    Mean,
    Sum,
    Max,
    Min,
}

impl Aggregate {
    pub const ALL: [Aggregate; 4] = [Aggregate::Mean, Aggregate::Sum, Aggregate::Max, Aggregate::Min];

    pub fn name(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean",
            Aggregate::Sum => "sum",
            Aggregate::Max => "max",
            Aggregate::Min => "min",
        }
    }

    pub fn parse(text: &str) -> Option<Aggregate> {
        Aggregate::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(text.trim()))
    }

    /// The combined value, or `None` if there are no values.
    pub fn combine(self, values: impl IntoIterator<Item = f64>) -> Option<f64> {
        let (mut n, mut sum, mut max, mut min) = (0usize, 0.0, f64::NEG_INFINITY, f64::INFINITY);
        for v in values {
            n += 1;
            sum += v;
            max = max.max(v);
            min = min.min(v);
        }
        (n > 0).then(|| match self {
            Aggregate::Mean => sum / n as f64,
            Aggregate::Sum => sum,
            Aggregate::Max => max,
            Aggregate::Min => min,
        })
    }
}

/// One typed column.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    Int(Vec<i64>),
    /// `NaN` marks a missing value.
    Float(Vec<f64>),
    /// Codes into distinct values: repeated names cost a `u32` a row.
    Text(TextColumn),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Int(v) => v.len(),
            Column::Float(v) => v.len(),
            Column::Text(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A text column of these cells.
    pub fn text_of<S: AsRef<str>>(cells: impl IntoIterator<Item = S>) -> Column {
        Column::Text(cells.into_iter().collect())
    }

    pub fn is_numeric(&self) -> bool {
        !matches!(self, Column::Text(_))
    }

    /// The row's number; `None` for text and for a missing value.
    #[inline]
    pub fn number(&self, row: usize) -> Option<f64> {
        match self {
            Column::Int(v) => v.get(row).map(|&x| x as f64),
            Column::Float(v) => v.get(row).copied().filter(|x| !x.is_nan()),
            Column::Text(_) => None,
        }
    }

    /// The row's value as text (numbers as written by Rust; a missing value is empty).
    pub fn text(&self, row: usize) -> String {
        match self {
            Column::Int(v) => v.get(row).map(|x| x.to_string()).unwrap_or_default(),
            Column::Float(v) => v.get(row).filter(|x| !x.is_nan()).map(|x| x.to_string()).unwrap_or_default(),
            Column::Text(v) => v.get(row).map(str::to_string).unwrap_or_default(),
        }
    }
}

/// One table: named typed columns of equal length, and the row's id in its domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Where it came from (the file name as the meta file gives it).
    pub name: String,
    pub domain: Domain,
    /// The key column's name (`nodeid`, `linkid`, `mpirank` …).
    pub key: String,
    /// The key column's values as ids, one per row.
    pub ids: Vec<i64>,
    pub names: Vec<String>,
    pub columns: Vec<Column>,
}

impl Table {
    /// Builds a table whose key is the column named `key`, which must hold integers (or floats
    /// that are whole numbers). The error says what is wrong, for the caller to attach a file to.
    pub fn new(
        name: impl Into<String>,
        domain: Domain,
        key: impl Into<String>,
        names: Vec<String>,
        columns: Vec<Column>,
    ) -> Result<Table, String> {
        let key = key.into();
        if names.len() != columns.len() {
            return Err(format!("{} column names for {} columns", names.len(), columns.len()));
        }
        let rows = columns.first().map_or(0, Column::len);
        if let Some(i) = columns.iter().position(|c| c.len() != rows) {
            return Err(format!("column `{}` has {} rows, not {rows}", names[i], columns[i].len()));
        }
        let Some(k) = names.iter().position(|n| *n == key) else {
            return Err(format!("there is no key column `{key}` (columns: {})", names.join(", ")));
        };
        let ids = match &columns[k] {
            Column::Int(v) => v.clone(),
            Column::Float(v) => {
                let mut ids = Vec::with_capacity(v.len());
                for (row, &x) in v.iter().enumerate() {
                    if x.fract() != 0.0 || !x.is_finite() {
                        return Err(format!("key `{key}` is not a whole number in row {}: {x}", row + 1));
                    }
                    ids.push(x as i64);
                }
                ids
            }
            Column::Text(_) => return Err(format!("key column `{key}` holds text, not ids")),
        };
        let mut columns = columns;
        for column in &mut columns {
            if let Column::Text(text) = column {
                text.seal();
            }
        }
        Ok(Table { name: name.into(), domain, key, ids, names, columns })
    }

    pub fn rows(&self) -> usize {
        self.ids.len()
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.names.iter().position(|n| n == name).map(|i| &self.columns[i])
    }

    pub fn has(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn domains_parse_from_plural_singular_and_boxfish_words() {
        assert_eq!(Domain::parse("links"), Some(Domain::Links));
        assert_eq!(Domain::parse("Node"), Some(Domain::Nodes));
        assert_eq!(Domain::parse("communicator"), Some(Domain::Communicators));
        assert_eq!(Domain::parse("patch"), None);
        assert_eq!(Domain::from_boxfish_type("RANK"), Some(Domain::Ranks));
        assert_eq!(Domain::from_boxfish_type("PATCH"), None);
    }

    #[test]
    fn a_whole_float_key_becomes_ids_and_a_fractional_one_is_refused() {
        let cols = vec![Column::Float(vec![3.0, 4.0]), Column::Int(vec![1, 2])];
        let t = Table::new("t", Domain::Nodes, "nodeid", names(&["nodeid", "x"]), cols).unwrap();
        assert_eq!(t.ids, vec![3, 4]);
        let cols = vec![Column::Float(vec![3.5]), Column::Int(vec![1])];
        let err = Table::new("t", Domain::Nodes, "nodeid", names(&["nodeid", "x"]), cols).unwrap_err();
        assert!(err.contains("not a whole number"), "{err}");
    }

    #[test]
    fn a_missing_key_column_is_named_in_the_error() {
        let err =
            Table::new("t", Domain::Links, "linkid", names(&["x"]), vec![Column::Int(vec![1])]).unwrap_err();
        assert!(err.contains("no key column `linkid`"), "{err}");
    }

    #[test]
    fn missing_floats_have_no_number() {
        let c = Column::Float(vec![1.5, f64::NAN]);
        assert_eq!(c.number(0), Some(1.5));
        assert_eq!(c.number(1), None);
        assert_eq!(c.text(1), "");
    }
}
