//! Which link ends are drawn: clauses `attribute relation value`, combined with and/or, plus the
//! byte-range shortcut that the threshold slider and the histogram brush write.
//!
//! A link end is a half link: its bytes are what its node sent. Node clauses reach links through
//! the node ↔ link projection, as in Boxfish: a half passes a node clause when either node of its
//! link passes it. The byte range and "hide unused" are ANDed with the clauses.

use std::fmt;

use crate::layout::ClusterLayout;
use crate::model::{Cluster, LinkEnd, Node, NodeKind};

use super::values::LinkValues;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// Bytes at the link end (for a diff: the absolute change).
    Bytes,
    /// The rail number.
    Rail,
    /// The link's level: the higher level of its two nodes (host–leaf links are level 1).
    Level,
    /// `up` (toward the higher level) or `down`.
    Direction,
    /// A node name (description) pattern with `*` wildcards, case-insensitive.
    NodeName,
    /// `switch` or `ca` (`host` also means `ca`).
    NodeKind,
    NodeLevel,
    NodeRail,
}

impl Attribute {
    pub const ALL: [Attribute; 8] = [
        Attribute::Bytes,
        Attribute::Rail,
        Attribute::Level,
        Attribute::Direction,
        Attribute::NodeName,
        Attribute::NodeKind,
        Attribute::NodeLevel,
        Attribute::NodeRail,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Attribute::Bytes => "bytes",
            Attribute::Rail => "rail",
            Attribute::Level => "level",
            Attribute::Direction => "direction",
            Attribute::NodeName => "node name",
            Attribute::NodeKind => "node kind",
            Attribute::NodeLevel => "node level",
            Attribute::NodeRail => "node rail",
        }
    }

    /// True for attributes of nodes, which filter links through the projection.
    pub fn is_node(self) -> bool {
        matches!(self, Attribute::NodeName | Attribute::NodeKind | Attribute::NodeLevel | Attribute::NodeRail)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Relation {
    pub const ALL: [Relation; 6] =
        [Relation::Eq, Relation::Ne, Relation::Lt, Relation::Le, Relation::Gt, Relation::Ge];

    pub fn symbol(self) -> &'static str {
        match self {
            Relation::Eq => "=",
            Relation::Ne => "!=",
            Relation::Lt => "<",
            Relation::Le => "<=",
            Relation::Gt => ">",
            Relation::Ge => ">=",
        }
    }

    /// `x REL y`, for the fat-tree filter and the run queries alike.
    pub fn compare_numbers(self, x: f64, y: f64) -> bool {
        match self {
            Relation::Eq => x == y,
            Relation::Ne => x != y,
            Relation::Lt => x < y,
            Relation::Le => x <= y,
            Relation::Gt => x > y,
            Relation::Ge => x >= y,
        }
    }
}

/// One condition. `value` is text as typed: a number (bytes may carry a unit, `2 MiB`), `up`,
/// `switch`, or a name pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub attribute: Attribute,
    pub relation: Relation,
    pub value: String,
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.attribute.name(), self.relation.symbol(), self.value)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Combine {
    /// Every clause must hold.
    #[default]
    All,
    /// At least one clause must hold.
    Any,
}

/// A view's (or a link group's) filter. The default passes everything.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    pub clauses: Vec<Clause>,
    pub combine: Combine,
    /// Bytes range `[min, max]` (inclusive), from the threshold slider or the histogram brush.
    pub bytes_range: Option<(f64, f64)>,
    /// Drops link ends that carried no bytes.
    pub hide_unused: bool,
}

/// What a clause is checked against: one link end and its two nodes.
pub struct EndFacts<'a> {
    pub rail: usize,
    pub bytes: f64,
    pub sender: (&'a Node, Option<u32>),
    pub receiver: (&'a Node, Option<u32>),
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty() && self.bytes_range.is_none() && !self.hide_unused
    }

    /// Whether a link end is drawn. `bytes` is compared by magnitude.
    pub fn passes(&self, facts: &EndFacts<'_>) -> bool {
        let bytes = facts.bytes.abs();
        if self.hide_unused && bytes == 0.0 {
            return false;
        }
        if let Some((lo, hi)) = self.bytes_range
            && !(bytes >= lo && bytes <= hi)
        {
            return false;
        }
        if self.clauses.is_empty() {
            return true;
        }
        let mut results = self.clauses.iter().map(|c| clause_holds(c, facts));
        match self.combine {
            Combine::All => results.all(|x| x),
            Combine::Any => results.any(|x| x),
        }
    }

    /// Both filters must pass (a view's own filter and its link group's).
    pub fn and<'a>(&'a self, other: &'a Filter) -> impl Fn(&EndFacts<'_>) -> bool + 'a {
        move |facts| self.passes(facts) && other.passes(facts)
    }
}

fn clause_holds(clause: &Clause, facts: &EndFacts<'_>) -> bool {
    let rel = clause.relation;
    let number = || parse_number(&clause.value);
    match clause.attribute {
        Attribute::Bytes => number().is_some_and(|v| rel.compare_numbers(facts.bytes.abs(), v)),
        Attribute::Rail | Attribute::NodeRail => {
            number().is_some_and(|v| rel.compare_numbers(facts.rail as f64, v))
        }
        Attribute::Level => {
            let level = facts.sender.1.max(facts.receiver.1);
            match (level, number()) {
                (Some(l), Some(v)) => rel.compare_numbers(f64::from(l), v),
                _ => false,
            }
        }
        Attribute::Direction => {
            let up = facts.sender.1 < facts.receiver.1;
            let wanted = match clause.value.trim().to_ascii_lowercase().as_str() {
                "up" => true,
                "down" => false,
                _ => return false,
            };
            match rel {
                Relation::Eq => up == wanted,
                Relation::Ne => up != wanted,
                _ => false,
            }
        }
        Attribute::NodeName | Attribute::NodeKind | Attribute::NodeLevel => {
            node_holds(clause, facts.sender) || node_holds(clause, facts.receiver)
        }
    }
}

/// Whether one node satisfies a node clause.
pub fn node_holds(clause: &Clause, (node, level): (&Node, Option<u32>)) -> bool {
    let rel = clause.relation;
    let matched = match clause.attribute {
        Attribute::NodeName => glob_match(&clause.value, &node.description),
        Attribute::NodeKind => {
            let kind = match clause.value.trim().to_ascii_lowercase().as_str() {
                "switch" | "sw" => NodeKind::Switch,
                "ca" | "host" | "hca" => NodeKind::Ca,
                "router" | "rt" => NodeKind::Router,
                _ => return false,
            };
            node.kind == kind
        }
        Attribute::NodeLevel => {
            return match (level, parse_number(&clause.value)) {
                (Some(l), Some(v)) => rel.compare_numbers(f64::from(l), v),
                _ => false,
            };
        }
        _ => return false,
    };
    match rel {
        Relation::Eq => matched,
        Relation::Ne => !matched,
        _ => false,
    }
}

/// `*` matches any run of characters; case-insensitive; a pattern without `*` must match whole.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.trim().to_lowercase().chars().collect();
    let t: Vec<char> = text.to_lowercase().chars().collect();
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A number, optionally with a byte unit: `1500`, `2.5e6`, `4 KiB`, `1.5MB` (binary units).
pub fn parse_number(text: &str) -> Option<f64> {
    let s = text.trim();
    let split = s.find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E').unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.trim().parse().ok()?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" | "tib" => 1024.0f64.powi(4),
        _ => return None,
    };
    Some(value * scale)
}

/// The drawn link ends: `mask[rail][LinkEnd::index]`, under `filters` (all must pass).
pub fn link_mask(
    cluster: &Cluster,
    layout: &ClusterLayout,
    values: &LinkValues,
    filters: &[&Filter],
) -> Vec<Vec<bool>> {
    cluster
        .rails
        .iter()
        .enumerate()
        .map(|(r, fabric)| {
            let levels = layout.rails.get(r).map(|l| l.levels.as_slice()).unwrap_or(&[]);
            let level = |i: usize| levels.get(i).copied().flatten();
            let mut mask = vec![true; fabric.link_end_count()];
            if filters.iter().all(|f| f.is_empty()) {
                return mask;
            }
            for (i, slot) in mask.iter_mut().enumerate() {
                let end = LinkEnd::from_index(i);
                let Some(((s, _), (d, _))) = fabric.link_end_nodes(end) else { continue };
                let facts = EndFacts {
                    rail: r,
                    bytes: values.at(r, end),
                    sender: (fabric.node(s), level(s.index())),
                    receiver: (fabric.node(d), level(d.index())),
                };
                *slot = filters.iter().all(|f| f.passes(&facts));
            }
            mask
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    use crate::model::Guid;

    fn node(desc: &str, kind: NodeKind) -> Node {
        Node {
            guid: Guid(1),
            system_guid: None,
            kind,
            description: desc.into(),
            num_ports: 1,
            ports: BTreeMap::new(),
        }
    }

    fn clause(attribute: Attribute, relation: Relation, value: &str) -> Clause {
        Clause { attribute, relation, value: value.into() }
    }

    #[test]
    fn globs_match_whole_names_with_stars_anywhere() {
        assert!(glob_match("n00*", "n0001 HCA-1"));
        assert!(glob_match("*hca-2", "n0001 HCA-2"));
        assert!(glob_match("L1-*-03", "L1-00-03"));
        assert!(!glob_match("n00", "n0001 HCA-1"));
        assert!(glob_match("*", ""));
    }

    #[test]
    fn numbers_accept_binary_byte_units() {
        assert_eq!(parse_number("1500"), Some(1500.0));
        assert_eq!(parse_number("4 KiB"), Some(4096.0));
        assert_eq!(parse_number("1.5MB"), Some(1.5 * 1048576.0));
        assert_eq!(parse_number("2e3"), Some(2000.0));
        assert_eq!(parse_number("lots"), None);
    }

    #[test]
    fn a_node_clause_keeps_links_touching_a_matching_node() {
        let host = node("n0007 HCA-1", NodeKind::Ca);
        let leaf = node("L1-00", NodeKind::Switch);
        let spine = node("L2-00", NodeKind::Switch);
        let mut filter = Filter::default();
        filter.clauses.push(clause(Attribute::NodeName, Relation::Eq, "n0007*"));
        let up = EndFacts { rail: 0, bytes: 5.0, sender: (&host, Some(0)), receiver: (&leaf, Some(1)) };
        let isl = EndFacts { rail: 0, bytes: 5.0, sender: (&leaf, Some(1)), receiver: (&spine, Some(2)) };
        assert!(filter.passes(&up));
        assert!(!filter.passes(&isl));
    }

    #[test]
    fn clauses_combine_with_and_or_or_and_the_range_always_applies() {
        let host = node("n1", NodeKind::Ca);
        let leaf = node("L1", NodeKind::Switch);
        let facts = EndFacts { rail: 1, bytes: 100.0, sender: (&leaf, Some(1)), receiver: (&host, Some(0)) };
        let mut filter = Filter {
            clauses: vec![
                clause(Attribute::Rail, Relation::Eq, "0"),
                clause(Attribute::Direction, Relation::Eq, "down"),
            ],
            ..Default::default()
        };
        assert!(!filter.passes(&facts));
        filter.combine = Combine::Any;
        assert!(filter.passes(&facts));
        filter.bytes_range = Some((200.0, 1e9));
        assert!(!filter.passes(&facts));
        filter.bytes_range = Some((100.0, 100.0));
        assert!(filter.passes(&facts));
    }

    #[test]
    fn hide_unused_drops_idle_link_ends_and_diffs_compare_by_magnitude() {
        let a = node("a", NodeKind::Switch);
        let idle = EndFacts { rail: 0, bytes: 0.0, sender: (&a, Some(1)), receiver: (&a, Some(2)) };
        let fell = EndFacts { rail: 0, bytes: -50.0, sender: (&a, Some(1)), receiver: (&a, Some(2)) };
        let filter = Filter { hide_unused: true, bytes_range: Some((10.0, 1e9)), ..Default::default() };
        assert!(!filter.passes(&idle));
        assert!(filter.passes(&fell));
    }
}
