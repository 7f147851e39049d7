//! ibdiagnet2's `ibdiagnet2.db_csv`: many `START_<NAME>` … `END_<NAME>` sections, each a CSV
//! table whose first row names the columns. Shoal reads four (and skips the dozens of others):
//!
//! ```text
//! START_NODES
//! NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID,…
//! "MF0;tb-L1-00:SX6036/U1",36,2,1,1,0x0002c90200010000,0x0002c90200010000,0x0002c90200010000,…
//! END_NODES
//! START_PORTS
//! NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,…,LinkWidthActv,…,LinkSpeedActv,LMC,…,PortState,…
//! START_SWITCHES
//! NodeGUID,LinearFDBCap,RandomFDBCap,MCastFDBCap,LinearFDBTop,DefPort,…
//! START_LINKS
//! NodeGuid1,PortNum1,NodeGuid2,PortNum2
//! ```
//!
//! - `NodeType` 1 is a CA, 2 a switch, 3 a router. GUIDs are `0x` hex; LIDs, LMC and port numbers
//!   **decimal**. A switch's LID and LMC are those of its port 0 row.
//! - Columns are found by name, so older and newer column sets both read; unknown columns are
//!   ignored. Descriptions are quoted.
//! - `LINKS` lists each cable once. `LinkWidthActv` (1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x)
//!   and `LinkSpeedActv` (1, 2, 4 = 2.5, 5, 10 Gb/s; `LinkSpeedExtActv` 1, 2, 4 = 14, 25, 50)
//!   become the `.lst`'s `PHY=`/`SPD=` strings; `PortState` (1 Down … 4 Active) its `LOG=`.
//! - `SWITCHES` is only counted: every switch listed there should have a forwarding table.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::model::{Guid, Lid, NodeKind, PortNum, Warning};

use super::error::ParseError;
use super::ibdiagnet_lst::{LstEnd, LstLink, OwnedLink};
use super::input::Input;
use super::line_warnings::LineWarnings;

/// True when the first meaningful lines start a `db_csv` section.
/// A line of ibdiagnet2's `db_csv` for format recognition: a section marker.
pub fn claims_db_csv_line(line: &str) -> bool {
    line.starts_with("START_") || line.starts_with("END_")
}

pub fn looks_like_db_csv(input: &Input) -> bool {
    input.first_meaningful_lines(3).any(|line| line.starts_with("START_"))
}

/// A NODES row, owned: the file is streamed, so rows outlive their lines.
#[derive(Clone, Debug)]
struct NodeRow {
    kind: NodeKind,
    num_ports: u8,
    system_guid: Option<Guid>,
    port_guid: Option<Guid>,
    description: String,
}

/// A PORTS row; its width, speed and state are decoded from numbers into fixed names.
#[derive(Clone, Copy, Debug, Default)]
struct PortRow {
    guid: Option<Guid>,
    lid: Lid,
    lmc: u8,
    width: Option<&'static str>,
    speed: Option<&'static str>,
    state: Option<&'static str>,
}

/// The columns shoal reads, in any section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Col {
    NodeDesc,
    NumPorts,
    NodeType,
    SystemImageGuid,
    /// `NodeGUID` in NODES, `NodeGuid` in PORTS.
    NodeGuid,
    /// `PortGUID` in NODES, `PortGuid` in PORTS.
    PortGuid,
    PortNum,
    Lid,
    Lmc,
    LinkWidthActv,
    LinkSpeedActv,
    LinkSpeedExtActv,
    PortState,
    NodeGuid1,
    PortNum1,
    NodeGuid2,
    PortNum2,
}

impl Col {
    const ALL: [Col; 17] = [
        Col::NodeDesc,
        Col::NumPorts,
        Col::NodeType,
        Col::SystemImageGuid,
        Col::NodeGuid,
        Col::PortGuid,
        Col::PortNum,
        Col::Lid,
        Col::Lmc,
        Col::LinkWidthActv,
        Col::LinkSpeedActv,
        Col::LinkSpeedExtActv,
        Col::PortState,
        Col::NodeGuid1,
        Col::PortNum1,
        Col::NodeGuid2,
        Col::PortNum2,
    ];

    /// The header name (matched without regard to case).
    fn name(self) -> &'static str {
        match self {
            Col::NodeDesc => "NodeDesc",
            Col::NumPorts => "NumPorts",
            Col::NodeType => "NodeType",
            Col::SystemImageGuid => "SystemImageGUID",
            Col::NodeGuid => "NodeGUID",
            Col::PortGuid => "PortGUID",
            Col::PortNum => "PortNum",
            Col::Lid => "LID",
            Col::Lmc => "LMC",
            Col::LinkWidthActv => "LinkWidthActv",
            Col::LinkSpeedActv => "LinkSpeedActv",
            Col::LinkSpeedExtActv => "LinkSpeedExtActv",
            Col::PortState => "PortState",
            Col::NodeGuid1 => "NodeGuid1",
            Col::PortNum1 => "PortNum1",
            Col::NodeGuid2 => "NodeGuid2",
            Col::PortNum2 => "PortNum2",
        }
    }
}

/// Where each [`Col`] sits in the section being read, found once from its header row.
struct Columns {
    at: [Option<usize>; Col::ALL.len()],
    /// Fields past the last one read are not split at all (PORTS rows have 50+ columns).
    needed: usize,
}

impl Columns {
    fn new(header: &[&str]) -> Self {
        let mut at = [None; Col::ALL.len()];
        for (slot, col) in at.iter_mut().zip(Col::ALL) {
            *slot = header.iter().position(|c| c.eq_ignore_ascii_case(col.name()));
        }
        let needed = at.iter().flatten().max().map_or(0, |&last| last + 1);
        Columns { at, needed }
    }

    /// The field of `col` in a row; `None` when absent, empty or `N/A`.
    fn get<'a>(&self, fields: &[&'a str], col: Col) -> Option<&'a str> {
        let at = self.at[col as usize]?;
        fields.get(at).copied().filter(|v| !v.is_empty() && *v != "N/A")
    }
}

/// Reads the nodes, ports and links of a `db_csv` into the link list every topology becomes.
/// The file is streamed: only the rows of the sections read are kept.
pub fn read_db_csv(input: &Input) -> Result<(Vec<OwnedLink>, Vec<Warning>), ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut rows = Rows::default();
    let mut section: Option<(String, Option<Columns>)> = None;
    let mut sections_seen = 0usize;
    let summary = input.for_each_line(|number, raw, _| {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        if let Some(name) = line.strip_prefix("START_") {
            sections_seen += 1;
            section = Some((name.to_string(), None));
            return;
        }
        if line.starts_with("END_") {
            section = None;
            return;
        }
        let Some((name, columns)) = section.as_mut() else {
            warnings.stray(number, line);
            return;
        };
        if !matches!(name.as_str(), "NODES" | "PORTS" | "LINKS" | "SWITCHES") {
            return;
        }
        let mut fields: Vec<&str> = Vec::with_capacity(32);
        match columns.as_ref() {
            None => {
                split_csv(line, usize::MAX, &mut fields);
                *columns = Some(Columns::new(&fields));
            }
            Some(columns) => {
                split_csv(line, columns.needed, &mut fields);
                if let Err(reason) = rows.add(name, columns, &fields, number) {
                    warnings.line(number, format!("skipped {name} row: {reason}"));
                }
            }
        }
    })?;
    if sections_seen == 0 || rows.nodes.is_empty() {
        let gathered = summary.warnings.into_iter().chain(warnings.finish()).collect();
        return Err(ParseError::invalid(input.display(), "no START_NODES section with node rows found")
            .with_warnings(gathered));
    }
    let links = rows.links(&mut warnings);
    if let Some(warning) = summary.truncation_warning(input.display()) {
        warnings.push(warning);
    }
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((links, all))
}

/// The rows kept from the sections read.
#[derive(Default)]
struct Rows {
    nodes: HashMap<Guid, NodeRow>,
    ports: HashMap<(Guid, u8), PortRow>,
    links: Vec<(usize, Guid, u8, Guid, u8)>,
    switches: usize,
}

impl Rows {
    /// Keeps one row of section `name` (`NODES`, `PORTS`, `LINKS` or `SWITCHES`).
    fn add(&mut self, name: &str, columns: &Columns, fields: &[&str], number: usize) -> Result<(), String> {
        match name {
            "NODES" => node_row(columns, fields).map(|(guid, row)| {
                self.nodes.insert(guid, row);
            }),
            "PORTS" => port_row(columns, fields).map(|(key, row)| {
                self.ports.insert(key, row);
            }),
            "LINKS" => {
                link_row(columns, fields).map(|(a, pa, b, pb)| self.links.push((number, a, pa, b, pb)))
            }
            _ => {
                self.switches += 1;
                Ok(())
            }
        }
    }

    /// The links between the ports kept; a LINKS row naming a node or port not kept is a warning.
    fn links(&self, warnings: &mut LineWarnings) -> Vec<OwnedLink> {
        let mut links = Vec::with_capacity(self.links.len());
        for &(number, a, pa, b, pb) in &self.links {
            match (end(&self.nodes, &self.ports, a, pa), end(&self.nodes, &self.ports, b, pb)) {
                (Ok((ea, ra)), Ok((eb, rb))) => {
                    let state = if ra.state == Some("DWN") || rb.state == Some("DWN") {
                        Some("DWN")
                    } else {
                        ra.state
                    };
                    let [width, state, speed] = [ra.width, state, ra.speed].map(|t| t.map(Cow::Borrowed));
                    links.push(LstLink { line: number, ends: [ea, eb], width, state, speed });
                }
                (Err(reason), _) | (_, Err(reason)) => {
                    warnings.line(number, format!("skipped LINKS row: {reason}"))
                }
            }
        }
        let with_port0 = (self.nodes.iter())
            .filter(|(g, n)| n.kind == NodeKind::Switch && self.ports.contains_key(&(**g, 0)))
            .count();
        if self.switches > 0 && self.switches != with_port0 {
            let switches = self.switches;
            warnings.file(format!(
                "{switches} SWITCHES rows but {with_port0} switches with a port 0 row in PORTS"
            ));
        }
        links
    }
}

fn end(
    nodes: &HashMap<Guid, NodeRow>,
    ports: &HashMap<(Guid, u8), PortRow>,
    guid: Guid,
    port: u8,
) -> Result<(LstEnd<'static>, PortRow), String> {
    let node = nodes.get(&guid).ok_or_else(|| format!("node {guid} is not in NODES"))?;
    let row =
        ports.get(&(guid, port)).copied().ok_or_else(|| format!("port {guid}/{port} is not in PORTS"))?;
    let (lid, lmc, port_guid) = if node.kind == NodeKind::Switch {
        let port0 = ports.get(&(guid, 0)).copied().unwrap_or(row);
        (port0.lid, port0.lmc, port0.guid.or(node.port_guid))
    } else {
        (row.lid, row.lmc, row.guid)
    };
    let lst_end = LstEnd {
        kind: node.kind,
        master_sm: false,
        num_ports: node.num_ports,
        system_guid: node.system_guid,
        node_guid: guid,
        port_guid,
        description: Cow::Owned(node.description.clone()),
        lid,
        port: PortNum(port),
        lmc: Some(lmc),
    };
    Ok((lst_end, row))
}

fn guid(columns: &Columns, fields: &[&str], col: Col) -> Result<Guid, String> {
    let name = col.name();
    let value = columns.get(fields, col).ok_or_else(|| format!("no {name}"))?;
    Guid::parse_hex(value).ok_or_else(|| format!("bad {name} `{value}`"))
}

fn number<T: std::str::FromStr>(columns: &Columns, fields: &[&str], col: Col) -> Result<T, String> {
    let name = col.name();
    let value = columns.get(fields, col).ok_or_else(|| format!("no {name}"))?;
    value.parse().map_err(|_| format!("bad {name} `{value}`"))
}

fn node_row(columns: &Columns, fields: &[&str]) -> Result<(Guid, NodeRow), String> {
    let kind = match number::<u8>(columns, fields, Col::NodeType)? {
        1 => NodeKind::Ca,
        2 => NodeKind::Switch,
        3 => NodeKind::Router,
        other => return Err(format!("unknown NodeType {other}")),
    };
    let row = NodeRow {
        kind,
        num_ports: number(columns, fields, Col::NumPorts)?,
        system_guid: guid(columns, fields, Col::SystemImageGuid).ok(),
        port_guid: guid(columns, fields, Col::PortGuid).ok(),
        description: columns.get(fields, Col::NodeDesc).unwrap_or("").trim().to_string(),
    };
    Ok((guid(columns, fields, Col::NodeGuid)?, row))
}

fn port_row(columns: &Columns, fields: &[&str]) -> Result<((Guid, u8), PortRow), String> {
    let node = guid(columns, fields, Col::NodeGuid)?;
    let port: u8 = number(columns, fields, Col::PortNum)?;
    let lid = Lid(number(columns, fields, Col::Lid)?);
    let lmc = number(columns, fields, Col::Lmc).unwrap_or(0);
    let width = match number::<u32>(columns, fields, Col::LinkWidthActv) {
        Ok(1) => Some("1x"),
        Ok(2) => Some("4x"),
        Ok(4) => Some("8x"),
        Ok(8) => Some("12x"),
        Ok(16) => Some("2x"),
        _ => None,
    };
    let ext = number::<u32>(columns, fields, Col::LinkSpeedExtActv).unwrap_or(0);
    let speed = match (ext, number::<u32>(columns, fields, Col::LinkSpeedActv)) {
        (1, _) => Some("14"),
        (2, _) => Some("25"),
        (4, _) => Some("50"),
        (8, _) => Some("100"),
        (_, Ok(1)) => Some("2.5"),
        (_, Ok(2)) => Some("5"),
        (_, Ok(4)) => Some("10"),
        _ => None,
    };
    let state = match number::<u8>(columns, fields, Col::PortState) {
        Ok(1) => Some("DWN"),
        Ok(2) => Some("INI"),
        Ok(3) => Some("ARM"),
        Ok(4) => Some("ACT"),
        _ => None,
    };
    let row = PortRow { guid: guid(columns, fields, Col::PortGuid).ok(), lid, lmc, width, speed, state };
    Ok(((node, port), row))
}

fn link_row(columns: &Columns, fields: &[&str]) -> Result<(Guid, u8, Guid, u8), String> {
    Ok((
        guid(columns, fields, Col::NodeGuid1)?,
        number(columns, fields, Col::PortNum1)?,
        guid(columns, fields, Col::NodeGuid2)?,
        number(columns, fields, Col::PortNum2)?,
    ))
}

/// Splits one CSV line into `fields` (cleared first); a quoted field is returned without its
/// quotes (a doubled `""` inside stays doubled: descriptions with quotes are rare and only
/// displayed).
fn split_csv<'a>(line: &'a str, limit: usize, fields: &mut Vec<&'a str>) {
    fields.clear();
    let mut rest = line;
    while fields.len() < limit {
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut close = 0;
            let bytes = quoted.as_bytes();
            while close < bytes.len() {
                if bytes[close] == b'"' {
                    if bytes.get(close + 1) == Some(&b'"') {
                        close += 2;
                        continue;
                    }
                    break;
                }
                close += 1;
            }
            fields.push(&quoted[..close.min(quoted.len())]);
            rest = quoted.get(close + 1..).unwrap_or("");
            match rest.find(',') {
                Some(at) => rest = &rest[at + 1..],
                None => return,
            }
        } else {
            match rest.split_once(',') {
                Some((field, after)) => {
                    fields.push(field.trim());
                    rest = after;
                }
                None => {
                    fields.push(rest.trim());
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DB: &str = "# This database file was automatically generated by IBDIAG\n\n\
        START_NODES\n\
        NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID\n\
        \"n0001 HCA-1\",1,1,1,1,0x0002c90300010000,0x0002c90300010000,0x0002c90300010001\n\
        \"MF0;tb-L1-00:SX6036/U1\",36,2,1,1,0x0002c90200010000,0x0002c90200010000,0x0002c90200010000\n\
        END_NODES\n\n\
        START_PORTS\n\
        NodeGuid,PortGuid,PortNum,LID,LinkWidthActv,LinkSpeedActv,LMC,PortState\n\
        0x0002c90300010000,0x0002c90300010001,1,1,2,4,1,4\n\
        0x0002c90200010000,0x0002c90200010000,0,2,0,0,0,4\n\
        0x0002c90200010000,0x0002c90200010000,1,2,2,4,0,4\n\
        END_PORTS\n\n\
        START_SWITCHES\nNodeGUID,LinearFDBCap,LinearFDBTop\n0x0002c90200010000,49152,44\nEND_SWITCHES\n\n\
        START_PM_INFO\nNodeGUID,x\n0x1,2\nEND_PM_INFO\n\n\
        START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0x0002c90200010000,1,0x0002c90300010000,1\nEND_LINKS\n";

    #[test]
    fn nodes_ports_and_links_give_one_link_with_decimal_lids_and_lmc() {
        let input = Input::from_text("ibdiagnet2.db_csv", DB);
        assert!(looks_like_db_csv(&input));
        let (links, warnings) = read_db_csv(&input).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(links.len(), 1);
        let [sw, ca] = &links[0].ends;
        assert_eq!(
            (sw.kind, sw.num_ports, sw.lid, sw.port, sw.lmc),
            (NodeKind::Switch, 36, Lid(2), PortNum(1), Some(0))
        );
        assert_eq!(sw.description, "MF0;tb-L1-00:SX6036/U1");
        assert_eq!(
            (ca.kind, ca.lid, ca.lmc, ca.port_guid),
            (NodeKind::Ca, Lid(1), Some(1), Some(Guid(0x0002c90300010001)))
        );
        assert_eq!(
            (links[0].width.as_deref(), links[0].speed.as_deref(), links[0].state.as_deref()),
            (Some("4x"), Some("10"), Some("ACT"))
        );
    }

    #[test]
    fn a_link_to_an_unknown_node_is_skipped_with_its_line() {
        let text = DB.replace(
            "0x0002c90200010000,1,0x0002c90300010000,1",
            "0x0002c90200010000,1,0x0000000000000bad,1",
        );
        let input = Input::from_text("x", text);
        let (links, warnings) = read_db_csv(&input).unwrap();
        assert!(links.is_empty());
        assert_eq!(warnings[0].line, Some(28));
        assert!(warnings[0].message.contains("not in NODES"), "{}", warnings[0]);
    }

    #[test]
    fn quoted_fields_keep_commas() {
        let mut fields = Vec::new();
        split_csv("\"a, b\",1,\"c\"\"d\",x", usize::MAX, &mut fields);
        assert_eq!(fields, vec!["a, b", "1", "c\"\"d", "x"]);
        split_csv("1,,3", usize::MAX, &mut fields);
        assert_eq!(fields, vec!["1", "", "3"]);
        split_csv("1,2,3,4", 2, &mut fields);
        assert_eq!(fields, vec!["1", "2"]);
    }

    #[test]
    fn no_nodes_section_is_an_error() {
        assert!(read_db_csv(&Input::from_text("x", "START_LINKS\nNodeGuid1\nEND_LINKS\n")).is_err());
    }
}
