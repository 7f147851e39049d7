//! One entry point for run data, whatever its format: a Boxfish `*_meta.yaml`, a generic-2D
//! `nodes.csv` (with its `links.csv`), `shoal convert`'s output, or a folder holding one of them.

use std::path::{Path, PathBuf};

use super::boxfish::load_boxfish;
use super::error::ParseError;
use super::plane_csv::load_plane;
use crate::model::{Run, Warning};

/// Opens run data. `path` is a Boxfish meta file, a nodes CSV file (its links file is the
/// sibling named with `links` for `nodes`, e.g. `mesh_nodes.csv` → `mesh_links.csv`), a links
/// CSV file (likewise), or a folder holding exactly one `*_meta.yaml` or a `nodes.csv` +
/// `links.csv` pair. Any file may be gzipped (`.gz`).
pub fn load_run(path: &Path) -> Result<(Run, Vec<Warning>), ParseError> {
    let shown = path.display().to_string();
    if path.is_dir() {
        let mut metas = Vec::new();
        let entries = std::fs::read_dir(path).map_err(|e| ParseError::io(&shown, e))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".gz").unwrap_or(&name);
            if stem.ends_with("_meta.yaml") || stem.ends_with("_meta.yml") {
                metas.push(entry.path());
            }
        }
        metas.sort();
        let mut skipped = Vec::new();
        let metas = super::special::without_special(metas, &mut skipped);
        let loaded = match metas.as_slice() {
            [one] => load_boxfish(one),
            [] => {
                let nodes = existing(&path.join("nodes.csv")).ok_or_else(|| {
                    ParseError::invalid(
                        &shown,
                        "holds no Boxfish `*_meta.yaml` and no `nodes.csv` + `links.csv` pair",
                    )
                })?;
                let links = existing(&path.join("links.csv"))
                    .ok_or_else(|| ParseError::invalid(&shown, "has `nodes.csv` but no `links.csv`"))?;
                load_plane(&nodes, &links)
            }
            many => {
                let names: Vec<String> = many.iter().map(|p| p.display().to_string()).collect();
                Err(ParseError::invalid(
                    &shown,
                    format!("holds several meta files; name one: {}", names.join(", ")),
                ))
            }
        };
        return loaded.map(|(run, mut warnings)| {
            warnings.splice(0..0, skipped);
            (run, warnings)
        });
    }
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let stem = name.strip_suffix(".gz").unwrap_or(&name);
    if stem.ends_with(".csv") {
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let (nodes, links) = if stem.contains("links") {
            (path.with_file_name(file.replacen("links", "nodes", 1)), path.to_path_buf())
        } else {
            (path.to_path_buf(), path.with_file_name(file.replacen("nodes", "links", 1)))
        };
        if nodes == links {
            return Err(ParseError::invalid(
                &shown,
                "a CSV run is a `…nodes….csv` file with its `…links….csv` sibling",
            ));
        }
        let links = existing(&links).ok_or_else(|| {
            ParseError::invalid(&shown, format!("the links file `{}` is missing", links.display()))
        })?;
        let nodes = existing(&nodes).ok_or_else(|| {
            ParseError::invalid(&shown, format!("the nodes file `{}` is missing", nodes.display()))
        })?;
        return load_plane(&nodes, &links);
    }
    load_boxfish(path)
}

/// The path, or the path with `.gz` added, whichever exists.
fn existing(path: &Path) -> Option<PathBuf> {
    if path.exists() && super::special::special_kind(path).is_none() {
        return Some(path.to_path_buf());
    }
    let mut gz = path.as_os_str().to_owned();
    gz.push(".gz");
    let gz = PathBuf::from(gz);
    gz.exists().then_some(gz)
}
