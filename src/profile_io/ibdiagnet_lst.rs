//! `.lst` link lists: OpenSM's `opensm-subnet.lst` / `subnet.lst`, ibdiagnet v1's `ibdiagnet.lst`
//! and ibdiagnet2's `ibdiagnet2.lst`. One line per link end pair:
//!
//! ```text
//! { SW Ports:24 SystemGUID:… NodeGUID:… PortGUID:… VenID:0002C9 DevID:C738 Rev:000000A1 {MF0;tb-L1-00:SX6036/U1} LID:0002 PN:01 } { CA-SM Ports:01 … {n0001 HCA-1} LID:0001 PN:01 } PHY=4x LOG=ACT SPD=10
//! ```
//!
//! What the writers really do (OpenSM `osm_dump.c` `dump_topology_node`, ibutils' `ibdm` parser):
//! - `Ports`, `LID` and `PN` are hexadecimal; GUIDs are hex with or without `0x`, any case
//!   (ibdiagnet2 prints lower case and `#` comment lines).
//! - The node type may carry `-SM` (the master SM's port): `CA-SM`, `SW-SM`; routers are `Rt`.
//! - `VenID`/`DevID`/`Rev` have mixed widths: OpenSM prints the local `VenID` with 6 digits and the
//!   peer's with 8, and the peer's `DevID` through a 32-bit byte swap (`10030000`); old files add
//!   `0000` to `DevID`. Shoal does not model them, so they are not interpreted at all.
//! - The node description sits between `{` and the `}` before ` LID:`; it may contain spaces and
//!   even braces. ibdiagnet2 sometimes prints no description.
//! - For a switch, `LID` is the switch's LID, which belongs to port 0 (and `PortGUID` is port 0's
//!   GUID); a CA prints the LID of the cabled port itself.
//! - `PHY`, `LOG` and `SPD` are optional (old ibdiagnet lists have no `SPD`). A link whose
//!   `LOG=DWN` carries no traffic and is skipped with a warning.
//! - OpenSM lists every link twice, once from each end; [`FabricBuilder::add_link`] merges them.
//!
//! A line is parsed borrowing from it ([`LstLink`]) and kept owned ([`OwnedLink`]): the file is
//! streamed, so memory follows the links kept, not the file. The links are kept until the LMC is
//! inferred from the forwarding tables (see [`super::tables::infer_lmc`]).

use std::borrow::Cow;

use crate::model::{Fabric, FabricBuilder, Guid, Lid, Node, NodeKind, PortInfo, PortNum, RailId, Warning};

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;

/// One end of a link as a `.lst` line describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LstEnd<'a> {
    pub kind: NodeKind,
    /// The type was printed with `-SM`: this port is the master subnet manager's.
    pub master_sm: bool,
    /// `Ports:` (hex); 0 when absent.
    pub num_ports: u8,
    pub system_guid: Option<Guid>,
    pub node_guid: Guid,
    /// For a switch this is port 0's GUID.
    pub port_guid: Option<Guid>,
    /// The node description, `""` when the line has none.
    pub description: Cow<'a, str>,
    /// For a switch the switch's (port 0) LID, for a CA or router the cabled port's base LID.
    pub lid: Lid,
    /// The cabled port (`PN:`, hex).
    pub port: PortNum,
    /// The port's LMC when the format records it (ibnetdiscover, ibdiagnet2's `db_csv`); `None`
    /// in `.lst` files, whose LMC is inferred from the forwarding tables.
    pub lmc: Option<u8>,
}

/// One `.lst` line: a link between two ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LstLink<'a> {
    /// 1-based line number in its file.
    pub line: usize,
    pub ends: [LstEnd<'a>; 2],
    /// `PHY=` (`4x`), `None` when absent or `??`.
    pub width: Option<Cow<'a, str>>,
    /// `LOG=` (`ACT`, `ARM`, `INI`, `DWN`).
    pub state: Option<Cow<'a, str>>,
    /// `SPD=` (`10`, `FDR10`, `25`), `None` when absent or `??`.
    pub speed: Option<Cow<'a, str>>,
    /// The widest width and fastest speed (as `SPD=` writes it) both ends support, where the
    /// format records them (ibdiagnet2 `db_csv`).
    pub supported: Supported,
}

/// What both ends of a link support, each part `None` where unrecorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Supported {
    pub width: Option<&'static str>,
    pub speed: Option<&'static str>,
}

/// A link that owns its text: what readers keep once the line it came from is gone.
pub type OwnedLink = LstLink<'static>;

impl LstEnd<'_> {
    pub fn into_owned(self) -> LstEnd<'static> {
        LstEnd { description: Cow::Owned(self.description.into_owned()), ..self }
    }
}

impl LstLink<'_> {
    /// False for `LOG=DWN`: the port is cabled but the link is not up.
    pub fn is_up(&self) -> bool {
        !self.state.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("DWN"))
    }

    /// The same link, owning its text.
    pub fn into_owned(self) -> OwnedLink {
        let own = |text: Option<Cow<'_, str>>| text.map(owned_token);
        let [a, b] = self.ends;
        LstLink {
            line: self.line,
            ends: [a.into_owned(), b.into_owned()],
            width: own(self.width),
            state: own(self.state),
            speed: own(self.speed),
            supported: self.supported,
        }
    }
}

/// The values of `PHY=`, `LOG=` and `SPD=` that real files hold: kept without an allocation
/// (three per line otherwise, a k = 36 rail has 70,000 lines).
const COMMON_TOKENS: [&str; 17] = [
    "1x", "4x", "8x", "12x", "ACT", "ARM", "INI", "DWN", "2.5", "5", "10", "14", "25", "50", "100", "200",
    "FDR10",
];

/// `text` as a `'static` token: one of [`COMMON_TOKENS`] borrowed, anything else copied.
fn owned_token(text: Cow<'_, str>) -> Cow<'static, str> {
    match COMMON_TOKENS.iter().find(|&&t| t == text) {
        Some(&t) => Cow::Borrowed(t),
        None => Cow::Owned(text.into_owned()),
    }
}

/// LID Mask Control values to give the ports, which `.lst` files do not record. OpenSM uses one
/// LMC for every CA and router port, and for switch port 0 only with `lmc_esp0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lmc {
    pub ca: u8,
    pub switch: u8,
}

/// Parses one link line (without its line end). The error says what is wrong.
pub fn parse_lst_line(line: &str, line_number: usize) -> Result<LstLink<'_>, String> {
    let (first, rest) = parse_end(line).map_err(|e| format!("first port: {e}"))?;
    let (second, rest) = parse_end(rest).map_err(|e| format!("second port: {e}"))?;
    let (mut width, mut state, mut speed) = (None, None, None);
    for token in rest.split_ascii_whitespace() {
        if let Some(v) = token.strip_prefix("PHY=") {
            width = known(v).map(Cow::Borrowed);
        } else if let Some(v) = token.strip_prefix("LOG=") {
            state = known(v).map(Cow::Borrowed);
        } else if let Some(v) = token.strip_prefix("SPD=") {
            speed = known(v).map(Cow::Borrowed);
        }
    }
    let supported = Supported::default();
    Ok(LstLink { line: line_number, ends: [first, second], width, state, speed, supported })
}

/// Reads every link line of a `.lst` file, streamed: only the parsed links are kept. Blank and
/// `#` lines are skipped; every other line that does not parse becomes a warning (capped at
/// [`super::line_warnings::MAX_LINE_WARNINGS`], the rest counted).
pub fn read_lst(input: &Input) -> Result<(Vec<OwnedLink>, Vec<Warning>), ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut links = Vec::new();
    let summary = input.for_each_line(|number, line, unterminated| {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return;
        }
        match parse_lst_line(trimmed, number) {
            Ok(link) => links.push(link.into_owned()),
            Err(reason) if unterminated => {
                warnings.line(number, format!("last line is truncated (no line end); skipped: {reason}"));
            }
            Err(reason) => warnings.line(number, format!("skipped unparseable link line: {reason}")),
        }
    })?;
    if let (Some(number), Some(last)) = (summary.unterminated_last_line, links.last())
        && last.line == number
    {
        warnings.line(number, "the file ends without a line end; the last link's speed may be cut short");
    }
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((links, all))
}

/// Adds the nodes, port LIDs and links of `links` to `builder`. `file` names the source in
/// warnings. Returns the warnings (builder conflicts, down links).
pub fn add_links(builder: &mut FabricBuilder, file: &str, links: &[LstLink<'_>], lmc: Lmc) -> Vec<Warning> {
    let mut warnings = LineWarnings::new(file);
    let mut down = 0usize;
    let mut without_lid = std::collections::HashSet::new();
    'links: for link in links {
        if !link.is_up() {
            down += 1;
            warnings.line(link.line, "link is down (LOG=DWN); skipped");
            continue;
        }
        for end in link.ends.iter().filter(|e| e.kind != NodeKind::Switch && e.lid.0 == 0) {
            // OpenSM lists every link twice: one warning per port.
            if without_lid.insert((end.node_guid, end.port)) {
                warnings.line(link.line, no_lid_message(end));
            }
        }
        let mut nodes = [(petgraph::graph::NodeIndex::new(0), PortNum(0)); 2];
        for (slot, end) in nodes.iter_mut().zip(&link.ends) {
            match add_end(builder, end, lmc) {
                Ok(index) => *slot = (index, end.port),
                Err(issue) => {
                    warnings.line(link.line, format!("{issue}; link skipped"));
                    continue 'links;
                }
            }
        }
        let width = link.width.as_deref().map(str::to_string);
        let speed = link.speed.as_deref().map(str::to_string);
        match builder.add_link(nodes[0], nodes[1], width, speed) {
            Ok(Some(edge)) => builder.set_supported(edge, link.supported.width, link.supported.speed),
            Ok(None) => {}
            Err(issue) => warnings.line(link.line, issue.to_string()),
        }
    }
    if down > 0 {
        warnings.file(format!("{down} down links (LOG=DWN) were left out of the fabric"));
    }
    warnings.finish()
}

/// The warning for a CA (or router) port without a LID: kept, but nothing can be routed to it.
fn no_lid_message(end: &LstEnd<'_>) -> String {
    let guid = end.port_guid.unwrap_or(end.node_guid);
    format!(
        "CA port '{}' port {} (GUID {guid}) has LID 0: the subnet manager gave it no LID (not yet \
         swept, or its port is not active); the host is kept, and its pairs count as undeliverable",
        end.description, end.port
    )
}

/// Parses a whole `.lst` file into a fabric with no forwarding tables and LMC 0.
/// An error if the file holds no link line at all.
pub fn parse_lst(input: &Input, rail: RailId) -> Result<(Fabric, Vec<Warning>), ParseError> {
    let (links, mut warnings) = read_lst(input)?;
    if links.is_empty() {
        return Err(ParseError::invalid(input.display(), "no link lines (`{ … } { … } PHY=…`) found"));
    }
    let mut builder = FabricBuilder::new(rail);
    warnings.extend(add_links(&mut builder, input.display(), &links, Lmc::default()));
    Ok((builder.build(), warnings))
}

fn add_end(
    builder: &mut FabricBuilder,
    end: &LstEnd<'_>,
    lmc: Lmc,
) -> Result<petgraph::graph::NodeIndex, crate::model::BuildIssue> {
    let node = Node {
        guid: end.node_guid,
        system_guid: end.system_guid,
        kind: end.kind,
        description: end.description.to_string(),
        num_ports: end.num_ports.max(end.port.0),
        ports: Default::default(),
    };
    let index = builder.add_node(node)?;
    if end.kind == NodeKind::Switch {
        let port0 = PortInfo { guid: end.port_guid, lid: end.lid, lmc: end.lmc.unwrap_or(lmc.switch) };
        builder.set_port(index, PortNum(0), port0)?;
        builder.set_port(index, end.port, PortInfo { guid: None, lid: Lid(0), lmc: 0 })?;
    } else {
        let info = PortInfo { guid: end.port_guid, lid: end.lid, lmc: end.lmc.unwrap_or(lmc.ca) };
        builder.set_port(index, end.port, info)?;
    }
    Ok(index)
}

fn known(value: &str) -> Option<&str> {
    (!value.is_empty() && !value.starts_with('?')).then_some(value)
}

/// Parses `{ TYPE key:value … {description} LID:x PN:y }` at the start of `s`; returns the rest.
fn parse_end(s: &str) -> Result<(LstEnd<'_>, &str), String> {
    let mut rest = skip_blanks(s).strip_prefix('{').ok_or("expected `{`")?;
    let mut kind = None;
    let mut master_sm = false;
    let (mut num_ports, mut system_guid, mut node_guid, mut port_guid) = (0, None, None, None);
    let (mut description, mut lid, mut port) = ("", None, None);
    loop {
        rest = skip_blanks(rest);
        if rest.is_empty() {
            return Err("the line ends inside the port block".into());
        }
        if let Some(after) = rest.strip_prefix('}') {
            rest = after;
            break;
        }
        if rest.starts_with('{') {
            let (desc, after) = split_description(rest)?;
            description = desc;
            rest = after;
            continue;
        }
        let len = rest.bytes().position(|c| c.is_ascii_whitespace() || c == b'}').unwrap_or(rest.len());
        let (token, after) = rest.split_at(len);
        rest = after;
        // `:` by byte: a `str` search sets up a searcher per token, a tenth of the reader's time.
        let colon = token.bytes().position(|b| b == b':');
        let Some((key, value)) = colon.map(|at| (&token[..at], &token[at + 1..])) else {
            if kind.is_some() {
                return Err(format!("unexpected `{token}`"));
            }
            // `get` rather than `split_at`: the last three bytes may cut a character (fuzz crash).
            let suffix = token.len().checked_sub(3).and_then(|i| Some((token.get(..i)?, token.get(i..)?)));
            let (name, sm) = match suffix {
                Some((name, suffix)) if suffix.eq_ignore_ascii_case("-SM") => (name, true),
                _ => (token, false),
            };
            kind = Some(node_kind(name).ok_or_else(|| format!("unknown node type `{token}`"))?);
            master_sm = sm;
            continue;
        };
        let bad = || format!("bad {key} value `{value}`");
        match key {
            "Ports" => num_ports = hex_u8(value).ok_or_else(bad)?,
            "SystemGUID" => system_guid = Some(Guid::parse_hex(value).ok_or_else(bad)?),
            "NodeGUID" => node_guid = Some(Guid::parse_hex(value).ok_or_else(bad)?),
            "PortGUID" => port_guid = Some(Guid::parse_hex(value).ok_or_else(bad)?),
            "LID" => lid = Some(Lid::parse_hex(value).ok_or_else(bad)?),
            "PN" => port = Some(PortNum(hex_u8(value).ok_or_else(bad)?)),
            // VenID, DevID, Rev (mixed widths, see the module doc) and anything newer: not modelled.
            _ => {}
        }
    }
    let kind = kind.ok_or("no node type (SW, CA or Rt)")?;
    let node_guid = node_guid.ok_or("no NodeGUID")?;
    let lid = lid.ok_or("no LID")?;
    let port = port.ok_or("no port number (PN)")?;
    let end = LstEnd {
        kind,
        master_sm,
        num_ports,
        system_guid,
        node_guid,
        port_guid,
        description: Cow::Borrowed(description),
        lid,
        port,
        lmc: None,
    };
    Ok((end, rest))
}

/// Splits `{description} LID:…` into the description and what follows its closing brace. The
/// closing brace is the `}` before the first `LID:<hex> PN:`, so descriptions may hold spaces,
/// braces and even `} LID:` text.
fn split_description(s: &str) -> Result<(&str, &str), String> {
    let mut from = 1;
    while let Some(at) = find_lid_key(s, from) {
        let before = s[..at].trim_end();
        if before.len() > 1 && before.ends_with('}') && lid_then_port(&s[at + 4..]) {
            let close = before.len() - 1;
            return Ok((&s[1..close], &s[close + 1..]));
        }
        from = at + 4;
    }
    // No ` LID:` after a `}`: take the first `}` and let the caller report what is missing.
    let close = s.find('}').ok_or("the node description is not closed with `}`")?;
    Ok((&s[1..close], &s[close + 1..]))
}

/// Where the next `LID:` starts at or after byte `from` of `s` (a character boundary).
fn find_lid_key(s: &str, from: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut at = from;
    while let Some(found) = memchr::memchr(b'L', bytes.get(at..)?) {
        let key = at + found;
        if bytes[key..].starts_with(b"LID:") {
            return Some(key);
        }
        at = key + 1;
    }
    None
}

/// `s` without its leading white space (as `str::trim_start`), the ASCII blanks of every real
/// file stepped over byte by byte first.
fn skip_blanks(s: &str) -> &str {
    let blanks = s.bytes().take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)).count();
    let rest = &s[blanks..];
    if rest.as_bytes().first().is_some_and(|b| !b.is_ascii()) { rest.trim_start() } else { rest }
}

/// True if `s` starts like `0002 PN:` (the value of `LID:` and the `PN:` key that follows).
fn lid_then_port(s: &str) -> bool {
    let value_len = s.bytes().position(|b| b.is_ascii_whitespace()).unwrap_or(s.len());
    let (value, rest) = s.split_at(value_len);
    Lid::parse_hex(value).is_some() && rest.trim_start().starts_with("PN:")
}

fn node_kind(name: &str) -> Option<NodeKind> {
    if name.eq_ignore_ascii_case("SW") {
        Some(NodeKind::Switch)
    } else if name.eq_ignore_ascii_case("CA") {
        Some(NodeKind::Ca)
    } else if name.eq_ignore_ascii_case("Rt") {
        Some(NodeKind::Router)
    } else {
        None
    }
}

fn hex_u8(value: &str) -> Option<u8> {
    let digits = value.strip_prefix("0x").or_else(|| value.strip_prefix("0X")).unwrap_or(value);
    u8::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
#[path = "ibdiagnet_lst_tests.rs"]
mod tests;
