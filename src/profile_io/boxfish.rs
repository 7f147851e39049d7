//! Boxfish run data: a `*_meta.yaml` file naming table files and projections.
//!
//! The meta file is a multi-document YAML stream. The first document describes the run (`key`,
//! `date`, and `hardware: {coords, coords_table, dim, source_coords, destination_coords,
//! link_coords_table}`). Each later document is a `filetype: table` (`filename`, `domain`
//! HW/COMM/APP, `type` NODE/LINK/RANK/COMMUNICATOR, `field` = the key column) or a
//! `filetype: projection` (`type: file | identity | node link`, a `subdomain` pair, and a
//! `filename` or `node_policy`/`link_policy`). See [`super::boxfish_table`] for table files.
//!
//! Table files are read from the meta file's folder (or below it) and nowhere else: a name with
//! `..` or an absolute path is refused, so a downloaded run cannot read other files. A missing
//! `name` is also looked for as `name.gz`. Tables are parsed in parallel.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use super::boxfish_network::{Hardware, build_network};
use super::boxfish_table::{RawTable, parse_table};
use super::boxfish_yaml::yaml_options;
use super::error::ParseError;
use super::input::Input;
use crate::model::{Column, Domain, Network, Policy, Projection, Run, Table, Warning};

/// The meta file's table and projection documents, before any table file is read.
#[derive(Clone, Debug, Default)]
struct Plan {
    name: String,
    hardware: Option<Hardware>,
    /// (file, domain, key column)
    tables: Vec<(String, Domain, String)>,
    projections: Vec<PlannedProjection>,
}

#[derive(Clone, Debug)]
enum PlannedProjection {
    File { file: String, from: (Domain, String), to: (Domain, String) },
    Ready(Projection),
}

/// One table file, read and parsed (or why not).
type Parsed = Result<(RawTable, Vec<Warning>), ParseError>;

/// Reads a Boxfish run from its meta file.
pub fn load_boxfish(meta_path: &Path) -> Result<(Run, Vec<Warning>), ParseError> {
    let (input, mut warnings) = Input::open(meta_path)?;
    let plan = parse_meta(&input, &mut warnings)?;
    let mut raw = read_files(meta_path, &plan, &mut warnings)?;
    let mut tables = tables_of(&plan, &mut raw, &mut warnings);
    let network = network_of(&plan, &mut tables, &raw, &mut warnings);
    let projections = projections_of(plan.projections, &raw, &mut warnings);
    Ok((Run::new(plan.name, network, tables, projections), warnings))
}

/// The table files a projection document names.
fn projection_files(plan: &Plan) -> impl Iterator<Item = &String> {
    plan.projections.iter().filter_map(|p| match p {
        PlannedProjection::File { file, .. } => Some(file),
        PlannedProjection::Ready(_) => None,
    })
}

/// Every file the plan names, read once each (in parallel), by its name in the meta file.
fn read_files(
    meta_path: &Path,
    plan: &Plan,
    warnings: &mut Vec<Warning>,
) -> Result<HashMap<String, RawTable>, ParseError> {
    let folder = meta_path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut files: Vec<String> = plan.tables.iter().map(|t| t.0.clone()).collect();
    if let Some(hw) = &plan.hardware {
        files.extend(hw.coords_table.iter().chain(&hw.link_coords_table).cloned());
    }
    files.extend(projection_files(plan).cloned());
    files.sort();
    files.dedup();
    let paths: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| resolve_inside(meta_path, &folder, &f).map(|p| (f, p)))
        .collect::<Result<_, _>>()?;
    let read: Vec<(String, Parsed)> = paths
        .into_par_iter()
        .map(|(name, path)| {
            // A big table on disk is streamed: its rows are parsed as they are read. A small one
            // is read whole and parsed from its text (a copy and a page fault less per byte).
            let parsed = if super::stream::is_regular_file(&path) && !small_plain_file(&path) {
                parse_table(&Input::deferred(&path))
            } else {
                Input::open(&path).and_then(|(input, mut w)| {
                    let (table, more) = parse_table(&input)?;
                    w.extend(more);
                    Ok((table, w))
                })
            };
            (name, parsed)
        })
        .collect();
    let mut raw: HashMap<String, RawTable> = HashMap::new();
    for (name, parsed) in read {
        let (table, w) = parsed?;
        warnings.extend(w);
        raw.insert(name, table);
    }
    Ok(raw)
}

/// Tables up to this size are read whole (Boxfish's examples: 4 MB at most); the text is held
/// while its rows are parsed, so memory stays within this much more than the columns.
const WHOLE_TABLE_BYTES: u64 = 64 << 20;

/// A regular file no bigger than [`WHOLE_TABLE_BYTES`] and not gzip (which may expand to
/// anything).
fn small_plain_file(path: &Path) -> bool {
    use std::io::Read;
    let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= WHOLE_TABLE_BYTES);
    let mut magic = [0u8; 2];
    let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut magic));
    small && read.is_ok() && magic != super::input::GZIP_MAGIC
}

/// The tables of the plan's table documents. A file that only one document uses is moved into
/// its table, not copied.
fn tables_of(plan: &Plan, raw: &mut HashMap<String, RawTable>, warnings: &mut Vec<Warning>) -> Vec<Table> {
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for file in plan.tables.iter().map(|t| &t.0).chain(projection_files(plan)) {
        *uses.entry(file.as_str()).or_default() += 1;
    }
    let mut tables: Vec<Table> = Vec::new();
    for (file, domain, key) in &plan.tables {
        let taken =
            if uses.get(file.as_str()) == Some(&1) { raw.remove(file) } else { raw.get(file).cloned() };
        if let Some(t) = taken {
            match Table::new(file.clone(), *domain, key.clone(), t.names, t.columns) {
                Ok(table) => tables.push(table),
                Err(message) => {
                    warnings.push(Warning::in_file(file, format!("{message}; the table is skipped")))
                }
            }
        }
    }
    tables
}

/// The run's network from its `hardware:` description and coordinate tables. A coordinate file
/// named by `hardware:` only is loaded as a table too.
fn network_of(
    plan: &Plan,
    tables: &mut Vec<Table>,
    raw: &HashMap<String, RawTable>,
    warnings: &mut Vec<Warning>,
) -> Network {
    let hw = plan.hardware.clone().unwrap_or_default();
    let mut table_for = |file: &Option<String>, domain: Domain, default_key: &str| -> Option<usize> {
        let file = file.as_ref()?;
        if let Some(i) = tables.iter().position(|t| t.name == *file) {
            return Some(i);
        }
        // Keyed by its usual key column, or else its first.
        let t = raw.get(file)?;
        let key = if t.names.iter().any(|n| n == default_key) { default_key } else { t.names.first()? };
        match Table::new(file.clone(), domain, key, t.names.clone(), t.columns.clone()) {
            Ok(table) => {
                tables.push(table);
                Some(tables.len() - 1)
            }
            Err(message) => {
                warnings.push(Warning::in_file(file, format!("{message}; the table is skipped")));
                None
            }
        }
    };
    let nodes = table_for(&hw.coords_table, Domain::Nodes, "nodeid");
    let links = table_for(&hw.link_coords_table, Domain::Links, "linkid");
    let (network, w) = build_network(&hw, nodes.map(|i| &tables[i]), links.map(|i| &tables[i]));
    warnings.extend(w.into_iter().map(|(file, message)| Warning::in_file(file, message)));
    network
}

/// The plan's projections, map files read into id pairs.
fn projections_of(
    planned: Vec<PlannedProjection>,
    raw: &HashMap<String, RawTable>,
    warnings: &mut Vec<Warning>,
) -> Vec<Projection> {
    let mut projections = Vec::new();
    for planned in planned {
        match planned {
            PlannedProjection::Ready(p) => projections.push(p),
            PlannedProjection::File { file, from, to } => {
                match raw.get(&file).map(|t| map_pairs(t, &from.1, &to.1)) {
                    Some(Ok(pairs)) => {
                        projections.push(Projection::File { name: file, from: from.0, to: to.0, pairs })
                    }
                    Some(Err(message)) => warnings
                        .push(Warning::in_file(&file, format!("{message}; the projection is skipped"))),
                    None => {}
                }
            }
        }
    }
    projections
}

/// The `(from, to)` id pairs of a map table.
fn map_pairs(t: &RawTable, from: &str, to: &str) -> Result<Vec<(i64, i64)>, String> {
    let ints = |name: &str| -> Result<Vec<i64>, String> {
        match t.names.iter().position(|n| n == name).map(|i| &t.columns[i]) {
            Some(Column::Int(v)) => Ok(v.clone()),
            Some(Column::Float(v)) if v.iter().all(|x| x.fract() == 0.0) => {
                Ok(v.iter().map(|&x| x as i64).collect())
            }
            Some(_) => Err(format!("column `{name}` does not hold ids")),
            None => Err(format!("there is no column `{name}` (columns: {})", t.names.join(", "))),
        }
    };
    let (a, b) = (ints(from)?, ints(to)?);
    Ok(a.into_iter().zip(b).collect())
}

/// `name` joined to the meta file's folder, refusing any name that could reach outside it.
pub fn resolve_inside(meta_path: &Path, folder: &Path, name: &str) -> Result<PathBuf, ParseError> {
    let refuse = || {
        ParseError::invalid(
            meta_path.display().to_string(),
            format!(
                "table file `{name}` reaches outside the meta file's folder; only files in (or below) `{}` are read",
                if folder.as_os_str().is_empty() { Path::new(".") } else { folder }.display()
            ),
        )
    };
    let relative = Path::new(name);
    if name.trim().is_empty()
        || relative.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(refuse());
    }
    let mut path = folder.join(relative);
    if !path.exists() {
        let gz = folder.join(format!("{name}.gz"));
        if gz.exists() {
            path = gz;
        }
    }
    // A symbolic link inside the folder may still point out of it.
    if let (Ok(real), Ok(base)) =
        (path.canonicalize(), folder.canonicalize().or_else(|_| Path::new(".").canonicalize()))
        && !real.starts_with(&base)
    {
        return Err(refuse());
    }
    Ok(path)
}

fn parse_meta(input: &Input, warnings: &mut Vec<Warning>) -> Result<Plan, ParseError> {
    let path = input.display();
    let docs: Vec<Value> = serde_saphyr::from_multiple_with_options(input.text(), yaml_options(input.text()))
        .map_err(|e| ParseError::invalid(path, format!("not a YAML stream: {e}")))?;
    let mut docs = docs.into_iter();
    let Some(Value::Object(first)) = docs.next() else {
        return Err(ParseError::invalid(
            path,
            "the first YAML document must describe the run (key, hardware, …)",
        ));
    };
    let name = first.get("key").and_then(Value::as_str).map(String::from).unwrap_or_else(|| {
        Path::new(path)
            .file_stem()
            .map_or("run".into(), |s| s.to_string_lossy().trim_end_matches("_meta").to_string())
    });
    let hardware = match first.get("hardware") {
        Some(hw) => {
            Some(parse_hardware(hw).map_err(|m| ParseError::invalid(path, format!("hardware: {m}")))?)
        }
        None => None,
    };
    let mut plan = Plan { name, hardware, ..Plan::default() };
    let mut described = 0;
    for (n, doc) in docs.enumerate() {
        let which = format!("document {}", n + 2);
        let text = |key: &str| doc.get(key).map(scalar).filter(|s| !s.is_empty());
        if matches!(text("filetype").as_deref(), Some("table" | "projection")) {
            described += 1;
        }
        match text("filetype").as_deref() {
            Some("table") => {
                let (Some(file), Some(kind), Some(key)) = (text("filename"), text("type"), text("field"))
                else {
                    warnings.push(Warning::in_file(
                        path,
                        format!("{which}: a table needs filename, type and field; skipped"),
                    ));
                    continue;
                };
                match Domain::from_boxfish_type(&kind) {
                    Some(domain) => plan.tables.push((file, domain, key)),
                    None => warnings.push(Warning::in_file(
                        path,
                        format!("{which}: table `{file}` is of type {kind}, not NODE, LINK, RANK or COMMUNICATOR; skipped"),
                    )),
                }
            }
            Some("projection") => match parse_projection(&doc, &text) {
                Ok(p) => plan.projections.push(p),
                Err(m) => {
                    warnings.push(Warning::in_file(path, format!("{which}: {m}; the projection is skipped")))
                }
            },
            other => warnings.push(Warning::in_file(
                path,
                format!(
                    "{which}: filetype `{}` is neither table nor projection; skipped",
                    other.unwrap_or("")
                ),
            )),
        }
    }
    if plan.hardware.is_none() && described == 0 {
        return Err(ParseError::invalid(
            path,
            "no hardware block and no table or projection documents: not a Boxfish meta file",
        ));
    }
    Ok(plan)
}

fn parse_projection(doc: &Value, text: &dyn Fn(&str) -> Option<String>) -> Result<PlannedProjection, String> {
    let sub: Vec<(Domain, String)> = doc
        .get("subdomain")
        .and_then(Value::as_array)
        .ok_or("no subdomain list")?
        .iter()
        .map(|s| {
            let kind = s.get("type").map(scalar).unwrap_or_default();
            let domain =
                Domain::from_boxfish_type(&kind).ok_or(format!("subdomain type `{kind}` is not known"))?;
            Ok((domain, s.get("field").map(scalar).unwrap_or_default()))
        })
        .collect::<Result<_, String>>()?;
    let [from, to] =
        <[(Domain, String); 2]>::try_from(sub).map_err(|_| "the subdomain list must have two entries")?;
    let kind = text("type").unwrap_or_default().to_ascii_lowercase();
    match kind.split_whitespace().collect::<Vec<_>>().join(" ").as_str() {
        "file" => {
            let file = text("filename").ok_or("a file projection needs a filename")?;
            Ok(PlannedProjection::File { file, from, to })
        }
        "identity" => Ok(PlannedProjection::Ready(Projection::Identity { from: from.0, to: to.0 })),
        "node link" => {
            let policy = |key: &str| match text(key) {
                None => Ok(Policy::Source),
                Some(p) => Policy::parse(&p).ok_or(format!("{key} `{p}` is not Source, Destination or Both")),
            };
            Ok(PlannedProjection::Ready(Projection::NodeLink {
                node_policy: policy("node_policy")?,
                link_policy: policy("link_policy")?,
            }))
        }
        other => Err(format!("projection type `{other}` is not file, identity or node link")),
    }
}

fn parse_hardware(hw: &Value) -> Result<Hardware, String> {
    let coords: Vec<String> = match hw.get("coords") {
        Some(Value::Array(list)) => list.iter().map(scalar).collect(),
        Some(_) => return Err("coords must be a list of axis names".into()),
        None => Vec::new(),
    };
    let per_axis = |key: &str| -> Result<Vec<String>, String> {
        match hw.get(key) {
            None => Ok(Vec::new()),
            Some(map) => coords
                .iter()
                .map(|c| map.get(c).map(scalar).ok_or(format!("{key} names no column for axis `{c}`")))
                .collect(),
        }
    };
    let dims = match hw.get("dim") {
        None => None,
        Some(map) => Some(
            coords
                .iter()
                .map(|c| {
                    let d = map.get(c).and_then(|v| v.as_u64().or_else(|| scalar(v).parse().ok()));
                    // A torus axis of extent 0 holds no node: a typo, not a network (issue 16).
                    d.and_then(|d| u32::try_from(d).ok())
                        .filter(|&d| d > 0)
                        .ok_or(format!("dim gives no extent (a whole number of at least 1) for axis `{c}`"))
                })
                .collect::<Result<Vec<u32>, String>>()?,
        ),
    };
    Ok(Hardware {
        coords_table: hw.get("coords_table").map(scalar),
        link_coords_table: hw.get("link_coords_table").map(scalar),
        source_coords: per_axis("source_coords")?,
        destination_coords: per_axis("destination_coords")?,
        dims,
        coords,
    })
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.trim().to_string(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_small_plain_files_are_read_whole() {
        let dir = std::env::temp_dir().join(format!("shoal-boxfish-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("t.yaml");
        std::fs::write(&plain, "- [a, int32]\n...\n1\n").unwrap();
        let gz = dir.join("t.yaml.gz");
        std::fs::write(&gz, [0x1f, 0x8b, 8, 0]).unwrap();
        assert!(small_plain_file(&plain));
        assert!(!small_plain_file(&gz), "gzip may expand to anything: streamed");
        assert!(!small_plain_file(&dir.join("missing.yaml")));
        assert!(!small_plain_file(&dir), "a folder");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
