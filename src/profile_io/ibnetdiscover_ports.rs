//! `ibnetdiscover -p`: the ports report, one line per cabled port, each link seen from both ends:
//!
//! ```text
//! CA    44  1 0x0002c90300010053 4x QDR - SW     3 21 0x0002c90200010001 ( 'n0042 HCA-1' - 'MF0;tb-L1-01:SX6036/U1' )
//! SW     3 36 0x0002c90200010001 4x QDR - SW     2 36 0x0002c90200010000 ( 'MF0;tb-L1-01:SX6036/U1' - 'MF0;tb-L1-00:SX6036/U1' )
//! ```
//!
//! - Columns per end: type (`CA`, `SW`, `RT`), **decimal** LID (a switch's is its port 0 LID),
//!   port, GUID, then the width and speed (`4x QDR`; `??`/`???` when unknown) of the own end.
//! - The GUID columns are **port** GUIDs. A switch's ports share port 0's GUID, which is the node
//!   GUID on every switch we know, so switches match the other formats (and the forwarding
//!   tables). A CA's node GUID is not in the report: the CA node is named by its port GUID, so
//!   a two-port HCA cabled twice into one rail shows as two CA nodes with the same description.
//! - No LMC is printed: it is inferred from the forwarding tables, as for `.lst` files.
//! - A line without ` - ` and a peer is an unconnected port and is skipped; any other line that
//!   does not parse (a captured stderr line) is skipped with a warning.

use std::borrow::Cow;

use crate::model::{Guid, Lid, NodeKind, PortNum, Warning};

use super::error::ParseError;
use super::ibdiagnet_lst::{LstEnd, LstLink, OwnedLink};
use super::input::Input;
use super::line_warnings::LineWarnings;
use super::stray;

/// True when the first meaningful lines look like an `ibnetdiscover -p` report.
/// A line of an `ibnetdiscover -p` report for format recognition: a port line.
pub fn claims_ports_line(line: &str) -> bool {
    starts_like_port(line) && parse_ports_line(line, 0).is_ok()
}

pub fn looks_like_ports_list(input: &Input) -> bool {
    input.first_meaningful_lines(8).any(|line| parse_ports_line(line, 0).is_ok_and(|l| l.is_some()))
}

/// Reads every link of a ports report, streamed: only the parsed links are kept. An error if no
/// line is a port line.
pub fn read_ports_list(input: &Input) -> Result<(Vec<OwnedLink>, Vec<Warning>), ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut links = Vec::new();
    let mut port_lines = 0usize;
    let summary = input.for_each_line(|number, line, _| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        match parse_ports_line(line, number) {
            Ok(Some(link)) => {
                port_lines += 1;
                links.push(link.into_owned());
            }
            Ok(None) => port_lines += 1,
            Err(_) if stray::looks_like_stderr(line) || !starts_like_port(line) => {
                warnings.stray(number, line);
            }
            Err(reason) => warnings.line(number, format!("skipped port line: {reason}")),
        }
    })?;
    if port_lines == 0 {
        return Err(ParseError::invalid(
            input.display(),
            "no `CA|SW <lid> <port> 0x<guid> …` port line found",
        )
        .with_warnings(summary.warnings.into_iter().chain(warnings.finish()).collect()));
    }
    if let Some(warning) = summary.truncation_warning(input.display()) {
        warnings.push(warning);
    }
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((links, all))
}

fn starts_like_port(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("CA" | "SW" | "RT"))
}

/// One line: `Ok(None)` for an unconnected port.
fn parse_ports_line(line: &str, number: usize) -> Result<Option<LstLink<'_>>, String> {
    let (ends, descriptions) = match line.find("( '") {
        Some(at) => (&line[..at], Some(&line[at..])),
        None => (line, None),
    };
    let (own, peer) = match ends.find(" - ") {
        Some(at) => (&ends[..at], Some(&ends[at + 3..])),
        None => (ends, None),
    };
    let (own, width, speed) = parse_end(own, true)?;
    let Some(peer) = peer else {
        return Ok(None);
    };
    let (peer, _, _) = parse_end(peer, false)?;
    let (own_desc, peer_desc) = descriptions.map_or(("", ""), split_descriptions);
    let end = |(kind, lid, port, guid): (NodeKind, Lid, PortNum, Guid), description| LstEnd {
        kind,
        master_sm: false,
        num_ports: 0,
        system_guid: None,
        node_guid: guid,
        port_guid: Some(guid),
        description: Cow::Borrowed(description),
        lid,
        port,
        lmc: None,
    };
    Ok(Some(LstLink {
        line: number,
        ends: [end(own, own_desc), end(peer, peer_desc)],
        width: width.map(Cow::Borrowed),
        state: None,
        speed: speed.map(Cow::Borrowed),
        supported: Default::default(),
    }))
}

type End = (NodeKind, Lid, PortNum, Guid);

/// `CA    44  1 0x0002c90300010053 4x QDR` → the end, and (with `width_speed`) its width and speed.
fn parse_end(text: &str, width_speed: bool) -> Result<(End, Option<&str>, Option<&str>), String> {
    let mut words = text.split_whitespace();
    let kind = match words.next() {
        Some("CA") => NodeKind::Ca,
        Some("SW") => NodeKind::Switch,
        Some("RT") => NodeKind::Router,
        other => return Err(format!("unknown node type `{}`", other.unwrap_or(""))),
    };
    let lid = words.next().and_then(Lid::parse_dec).ok_or("bad LID")?;
    let port = words.next().and_then(|p| p.parse::<u8>().ok()).map(PortNum).ok_or("bad port number")?;
    let guid = words.next().and_then(Guid::parse_hex).ok_or("bad GUID")?;
    let (width, speed) = if width_speed {
        (words.next().filter(|w| !w.starts_with('?')), words.next().filter(|w| !w.starts_with('?')))
    } else {
        (None, None)
    };
    Ok(((kind, lid, port, guid), width, speed))
}

/// `( 'own desc' - 'peer desc' )` → the two descriptions, trimmed of padding.
fn split_descriptions(text: &str) -> (&str, &str) {
    let inner = text.trim().trim_start_matches('(').trim_end_matches(')').trim();
    let inner = inner.strip_prefix('\'').unwrap_or(inner);
    let inner = inner.strip_suffix('\'').unwrap_or(inner);
    match inner.split_once("' - '") {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (inner.trim(), ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = "CA    44  1 0x0002c90300010053 4x QDR - SW     3 21 0x0002c90200010001 ( 'n0042 HCA-1' - 'MF0;tb-L1-01:SX6036/U1' )\n\
        SW     3 36 0x0002c90200010001 4x QDR - SW     2 36 0x0002c90200010000 ( 'MF0;tb-L1-01:SX6036/U1' - 'MF0;tb-L1-00:SX6036/U1' )\n";

    #[test]
    fn both_ends_give_decimal_lids_port_guids_and_descriptions() {
        let input = Input::from_text("p.txt", LINES);
        let (links, warnings) = read_ports_list(&input).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let [ca, sw] = &links[0].ends;
        assert_eq!(
            (ca.kind, ca.lid, ca.port, ca.node_guid),
            (NodeKind::Ca, Lid(44), PortNum(1), Guid(0x0002c90300010053))
        );
        assert_eq!((sw.kind, sw.lid, sw.port), (NodeKind::Switch, Lid(3), PortNum(21)));
        assert_eq!(
            (ca.description.as_ref(), sw.description.as_ref()),
            ("n0042 HCA-1", "MF0;tb-L1-01:SX6036/U1")
        );
        assert_eq!((links[0].width.as_deref(), links[0].speed.as_deref()), (Some("4x"), Some("QDR")));
        assert_eq!(links[1].ends[1].lid, Lid(2));
    }

    #[test]
    fn unknown_speeds_unconnected_ports_and_stderr_lines_are_tolerated() {
        let text = format!(
            "ibwarn: [99] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1)\n\
             SW     3  5 0x0002c90200010001 4x ???\n\
             CA    44  1 0x0002c90300010053 4x ??? - SW     3 21 0x0002c90200010001 ( 'n0042 HCA-1   ' - 'x' )\n\
             CA    zz  1 0x1 4x QDR - SW 3 1 0x2 ( 'a' - 'b' )\n{LINES}"
        );
        let input = Input::from_text("p.txt", text);
        let (links, warnings) = read_ports_list(&input).unwrap();
        assert_eq!(links.len(), 3);
        assert_eq!((links[0].width.as_deref(), links[0].speed.as_deref()), (Some("4x"), None));
        assert_eq!(links[0].ends[0].description, "n0042 HCA-1");
        let lines: Vec<_> = warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![Some(1), Some(4)], "{warnings:?}");
        assert!(warnings[0].message.contains("tool's error message"));
        assert!(warnings[1].message.contains("bad LID"));
    }

    #[test]
    fn detection_tells_a_ports_report_from_a_topology_file() {
        assert!(looks_like_ports_list(&Input::from_text("x", LINES)));
        assert!(!looks_like_ports_list(&Input::from_text(
            "x",
            "Switch\t36 \"S-1\"\t# \"a\" base port 0 lid 3 lmc 0\n"
        )));
        assert!(read_ports_list(&Input::from_text("x", "hello\n")).is_err());
    }
}
