//! `--host-map FILE`: two columns, `profile-host fabric-host`, mapping the host names a
//! profile recorded (the cluster's names) onto the fabric's (node descriptions' first words).
//! Blank lines and `#` comments are skipped; any other malformed line is a warning.

use std::collections::HashMap;
use std::path::Path;

use crate::model::Warning;
use crate::routing::HostMap;

use super::ParseError;

pub fn read_host_map(path: &Path) -> Result<(HostMap, Vec<Warning>), ParseError> {
    let display = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ParseError::io(&display, e))?;
    Ok(parse_host_map(&text, &display))
}

pub fn parse_host_map(text: &str, display: &str) -> (HostMap, Vec<Warning>) {
    let mut map = HashMap::new();
    let mut warnings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let words: Vec<&str> = content.split_whitespace().collect();
        match words.as_slice() {
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
                format!("expected `profile-host fabric-host`, got {} words; line skipped", words.len()),
            )),
        }
    }
    (HostMap(map), warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_columns_map_names_and_anything_else_is_a_named_warning() {
        let text = "# cluster name -> fabric name\nnode-a n0001\n\nnode-b n0002 extra\nnode-c   n0003 # ok\n";
        let (map, warnings) = parse_host_map(text, "hosts.map");
        assert_eq!(map.fabric_name("node-a"), "n0001");
        assert_eq!(map.fabric_name("node-c"), "n0003");
        assert_eq!(map.fabric_name("unmapped"), "unmapped");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].line, Some(4));
    }
}
