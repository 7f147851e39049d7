//! Loading one rail (subnet) from its dump files, and a cluster from several rails.
//!
//! A rail is given as directories and/or files. In a directory the known names are found
//! (each may end in `.gz`):
//! - link list: `opensm-subnet.lst`, `subnet.lst`, `ibdiagnet2.lst`, `ibdiagnet.lst`, else any
//!   `*.lst` (in name order); the first found is used and the others are named in a warning;
//! - forwarding tables: `opensm.fdbs`, `ibdiagnet2.fdbs`, `ibdiagnet.fdbs`, else any `*.fdbs`,
//!   and `opensm-lfts.dump`.
//!
//! A file given by itself is recognised by its first meaningful lines, whatever its name; all
//! such files are used (a second link list of the same fabric merges). When both `.fdbs` and
//! `opensm-lfts.dump` tables are present the `.fdbs` ones are used (they also mark unreachable
//! LIDs) and a note says so. No link list is an error; no forwarding table is a warning.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::model::{Cluster, Fabric, FabricBuilder, Guid, NodeKind, RailId, Warning};

use super::error::ParseError;
use super::fdbs::parse_fdbs;
use super::ibdiagnet_lst::{add_links, read_lst};
use super::input::Input;
use super::lfts_dump::parse_lfts_dump;
use super::tables::{SwitchTable, infer_lmc};

/// The kinds of fabric dump a rail is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DumpKind {
    /// `.lst` link list.
    LinkList,
    /// `.fdbs` forwarding tables.
    Fdbs,
    /// `opensm-lfts.dump` forwarding tables.
    LftsDump,
}

/// Preferred names per kind, best first (each may also end in `.gz`).
const LINK_LIST_NAMES: [&str; 4] = ["opensm-subnet.lst", "subnet.lst", "ibdiagnet2.lst", "ibdiagnet.lst"];
const FDBS_NAMES: [&str; 3] = ["opensm.fdbs", "ibdiagnet2.fdbs", "ibdiagnet.fdbs"];
const LFTS_NAMES: [&str; 1] = ["opensm-lfts.dump"];

/// What a file name says about its kind, `None` for names a rail directory may hold besides.
pub fn kind_from_name(name: &str) -> Option<DumpKind> {
    let name = name.strip_suffix(".gz").unwrap_or(name);
    if name.ends_with(".lst") {
        Some(DumpKind::LinkList)
    } else if name.ends_with(".fdbs") {
        Some(DumpKind::Fdbs)
    } else if LFTS_NAMES.contains(&name) {
        Some(DumpKind::LftsDump)
    } else {
        None
    }
}

/// What the first meaningful lines of a file say about its kind.
pub fn kind_from_content(input: &Input) -> Option<DumpKind> {
    input.first_meaningful_lines(3).find_map(|line| {
        if line.starts_with('{') && line.contains("NodeGUID:") {
            Some(DumpKind::LinkList)
        } else if line.contains("dump_ucast_routes:") {
            Some(DumpKind::Fdbs)
        } else if line.starts_with("Unicast lids [") {
            Some(DumpKind::LftsDump)
        } else {
            None
        }
    })
}

/// The opened inputs of one rail, by kind.
#[derive(Debug, Default)]
pub struct RailInputs {
    pub link_lists: Vec<Input>,
    pub fdbs: Vec<Input>,
    pub lfts_dumps: Vec<Input>,
}

impl RailInputs {
    fn push(&mut self, kind: DumpKind, input: Input) {
        match kind {
            DumpKind::LinkList => self.link_lists.push(input),
            DumpKind::Fdbs => self.fdbs.push(input),
            DumpKind::LftsDump => self.lfts_dumps.push(input),
        }
    }
}

/// Opens the dump files of a rail: directories by known names, files by content. The files are
/// read and decompressed in parallel.
pub fn open_rail(paths: &[PathBuf]) -> Result<(RailInputs, Vec<Warning>), ParseError> {
    let mut warnings = Vec::new();
    // (kind known from a directory listing, path)
    let mut files: Vec<(Option<DumpKind>, PathBuf)> = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(discover(path, &mut warnings)?.into_iter().map(|(kind, file)| (Some(kind), file)));
        } else {
            files.push((None, path.clone()));
        }
    }
    let opened: Vec<(DumpKind, Input, Vec<Warning>)> = files
        .par_iter()
        .map(|(kind, path)| {
            let (input, warnings) = Input::open(path)?;
            let kind = match kind {
                Some(kind) => *kind,
                None => file_kind(path, &input)?,
            };
            Ok((kind, input, warnings))
        })
        .collect::<Result<_, ParseError>>()?;
    let mut inputs = RailInputs::default();
    for (kind, input, w) in opened {
        warnings.extend(w);
        inputs.push(kind, input);
    }
    Ok((inputs, warnings))
}

/// The kind of a file given by itself: by content, else by name, else an error.
fn file_kind(path: &Path, input: &Input) -> Result<DumpKind, ParseError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    kind_from_content(input).or_else(|| kind_from_name(name)).ok_or_else(|| {
        ParseError::invalid(
            input.display(),
            "not a fabric dump shoal knows (expected a .lst link list, a .fdbs or an opensm-lfts.dump)",
        )
    })
}

/// The files of a rail directory to read: the best link list, `.fdbs` and lfts dump by name.
fn discover(dir: &Path, warnings: &mut Vec<Warning>) -> Result<Vec<(DumpKind, PathBuf)>, ParseError> {
    let display = dir.display().to_string();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| ParseError::io(&display, e))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_type().is_ok_and(|t| !t.is_dir()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    let mut chosen = Vec::new();
    for (kind, preferred) in [
        (DumpKind::LinkList, &LINK_LIST_NAMES[..]),
        (DumpKind::Fdbs, &FDBS_NAMES[..]),
        (DumpKind::LftsDump, &LFTS_NAMES[..]),
    ] {
        let candidates: Vec<&String> = names.iter().filter(|n| kind_from_name(n) == Some(kind)).collect();
        let rank = |name: &str| {
            let plain = name.strip_suffix(".gz").unwrap_or(name);
            let by_name = preferred.iter().position(|p| *p == plain).unwrap_or(preferred.len());
            (by_name, name.ends_with(".gz"), name.to_string())
        };
        let Some(best) = candidates.iter().min_by_key(|n| rank(n)) else {
            continue;
        };
        if candidates.len() > 1 {
            let others: Vec<&str> = candidates.iter().filter(|n| *n != best).map(|n| n.as_str()).collect();
            warnings
                .push(Warning::in_file(&display, format!("using {best}; also found {}", others.join(", "))));
        }
        chosen.push((kind, dir.join(best.as_str())));
    }
    Ok(chosen)
}

/// Loads one rail: its link lists, then its forwarding tables, into one [`Fabric`].
pub fn load_rail(paths: &[PathBuf], rail: RailId) -> Result<(Fabric, Vec<Warning>), ParseError> {
    let (inputs, mut warnings) = open_rail(paths)?;
    let (fabric, more) = build_rail(&inputs, rail, &rail_name(paths, rail))?;
    warnings.extend(more);
    Ok((fabric, warnings))
}

/// Loads several rails in parallel (rail `i` is `rails[i]`) and matches their hosts by name.
pub fn load_cluster(rails: &[Vec<PathBuf>]) -> Result<(Cluster, Vec<Warning>), ParseError> {
    let loaded: Vec<(Fabric, Vec<Warning>)> = rails
        .par_iter()
        .enumerate()
        .map(|(i, paths)| {
            let rail = u8::try_from(i).map_err(|_| ParseError::invalid("rails", "more than 256 rails"))?;
            load_rail(paths, RailId(rail))
        })
        .collect::<Result<_, _>>()?;
    let (fabrics, warnings): (Vec<Fabric>, Vec<Vec<Warning>>) = loaded.into_iter().unzip();
    Ok((Cluster::new(fabrics), warnings.into_iter().flatten().collect()))
}

fn rail_name(paths: &[PathBuf], rail: RailId) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    format!("rail {rail} ({})", shown.join(", "))
}

/// Builds a rail's fabric from opened inputs. `name` stands for the rail in warnings.
pub fn build_rail(
    inputs: &RailInputs,
    rail: RailId,
    name: &str,
) -> Result<(Fabric, Vec<Warning>), ParseError> {
    if inputs.link_lists.is_empty() {
        return Err(ParseError::invalid(name, "no link list (.lst) found; cannot build the fabric"));
    }
    let mut warnings = Vec::new();
    let (table_inputs, parse_tables): (&[Input], fn(&Input) -> _) = if !inputs.fdbs.is_empty() {
        if let Some(dump) = inputs.lfts_dumps.first() {
            let message = format!("using the .fdbs forwarding tables; {} is not read", dump.display());
            warnings.push(Warning::in_file(name, message));
        }
        (&inputs.fdbs, parse_fdbs)
    } else {
        (&inputs.lfts_dumps, parse_lfts_dump)
    };
    // Parse the link lists and the tables side by side: they do not depend on each other.
    let (lists, tables) = rayon::join(
        || inputs.link_lists.iter().map(|input| (input.display(), read_lst(input))).collect::<Vec<_>>(),
        || table_inputs.iter().map(|input| (input.display(), parse_tables(input))).collect::<Vec<_>>(),
    );
    let mut merged: Vec<(&str, Guid, SwitchTable)> = Vec::new();
    for (file, parsed) in tables {
        let (switches, w) = parsed?;
        warnings.extend(w);
        for (guid, table) in switches {
            if let Some((first_file, _, _)) = merged.iter().find(|(_, g, _)| *g == guid) {
                let message = format!("switch {guid} also has a table in {first_file}; kept that one");
                warnings.push(Warning::at(file, table.line, message));
            } else {
                merged.push((file, guid, table));
            }
        }
    }
    if table_inputs.is_empty() {
        warnings.push(Warning::in_file(
            name,
            "no forwarding tables (.fdbs or opensm-lfts.dump); nothing can be traced",
        ));
    }
    let mut links = Vec::new();
    for (file, (list, w)) in &lists {
        warnings.extend(w.iter().cloned());
        if list.is_empty() {
            warnings.push(Warning::in_file(*file, "no link lines found"));
        }
        links.push((*file, list));
    }
    if links.iter().all(|(_, list)| list.is_empty()) {
        return Err(ParseError::invalid(name, "the link lists hold no link line; cannot build the fabric"));
    }
    let lmc = infer_lmc(
        &links.iter().flat_map(|(_, list)| list.iter().copied()).collect::<Vec<_>>(),
        merged.iter().map(|(_, _, table)| &table.lft),
    );
    if lmc.ca > 0 {
        let message = format!(
            "the forwarding tables route 2^{0} LIDs per CA port: LMC {0} inferred (switch port 0: LMC {1})",
            lmc.ca, lmc.switch
        );
        warnings.push(Warning::in_file(name, message));
    }
    let mut builder = FabricBuilder::new(rail);
    for (file, list) in &links {
        warnings.extend(add_links(&mut builder, file, list, lmc));
    }
    attach_tables(&mut builder, merged, &mut warnings);
    if !table_inputs.is_empty() {
        warn_switches_without_tables(builder.fabric(), name, &mut warnings);
    }
    Ok((builder.build(), warnings))
}

fn attach_tables(
    builder: &mut FabricBuilder,
    tables: Vec<(&str, Guid, SwitchTable)>,
    warnings: &mut Vec<Warning>,
) {
    for (file, guid, table) in tables {
        if let (Some(lid), Some(node)) = (table.lid, builder.node_by_guid(guid)) {
            let listed = builder.fabric().node(node).base_lid();
            if listed.is_some_and(|l| l != lid) {
                let message = format!(
                    "switch {guid} has LID {lid} here but {} in the link list",
                    listed.unwrap_or(lid)
                );
                warnings.push(Warning::at(file, table.line, message));
            }
        }
        if let Err(issue) = builder.set_lft(guid, table.lft) {
            warnings.push(Warning::at(file, table.line, format!("forwarding table: {issue}")));
        }
    }
}

fn warn_switches_without_tables(fabric: &Fabric, name: &str, warnings: &mut Vec<Warning>) {
    let missing: Vec<String> = fabric
        .graph
        .node_indices()
        .filter(|&n| fabric.node(n).kind == NodeKind::Switch && fabric.lft(n).is_none())
        .map(|n| format!("{} ({})", fabric.node(n).guid, fabric.node(n).description))
        .collect();
    if !missing.is_empty() {
        let shown = missing.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
        let more = if missing.len() > 5 { format!(" and {} more", missing.len() - 5) } else { String::new() };
        let message = format!("{} switches have no forwarding table: {shown}{more}", missing.len());
        warnings.push(Warning::in_file(name, message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_give_their_kind_with_or_without_gz() {
        assert_eq!(kind_from_name("opensm-subnet.lst.gz"), Some(DumpKind::LinkList));
        assert_eq!(kind_from_name("ibdiagnet2.lst"), Some(DumpKind::LinkList));
        assert_eq!(kind_from_name("ibdiagnet2.fdbs"), Some(DumpKind::Fdbs));
        assert_eq!(kind_from_name("opensm-lfts.dump.gz"), Some(DumpKind::LftsDump));
        assert_eq!(kind_from_name("opensm.mcfdbs"), None);
        assert_eq!(kind_from_name("opensm-lid-matrix.dump"), None);
        assert_eq!(kind_from_name("ibsim.net"), None);
    }

    #[test]
    fn content_decides_the_kind_past_comments_and_blank_lines() {
        let kind = |text: &str| kind_from_content(&Input::from_text("f", text));
        assert_eq!(
            kind("# IBDIAG\n\n{ CA Ports:02 NodeGUID:1 LID:1 PN:1 } { … }\n"),
            Some(DumpKind::LinkList)
        );
        assert_eq!(kind("osm_ucast_mgr_dump_ucast_routes: Switch 0x1\n"), Some(DumpKind::Fdbs));
        assert_eq!(kind("Unicast lids [0-4] of switch Lid 1 guid 0x1 ('s'):\n"), Some(DumpKind::LftsDump));
        assert_eq!(kind("Switch: guid 0x0002c90200010000\n0x0001: 01 02\n"), None);
    }
}
