//! The pieces of a clause: relations, `*` patterns, numbers with byte units, and how clauses
//! combine. The filter and
//! the query engine both build on them.

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

/// How a filter's clauses combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    /// Every clause must hold.
    #[default]
    All,
    /// At least one clause must hold.
    Any,
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
