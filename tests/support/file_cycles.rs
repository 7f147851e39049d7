//! Import cycles between the files of one folder.
//!
//! A file reaches another when it names an item the other declares: through a `use`, a
//! `crate::`/`super::` path in code, or a re-export, which is followed to the file that declares
//! the item (`use super::Plane` where `mod.rs` has `pub use planes::Plane` reaches `planes.rs`;
//! where `mod.rs` declares `Plane` itself it reaches `mod.rs`). Within a folder, each of its files
//! is one node (`mod.rs` too) and each subfolder is one node for everything below it, so
//! `scene/dataset/` ↔ `scene/view.rs` is a cycle of `scene/`. The `pub use` lines of a `mod.rs`
//! (or crate root) are not edges themselves: that file is its folder's front, re-exporting its
//! children; elsewhere a `pub use` is an edge like any `use`. Test code (`#[cfg(test)]` modules,
//! inline or in their own files) is left out: a test module is a child module that may build its
//! fixtures with any sibling, and nothing ships that depends on it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::module_tree::{Placed, module_tree};
use crate::rust_paths::{FileScan, Reference, scan};

/// Where an edge was seen: `file:line` and the path as written.
type Witness = (String, usize, String);

/// One folder's graph: node → node → the first reference that made the edge.
type Graph = BTreeMap<String, BTreeMap<String, Witness>>;

/// The scanned tree: each file's place and scan, and the file of each module.
struct Crate<'a> {
    tree: &'a BTreeMap<String, Placed>,
    scans: BTreeMap<&'a str, FileScan>,
    by_module: BTreeMap<(&'a str, &'a [String]), &'a str>,
}

/// Every cycle, one message per tangle: the folder, one cycle through it with the line that
/// makes each step, and every file of the tangle when there are more.
pub fn file_cycles(files: &BTreeMap<String, String>) -> Vec<String> {
    let tree = module_tree(files);
    let krate = Crate {
        tree: &tree,
        scans: files.iter().map(|(f, src)| (f.as_str(), scan(src, &tree[f].module))).collect(),
        by_module: tree
            .iter()
            .filter(|(_, p)| !p.test)
            .map(|(f, p)| ((p.krate, p.module.as_slice()), f.as_str()))
            .collect(),
    };
    let mut folders: BTreeMap<String, Graph> = BTreeMap::new();
    for (file, placed) in tree.iter().filter(|(_, p)| !p.test) {
        let scanned = &krate.scans[file.as_str()];
        let facade = ["mod.rs", "lib.rs", "main.rs"].iter().any(|root| file.ends_with(root));
        for reference in scanned.references.iter().filter(|r| !r.in_test && !(facade && r.reexport)) {
            let Some((path, line)) = resolve(reference, placed, scanned) else { continue };
            let Some(target) = krate.declaring_file(placed.krate, path, 0) else { continue };
            let Some((folder, from, to)) = folder_edge(file, target) else { continue };
            let witness = (file.clone(), line, reference.written());
            folders.entry(folder).or_default().entry(from).or_default().entry(to).or_insert(witness);
        }
    }
    let mut found = Vec::new();
    for (folder, graph) in &folders {
        for tangle in tangles(graph) {
            found.push(describe(folder, graph, &tangle));
        }
    }
    found
}

impl<'a> Crate<'a> {
    /// The file that declares what `path` names: the deepest module file on it, or, where that
    /// file only brings the next name in with a `use`, the file that `use` reaches.
    fn declaring_file(&self, krate: &str, mut path: Vec<String>, hops: usize) -> Option<&'a str> {
        path.retain(|s| s != "self");
        let k = (0..=path.len()).rev().find(|&k| self.by_module.contains_key(&(krate, &path[..k])))?;
        let file = self.by_module[&(krate, &path[..k])];
        let Some(name) = path.get(k) else { return Some(file) };
        let scanned = &self.scans[file];
        if hops > 8 || scanned.items.contains(name) {
            return Some(file);
        }
        let imported = scanned.references.iter().find(|r| r.top_level_name.as_ref() == Some(name));
        match imported.and_then(|r| resolve(r, &self.tree[file], scanned)) {
            Some((mut via, _)) => {
                via.extend(path[k + 1..].iter().cloned());
                self.declaring_file(krate, via, hops + 1).or(Some(file))
            }
            None => Some(file),
        }
    }
}

/// The path from the crate root that `reference` names: crate-relative (`crate::`, `super::`,
/// `self::`), or starting with a child module the file declares (`use child::Item;`).
fn resolve(reference: &Reference, placed: &Placed, scanned: &FileScan) -> Option<(Vec<String>, usize)> {
    if let Some(resolved) = reference.resolve() {
        return Some(resolved);
    }
    let (first, line) = reference.segments.first()?;
    let child = reference.module == placed.module && scanned.mods.iter().any(|m| &m.name == first);
    let path = placed.module.iter().cloned().chain(reference.segments.iter().map(|s| s.0.clone()));
    child.then(|| (path.collect(), *line))
}

/// The folder where `from` and `to` part, and the node each is there: a file of the folder, or
/// the subfolder (`name/`) it lies in. `None` for a file reaching itself.
fn folder_edge(from: &str, to: &str) -> Option<(String, String, String)> {
    let a: Vec<&str> = from.split('/').collect();
    let b: Vec<&str> = to.split('/').collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common >= a.len().min(b.len()) {
        return None;
    }
    let node = |parts: &[&str]| {
        if parts.len() == common + 1 { parts[common].to_string() } else { format!("{}/", parts[common]) }
    };
    let folder = a[..common].join("/") + "/";
    let (x, y) = (node(&a), node(&b));
    (x != y).then_some((folder, x, y))
}

/// The strongly connected sets of two nodes or more, each in name order.
fn tangles(graph: &Graph) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::from([from.to_string()]);
        let mut queue = VecDeque::from([from.to_string()]);
        while let Some(n) = queue.pop_front() {
            for next in graph.get(&n).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    queue.push_back(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|n| (n, reach(n))).collect();
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for (n, from_n) in &reached {
        if placed.contains(*n) {
            continue;
        }
        let tangle: Vec<String> =
            from_n.iter().filter(|m| reached.get(m).is_some_and(|r| r.contains(*n))).cloned().collect();
        placed.extend(tangle.iter().cloned());
        if tangle.len() > 1 {
            out.push(tangle);
        }
    }
    out
}

/// `src/layout/: fat_tree.rs → planes.rs → fat_tree.rs (…:78 `…`; …:21 `…`)`, the shortest cycle
/// through the tangle's first node, then the whole tangle if it is larger.
fn describe(folder: &str, graph: &Graph, tangle: &[String]) -> String {
    let start = &tangle[0];
    let mut back: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    let mut last = None;
    'search: while let Some(n) = queue.pop_front() {
        for next in graph[n].keys().filter(|m| tangle.contains(m)) {
            if next == start {
                last = Some(n);
                break 'search;
            }
            if !back.contains_key(next) {
                back.insert(next, n);
                queue.push_back(next);
            }
        }
    }
    let mut cycle = vec![start];
    let mut at = last.unwrap_or(start);
    while at != start {
        cycle.insert(1, at);
        at = back[at];
    }
    cycle.push(start);
    let steps: Vec<String> = cycle
        .windows(2)
        .map(|w| {
            let (file, line, written) = &graph[w[0]][w[1]];
            format!("{file}:{line} `{written}`")
        })
        .collect();
    let names: Vec<&str> = cycle.iter().map(|s| s.as_str()).collect();
    let mut message = format!("{folder}: import cycle {} ({})", names.join(" → "), steps.join("; "));
    if tangle.len() + 1 > cycle.len() {
        message += &format!("; tangled together: {}", tangle.join(", "));
    }
    message
}
