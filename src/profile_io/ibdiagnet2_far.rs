//! `ibdiagnet2.far`: the adaptive-routing configuration ibdiagnet2 dumps with `--routing` (see
//! `docs/formats/adaptive-routing.md` for the sources this reader follows):
//!
//! ```text
//! File version: 1
//! Switch 0x0002c90200e00000 ...
//! Groups Definition:
//! Group   Sub Group   WHBF   Ports
//! ------------------------------------
//! 0       0           0      17,18,19,20,
//! LFT Definition:
//! PLFT_NUM: 0, top: 0x0214
//! LID      Static Port   Lid State   Group
//! ------------------------------------
//! 0x0001   17            Free        0
//! 0x0002   1             Static      0
//! ```
//!
//! - A group's ports are the union of its sub-groups' ports (comma-separated, decimal).
//! - Lid State `Free` (adaptive) and `HBF` (hash-based forwarding) spread a destination over its
//!   group; `Static` uses the static port, which the forwarding tables (`.fdbs`) already hold.
//! - Only PLFT 0 is read: shoal traces the default (SL 0) table. Rows of other PLFTs are counted
//!   in one warning per switch, never dropped silently.

use crate::model::{ArState, ArTable, Guid, Lid, PortNum, Warning};

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;

/// One switch's AR table and the line its block starts on.
pub type SwitchAr = (Guid, ArTable, usize);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Header,
    Groups,
    Lids { plft: u32 },
}

/// Reads every switch block of an `ibdiagnet2.far`. An error if it has none.
pub fn parse_far(input: &Input) -> Result<(Vec<SwitchAr>, Vec<Warning>), ParseError> {
    let mut warnings = LineWarnings::new(input.display());
    let mut switches: Vec<SwitchAr> = Vec::new();
    let mut section = Section::Header;
    let mut other_plft_rows = 0usize;
    let flush = |rows: &mut usize, warnings: &mut LineWarnings, switches: &[SwitchAr]| {
        if *rows > 0
            && let Some((guid, _, line)) = switches.last()
        {
            warnings.line(*line, format!("switch {guid}: {rows} rows of PLFTs other than 0 not read"));
        }
        *rows = 0;
    };
    let summary = input.for_each_line(|number, line, _| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("---") {
            return;
        }
        if let Some(rest) = line.strip_prefix("Switch ") {
            flush(&mut other_plft_rows, &mut warnings, &switches);
            section = Section::Header;
            match rest.split_whitespace().next().and_then(Guid::parse_hex) {
                Some(guid) => switches.push((guid, ArTable::default(), number)),
                None => warnings.line(number, "a `Switch` line without a GUID; its block is skipped"),
            }
            return;
        }
        if line.starts_with("Groups Definition") {
            section = Section::Groups;
            return;
        }
        if line.starts_with("LFT Definition") {
            section = Section::Lids { plft: 0 };
            return;
        }
        if let Some(rest) = line.strip_prefix("PLFT_NUM:") {
            let plft = rest.split(',').next().and_then(|n| n.trim().parse().ok());
            match plft {
                Some(plft) => section = Section::Lids { plft },
                None => warnings.line(number, format!("bad PLFT_NUM `{rest}`; its rows are skipped")),
            }
            return;
        }
        let Some((_, table, _)) = switches.last_mut() else { return };
        let result = match section {
            Section::Header => Ok(()),
            Section::Groups if line.starts_with("Group") => Ok(()),
            Section::Groups => group_row(line, table),
            Section::Lids { .. } if line.starts_with("LID") => Ok(()),
            Section::Lids { plft: 0 } => lid_row(line, table),
            Section::Lids { .. } => {
                other_plft_rows += 1;
                Ok(())
            }
        };
        if let Err(reason) = result {
            warnings.line(number, format!("skipped row: {reason}"));
        }
    })?;
    flush(&mut other_plft_rows, &mut warnings, &switches);
    if switches.is_empty() {
        let gathered = summary.warnings.into_iter().chain(warnings.finish()).collect();
        return Err(ParseError::invalid(
            input.display(),
            "no `Switch` block found: not an ibdiagnet2.far file",
        )
        .with_warnings(gathered));
    }
    warn_undefined_groups(&switches, &mut warnings);
    let mut all = summary.warnings;
    all.extend(warnings.finish());
    Ok((switches, all))
}

/// A LID routed adaptively through a group its switch does not define is traced statically.
fn warn_undefined_groups(switches: &[SwitchAr], warnings: &mut LineWarnings) {
    for (guid, table, line) in switches {
        for (lid, state) in &table.lids {
            if let ArState::Adaptive { group } = state
                && !table.groups.contains_key(group)
            {
                warnings.line(*line, format!("switch {guid}: LID {lid} names AR group {group}, which is not defined; traced statically"));
            }
        }
    }
}

fn group_row(line: &str, table: &mut ArTable) -> Result<(), String> {
    let mut words = line.split_whitespace();
    let group: u16 = words.next().and_then(|w| w.parse().ok()).ok_or("no group number")?;
    let _sub_group = words.next().ok_or("no sub-group")?;
    let _whbf = words.next().ok_or("no WHBF column")?;
    let ports = table.groups.entry(group).or_default();
    for word in words.flat_map(|w| w.split(',')).filter(|w| !w.is_empty()) {
        let port: u8 = word.parse().map_err(|_| format!("bad port `{word}`"))?;
        ports.push(PortNum(port));
    }
    ports.sort_unstable();
    ports.dedup();
    Ok(())
}

fn lid_row(line: &str, table: &mut ArTable) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [lid, _static_port, state, group, ..] = words[..] else {
        return Err(format!("expected `LID port state group`, got `{line}`"));
    };
    let lid = Lid::parse_hex(lid).ok_or_else(|| format!("bad LID `{lid}`"))?;
    let group: u16 = group.parse().map_err(|_| format!("bad group `{group}`"))?;
    let state = match state {
        "Static" => ArState::Static,
        "Free" | "HBF" => ArState::Adaptive { group },
        other => return Err(format!("unknown LID state `{other}` (Static, Free, HBF)")),
    };
    table.lids.insert(lid, state);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAR: &str = "# This database file was automatically generated by IBDIAG\n\
File version: 1\n\
Switch 0x0002c90200e00000 lid 2\n\
Groups Definition:\n\
Group   Sub Group   WHBF   Ports\n\
-----------------------------------\n\
0   0   0   17,18,\n\
0   1   0   19,20,\n\
1   0   0   3,\n\
LFT Definition:\n\
PLFT_NUM: 0, top: 0x0010\n\
LID   Static Port   Lid State   Group\n\
-----------------------------------\n\
0x0001   17   Free   0\n\
0x0002   3   Static   1\n\
0x0003   18   HBF   0\n\
0x0004   18   Wobbly   0\n\
PLFT_NUM: 1, top: 0x0010\n\
0x0001   19   Free   0\n";

    #[test]
    fn groups_join_their_sub_groups_and_free_and_hbf_lids_are_adaptive() {
        let (switches, warnings) = parse_far(&Input::from_text("x.far", FAR)).unwrap();
        assert_eq!(switches.len(), 1);
        let (guid, table, line) = &switches[0];
        assert_eq!((*guid, *line), (Guid(0x0002c90200e00000), 3));
        let ports: Vec<u8> = table.group_ports(Lid(1)).unwrap().iter().map(|p| p.0).collect();
        assert_eq!(ports, [17, 18, 19, 20]);
        assert_eq!(table.group_ports(Lid(2)), None, "static");
        assert!(table.group_ports(Lid(3)).is_some(), "HBF spreads too");
        assert_eq!(table.adaptive_lids(), 2);
        let text: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert!(text.iter().any(|w| w.contains(":17") && w.contains("Wobbly")), "{text:?}");
        assert!(text.iter().any(|w| w.contains("1 rows of PLFTs other than 0")), "{text:?}");
    }

    #[test]
    fn a_file_without_switch_blocks_is_an_error() {
        assert!(parse_far(&Input::from_text("x.far", "File version: 1\n")).is_err());
    }
}
