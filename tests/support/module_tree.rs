//! Which module each file is, following `mod` declarations from the crate roots (`src/lib.rs`,
//! `src/main.rs`), `#[path]` included, and which files are test modules.

use std::collections::BTreeMap;
use std::path::Path;

use crate::rust_paths::scan;

/// Where a file sits in its crate.
#[derive(Clone, Debug)]
pub struct Placed {
    /// `lib` for the library, `bin` for the binary.
    pub krate: &'static str,
    pub module: Vec<String>,
    /// Declared under `#[cfg(test)]`, itself or a module above it.
    pub test: bool,
}

/// Every file of `files` with its place. Files no `mod` reaches are read as the library module
/// their path names.
pub fn module_tree(files: &BTreeMap<String, String>) -> BTreeMap<String, Placed> {
    let mut placed: BTreeMap<String, Placed> = BTreeMap::new();
    let root = |krate| Placed { krate, module: vec![], test: false };
    let mut queue: Vec<(String, Placed)> =
        vec![("src/lib.rs".into(), root("lib")), ("src/main.rs".into(), root("bin"))];
    while let Some((file, at)) = queue.pop() {
        let Some(src) = files.get(&file) else { continue };
        if placed.contains_key(&file) {
            continue;
        }
        let dir = Path::new(&file).parent().unwrap_or(Path::new("")).to_path_buf();
        let stem = Path::new(&file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let own_dir =
            if matches!(stem.as_str(), "lib" | "main" | "mod") { dir.clone() } else { dir.join(&stem) };
        for decl in scan(src, &at.module).mods {
            let mut module = at.module.clone();
            module.push(decl.name.clone());
            let candidates = match decl.path {
                Some(p) => vec![dir.join(p)],
                None => {
                    vec![own_dir.join(format!("{}.rs", decl.name)), own_dir.join(&decl.name).join("mod.rs")]
                }
            };
            let found = candidates.into_iter().map(|p| unixy(&p)).find(|p| files.contains_key(p));
            if let Some(f) = found {
                queue.push((f, Placed { krate: at.krate, module, test: at.test || decl.test }));
            }
        }
        placed.insert(file, at);
    }
    for file in files.keys() {
        if !placed.contains_key(file) {
            let rel = file.trim_start_matches("src/").trim_end_matches(".rs");
            let mut module: Vec<String> = rel.split('/').map(String::from).collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            placed.insert(file.clone(), Placed { krate: "lib", module, test: false });
        }
    }
    placed
}

pub fn unixy(p: &Path) -> String {
    p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}
