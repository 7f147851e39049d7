//! Slurm's hostlist syntax, expanded as `scontrol show hostnames` expands it:
//! `cn[0000-0007,0012],gpu03` → `cn0000` … `cn0007`, `cn0012`, `gpu03`.
//!
//! Top-level commas separate names; a bracket holds comma-separated numbers and ranges `a-b`
//! (`a ≤ b`), each number written as wide as the range's first (`n[001-3]` → `n001`…`n003`,
//! `n[9-11]` → `n9`, `n10`, `n11`); several brackets in one name give every combination, the
//! first bracket outermost (`a[1-2]b[1-2]` → `a1b1 a1b2 a2b1 a2b2`). Duplicates are kept, as
//! Slurm keeps them. `tests/fixtures/slurm/hostnames.tsv` holds Slurm's own answers
//! (`scripts/make-slurm-fixtures.sh`); the tests below read it.

/// More names than one list may expand to: a range like `n[0-999999999]` is refused, not
/// allocated (a constant, never a number from the file).
pub const MAX_NAMES: usize = 1 << 20;

/// The host names of a hostlist, or why it cannot be read.
pub fn expand(list: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for part in top_level_parts(list)? {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        expand_one(part, &mut names)?;
    }
    Ok(names)
}

/// Splits at commas outside brackets; an unbalanced bracket is an error.
fn top_level_parts(list: &str) -> Result<Vec<&str>, String> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '[' if depth == 0 => depth = 1,
            '[' => return Err(format!("`{list}`: a bracket inside a bracket")),
            ']' if depth == 1 => depth = 0,
            ']' => return Err(format!("`{list}`: `]` without `[`")),
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("`{list}`: `[` never closed"));
    }
    parts.push(&list[start..]);
    Ok(parts)
}

/// Expands one name with brackets (`a[1-2]b[3,5]`) into `out`.
fn expand_one(part: &str, out: &mut Vec<String>) -> Result<(), String> {
    let Some(open) = part.find('[') else {
        out.push(part.to_string());
        return Ok(());
    };
    let close =
        part[open..].find(']').map(|i| open + i).ok_or_else(|| format!("`{part}`: `[` never closed"))?;
    let (prefix, inner, rest) = (&part[..open], &part[open + 1..close], &part[close + 1..]);
    let numbers = bracket_numbers(inner).map_err(|e| format!("`{part}`: {e}"))?;
    let mut tails = Vec::new();
    expand_one(rest, &mut tails)?;
    if out.len().saturating_add(numbers.len().saturating_mul(tails.len())) > MAX_NAMES {
        return Err(format!("`{part}` names more than {MAX_NAMES} hosts"));
    }
    for number in &numbers {
        for tail in &tails {
            out.push(format!("{prefix}{number}{tail}"));
        }
    }
    Ok(())
}

/// The numbers a bracket's text names, each as wide as its range's first.
fn bracket_numbers(inner: &str) -> Result<Vec<String>, String> {
    let mut numbers = Vec::new();
    for item in inner.split(',') {
        let (low, high) = item.split_once('-').unwrap_or((item, item));
        let digits = |t: &str| !t.is_empty() && t.len() <= 18 && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(low) || !digits(high) {
            return Err(format!("`{item}` is not a number or a range a-b"));
        }
        let (a, b): (u64, u64) =
            (low.parse().map_err(|_| item.to_string())?, high.parse().map_err(|_| item.to_string())?);
        if a > b {
            return Err(format!("range `{item}` runs backwards"));
        }
        if numbers.len() as u64 + (b - a) >= MAX_NAMES as u64 {
            return Err(format!("range `{item}` names more than {MAX_NAMES} hosts"));
        }
        let width = low.len();
        numbers.extend((a..=b).map(|n| format!("{n:0width$}")));
    }
    Ok(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row of Slurm's answers: the hostlist and its names, or `None` where Slurm refused it.
    fn slurm_answers() -> Vec<(String, Option<Vec<String>>)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/slurm/hostnames.tsv");
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let (list, names) = l.split_once('\t').unwrap();
                let names = (!names.starts_with('!')).then(|| names.split(' ').map(String::from).collect());
                (list.to_string(), names)
            })
            .collect()
    }

    #[test]
    fn hostlists_expand_as_scontrol_show_hostnames_expands_them() {
        let answers = slurm_answers();
        assert!(answers.len() >= 12, "{answers:?}");
        for (list, slurm) in answers {
            let balanced = list.matches('[').count() == list.matches(']').count();
            match (slurm, balanced) {
                (Some(names), true) => assert_eq!(expand(&list).unwrap(), names, "{list}"),
                // Slurm refused it, or echoed an unclosed bracket back mangled: shoal refuses it.
                _ => assert!(expand(&list).is_err(), "{list}"),
            }
        }
    }

    #[test]
    fn an_unreadable_hostlist_says_what_is_wrong() {
        assert!(expand("n[3-1]").unwrap_err().contains("runs backwards"));
        assert!(expand("n[1-2").unwrap_err().contains("never closed"));
        assert!(expand("n[x]").unwrap_err().contains("`x` is not a number"));
        assert!(expand("n[0-99999999]").unwrap_err().contains("more than"));
        assert!(expand("a[0-1023]b[0-1023]c[0-1]").unwrap_err().contains("more than"));
    }
}
