//! Parsing a 1,300-host rail in every format shoal reads (issue 5: ≤ 50 ms each).
//!
//! Input: `benches/data/tsubame/rail0` (1,296 hosts, 180 switches, 3,888 links, 1,476 LIDs):
//! OpenSM's `.lst`/`.fdbs`, the real infiniband-diags output for the same live ibsim fabric
//! (`ibnetdiscover.txt.gz`, `ibnetdiscover-p.txt.gz`, `dump_fts.txt.gz`, ~266,000 table rows),
//! and `ibdiagnet2/` written from them (`scripts/make-format-fixtures.sh`).
//!
//! - `parse_*`: one file already in memory (decompressed) → links or tables;
//! - `build_rail`: a rail's topology + tables in memory → `Fabric` (parse, LMC, build, checks);
//! - `load_rail`: the same from the files on disk (read, gunzip, parse, build): what a user waits.
//!
//! `cargo bench --bench formats`
//!
//! Figures on the 2-core development machine while other builds ran (load average ~2), median:
//! parse ibnetdiscover 3.9 ms, `-p` 3.8 ms, ibdiagnet2.lst 7.6 ms, ibdiagnet2.db_csv 9.3 ms,
//! dump_fts 14 ms (parallel chunks), ibdiagnet2.fdbs 12 ms; gunzip dump_fts (2.3 → 24 MB) 12 ms;
//! `load` from disk: lst+fdbs 37 ms, ibnetdiscover+dump_fts 37 ms, `-p`+dump_fts 37 ms,
//! db_csv+fdbs 32 ms, ibdiagnet2.lst+fdbs 35 ms (all within the 50 ms).

use std::path::{Path, PathBuf};

use divan::Bencher;
use shoal::model::RailId;
use shoal::profile_io::fdbs::parse_fdbs;
use shoal::profile_io::ibdiagnet_lst::read_lst;
use shoal::profile_io::ibdiagnet2_csv::read_db_csv;
use shoal::profile_io::ibnetdiscover::read_ibnetdiscover;
use shoal::profile_io::ibnetdiscover_ports::read_ports_list;
use shoal::profile_io::ibroute::parse_ibroute;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};
use shoal::profile_io::{Input, load_rail};

fn main() {
    divan::main();
}

fn rail0() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/tsubame/rail0")
}

fn input(name: &str) -> Input {
    let path = rail0().join(name);
    Input::open(&path).unwrap_or_else(|e| panic!("{e} (see scripts/make-format-fixtures.sh)")).0
}

/// The rails, each as (name, topology file, its kind, tables file, their kind).
const RAILS: [(&str, &str, DumpKind, &str, DumpKind); 5] = [
    ("lst+fdbs", "opensm-subnet.lst.gz", DumpKind::LinkList, "opensm.fdbs.gz", DumpKind::Fdbs),
    (
        "ibnetdiscover+dump_fts",
        "ibnetdiscover.txt.gz",
        DumpKind::Ibnetdiscover,
        "dump_fts.txt.gz",
        DumpKind::Ibroute,
    ),
    (
        "ports_list+dump_fts",
        "ibnetdiscover-p.txt.gz",
        DumpKind::PortsList,
        "dump_fts.txt.gz",
        DumpKind::Ibroute,
    ),
    (
        "ibdiagnet2_db_csv+fdbs",
        "ibdiagnet2/ibdiagnet2.db_csv.gz",
        DumpKind::Ibdiagnet2Csv,
        "ibdiagnet2/ibdiagnet2.fdbs.gz",
        DumpKind::Fdbs,
    ),
    (
        "ibdiagnet2_lst+fdbs",
        "ibdiagnet2/ibdiagnet2.lst.gz",
        DumpKind::LinkList,
        "ibdiagnet2/ibdiagnet2.fdbs.gz",
        DumpKind::Fdbs,
    ),
];

const NAMES: [&str; 5] = [RAILS[0].0, RAILS[1].0, RAILS[2].0, RAILS[3].0, RAILS[4].0];

fn rail(name: &str) -> (&'static str, DumpKind, &'static str, DumpKind) {
    let (_, topo, topo_kind, tables, table_kind) = RAILS.iter().find(|r| r.0 == name).copied().unwrap();
    (topo, topo_kind, tables, table_kind)
}

#[divan::bench(sample_count = 20)]
fn parse_ibnetdiscover(bencher: Bencher) {
    let topo = input("ibnetdiscover.txt.gz");
    bencher.bench(|| read_ibnetdiscover(&topo).unwrap());
}

#[divan::bench(sample_count = 20)]
fn parse_ports_list(bencher: Bencher) {
    let topo = input("ibnetdiscover-p.txt.gz");
    bencher.bench(|| read_ports_list(&topo).unwrap());
}

#[divan::bench(sample_count = 20)]
fn parse_ibdiagnet2_db_csv(bencher: Bencher) {
    let topo = input("ibdiagnet2/ibdiagnet2.db_csv.gz");
    bencher.bench(|| read_db_csv(&topo).unwrap());
}

#[divan::bench(sample_count = 20)]
fn parse_ibdiagnet2_lst(bencher: Bencher) {
    let topo = input("ibdiagnet2/ibdiagnet2.lst.gz");
    bencher.bench(|| read_lst(&topo));
}

#[divan::bench(sample_count = 20)]
fn parse_dump_fts(bencher: Bencher) {
    let tables = input("dump_fts.txt.gz");
    bencher.bench(|| parse_ibroute(&tables).unwrap());
}

#[divan::bench(sample_count = 20)]
fn parse_ibdiagnet2_fdbs(bencher: Bencher) {
    let tables = input("ibdiagnet2/ibdiagnet2.fdbs.gz");
    bencher.bench(|| parse_fdbs(&tables).unwrap());
}

/// Gunzip alone, for the files that dominate `load` (a gzip stream decompresses on one core).
#[divan::bench(args = ["dump_fts.txt.gz", "opensm.fdbs.gz", "ibnetdiscover.txt.gz"], sample_count = 20)]
fn gunzip(bencher: Bencher, name: &str) {
    let bytes = std::fs::read(rail0().join(name)).unwrap();
    bencher.with_inputs(|| bytes.clone()).bench_values(|bytes| Input::from_bytes(name, bytes).unwrap());
}

/// Topology + tables already in memory → `Fabric`.
#[divan::bench(args = NAMES, sample_count = 20)]
fn build(bencher: Bencher, name: &str) {
    let (topo, topo_kind, tables, table_kind) = rail(name);
    let inputs = RailInputs { inputs: vec![(topo_kind, input(topo)), (table_kind, input(tables))] };
    bencher.bench(|| build_rail(&inputs, RailId(0), "rail 0").unwrap());
}

/// From the gzipped files on disk: read, gunzip, parse, build.
#[divan::bench(args = NAMES, sample_count = 20)]
fn load(bencher: Bencher, name: &str) {
    let (topo, _, tables, _) = rail(name);
    let paths = [rail0().join(topo), rail0().join(tables)];
    bencher.bench(|| load_rail(&paths, RailId(0)).unwrap());
}
