//! `ibnetdiscover` topology files (infiniband-diags), and ibdiagnet2's copy of them:
//!
//! ```text
//! (tabs shown as spaces)
//! sysimgguid=0x2c90200010001
//! switchguid=0x2c90200010001(2c90200010001)
//! Switch    36 "S-0002c90200010001"        # "MF0;tb-L1-01:SX6036/U1" base port 0 lid 3 lmc 0
//! [1]    "H-0002c9030001002a"[1](2c9030001002b)         # "n0022 HCA-1" lid 24 4xQDR
//! [22]    "S-0002c90200010000"[22]        # "MF0;tb-L1-00:SX6036/U1" lid 2 4xQDR
//!
//! Ca    1 "H-0002c90300010052"        # "n0042 HCA-1"
//! [1](2c90300010053)     "S-0002c90200010001"[21]        # lid 44 lmc 0 "MF0;tb-L1-01:SX6036/U1" lid 3 4xQDR
//! ```
//!
//! - A block starts with `Switch`, `Ca` or `Rt`, the port count, and `"S-|H-|R-<node guid>"`; a
//!   switch's comment ends with `base|enhanced port 0 lid L lmc M`. **LIDs are decimal.**
//! - A port line links `[port]` of the block's node to `"X-<guid>"[peer port]`. In a CA block
//!   `(<port guid>)` follows the own port and the comment starts with the port's `lid L lmc M`;
//!   in a switch block a CA peer's port GUID follows the peer port. ibdiagnet2's copy puts port
//!   labels there instead (`[1](1/1/1)`): anything in `(…)` that is not hex is a label, ignored.
//! - The comment then gives the peer's description, the peer's LID, and `<width><speed>`
//!   (`4xQDR`; `???` when unknown). Descriptions may be padded with spaces (trimmed).
//! - Every link appears twice, once in each end's block; the builder merges them. A port line
//!   without a peer (an unconnected port, as some writers print) carries nothing and is skipped.
//! - `vendid=`, `devid=`, `sysimgguid=`, `switchguid=`, `caguid=`, `rtguid=` lines describe the
//!   next block; `sysimgguid` and the port GUID in `switchguid=…(…)` are kept.
//! - Lines that are none of these (a stderr line captured with `2>&1`, at the top or inside a
//!   block) are skipped with a warning; the block goes on.
//!
//! The result is the same `LstLink` list a `.lst` gives, with each port's LMC filled in from its
//! own block, so the rail loader treats both alike.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::model::{Guid, Lid, NodeKind, PortNum, Warning};

use super::error::ParseError;
use super::ibdiagnet_lst::{LstEnd, LstLink, OwnedLink};
use super::input::Input;
use super::line_warnings::LineWarnings;

/// The block being read (owned: the file is streamed, its header line is gone by its ports).
#[derive(Clone, Debug)]
struct Block {
    kind: NodeKind,
    num_ports: u8,
    guid: Guid,
    system_guid: Option<Guid>,
    /// A switch's port 0 GUID (`switchguid=…(…)`).
    port0_guid: Option<Guid>,
    description: String,
    /// A switch's LID and LMC (port 0).
    lid: Lid,
    lmc: u8,
}

/// True when the first meaningful lines look like an ibnetdiscover topology file.
/// A line of an ibnetdiscover topology for format recognition: a node block's keys or header,
/// or a port line (`[1]\t"S-…"[2]`, `[1](guid) \t"H-…"[1]`).
pub fn claims_ibnetdiscover_line(line: &str) -> bool {
    ["vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid="].iter().any(|k| line.starts_with(k))
        || is_port_line(line)
        || parse_block_header(line).is_ok()
}

/// `[1]\t"S-…"[2]` or `[1](2c9…) \t"H-…"[1]`: a port, then the remote node's quoted name.
fn is_port_line(line: &str) -> bool {
    let Some((port, rest)) = line.strip_prefix('[').and_then(|l| l.split_once(']')) else { return false };
    let rest = match rest.strip_prefix('(') {
        Some(guid) => guid.split_once(')').map_or("", |(_, r)| r),
        None => rest,
    };
    !port.is_empty()
        && port.bytes().all(|b| b.is_ascii_digit())
        && ["\"S-", "\"H-", "\"R-"].iter().any(|p| rest.trim_start().starts_with(p))
}

pub fn looks_like_ibnetdiscover(input: &Input) -> bool {
    input.first_meaningful_lines(8).any(|line| {
        ["vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid="].iter().any(|k| line.starts_with(k))
            || parse_block_header(line).is_ok()
    })
}

/// Reads every link of an ibnetdiscover topology file, streamed: only the parsed links are
/// kept. An error if it has no node block.
pub fn read_ibnetdiscover(input: &Input) -> Result<(Vec<OwnedLink>, Vec<Warning>), ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut links: Vec<OwnedLink> = Vec::new();
    let mut block: Option<Block> = None;
    let (mut system_guid, mut port0_guid) = (None, None);
    let mut blocks = 0usize;
    let mut skipping_block = false;
    let summary = input.for_each_line(|number, raw, _| {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        if let Some(rest) = line.strip_prefix('[') {
            if skipping_block {
                return; // the header was bad and already warned about
            }
            let Some(own) = &block else {
                warnings.line(number, "port line before any Switch/Ca block; skipped");
                return;
            };
            match parse_port_line(rest, own, number) {
                Ok(Some(link)) => links.push(link.into_owned()),
                Ok(None) => {} // unconnected port
                Err(reason) => warnings.line(number, format!("skipped port line: {reason}")),
            }
        } else if let Some((key, value)) = assignment(line) {
            match key {
                "sysimgguid" => system_guid = Guid::parse_hex(value),
                "switchguid" => {
                    port0_guid =
                        value.split_once('(').and_then(|(_, p)| Guid::parse_hex(p.trim_end_matches(')')))
                }
                _ => {}
            }
        } else if matches!(line.split_whitespace().next(), Some("Switch" | "Ca" | "Rt")) {
            match parse_block_header(line) {
                Ok(mut header) => {
                    blocks += 1;
                    header.system_guid = system_guid.take();
                    header.port0_guid =
                        port0_guid.take().or(Some(header.guid).filter(|_| header.kind == NodeKind::Switch));
                    block = Some(header);
                    skipping_block = false;
                }
                Err(reason) => {
                    block = None;
                    skipping_block = true;
                    warnings.line(
                        number,
                        format!("bad node block header ({reason}); its port lines are skipped"),
                    );
                }
            }
        } else {
            warnings.stray(number, line);
        }
    })?;
    if blocks == 0 {
        let gathered = summary.warnings.into_iter().chain(warnings.finish()).collect();
        return Err(
            ParseError::invalid(input.display(), "no `Switch`/`Ca` node block found").with_warnings(gathered)
        );
    }
    fill_peer_lmcs(&mut links);
    if let Some(warning) = summary.truncation_warning(input.display()) {
        warnings.push(warning);
    }
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((links, all))
}

/// Each port's LMC is printed in its own block only; give it to the ends that name it as a peer.
fn fill_peer_lmcs(links: &mut [LstLink<'_>]) {
    let key = |end: &LstEnd<'_>| {
        let port = if end.kind == NodeKind::Switch { PortNum(0) } else { end.port };
        (end.node_guid, port)
    };
    let own: HashMap<(Guid, PortNum), u8> =
        links.iter().filter_map(|l| l.ends[0].lmc.map(|lmc| (key(&l.ends[0]), lmc))).collect();
    for link in links {
        if link.ends[1].lmc.is_none() {
            link.ends[1].lmc = own.get(&key(&link.ends[1])).copied();
        }
    }
}

/// `key=value` lines (`vendid=0x2c9`, `switchguid=0x…(…)`).
fn assignment(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once('=')?;
    (!key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric())).then_some((key, value.trim()))
}

/// `Switch    36 "S-…"    # "desc" base port 0 lid 3 lmc 0`, `Ca    1 "H-…"    # "desc"`.
fn parse_block_header(line: &str) -> Result<Block, String> {
    let (fields, comment) = line.split_once('#').unwrap_or((line, ""));
    let mut words = fields.split_whitespace();
    let kind = match words.next() {
        Some("Switch") => NodeKind::Switch,
        Some("Ca") => NodeKind::Ca,
        Some("Rt") => NodeKind::Router,
        _ => return Err("not a Switch, Ca or Rt block".into()),
    };
    let num_ports = words.next().and_then(|n| n.parse::<u8>().ok()).ok_or("bad port count")?;
    let (_, guid) = words.next().and_then(node_id).ok_or("bad node id (expected \"S-<guid>\")")?;
    let description = quoted(comment).unwrap_or("");
    let (mut lid, mut lmc) = (Lid(0), 0);
    if kind == NodeKind::Switch {
        let after = comment.rfind("port 0").map_or("", |at| &comment[at + 6..]);
        lid = keyword_number(after, "lid")
            .and_then(|v| u16::try_from(v).ok())
            .map(Lid)
            .ok_or("no switch `lid`")?;
        lmc = keyword_number(after, "lmc").and_then(|v| u8::try_from(v).ok()).unwrap_or(0);
    }
    let description = description.to_string();
    Ok(Block { kind, num_ports, guid, system_guid: None, port0_guid: None, description, lid, lmc })
}

/// Parses a port line after its `[`. `Ok(None)` for a port without a peer.
fn parse_port_line<'a>(rest: &'a str, own: &'a Block, line: usize) -> Result<Option<LstLink<'a>>, String> {
    let (fields, comment) = rest.split_once('#').unwrap_or((rest, ""));
    let (port, after) = fields.split_once(']').ok_or("no `]` after the port number")?;
    let port = PortNum(port.trim().parse::<u8>().map_err(|_| format!("bad port number `{}`", port.trim()))?);
    let (own_paren, after) = paren(after);
    let after = skip_ext(after);
    let Some(peer_start) = after.find('"') else {
        return Ok(None);
    };
    let peer_text = &after[peer_start..];
    let close = peer_text[1..].find('"').ok_or("peer node id is not closed")? + 1;
    let (peer_kind, peer_guid) = node_id(&peer_text[..=close]).ok_or("bad peer node id")?;
    let rest = peer_text[close + 1..].trim_start().strip_prefix('[').ok_or("no peer port")?;
    let (peer_port, rest) = rest.split_once(']').ok_or("no `]` after the peer port")?;
    let peer_port =
        PortNum(peer_port.trim().parse::<u8>().map_err(|_| format!("bad peer port `{}`", peer_port.trim()))?);
    let (peer_paren, _) = paren(rest);
    // The comment: in a CA/router block `lid L lmc M "peer" lid P speed`, in a switch block
    // `"peer" lid P speed`.
    let (mut own_lid, mut own_lmc) = (own.lid, Some(own.lmc));
    let before_desc = comment.split('"').next().unwrap_or("");
    if own.kind != NodeKind::Switch {
        own_lid = keyword_number(before_desc, "lid")
            .and_then(|v| u16::try_from(v).ok())
            .map(Lid)
            .ok_or("no port `lid`")?;
        own_lmc = Some(keyword_number(before_desc, "lmc").and_then(|v| u8::try_from(v).ok()).unwrap_or(0));
    }
    let peer_description = quoted(comment).unwrap_or("");
    let tail = comment.rfind('"').map_or(comment, |at| &comment[at + 1..]);
    let peer_lid =
        keyword_number(tail, "lid").and_then(|v| u16::try_from(v).ok()).map(Lid).ok_or("no peer `lid`")?;
    let (width, speed) = width_speed(tail);
    let own_end = LstEnd {
        kind: own.kind,
        master_sm: false,
        num_ports: own.num_ports,
        system_guid: own.system_guid,
        node_guid: own.guid,
        port_guid: if own.kind == NodeKind::Switch {
            own.port0_guid
        } else {
            own_paren.and_then(Guid::parse_hex)
        },
        description: Cow::Borrowed(&own.description),
        lid: own_lid,
        port,
        lmc: own_lmc,
    };
    let peer_end = LstEnd {
        kind: peer_kind,
        master_sm: false,
        num_ports: 0,
        system_guid: None,
        node_guid: peer_guid,
        port_guid: if peer_kind == NodeKind::Switch { None } else { peer_paren.and_then(Guid::parse_hex) },
        description: Cow::Borrowed(peer_description),
        lid: peer_lid,
        port: peer_port,
        lmc: None,
    };
    let (width, speed) = (width.map(Cow::Borrowed), speed.map(Cow::Borrowed));
    let supported = Default::default();
    Ok(Some(LstLink { line, ends: [own_end, peer_end], width, state: None, speed, supported }))
}

/// `"S-0002c90200010000"` → (switch, guid).
fn node_id(word: &str) -> Option<(NodeKind, Guid)> {
    let id = word.trim().strip_prefix('"')?.strip_suffix('"')?;
    let (prefix, guid) = id.split_once('-')?;
    let kind = match prefix {
        "S" => NodeKind::Switch,
        "H" => NodeKind::Ca,
        "R" => NodeKind::Router,
        _ => return None,
    };
    Some((kind, Guid::parse_hex(guid)?))
}

/// `(text)rest` → (Some(text), rest); anything else → (None, s).
fn paren(s: &str) -> (Option<&str>, &str) {
    match s.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((inside, rest)) => (Some(inside.trim()), rest),
        None => (None, s),
    }
}

/// Skips a `[ext N]` external-port note (`ibnetdiscover -g`).
fn skip_ext(s: &str) -> &str {
    match s.trim_start().strip_prefix("[ext").and_then(|r| r.split_once(']')) {
        Some((_, rest)) => rest,
        None => s,
    }
}

/// The text between the first and the last `"` of `s`, trimmed of padding.
fn quoted(s: &str) -> Option<&str> {
    let open = s.find('"')?;
    let close = s.rfind('"')?;
    (close > open).then(|| s[open + 1..close].trim())
}

/// The decimal number after the word `key` (`lid 24` → 24).
fn keyword_number(s: &str, key: &str) -> Option<u32> {
    let mut words = s.split_whitespace();
    while let Some(word) = words.next() {
        if word == key {
            return words.next()?.parse().ok();
        }
    }
    None
}

/// The word after the peer's LID: `4xQDR` → (4x, QDR); `???` parts are unknown.
fn width_speed(tail: &str) -> (Option<&str>, Option<&str>) {
    let Some(token) = tail.split_whitespace().skip_while(|w| *w != "lid").nth(2) else {
        return (None, None);
    };
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let (width, speed) = if digits > 0 && token[digits..].starts_with('x') {
        (Some(&token[..=digits]), &token[digits + 1..])
    } else {
        (None, token)
    };
    (width, (!speed.is_empty() && !speed.starts_with('?')).then_some(speed))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWITCH_BLOCK: &str = "vendid=0x2c9\ndevid=0xc738\nsysimgguid=0x2c90200010001\n\
        switchguid=0x2c90200010001(2c90200010001)\n\
        Switch\t36 \"S-0002c90200010001\"\t\t# \"MF0;tb-L1-01:SX6036/U1\" base port 0 lid 3 lmc 0\n\
        [1]\t\"H-0002c9030001002a\"[1](2c9030001002b) \t\t# \"n0022 HCA-1\" lid 24 4xQDR\n\
        [22]\t\"S-0002c90200010000\"[22]\t\t# \"MF0;tb-L1-00:SX6036/U1\" lid 2 4xQDR\n\n";
    const CA_BLOCK: &str = "vendid=0x2c9\ndevid=0x1003\nsysimgguid=0x2c9030001002a\ncaguid=0x2c9030001002a\n\
        Ca\t1 \"H-0002c9030001002a\"\t\t# \"n0022 HCA-1\"\n\
        [1](2c9030001002b) \t\"S-0002c90200010001\"[1]\t\t# lid 24 lmc 1 \"MF0;tb-L1-01:SX6036/U1\" lid 3 4xQDR\n";

    fn input(text: &str) -> Input {
        Input::from_text("t.topo", text.to_string())
    }

    #[test]
    fn switch_block_gives_decimal_lids_port_guids_and_speeds() {
        let input = input(SWITCH_BLOCK);
        let (links, warnings) = read_ibnetdiscover(&input).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(links.len(), 2);
        let [sw, ca] = &links[0].ends;
        assert_eq!(
            (sw.kind, sw.num_ports, sw.lid, sw.lmc, sw.port),
            (NodeKind::Switch, 36, Lid(3), Some(0), PortNum(1))
        );
        assert_eq!(sw.system_guid, Some(Guid(0x2c90200010001)));
        assert_eq!(sw.port_guid, Some(Guid(0x2c90200010001)));
        assert_eq!(sw.description, "MF0;tb-L1-01:SX6036/U1");
        assert_eq!(
            (ca.kind, ca.node_guid, ca.port_guid),
            (NodeKind::Ca, Guid(0x0002c9030001002a), Some(Guid(0x2c9030001002b)))
        );
        assert_eq!((ca.lid, ca.description.as_ref()), (Lid(24), "n0022 HCA-1"));
        assert_eq!((links[0].width.as_deref(), links[0].speed.as_deref()), (Some("4x"), Some("QDR")));
        assert_eq!(links[1].ends[1].lid, Lid(2));
    }

    #[test]
    fn ca_block_gives_its_port_lid_and_lmc_to_both_of_its_ends() {
        let text = format!("{SWITCH_BLOCK}{CA_BLOCK}");
        let input = input(&text);
        let (links, _) = read_ibnetdiscover(&input).unwrap();
        let ca_own = &links[2].ends[0];
        assert_eq!(
            (ca_own.kind, ca_own.lid, ca_own.lmc, ca_own.port_guid),
            (NodeKind::Ca, Lid(24), Some(1), Some(Guid(0x2c9030001002b)))
        );
        // The switch block's line names the CA as a peer: its LMC comes from the CA block.
        assert_eq!(links[0].ends[1].lmc, Some(1));
    }

    #[test]
    fn stderr_lines_unconnected_ports_padding_labels_and_unknown_speeds_are_tolerated() {
        let text = "ibwarn: [4242] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1,3)\n\
            Switch\t36 \"S-0002c90200010001\"\t\t# \"MF0;tb-L1-01:SX6036/U1       \" enhanced port 0 lid 128 lmc 0\n\
            [1](1/1/1)\t\"H-0002c9030001002a\"[1](2c9030001002b) \t\t# \"n0022 HCA-1            \" lid 24 4x???\n\
            src/query_smp.c:228; umad (DR path slid 0; dlid 0; 0,1,3 Attr 0x11:0) bad status 110; Connection timed out\n\
            Can't reach node 0x0002c90200010005\n\
            [2]\t\t# unconnected\n\
            [3](1/1/3)\t\"S-0002c90200010000\"[22]\t\t# \"sw\" lid 2 ???\n";
        let input = input(text);
        let (links, warnings) = read_ibnetdiscover(&input).unwrap();
        assert_eq!(links.len(), 2);
        assert_eq!(links[0].ends[0].lid, Lid(128));
        assert_eq!(links[0].ends[0].description, "MF0;tb-L1-01:SX6036/U1");
        assert_eq!(links[0].ends[1].description, "n0022 HCA-1");
        assert_eq!((links[0].width.as_deref(), links[0].speed.as_deref()), (Some("4x"), None));
        assert_eq!((links[1].width.as_deref(), links[1].speed.as_deref()), (None, None));
        let lines: Vec<_> = warnings.iter().map(|w| w.line).collect();
        assert_eq!(lines, vec![Some(1), Some(4), Some(5)], "{warnings:?}");
        assert!(warnings[..2].iter().all(|w| w.message.contains("tool's error message")), "{warnings:?}");
        // A stray line starting like `Ca` is not taken for a block header: the block goes on.
        assert!(warnings[2].message.starts_with("unrecognised line"), "{}", warnings[2]);
    }

    #[test]
    fn a_bad_block_header_skips_its_ports_with_one_warning() {
        let text = format!(
            "Switch\tx \"S-1\"\t# \"a\" base port 0 lid 3 lmc 0\n[1]\t\"H-2\"[1]\t# \"b\" lid 4 4xQDR\n{SWITCH_BLOCK}"
        );
        let input = input(&text);
        let (links, warnings) = read_ibnetdiscover(&input).unwrap();
        assert_eq!(links.len(), 2);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("bad port count"), "{}", warnings[0]);
    }

    #[test]
    fn content_detection_sees_the_topology_past_a_stderr_line() {
        let input = Input::from_text("x", format!("ibwarn: [1] oops\n#\n{SWITCH_BLOCK}"));
        assert!(looks_like_ibnetdiscover(&input));
        assert!(!looks_like_ibnetdiscover(&Input::from_text(
            "x",
            "CA 1 1 0x1 4x QDR - SW 2 1 0x2 ( 'a' - 'b' )\n"
        )));
    }

    #[test]
    fn a_file_without_blocks_is_an_error() {
        let input = Input::from_text("x", "# nothing\n");
        assert!(read_ibnetdiscover(&input).is_err());
    }
}
