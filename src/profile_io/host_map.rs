//! `--host-map FILE`: maps a profile's ranks onto the fabric's hosts (node descriptions' first
//! words). Each line is either `profile-host fabric-host` (every rank the profile places on
//! that host) or `rank R fabric-host` (one rank, whatever its host name: for a single-node test
//! run, or a what-if placement). Blank lines and `#` comments are skipped; any other malformed
//! line is a warning with its line number.

use std::collections::HashMap;
use std::path::Path;

use crate::model::{HostMap, Warning};

use super::ParseError;

pub fn read_host_map(path: &Path) -> Result<(HostMap, Vec<Warning>), ParseError> {
    let (input, mut warnings) = super::Input::open(path)?;
    let (map, more) = parse_host_map(input.text(), input.display());
    warnings.extend(more);
    Ok((map, warnings))
}

pub fn parse_host_map(text: &str, display: &str) -> (HostMap, Vec<Warning>) {
    let mut map = HashMap::new();
    let mut ranks = HashMap::new();
    let mut warnings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let words: Vec<&str> = content.split_whitespace().collect();
        match words.as_slice() {
            ["rank", r, to] => match r.parse::<u32>() {
                Ok(r) => {
                    if let Some(old) = ranks.insert(r, to.to_string())
                        && old != *to
                    {
                        warnings.push(Warning::at(
                            display,
                            i + 1,
                            format!("rank {r} was mapped to {old}; now to {to}"),
                        ));
                    }
                }
                Err(_) => warnings.push(Warning::at(
                    display,
                    i + 1,
                    format!("`{r}` is not a rank number; line skipped"),
                )),
            },
            [from, to] => {
                if let Some(old) = map.insert(from.to_string(), to.to_string())
                    && old != *to
                {
                    warnings.push(Warning::at(
                        display,
                        i + 1,
                        format!("{from} was mapped to {old}; now to {to}"),
                    ));
                }
            }
            _ => warnings.push(Warning::at(
                display,
                i + 1,
                format!(
                    "expected `profile-host fabric-host` or `rank R fabric-host`, got {} words; line skipped",
                    words.len()
                ),
            )),
        }
    }
    (HostMap { hosts: map, ranks }, warnings)
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
