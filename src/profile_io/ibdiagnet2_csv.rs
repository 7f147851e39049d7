//! ibdiagnet2's `ibdiagnet2.db_csv`: many `START_<NAME>` … `END_<NAME>` sections, each a CSV
//! table whose first row names the columns. Shoal reads five (and skips the dozens of others):
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
//! - `LINKS` lists each cable once. `LinkWidthActv` and `LinkSpeedActv` (codes in
//!   [`super::db_csv_speeds`]) become the `.lst`'s `PHY=`/`SPD=` strings; `PortState` (1 Down …
//!   4 Active) its `LOG=`. `LinkWidthSup` and `LinkSpeedSup`, with `EXTENDED_PORT_INFO`'s
//!   `LinkSpeedActive`/`LinkSpeedSupported` (FDR10), give what both ends of a link support.
//! - `SWITCHES` is only counted: every switch listed there should have a forwarding table.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::model::capacity::LaneSpeed;
use crate::model::{Guid, Lid, NodeKind, PortNum, Warning};

use super::db_csv_speeds::{Speeds, widest, width_name};
use super::error::ParseError;
use super::ibdiagnet_lst::{LstEnd, LstLink, OwnedLink, Supported};
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

/// A PORTS row; its width and state are decoded from numbers into fixed names.
#[derive(Clone, Copy, Debug, Default)]
struct PortRow {
    guid: Option<Guid>,
    lid: Lid,
    lmc: u8,
    width: Option<&'static str>,
    speed: Speeds,
    state: Option<&'static str>,
    /// `LinkWidthSup`, `LinkSpeedSup` (with `LinkSpeedExtSup`), where given.
    width_sup: Option<u32>,
    speed_sup: Option<Speeds>,
}

/// An `EXTENDED_PORT_INFO` row: the Mellanox speeds (FDR10) active and supported.
#[derive(Clone, Copy, Debug, Default)]
struct MlnxRow {
    active: Speeds,
    supported: Speeds,
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
    LinkWidthSup,
    LinkSpeedSup,
    LinkSpeedExtSup,
    /// `EXTENDED_PORT_INFO`'s.
    LinkSpeedActive,
    LinkSpeedSupported,
}

impl Col {
    const ALL: [Col; 22] = [
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
        Col::LinkWidthSup,
        Col::LinkSpeedSup,
        Col::LinkSpeedExtSup,
        Col::LinkSpeedActive,
        Col::LinkSpeedSupported,
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
            Col::LinkWidthSup => "LinkWidthSup",
            Col::LinkSpeedSup => "LinkSpeedSup",
            Col::LinkSpeedExtSup => "LinkSpeedExtSup",
            Col::LinkSpeedActive => "LinkSpeedActive",
            Col::LinkSpeedSupported => "LinkSpeedSupported",
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
        if !matches!(name.as_str(), "NODES" | "PORTS" | "LINKS" | "SWITCHES" | "EXTENDED_PORT_INFO") {
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
                match rows.add(name, columns, &fields, number) {
                    Ok(Some(note)) => warnings.line(number, note),
                    Ok(None) => {}
                    Err(reason) => warnings.line(number, format!("skipped {name} row: {reason}")),
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
    mlnx: HashMap<(Guid, u8), MlnxRow>,
    links: Vec<(usize, Guid, u8, Guid, u8)>,
    switches: usize,
}

impl Rows {
    /// Keeps one row of section `name` (`NODES`, `PORTS`, `EXTENDED_PORT_INFO`, `LINKS` or
    /// `SWITCHES`); `Ok(Some(note))` keeps it with a warning (a code that names no speed).
    fn add(
        &mut self,
        name: &str,
        columns: &Columns,
        fields: &[&str],
        number: usize,
    ) -> Result<Option<String>, String> {
        match name {
            "NODES" => node_row(columns, fields).map(|(guid, row)| {
                self.nodes.insert(guid, row);
                None
            }),
            "PORTS" => port_row(columns, fields).map(|(key, row, note)| {
                self.ports.insert(key, row);
                note
            }),
            "EXTENDED_PORT_INFO" => mlnx_row(columns, fields).map(|(key, row)| {
                self.mlnx.insert(key, row);
                None
            }),
            "LINKS" => link_row(columns, fields).map(|(a, pa, b, pb)| {
                self.links.push((number, a, pa, b, pb));
                None
            }),
            _ => {
                self.switches += 1;
                Ok(None)
            }
        }
    }

    /// A port's active speed: PortInfo's, or FDR10 where Mellanox's ExtendedPortInfo says so
    /// and PortInfo says QDR (or nothing).
    fn active_speed(&self, key: (Guid, u8), row: &PortRow) -> Option<LaneSpeed> {
        let base = row.speed.fastest();
        let fdr10 = self.mlnx.get(&key).is_some_and(|m| m.active.contains(LaneSpeed::Fdr10));
        if fdr10 && matches!(base, None | Some(LaneSpeed::Qdr)) { Some(LaneSpeed::Fdr10) } else { base }
    }

    /// The speeds a port supports, `None` where PORTS gives no `LinkSpeedSup`.
    fn supported_speeds(&self, key: (Guid, u8), row: &PortRow) -> Option<Speeds> {
        let mlnx = self.mlnx.get(&key).map_or(Speeds::default(), |m| m.supported);
        row.speed_sup.map(|s| s.union(mlnx))
    }

    /// What both ends of a link support: the widest shared width, the fastest shared speed.
    fn supported(&self, a: ((Guid, u8), &PortRow), b: ((Guid, u8), &PortRow)) -> Supported {
        let width = a.1.width_sup.zip(b.1.width_sup).and_then(|(x, y)| widest(x & y));
        let speeds = self.supported_speeds(a.0, a.1).zip(self.supported_speeds(b.0, b.1));
        let speed = speeds.and_then(|(x, y)| x.intersection(y).fastest()).map(LaneSpeed::opensm_spd);
        Supported { width, speed }
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
                    let speed = self.active_speed((a, pa), &ra).map(LaneSpeed::opensm_spd);
                    let supported = self.supported(((a, pa), &ra), ((b, pb), &rb));
                    let [width, state, speed] = [ra.width, state, speed].map(|t| t.map(Cow::Borrowed));
                    links.push(LstLink { line: number, ends: [ea, eb], width, state, speed, supported });
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

/// A PORTS row, with a note where a speed code names no known speed (the port then has none).
type PortRowRead = ((Guid, u8), PortRow, Option<String>);

fn port_row(columns: &Columns, fields: &[&str]) -> Result<PortRowRead, String> {
    let node = guid(columns, fields, Col::NodeGuid)?;
    let port: u8 = number(columns, fields, Col::PortNum)?;
    let lid = Lid(number(columns, fields, Col::Lid)?);
    let lmc = number(columns, fields, Col::Lmc).unwrap_or(0);
    let width = number::<u32>(columns, fields, Col::LinkWidthActv).ok().and_then(width_name);
    let mut notes = Vec::new();
    let mut speeds = |base: Col, ext: Col| -> Option<Speeds> {
        let mut read = |col: Col, decode: fn(u32) -> Result<Speeds, String>| {
            let code = number::<u32>(columns, fields, col).ok()?;
            decode(code).map_err(|e| notes.push(format!("{}: {e}; taken as unknown", col.name()))).ok()
        };
        let (base, ext) = (read(base, Speeds::from_ports), read(ext, Speeds::from_ext));
        base.map(|b| b.union(ext.unwrap_or_default())).or(ext)
    };
    let active = speeds(Col::LinkSpeedActv, Col::LinkSpeedExtActv).unwrap_or_default();
    let speed_sup = speeds(Col::LinkSpeedSup, Col::LinkSpeedExtSup);
    // A port runs one speed: with the older separate columns, the extended one wins.
    let speed = active.fastest().map_or(Speeds::default(), Speeds::of);
    let state = match number::<u8>(columns, fields, Col::PortState) {
        Ok(1) => Some("DWN"),
        Ok(2) => Some("INI"),
        Ok(3) => Some("ARM"),
        Ok(4) => Some("ACT"),
        _ => None,
    };
    let width_sup = number::<u32>(columns, fields, Col::LinkWidthSup).ok().filter(|m| *m != 0);
    let port_guid = guid(columns, fields, Col::PortGuid).ok();
    let row = PortRow { guid: port_guid, lid, lmc, width, speed, state, width_sup, speed_sup };
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(((node, port), row, note))
}

fn mlnx_row(columns: &Columns, fields: &[&str]) -> Result<((Guid, u8), MlnxRow), String> {
    let node = guid(columns, fields, Col::NodeGuid)?;
    let port: u8 = number(columns, fields, Col::PortNum)?;
    let code = |col| number::<u32>(columns, fields, col).map_or(Speeds::default(), Speeds::from_mlnx);
    let row = MlnxRow { active: code(Col::LinkSpeedActive), supported: code(Col::LinkSpeedSupported) };
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
#[path = "ibdiagnet2_csv_tests.rs"]
mod tests;
