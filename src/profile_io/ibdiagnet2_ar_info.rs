//! The `AR_INFO` section of ibdiagnet2's `ibdiagnet2.db_csv`: one row per switch with its
//! adaptive-routing capabilities and whether AR is enabled (see `docs/formats/adaptive-routing.md`
//! for the sources):
//!
//! ```text
//! START_AR_INFO
//! NodeGUID,e,is_arn_sup,is_frn_sup,is_fr_sup,fr_enabled,rn_xmit_enabled,…,sub_grps_active,…,group_cap,group_top,…
//! 0x0002c90200e00000,1,1,1,1,0,1,…,1,…,2048,1,…
//! END_AR_INFO
//! ```
//!
//! Columns are found by name; shoal reads `NodeGUID` and `e` (1: AR enabled on the switch, 0:
//! disabled), decimal. The section holds no group ports and no per-LID state: those come from
//! `ibdiagnet2.far`. What the section changes is which switches' `.far` tables are used (see
//! [`ArEnabled`]).

use crate::model::{FabricBuilder, Guid, Warning};

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;

const START: &str = "START_AR_INFO";
const END: &str = "END_AR_INFO";

/// Per switch, whether AR is enabled, with the row's line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArEnabled {
    pub switches: Vec<(Guid, bool, usize)>,
}

impl ArEnabled {
    /// The switches AR is enabled on.
    pub fn enabled(&self) -> impl Iterator<Item = Guid> + '_ {
        self.switches.iter().filter(|s| s.1).map(|s| s.0)
    }

    /// The switches AR is disabled on, with their lines.
    pub fn disabled(&self) -> impl Iterator<Item = (Guid, usize)> + '_ {
        self.switches.iter().filter(|s| !s.1).map(|s| (s.0, s.2))
    }
}

/// Reads the `AR_INFO` section (streamed, like every reader of a file): `None` for a file
/// without one.
pub fn parse_ar_info(input: &Input) -> Result<Option<(ArEnabled, Vec<Warning>)>, ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut found = ArEnabled::default();
    let mut columns: Option<(usize, usize)> = None;
    let (_, found_section) = input.for_each_section_line((START, END), |number, line| {
        if line.is_empty() {
            return true;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let Some((guid_at, e_at)) = columns else {
            let at = |names: &[&str]| fields.iter().position(|f| names.contains(f));
            match (at(&["NodeGUID", "NodeGuid"]), at(&["e"])) {
                (Some(g), Some(e)) => columns = Some((g, e)),
                _ => {
                    warnings
                        .line(number, "the AR_INFO header names no NodeGUID or e column; section skipped");
                    return false;
                }
            }
            return true;
        };
        let guid = fields.get(guid_at).and_then(|g| Guid::parse_hex(g));
        let enabled = match fields.get(e_at).copied() {
            Some("1") => Some(true),
            Some("0") => Some(false),
            _ => None,
        };
        match (guid, enabled) {
            (Some(guid), Some(enabled)) => found.switches.push((guid, enabled, number)),
            (None, _) => warnings.line(number, "skipped AR_INFO row: bad NodeGUID"),
            (_, None) => warnings.line(number, "skipped AR_INFO row: e is neither 0 nor 1"),
        }
        true
    })?;
    Ok(found_section.then(|| (found, warnings.finish())))
}

/// Applies a rail's `AR_INFO` to the AR tables read from its `.far` (`far_given`): a switch
/// with AR disabled keeps only its static table, and each kind of mismatch is one warning.
pub fn apply_ar_info(
    builder: &mut FabricBuilder,
    file: &str,
    info: &ArEnabled,
    far_given: bool,
) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let mut cleared = Vec::new();
    let mut unknown = 0usize;
    for (guid, line) in info.disabled() {
        match builder.clear_ar(guid) {
            Ok(true) => cleared.push((guid, line)),
            Ok(false) => {}
            Err(_) => unknown += 1,
        }
    }
    if let Some(&(guid, line)) = cleared.first() {
        let message = format!(
            "AR_INFO: adaptive routing is disabled (e=0) on {} switch(es) the .far gives AR groups (first {guid}): they are traced by their static tables",
            cleared.len()
        );
        warnings.push(Warning::at(file, line, message));
    }
    let enabled = info.enabled().count();
    unknown += info.enabled().filter(|&g| builder.fabric().node_by_guid(g).is_none()).count();
    if enabled > 0 && !far_given {
        let message = format!(
            "AR_INFO: adaptive routing is enabled on {enabled} switch(es), but no ibdiagnet2.far (ibdiagnet --routing) was given: their AR groups are unknown, so only the static trace is shown"
        );
        warnings.push(Warning::in_file(file, message));
    }
    if unknown > 0 {
        warnings.push(Warning::in_file(
            file,
            format!("AR_INFO: {unknown} row(s) name a switch not in the fabric"),
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-written from the documented layout (not a capture): two switches, AR on and off,
    /// among columns shoal does not read.
    const SECTION: &str = "START_NODES\nNodeDesc,NodeGUID\nEND_NODES\n\n\
        START_AR_INFO\n\
        NodeGUID,e,is_arn_sup,is_frn_sup,sub_grps_active,group_cap,group_top\n\
        0x0002c90200e00000,1,1,1,1,2048,1\n\
        0x0002c90200e00010,0,1,1,1,2048,0\n\
        0x00zz,1,1,1,1,2048,0\n\
        0x0002c90200e00020,N/A,0,0,0,0,0\n\
        END_AR_INFO\n";

    #[test]
    fn ar_info_rows_say_per_switch_whether_ar_is_enabled_and_bad_rows_are_named() {
        let input = Input::from_text("ibdiagnet2.db_csv", SECTION);
        let (found, warnings) = parse_ar_info(&input).unwrap().expect("the section is there");
        assert_eq!(found.enabled().collect::<Vec<_>>(), [Guid(0x0002c90200e00000)]);
        assert_eq!(found.disabled().collect::<Vec<_>>(), [(Guid(0x0002c90200e00010), 8)]);
        let text: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(text[0].contains(":9") && text[0].contains("bad NodeGUID"), "{text:?}");
        assert!(text[1].contains(":10") && text[1].contains("neither 0 nor 1"), "{text:?}");
    }

    #[test]
    fn a_header_without_the_enable_column_skips_the_section_with_a_warning() {
        let input = Input::from_text("x.db_csv", "START_AR_INFO\nNodeGUID,group_cap\n0x1,2\nEND_AR_INFO\n");
        let (found, warnings) = parse_ar_info(&input).unwrap().expect("the section is there");
        assert!(found.switches.is_empty());
        assert!(warnings[0].to_string().contains("no NodeGUID or e column"), "{warnings:?}");
        let none = parse_ar_info(&Input::from_text("y.db_csv", "START_NODES\nEND_NODES\n")).unwrap();
        assert!(none.is_none(), "a file without the section gives nothing");
    }

    fn two_switches_with_ar() -> FabricBuilder {
        use crate::model::{ArTable, Lid, Node, NodeKind, PortInfo, PortNum, RailId};
        let mut b = FabricBuilder::new(RailId(0));
        for guid in [0x100u64, 0x101] {
            let port = PortInfo { guid: Some(Guid(guid)), lid: Lid(guid as u16), lmc: 0 };
            let ports = [(PortNum(0), port)].into_iter().collect();
            let node = Node {
                guid: Guid(guid),
                system_guid: None,
                kind: NodeKind::Switch,
                description: format!("sw{guid}"),
                num_ports: 4,
                ports,
            };
            b.add_node(node).unwrap();
            b.set_ar(Guid(guid), ArTable::default()).unwrap();
        }
        b
    }

    #[test]
    fn a_switch_ar_info_disables_keeps_only_its_static_table_and_the_others_keep_their_groups() {
        let mut b = two_switches_with_ar();
        let info = ArEnabled {
            switches: vec![(Guid(0x100), false, 7), (Guid(0x101), true, 8), (Guid(0x999), true, 9)],
        };
        let warnings = apply_ar_info(&mut b, "ibdiagnet2.db_csv", &info, true);
        let fabric = b.build();
        let ar = |g: u64| fabric.node_by_guid(Guid(g)).and_then(|n| fabric.ar(n)).is_some();
        assert!(!ar(0x100) && ar(0x101));
        let text: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(text[0].contains(":7") && text[0].contains("disabled (e=0) on 1 switch"), "{text:?}");
        assert!(text[1].contains("1 row(s) name a switch not in the fabric"), "{text:?}");
        assert!(text.iter().all(|t| !t.contains("  ")), "no run of spaces inside a message: {text:?}");
    }

    #[test]
    fn ar_enabled_without_a_far_file_says_the_groups_are_unknown() {
        let mut b = two_switches_with_ar();
        let info = ArEnabled { switches: vec![(Guid(0x100), true, 7), (Guid(0x101), true, 8)] };
        let warnings = apply_ar_info(&mut b, "ibdiagnet2.db_csv", &info, false);
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].to_string().contains("enabled on 2 switch(es), but no ibdiagnet2.far"),
            "{warnings:?}"
        );
        assert!(!warnings[0].to_string().contains("  "), "{warnings:?}");
    }
}
