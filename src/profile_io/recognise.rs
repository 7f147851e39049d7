//! Recognising a file's format by the lines that match, not by its first few (issue 16).
//!
//! Site scripts capture tools with `2>&1`, so a `-p` ports list run with `-d`/`-v` starts with
//! hundreds of `DR path` / `ibwarn` lines, and any dump may carry a stray error on top. A bounded
//! [`sample`] of meaningful lines is taken through the whole text (its head, then short probes at
//! evenly spaced offsets) and every [`Recogniser`] of a table counts the sampled lines it claims;
//! the format with most wins (ties: table order). Each table entry is one format and one
//! line test, so new formats (counter files, say) slot in as rows of their own table.

/// One format's line test: does this trimmed, non-blank, non-comment line belong to `kind`?
#[derive(Clone, Copy)]
pub struct Recogniser<K> {
    pub kind: K,
    pub claims: fn(&str) -> bool,
}

/// Meaningful lines read from the head of the text.
const HEAD_LINES: usize = 256;
/// Probes taken through the rest of the text, and lines per probe.
const PROBES: usize = 16;
const PROBE_LINES: usize = 16;

/// At most `HEAD_LINES + PROBES × PROBE_LINES` meaningful (trimmed, non-blank, non-`#`) lines:
/// the head, then from evenly spaced byte offsets (each starting at the next whole line).
pub fn sample(text: &str) -> Vec<&str> {
    let keep = |l: &&str| !l.is_empty() && !l.starts_with('#');
    let mut lines: Vec<&str> = text.lines().map(str::trim).filter(keep).take(HEAD_LINES).collect();
    let head_end = lines.last().map_or(0, |l| l.as_ptr() as usize - text.as_ptr() as usize + l.len());
    if head_end >= text.len() {
        return lines;
    }
    for k in 1..=PROBES {
        let from = head_end + (text.len() - head_end) * k / (PROBES + 1);
        let Some(from) = (from..text.len()).find(|&i| text.is_char_boundary(i)) else { continue };
        let rest = &text[from..];
        let Some(newline) = rest.find('\n') else { continue };
        lines.extend(rest[newline + 1..].lines().map(str::trim).filter(keep).take(PROBE_LINES));
    }
    lines
}

/// The kind claiming most of `lines` under `table`, with how many it claimed; `None` if no
/// line is claimed.
pub fn recognise<K: Copy>(lines: &[&str], table: &[Recogniser<K>]) -> Option<(K, usize)> {
    let mut best: Option<(K, usize)> = None;
    for recogniser in table {
        let claimed = lines.iter().filter(|l| (recogniser.claims)(l)).count();
        if claimed > best.map_or(0, |(_, n)| n) {
            best = Some((recogniser.kind, claimed));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_with_most_claimed_lines_wins_and_ties_keep_table_order() {
        let table = [
            Recogniser { kind: 'a', claims: |l| l.starts_with('a') },
            Recogniser { kind: 'b', claims: |l| l.starts_with('b') },
        ];
        assert_eq!(recognise(&["a1", "b1", "b2"], &table), Some(('b', 2)));
        assert_eq!(recognise(&["a1", "b1"], &table), Some(('a', 1)));
        assert_eq!(recognise(&["c"], &table), None);
    }

    #[test]
    fn the_sample_reaches_past_a_long_head_of_noise_and_stays_bounded() {
        let mut text = "noise line\n".repeat(5_000);
        text.push_str(&"wanted line\n".repeat(2_000));
        let lines = sample(&text);
        assert!(lines.len() <= HEAD_LINES + PROBES * PROBE_LINES);
        assert!(lines.contains(&"wanted line"), "probes reach the end of the file");
        assert!(sample("# only a comment\n\n").is_empty());
    }
}
