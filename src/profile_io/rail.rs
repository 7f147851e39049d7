//! Loading one rail (subnet) from its dump files, and a cluster from several rails.
//!
//! A rail is a **topology** (nodes, ports, LIDs, links) plus **forwarding tables**, each in one of
//! several formats ([`DumpKind`]), each file plain or gzipped:
//! - topology: a `.lst` link list (OpenSM `opensm-subnet.lst`, ibdiagnet `ibdiagnet.lst`,
//!   `ibdiagnet2.lst`), ibdiagnet2's `ibdiagnet2.db_csv`, an `ibnetdiscover` topology file, or
//!   an `ibnetdiscover -p` ports list;
//! - tables: `.fdbs` (OpenSM, ibdiagnet, ibdiagnet2), `opensm-lfts.dump`, or `ibroute`/`dump_fts`
//!   output (one switch per file, concatenated, or a folder of them).
//!
//! A rail is given as directories and/or files. Directories are searched as
//! [`discover`](super::discover) says (known names first, content for the rest). A file given by
//! itself is recognised by its first meaningful lines, whatever its name; all such files are used
//! (a second topology of the same fabric merges). Of the table kinds present, the best
//! ([`DumpKind::TABLE_PREFERENCE`]) is used and a note names the files not read. Every format
//! becomes the same [`OwnedLink`] list and [`SwitchTables`], so the fabric is built one way. No
//! topology is an error; no forwarding table is a warning. After the build, the tables are
//! checked against the links ([`check_tables`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::model::{ArTable, Cluster, Fabric, FabricBuilder, Guid, NodeKind, PortNum, RailId, Warning};

use super::discover::{discover, sniff};
pub use super::dump_kind::{DUMP_RECOGNISERS, DumpKind, kind_from_content, kind_from_name};
use super::error::ParseError;
use super::fdbs::parse_fdbs;
use super::ibdiagnet_lst::{Lmc, OwnedLink, add_links, read_lst};
use super::ibdiagnet2_ar_info::{apply_ar_info, parse_ar_info};
use super::ibdiagnet2_csv::read_db_csv;
use super::ibdiagnet2_far::parse_far;
use super::ibnetdiscover::read_ibnetdiscover;
use super::ibnetdiscover_ports::read_ports_list;
use super::ibroute::parse_ibroute;
use super::input::Input;
use super::lfts_dump::parse_lfts_dump;
use super::stream::display_name;
use super::table_checks::check_tables;
use super::tables::{SwitchTable, SwitchTables, infer_lmc, same_routes};

/// The opened inputs of one rail, with their kinds, in the order given.
#[derive(Debug, Default)]
pub struct RailInputs {
    pub inputs: Vec<(DumpKind, Input)>,
}

impl RailInputs {
    /// The inputs of one kind.
    pub fn of(&self, kind: DumpKind) -> impl Iterator<Item = &Input> + '_ {
        self.inputs.iter().filter(move |(k, _)| *k == kind).map(|(_, input)| input)
    }

    fn topologies(&self) -> impl Iterator<Item = &(DumpKind, Input)> + '_ {
        self.inputs.iter().filter(|(k, _)| k.is_topology())
    }
}

/// Opens the dump files of a rail: directories by known names and content, files by content.
/// Regular files are not read here: each is streamed by its parser ([`Input::deferred`]), its
/// kind told from a sample of its lines ([`super::discover::sniff`]). A pipe or standard input
/// cannot be read twice, so it is read whole here.
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
    let opened: Vec<(DumpKind, Input, Vec<Warning>)> =
        files.par_iter().map(|(kind, path)| open_dump(*kind, path)).collect::<Result<_, ParseError>>()?;
    let mut inputs = RailInputs::default();
    for (kind, input, w) in opened {
        warnings.extend(w);
        inputs.inputs.push((kind, input));
    }
    Ok((inputs, warnings))
}

/// One dump file of a rail, with its kind: `known` from a directory listing, else by content
/// (then by name).
fn open_dump(known: Option<DumpKind>, path: &Path) -> Result<(DumpKind, Input, Vec<Warning>), ParseError> {
    if super::stream::is_regular_file(path) {
        let kind = match known {
            Some(kind) => kind,
            None => {
                sniff(path).map_or_else(|| file_kind(path, &Input::from_text(display_name(path), "")), Ok)?
            }
        };
        return Ok((kind, Input::deferred(path), Vec::new()));
    }
    let (input, warnings) = Input::open(path)?;
    let kind = match known {
        Some(kind) => kind,
        None => file_kind(path, &input)?,
    };
    Ok((kind, input, warnings))
}

/// The kind of a file given by itself: by content, else by name, else an error.
fn file_kind(path: &Path, input: &Input) -> Result<DumpKind, ParseError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    kind_from_content(input).or_else(|| kind_from_name(name)).ok_or_else(|| {
        ParseError::invalid(
            input.display(),
            "not a fabric dump shoal knows (expected a .lst, ibdiagnet2.db_csv, ibnetdiscover topology or \
             ports list, .fdbs, opensm-lfts.dump, or ibroute/dump_fts output)",
        )
    })
}

pub use crate::model::RailRead;

/// Loads one rail: its topology, then its forwarding tables, into one [`Fabric`].
pub fn load_rail(paths: &[PathBuf], rail: RailId) -> Result<(Fabric, Vec<Warning>), ParseError> {
    read_rail(paths, rail).map(|(fabric, read)| (fabric, read.warnings))
}

/// [`load_rail`], saying which files it read.
pub fn read_rail(paths: &[PathBuf], rail: RailId) -> Result<(Fabric, RailRead), ParseError> {
    let (inputs, mut warnings) = open_rail(paths)?;
    let files =
        inputs.inputs.iter().map(|(kind, input)| (input.display().to_string(), kind.describe())).collect();
    let (fabric, more) =
        build_rail(&inputs, rail, &rail_name(paths, rail)).map_err(|e| e.with_warnings(warnings.clone()))?;
    warnings.extend(more);
    Ok((fabric, RailRead { files, warnings }))
}

/// Loads several rails in parallel (rail `i` is `rails[i]`) and matches their hosts by name.
pub fn load_cluster(rails: &[Vec<PathBuf>]) -> Result<(Cluster, Vec<Warning>), ParseError> {
    let (cluster, read) = read_cluster(rails)?;
    Ok((cluster, read.into_iter().flat_map(|r| r.warnings).collect()))
}

/// [`load_cluster`], saying which files each rail was read from and what each warned.
pub fn read_cluster(rails: &[Vec<PathBuf>]) -> Result<(Cluster, Vec<RailRead>), ParseError> {
    let loaded: Vec<(Fabric, RailRead)> = rails
        .par_iter()
        .enumerate()
        .map(|(i, paths)| {
            let rail = u8::try_from(i).map_err(|_| ParseError::invalid("rails", "more than 256 rails"))?;
            read_rail(paths, RailId(rail))
        })
        .collect::<Result<_, _>>()?;
    let (fabrics, read): (Vec<Fabric>, Vec<RailRead>) = loaded.into_iter().unzip();
    Ok((Cluster::new(fabrics), read))
}

fn rail_name(paths: &[PathBuf], rail: RailId) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    format!("rail {rail} ({})", shown.join(", "))
}

type Parsed<T> = Result<(T, Vec<Warning>), ParseError>;

/// Reads the links of one topology input, whatever its kind.
fn read_topology(kind: DumpKind, input: &Input) -> Parsed<Vec<OwnedLink>> {
    match kind {
        DumpKind::LinkList => read_lst(input),
        DumpKind::Ibdiagnet2Csv => read_db_csv(input),
        DumpKind::Ibnetdiscover => read_ibnetdiscover(input),
        DumpKind::PortsList => read_ports_list(input),
        _ => Err(ParseError::invalid(input.display(), "not a topology")),
    }
}

fn read_tables(kind: DumpKind, input: &Input) -> Parsed<SwitchTables> {
    match kind {
        DumpKind::Fdbs => parse_fdbs(input),
        DumpKind::LftsDump => parse_lfts_dump(input),
        _ => parse_ibroute(input),
    }
}

/// Builds a rail's fabric from opened inputs. `name` stands for the rail in warnings.
pub fn build_rail(
    inputs: &RailInputs,
    rail: RailId,
    name: &str,
) -> Result<(Fabric, Vec<Warning>), ParseError> {
    if inputs.topologies().next().is_none() {
        return Err(ParseError::invalid(
            name,
            "no link list (.lst) or other topology (ibdiagnet2.db_csv, ibnetdiscover output) found; cannot build the fabric",
        ));
    }
    let mut warnings = Vec::new();
    let table_kind = DumpKind::TABLE_PREFERENCE.into_iter().find(|&k| inputs.of(k).next().is_some());
    let table_inputs: Vec<&Input> = table_kind.map(|k| inputs.of(k).collect()).unwrap_or_default();
    for (kind, input) in &inputs.inputs {
        if let Some(used) = table_kind.filter(|used| kind.is_table() && kind != used) {
            let message =
                format!("using the {} forwarding tables; {} is not read", used.describe(), input.display());
            warnings.push(Warning::info_in_file(name, message));
        }
    }
    // Parse the topology and the tables side by side: they do not depend on each other.
    let (lists, tables) = rayon::join(
        || {
            inputs
                .topologies()
                .map(|(kind, input)| (input.display(), read_topology(*kind, input)))
                .collect::<Vec<_>>()
        },
        || {
            table_inputs
                .par_iter()
                .map(|input| (input.display(), read_tables(table_kind.unwrap_or(DumpKind::Fdbs), input)))
                .collect::<Vec<_>>()
        },
    );
    let merged = merge_tables(tables, &mut warnings)?;
    if table_inputs.is_empty() {
        warnings.push(Warning::in_file(
            name,
            "no forwarding tables (.fdbs, opensm-lfts.dump, ibroute or dump_fts); nothing can be traced",
        ));
    }
    let mut links = Vec::new();
    for (file, parsed) in lists {
        // An error carries the warnings so far: they often say why (a line skipped for its length).
        let (list, w) = parsed.map_err(|e| e.with_warnings(warnings.clone()))?;
        warnings.extend(w);
        if list.is_empty() {
            warnings.push(Warning::in_file(file, "no link lines found"));
        }
        links.push((file, list));
    }
    if links.iter().all(|(_, list)| list.is_empty()) {
        let error = ParseError::invalid(name, "the topology holds no link; cannot build the fabric");
        return Err(error.with_warnings(warnings));
    }
    let lmc = lmc_of(&links, &merged, name, &mut warnings);
    let mut builder = FabricBuilder::new(rail);
    for (file, list) in &links {
        warnings.extend(add_links(&mut builder, file, list, lmc));
    }
    let sources: Vec<(&str, Guid, usize)> =
        merged.iter().map(|(file, guid, table)| (*file, *guid, table.line)).collect();
    attach_tables(&mut builder, merged, &mut warnings);
    attach_adaptive_routing(&mut builder, inputs, &mut warnings)?;
    if !table_inputs.is_empty() {
        warn_switches_without_tables(builder.fabric(), name, &mut warnings);
    }
    let fabric = builder.build();
    warnings.extend(check_tables(&fabric, &sources));
    Ok((fabric, warnings))
}

/// The LMC the forwarding tables imply for ends whose topology does not say it (a note when
/// it is not 0).
fn lmc_of(
    links: &[(&str, Vec<OwnedLink>)],
    merged: &[(&str, Guid, SwitchTable)],
    name: &str,
    warnings: &mut Vec<Warning>,
) -> Lmc {
    let lmc = infer_lmc(
        &links
            .iter()
            .flat_map(|(_, list)| list.iter().filter(|l| l.ends.iter().all(|e| e.lmc.is_none())))
            .collect::<Vec<_>>(),
        merged.iter().map(|(_, _, table)| &table.lft),
    );
    if lmc.ca > 0 {
        let message = format!(
            "the forwarding tables route 2^{0} LIDs per CA port: LMC {0} inferred (switch port 0: LMC {1})",
            lmc.ca, lmc.switch
        );
        warnings.push(Warning::in_file(name, message));
    }
    lmc
}

/// The AR tables of `ibdiagnet2.far` files, and AR_INFO sections of `ibdiagnet2.db_csv` files.
fn attach_adaptive_routing(
    builder: &mut FabricBuilder,
    inputs: &RailInputs,
    warnings: &mut Vec<Warning>,
) -> Result<(), ParseError> {
    for input in inputs.of(DumpKind::AdaptiveRouting) {
        attach_ar(builder, input, warnings)?;
    }
    let far_given = inputs.of(DumpKind::AdaptiveRouting).next().is_some();
    let ar_info = inputs.of(DumpKind::Ibdiagnet2Csv).chain(inputs.of(DumpKind::ArInfo));
    for input in ar_info {
        let Some((info, more)) = parse_ar_info(input)? else { continue };
        warnings.extend(more);
        warnings.extend(apply_ar_info(builder, input.display(), &info, far_given));
    }
    Ok(())
}

/// Reads an `ibdiagnet2.far` and gives each switch its AR table.
fn attach_ar(
    builder: &mut FabricBuilder,
    input: &Input,
    warnings: &mut Vec<Warning>,
) -> Result<(), ParseError> {
    let (switches, more) = parse_far(input)?;
    warnings.extend(more);
    for (guid, table, line) in switches {
        if let Some(message) = groups_naming_cas(builder.fabric(), guid, &table) {
            warnings.push(Warning::at(input.display(), line, message));
        }
        if let Err(issue) = builder.set_ar(guid, table) {
            warnings.push(Warning::at(input.display(), line, issue.to_string()));
        }
    }
    Ok(())
}

/// Names a switch's AR groups that hold ports cabled to CAs: a CA forwards nothing, so no real
/// group holds one (a dump naming every port does). The spread takes only the ports that bring
/// bytes closer (`routing::ar_progress`), so these are never used.
fn groups_naming_cas(fabric: &Fabric, guid: Guid, table: &ArTable) -> Option<String> {
    let switch = fabric.node_by_guid(guid)?;
    let to_ca = |p: &PortNum| {
        fabric.out_through(switch, *p).is_some_and(|(_, next, _)| fabric.node(next).kind != NodeKind::Switch)
    };
    let named: Vec<u16> =
        table.groups.iter().filter(|(_, ports)| ports.iter().any(to_ca)).map(|(&g, _)| g).collect();
    let first = named.first()?;
    Some(format!(
        "switch {guid}: {} AR group(s) (first {first}) name ports cabled to CAs; a CA forwards nothing, so the spread uses only the ports of a group that bring bytes closer",
        named.len()
    ))
}

/// Merges the tables of several files. An identical repeat (a `dump_fts` beside per-switch
/// `ibroute` files) is one note per file. When two files disagree on a switch, the more complete
/// table is kept ([`SwitchTable::completeness`]: a closed block with all its rows, then more
/// rows), whatever the files are called, and a warning at the dropped table's header line says
/// which was kept and why; only an exact tie keeps the first file read.
fn merge_tables<'f>(
    tables: Vec<(&'f str, Parsed<SwitchTables>)>,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<(&'f str, Guid, SwitchTable)>, ParseError> {
    let mut merged: Vec<(&str, Guid, SwitchTable)> = Vec::new();
    let mut index: HashMap<Guid, usize> = HashMap::new();
    for (file, parsed) in tables {
        let (switches, w) = parsed?;
        warnings.extend(w);
        let mut repeated: Vec<&str> = Vec::new();
        for (guid, table) in switches {
            let Some(&at) = index.get(&guid) else {
                index.insert(guid, merged.len());
                merged.push((file, guid, table));
                continue;
            };
            let (kept_file, _, kept) = &merged[at];
            if same_routes(&kept.lft, &table.lft) {
                repeated.push(kept_file);
                continue;
            }
            let (kept_file, kept_line) = (*kept_file, kept.line);
            let newer_wins = table.completeness() > kept.completeness();
            let (winner, loser) = if newer_wins { (&table, kept) } else { (kept, &table) };
            let (winner_at, loser_at) = if newer_wins {
                ((file, table.line), (kept_file, kept_line))
            } else {
                ((kept_file, kept_line), (file, table.line))
            };
            let why = if winner.completeness() == loser.completeness() {
                "equally complete; kept the first read".to_string()
            } else {
                format!(
                    "kept the more complete one ({}; the other: {})",
                    winner.describe_completeness(),
                    loser.describe_completeness()
                )
            };
            let message = format!(
                "switch {guid} has different tables in {}:{} and {}:{}; {why}: using {}",
                winner_at.0, winner_at.1, loser_at.0, loser_at.1, winner_at.0
            );
            warnings.push(Warning::at(loser_at.0, loser_at.1, message));
            if newer_wins {
                merged[at] = (file, guid, table);
            }
        }
        if let Some(first_file) = repeated.first() {
            let message = format!(
                "{} switch tables here repeat, route for route, tables already read (e.g. from {first_file}); skipped",
                repeated.len()
            );
            warnings.push(Warning::in_file(file, message));
        }
    }
    Ok(merged)
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
#[path = "rail_tests.rs"]
mod tests;
