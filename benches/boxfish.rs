//! Boxfish run data (issue 7): load a run shaped like Boxfish's `bgpc` example (8×8×8 torus,
//! 512 nodes, 52,224 link rows) in ≤ 23 ms and like `collex` (156,672 link rows, communicators)
//! in ≤ 48 ms, 100× faster than Boxfish's own loader; answer a node-attribute filter onto links
//! in ≤ 10 ms (Boxfish: 15 s on bgpc).
//!
//! The runs are written by this bench into a temporary folder, with the same files, columns and
//! row counts as Boxfish's examples (17 code regions for bgpc, 51 for collex; counts from a
//! fixed pseudo-random sequence), so nothing large is committed.
//!
//! - `load`: meta file → `Run` from disk (read, parse every table in parallel, build the network
//!   by coordinates, build the projection joins): what a user waits for;
//! - `node_filter_onto_links`: the mask of links whose source node passes `netWrites > …` in
//!   code region 1 (node rows → node ids → links by hash join);
//! - `link_values_under_node_filter`: the same filter plus `code_region = 1` on the link rows,
//!   mean packets per link: what a torus view recomputes when a filter changes.
//!
//! `cargo bench --bench boxfish`
//!
//! Figures on the 2-core development machine while other builds ran (load average ~3), median:
//! load bgpc-shaped 7.7 ms (≤ 23 ms), collex-shaped 27 ms (≤ 48 ms); node filter onto links
//! 0.13 ms (≤ 10 ms); link values under that filter 0.27 ms.
//!
//! 2026-11-28, load 8.9, back to back with a bench binary of 2026-11-27: load collex-shaped
//! 52.6 -> 44.1 ms, bgpc-shaped 15.2 -> 9.5 ms (medians) after rows were written once, straight
//! into their columns, from tables read whole (`profile_io/boxfish_rows.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::Bencher;
use shoal::model::{Domain, Run};
use shoal::profile_io::load_run;
use shoal::view_model::query::{Aggregate, Condition, mask, values};

fn main() {
    divan::main();
}

/// A run shaped like one of Boxfish's examples: `regions` code regions (plus the whole run, −1).
struct Shape {
    name: &'static str,
    regions: i64,
    communicators: bool,
}

const BGPC: Shape = Shape { name: "bgpc", regions: 16, communicators: false };
const COLLEX: Shape = Shape { name: "collex", regions: 50, communicators: true };

/// A fixed pseudo-random sequence (xorshift), so every run of the bench reads the same data.
struct Counts(u64);

impl Counts {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

fn header(out: &mut String, key: &str, columns: &[&str]) {
    let _ = write!(out, "---\nkey: {key}\n---\n");
    for c in columns {
        let dtype = if *c == "communicator_name" { "S32" } else { "int64" };
        let _ = writeln!(out, "- [{c}, {dtype}]");
    }
    out.push_str("...\n");
}

fn write_run(dir: &Path, shape: &Shape) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let n = shape.name;
    let mut counts = Counts(0x9e37_79b9_7f4a_7c15);
    let coords: Vec<[i64; 3]> = (0..512).map(|i| [i / 64, i / 8 % 8, i % 8]).collect();
    let regions: Vec<i64> = std::iter::once(-1).chain(1..=shape.regions).collect();
    let mut nodes = String::new();
    header(
        &mut nodes,
        n,
        &["nodeid", "x", "y", "z", "code_region", "muls", "adds", "logs", "loads", "stores", "netWrites"],
    );
    for &r in &regions {
        for (id, c) in coords.iter().enumerate() {
            let v: Vec<String> = (0..6).map(|_| counts.next(1 << 24).to_string()).collect();
            let _ = writeln!(nodes, "{id} {} {} {} {r} {} ", c[0], c[1], c[2], v.join(" "));
        }
    }
    let mut links = String::new();
    header(&mut links, n, &["linkid", "sx", "sy", "sz", "tx", "ty", "tz", "code_region", "packets"]);
    for &r in &regions {
        for (id, c) in coords.iter().enumerate() {
            for (k, (axis, step)) in [(0, 1), (0, 7), (1, 1), (1, 7), (2, 1), (2, 7)].into_iter().enumerate()
            {
                let mut t = *c;
                t[axis] = (t[axis] + step) % 8;
                let p = counts.next(10_000);
                let _ = writeln!(
                    links,
                    "{} {} {} {} {} {} {} {r} {p} ",
                    id * 6 + k,
                    c[0],
                    c[1],
                    c[2],
                    t[0],
                    t[1],
                    t[2]
                );
            }
        }
    }
    let mut map = String::new();
    header(&mut map, n, &["mpirank", "nodeid"]);
    for id in 0..512 {
        let _ = writeln!(map, "{id} {id} ");
    }
    let mut meta = format!(
        "---\nkey: {n}\nhardware: {{\n coords: [x, y, z],\n coords_table: {n}_nodes.yaml,\n dim: {{x: 8, y: 8, z: 8}},\n \
         source_coords: {{x: sx, y: sy, z: sz}},\n destination_coords: {{x: tx, y: ty, z: tz}},\n link_coords_table: {n}_links.yaml\n}}\n"
    );
    for (file, kind, field) in [("nodes", "NODE", "nodeid"), ("links", "LINK", "linkid")] {
        let _ = write!(
            meta,
            "---\nfiletype: table\nfilename: {n}_{file}.yaml\ndomain: HW\ntype: {kind}\nfield: {field}\n"
        );
    }
    let _ = write!(
        meta,
        "---\nfiletype: projection\ntype: file\nfilename: {n}_map.yaml\nsubdomain:\n- {{ domain: HW, type: NODE, field: nodeid }}\n\
         - {{ domain: COMM, type: RANK, field: mpirank }}\n---\nfiletype: projection\ntype: node link\nnode_policy: Source\n\
         link_policy: Source\nsubdomain:\n- {{ domain: HW, type: NODE, field: nodeid }}\n- {{ domain: HW, type: LINK, field: linkid }}\n"
    );
    if shape.communicators {
        let mut comms = String::new();
        header(&mut comms, n, &["communicator_group_id", "communicator_name", "subcomm_id"]);
        let mut cmap = String::new();
        header(&mut cmap, n, &["communicator_group_id", "mpirank"]);
        for g in 0..64 {
            let _ = writeln!(comms, "{g} line-{} {} ", g / 8, g % 8);
            for rank in (0..512).filter(|r| r / 8 % 64 == g) {
                let _ = writeln!(cmap, "{g} {rank} ");
            }
        }
        std::fs::write(dir.join(format!("{n}_communicators.yaml")), comms).unwrap();
        std::fs::write(dir.join(format!("{n}_communicator_map.yaml")), cmap).unwrap();
        let _ = write!(
            meta,
            "---\nfiletype: table\nfilename: {n}_communicators.yaml\ndomain: COMM\ntype: COMMUNICATOR\n\
             field: communicator_group_id\n---\nfiletype: projection\ntype: file\nfilename: {n}_communicator_map.yaml\n\
             subdomain:\n- {{ domain: COMM, type: COMMUNICATOR, field: communicator_group_id }}\n\
             - {{ domain: COMM, type: RANK, field: mpirank }}\n"
        );
    }
    meta.push_str("...\n");
    std::fs::write(dir.join(format!("{n}_nodes.yaml")), nodes).unwrap();
    std::fs::write(dir.join(format!("{n}_links.yaml")), links).unwrap();
    std::fs::write(dir.join(format!("{n}_map.yaml")), map).unwrap();
    let path = dir.join(format!("{n}_meta.yaml"));
    std::fs::write(&path, meta).unwrap();
    path
}

fn meta(shape: &Shape) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-bench-boxfish-{}-{}", std::process::id(), shape.name));
    write_run(&dir, shape)
}

static BGPC_META: LazyLock<PathBuf> = LazyLock::new(|| meta(&BGPC));
static COLLEX_META: LazyLock<PathBuf> = LazyLock::new(|| meta(&COLLEX));
static BGPC_RUN: LazyLock<Run> = LazyLock::new(|| load(&BGPC_META));

fn load(path: &Path) -> Run {
    let (run, warnings) = load_run(path).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(run.network().links.len(), 3072);
    run
}

#[divan::bench(sample_count = 30)]
fn load_bgpc_shaped(bencher: Bencher) {
    let path = &*BGPC_META;
    let rows = load(path).tables_of(Domain::Links).map(|t| t.rows()).sum::<usize>();
    assert_eq!(rows, 3072 * 17, "52,224 link rows as in bgpc");
    bencher.bench(|| load_run(path).unwrap());
}

#[divan::bench(sample_count = 20)]
fn load_collex_shaped(bencher: Bencher) {
    let path = &*COLLEX_META;
    let rows = load(path).tables_of(Domain::Links).map(|t| t.rows()).sum::<usize>();
    assert_eq!(rows, 3072 * 51, "156,672 link rows as in collex");
    bencher.bench(|| load_run(path).unwrap());
}

fn node_filter() -> Vec<Condition> {
    vec![
        Condition::parse("nodes.netWrites > 8000000").unwrap(),
        Condition::parse("nodes.code_region = 1").unwrap(),
    ]
}

#[divan::bench(sample_count = 100)]
fn node_filter_onto_links(bencher: Bencher) {
    let run = &*BGPC_RUN;
    let conditions = node_filter();
    let kept = mask(run, Domain::Links, &conditions).unwrap().iter().filter(|&&b| b).count();
    assert!(kept > 0 && kept < 3072, "{kept}");
    bencher.bench(|| mask(run, Domain::Links, &conditions).unwrap());
}

#[divan::bench(sample_count = 100)]
fn link_values_under_node_filter(bencher: Bencher) {
    let run = &*BGPC_RUN;
    let mut conditions = node_filter();
    conditions.push(Condition::parse("code_region = 1").unwrap());
    bencher.bench(|| values(run, Domain::Links, &conditions, Aggregate::Mean, "packets").unwrap());
}
