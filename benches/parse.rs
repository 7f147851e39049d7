//! Parse stage on a TSUBAME-sized rail (`benches/data/tsubame/rail0`: OpenSM dumps of a 3-level
//! fat tree, 1,296 hosts, 180 switches, 3,888 links, ~7,800 `.lst` lines, ~266,000 `.fdbs` rows).
//!
//! `cargo bench --bench parse`

use std::path::{Path, PathBuf};

use divan::Bencher;
use shoal::model::{FabricBuilder, RailId};
use shoal::profile_io::fdbs::parse_fdbs;
use shoal::profile_io::ibdiagnet_lst::{add_links, read_lst};
use shoal::profile_io::tables::infer_lmc;
use shoal::profile_io::{Input, load_rail};

fn main() {
    divan::main();
}

fn rail0() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/tsubame/rail0")
}

fn raw(name: &str) -> Vec<u8> {
    let path = rail0().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (see sample-data/README.md)", path.display()))
}

fn input(name: &str) -> Input {
    Input::from_bytes(name, raw(name)).unwrap().0
}

#[divan::bench(sample_count = 30)]
fn gunzip_lst(bencher: Bencher) {
    let bytes = raw("opensm-subnet.lst.gz");
    bencher.with_inputs(|| bytes.clone()).bench_values(|bytes| Input::from_bytes("lst", bytes).unwrap());
}

#[divan::bench(sample_count = 30)]
fn gunzip_fdbs(bencher: Bencher) {
    let bytes = raw("opensm.fdbs.gz");
    bencher.with_inputs(|| bytes.clone()).bench_values(|bytes| Input::from_bytes("fdbs", bytes).unwrap());
}

#[divan::bench(sample_count = 30)]
fn read_lst_lines(bencher: Bencher) {
    let lst = input("opensm-subnet.lst.gz");
    bencher.bench(|| read_lst(&lst));
}

#[divan::bench(sample_count = 30)]
fn parse_fdbs_rows(bencher: Bencher) {
    let fdbs = input("opensm.fdbs.gz");
    bencher.bench(|| parse_fdbs(&fdbs).unwrap());
}

/// LMC inference, nodes, links and tables into a `Fabric`, from parsed lines.
#[divan::bench(sample_count = 30)]
fn build_fabric(bencher: Bencher) {
    let lst = input("opensm-subnet.lst.gz");
    let (links, _) = read_lst(&lst).unwrap();
    let (tables, _) = parse_fdbs(&input("opensm.fdbs.gz")).unwrap();
    bencher.with_inputs(|| tables.clone()).bench_values(|tables| {
        let lmc = infer_lmc(&links.iter().collect::<Vec<_>>(), tables.values().map(|t| &t.lft));
        let mut builder = FabricBuilder::new(RailId(0));
        add_links(&mut builder, "lst", &links, lmc);
        for (guid, table) in tables {
            let _ = builder.set_lft(guid, table.lft);
        }
        builder.build()
    });
}

/// The whole stage: discover, read, gunzip, parse and build one rail.
#[divan::bench(sample_count = 30)]
fn load_rail_tsubame(bencher: Bencher) {
    let dir = [rail0()];
    bencher.bench(|| load_rail(&dir, RailId(0)).unwrap());
}
