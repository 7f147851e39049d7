//! `--host-map FILE`: maps a profile's ranks onto the fabric's hosts (node descriptions' first
//! words). Each line is either `profile-host fabric-host` (every rank the profile places on
//! that host) or `rank R fabric-host` (one rank, whatever its host name: for a single-node test
//! run, or a what-if placement). Blank lines and `#` comments are skipped; any other malformed
//! line is a warning with its line number.

use std::collections::HashMap;
use std::path::Path;

use crate::model::{HostMap, Warning};

use super::ParseError;
use super::line_warnings::LineWarnings;

/// Reads a host map file; a regular file is streamed, keeping only the mappings.
pub fn read_host_map(path: &Path) -> Result<(HostMap, Vec<Warning>), ParseError> {
    let (input, mut warnings) = if super::stream::is_regular_file(path) {
        (super::Input::deferred(path), Vec::new())
    } else {
        super::Input::open(path)?
    };
    let mut parser = HostMapParser::new(input.display());
    let summary = input.for_each_line(|number, line, _| parser.line(number, line))?;
    warnings.extend(summary.warnings);
    let (map, more) = parser.finish();
    warnings.extend(more);
    Ok((map, warnings))
}

pub fn parse_host_map(text: &str, display: &str) -> (HostMap, Vec<Warning>) {
    let mut parser = HostMapParser::new(display);
    for (i, line) in text.lines().enumerate() {
        parser.line(i + 1, line);
    }
    parser.finish()
}

/// The mappings read so far; malformed lines are warnings, capped like every reader's.
struct HostMapParser {
    map: HashMap<String, String>,
    ranks: HashMap<u32, String>,
    warnings: LineWarnings,
}

impl HostMapParser {
    fn new(display: &str) -> Self {
        HostMapParser { map: HashMap::new(), ranks: HashMap::new(), warnings: LineWarnings::new(display) }
    }

    fn line(&mut self, number: usize, line: &str) {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            return;
        }
        let words: Vec<&str> = content.split_whitespace().collect();
        match words.as_slice() {
            ["rank", r, to] => match r.parse::<u32>() {
                Ok(r) => {
                    if let Some(old) = self.ranks.insert(r, to.to_string())
                        && old != *to
                    {
                        self.warnings.line(number, format!("rank {r} was mapped to {old}; now to {to}"));
                    }
                }
                Err(_) => self.warnings.line(number, format!("`{r}` is not a rank number; line skipped")),
            },
            [from, to] => {
                if let Some(old) = self.map.insert(from.to_string(), to.to_string())
                    && old != *to
                {
                    self.warnings.line(number, format!("{from} was mapped to {old}; now to {to}"));
                }
            }
            _ => self.warnings.line(
                number,
                format!(
                    "expected `profile-host fabric-host` or `rank R fabric-host`, got {} words; line skipped",
                    words.len()
                ),
            ),
        }
    }

    fn finish(self) -> (HostMap, Vec<Warning>) {
        (HostMap { hosts: self.map, ranks: self.ranks }, self.warnings.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_columns_map_names_and_anything_else_is_a_named_warning() {
        let text = "# cluster name -> fabric name\nnode-a n0001\n\nnode-b n0002 extra\nnode-c   n0003 # ok\nrank 7 n0009\nrank x n0001\n";
        let (map, warnings) = parse_host_map(text, "hosts.map");
        assert_eq!(map.fabric_name("node-a"), "n0001");
        assert_eq!(map.fabric_name("node-c"), "n0003");
        assert_eq!(map.fabric_name("unmapped"), "unmapped");
        assert_eq!(map.host_of_rank(7, "node-a"), "n0009");
        assert_eq!(map.host_of_rank(6, "node-a"), "n0001");
        assert_eq!(warnings.len(), 2);
        assert_eq!(warnings[0].line, Some(4));
        assert_eq!(warnings[1].line, Some(7));
    }
}
