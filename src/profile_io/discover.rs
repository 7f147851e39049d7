//! Finding a rail's dump files in a directory: by known names first, by content for the rest.
//!
//! Admins name ibnetdiscover and ibroute output as they like (`topo.txt`, `lft-sw12.out`), so a
//! file whose name says nothing is recognised by the lines that match among a bounded sample (its
//! head and probes through it; gunzipped if needed), so debug output on top does not hide it. Per directory one **topology** is used, the best by kind
//! ([`DumpKind::TOPOLOGY_PREFERENCE`], and for link lists by name as before); the others are
//! named in a warning. Of the forwarding tables only the best kind present is opened
//! ([`DumpKind::TABLE_PREFERENCE`]): the best `.fdbs` by name, else the `opensm-lfts.dump`, else
//! every `ibroute`/`dump_fts` file; a note names the rest. When the directory itself holds no tables, its
//! sub-directories (one level) are searched for `ibroute` files: a folder of per-switch dumps
//! beside the topology makes the rail's routing.

use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::model::Warning;

use super::dump_kind::{DumpKind, kind_from_content, kind_from_name};
use super::error::ParseError;
use super::input::Input;

/// How much of a file's head is read to recognise it, and how much at each later probe.
const SNIFF_BYTES: usize = 64 * 1024;
const PROBE_BYTES: u64 = 4 * 1024;
const PROBES: u64 = 16;
/// A gzipped file cannot be probed: this much of its decompressed start is read instead.
const SNIFF_GZIP_BYTES: u64 = 1 << 20;

/// Preferred link-list names, best first (each may also end in `.gz`).
const LINK_LIST_NAMES: [&str; 4] = ["opensm-subnet.lst", "subnet.lst", "ibdiagnet2.lst", "ibdiagnet.lst"];
const FDBS_NAMES: [&str; 3] = ["opensm.fdbs", "ibdiagnet2.fdbs", "ibdiagnet.fdbs"];

/// The kind of a file from lines sampled through it (plain or gzip); `None` if unreadable or
/// not a dump. A plain file is read at its head and at evenly spaced probes, so a dump under
/// hundreds of debug lines is recognised by the lines that match (issue 16).
pub fn sniff(path: &Path) -> Option<DumpKind> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    (&mut file).take(SNIFF_BYTES as u64).read_to_end(&mut head).ok()?;
    let text = if head.starts_with(&[0x1f, 0x8b]) {
        let file = std::fs::File::open(path).ok()?;
        let mut out = Vec::new();
        // A short read is fine: only a sample of the lines matters.
        let _ = MultiGzDecoder::new(file).take(SNIFF_GZIP_BYTES).read_to_end(&mut out);
        out
    } else {
        with_probes(&mut file, head)
    };
    kind_from_content(&Input::from_text("", String::from_utf8_lossy(&text).into_owned()))
}

/// `head` followed by [`PROBES`] pieces read at evenly spaced offsets past it, each starting on
/// a new line (so a probe's cut first line is never taken for a line of the file).
fn with_probes(file: &mut std::fs::File, mut head: Vec<u8>) -> Vec<u8> {
    use std::io::{Seek, SeekFrom};
    let Ok(len) = file.metadata().map(|m| m.len()) else { return head };
    let start = head.len() as u64;
    if len <= start {
        return head;
    }
    for k in 1..=PROBES {
        let at = start + (len - start) * k / (PROBES + 1);
        let mut piece = Vec::new();
        if file.seek(SeekFrom::Start(at)).is_err()
            || (&mut *file).take(PROBE_BYTES).read_to_end(&mut piece).is_err()
        {
            break;
        }
        let Some(newline) = piece.iter().position(|&b| b == b'\n') else { continue };
        head.push(b'\n');
        head.extend_from_slice(&piece[newline + 1..]);
    }
    head
}

/// The files of a rail directory to read, with their kinds.
pub fn discover(dir: &Path, warnings: &mut Vec<Warning>) -> Result<Vec<(DumpKind, PathBuf)>, ParseError> {
    let display = dir.display().to_string();
    let found = recognised_files(dir, warnings)?;
    let mut chosen = Vec::new();
    let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut pick_one = |mut candidates: Vec<(DumpKind, PathBuf)>, rank: &dyn Fn(&str) -> _| {
        candidates.sort_by_key(|(kind, path)| rank_key(*kind, &name(path), rank));
        if let Some((first, rest)) = candidates.split_first() {
            if !rest.is_empty() {
                let others: Vec<String> = rest.iter().map(|(_, p)| name(p)).collect();
                let message = format!("using {}; also found {}", name(&first.1), others.join(", "));
                warnings.push(Warning::info_in_file(&display, message));
            }
            chosen.push(first.clone());
        }
    };
    let of_kind = |wanted: &dyn Fn(DumpKind) -> bool| {
        found.iter().filter(|(k, _)| wanted(*k)).cloned().collect::<Vec<_>>()
    };
    pick_one(of_kind(&|k| k.is_topology()), &|n| name_rank(n, &LINK_LIST_NAMES));
    // One kind of forwarding tables, the best present; the others are named and not opened.
    let table_kind = DumpKind::TABLE_PREFERENCE.into_iter().find(|&k| found.iter().any(|(f, _)| *f == k));
    match table_kind {
        Some(DumpKind::Ibroute) => chosen.extend(of_kind(&|k| k == DumpKind::Ibroute)),
        Some(kind) => pick_one(of_kind(&|k| k == kind), &|n| name_rank(n, &FDBS_NAMES)),
        None => {
            // A folder of per-switch ibroute dumps beside the topology.
            for sub in subdirectories(dir)? {
                chosen.extend(
                    recognised_files(&sub, warnings)?.into_iter().filter(|(k, _)| *k == DumpKind::Ibroute),
                );
            }
        }
    }
    let far = of_kind(&|k| k == DumpKind::AdaptiveRouting);
    // With AR tables, a db_csv that is not the topology is still read for its AR_INFO (which
    // switches have AR enabled); without them it would only cost a read.
    if !far.is_empty() && !chosen.iter().any(|(k, _)| *k == DumpKind::Ibdiagnet2Csv) {
        chosen.extend(
            of_kind(&|k| k == DumpKind::Ibdiagnet2Csv).into_iter().map(|(_, p)| (DumpKind::ArInfo, p)),
        );
    }
    chosen.extend(far);
    if let Some(used) = table_kind {
        for (_, path) in found.iter().filter(|(k, _)| k.is_table() && *k != used) {
            let message =
                format!("using the {} forwarding tables; {} is not read", used.describe(), path.display());
            warnings.push(Warning::info_in_file(&display, message));
        }
    }
    Ok(chosen)
}

/// Topology kinds by preference, then the name rank.
fn rank_key(
    kind: DumpKind,
    name: &str,
    rank: &dyn Fn(&str) -> (usize, bool, String),
) -> (usize, (usize, bool, String)) {
    let by_kind = DumpKind::TOPOLOGY_PREFERENCE.iter().position(|k| *k == kind).unwrap_or(usize::MAX);
    (by_kind, rank(name))
}

/// Every file of `dir` (not recursing) with a kind, by name or else by content, in name order.
/// FIFOs, sockets and devices are skipped with a warning: sniffing a FIFO would block.
fn recognised_files(dir: &Path, warnings: &mut Vec<Warning>) -> Result<Vec<(DumpKind, PathBuf)>, ParseError> {
    let display = dir.display().to_string();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ParseError::io(&display, e))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_type().is_ok_and(|t| !t.is_dir()))
        .map(|entry| entry.path())
        .collect();
    paths.sort();
    let paths = super::special::without_special(paths, warnings);
    Ok(paths
        .into_iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_string();
            let kind = match kind_from_name(&name) {
                Some(kind) => kind,
                None if skip_by_name(&name) => return None,
                None => sniff(&path)?,
            };
            Some((kind, path))
        })
        .collect())
}

/// Names never worth opening: profiles, net files, logs, images.
fn skip_by_name(name: &str) -> bool {
    let plain = name.strip_suffix(".gz").unwrap_or(name);
    [".ibprof", ".net", ".log", ".png", ".svg", ".md", ".json", ".py", ".sh"]
        .iter()
        .any(|s| plain.ends_with(s))
}

fn subdirectories(dir: &Path) -> Result<Vec<PathBuf>, ParseError> {
    let display = dir.display().to_string();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ParseError::io(&display, e))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.path())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Known names first (in `preferred` order), plain before `.gz`, then by name.
fn name_rank(name: &str, preferred: &[&str]) -> (usize, bool, String) {
    let plain = name.strip_suffix(".gz").unwrap_or(name);
    let by_name = preferred.iter().position(|p| *p == plain).unwrap_or(preferred.len());
    (by_name, name.ends_with(".gz"), name.to_string())
}
