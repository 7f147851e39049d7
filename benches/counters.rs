//! Port counters of both rails of a k = 36 three-level fat tree (2 × 34,992 links = 69,984
//! links, 139,968 sending ports), written by the bench as real tools print them: rail 0 as
//! concatenated `perfquery -x` blocks (LIDs), rail 1 as an ibdiagnet2 `db_csv` `PM_INFO` section
//! (GUIDs), written once to files. Measured: what `--counters` does, the files read from disk (in
//! parallel, streamed) and joined to the link ends
//! (target ≤ 0.3 s), once per rail (counters as they stand) and before + after (two per rail).
//!
//! `cargo bench --bench counters`

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::Bencher;
use shoal::model::synthetic::ThreeLevel;
use shoal::model::{Cluster, Fabric, LinkEnd, RailId};
use shoal::view_model::trace::{CounterSpec, read_observed};

fn main() {
    divan::main();
}

const K: usize = 36;

struct Data {
    cluster: Cluster,
    /// The files on disk: before then after for each rail.
    before: [PathBuf; 2],
    after: [PathBuf; 2],
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let rails = vec![
            ThreeLevel::k_ary(K).build(),
            ThreeLevel::k_ary(K).rail(RailId(1), 0x0002_c901_0000_0000).build(),
        ];
        let cluster = Cluster::new(rails);
        let links: usize = cluster.rails.iter().map(Fabric::link_count).sum();
        assert_eq!(links, 69_984);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("counters-k36");
        std::fs::create_dir_all(&dir).expect("bench data folder");
        let file = |name: &str, text: String| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("bench counter file");
            path
        };
        let before = [
            file("rail0-before.perfquery", perfquery(&cluster.rails[0], 0)),
            file("rail1-before.db_csv", pm_info(&cluster.rails[1], 0)),
        ];
        let after = [
            file("rail0-after.perfquery", perfquery(&cluster.rails[0], 1_000)),
            file("rail1-after.db_csv", pm_info(&cluster.rails[1], 1_000)),
        ];
        Data { cluster, before, after }
    })
}

fn ports(fabric: &Fabric, offset: u64) -> impl Iterator<Item = (u16, u64, u8, u64)> + '_ {
    (0..fabric.link_end_count()).map(move |i| {
        let ((node, port), _) = fabric.link_end_nodes(LinkEnd::from_index(i)).unwrap();
        let n = fabric.node(node);
        (n.base_lid().unwrap().0, n.guid.0, port.0, 1_000_000 + 37 * i as u64 + offset)
    })
}

fn perfquery(fabric: &Fabric, offset: u64) -> String {
    let mut out = String::new();
    for (lid, _, port, words) in ports(fabric, offset) {
        let _ = write!(
            out,
            "# Port extended counters: Lid {lid} port {port} (CapMask: 0x1300 CapMask2: 0x0000000)\n\
             PortSelect:......................{port}\nCounterSelect:...................0x0000\n\
             PortXmitData:....................{words}\nPortRcvData:.....................{words}\n\
             PortXmitPkts:....................1002\nPortRcvPkts:.....................1002\n"
        );
    }
    out
}

fn pm_info(fabric: &Fabric, offset: u64) -> String {
    let mut out = String::from(
        "START_PM_INFO\nNodeGUID,PortGUID,PortNumber,LinkDownedCounter,SymbolErrorCounter,PortXmitData,PortRcvData,PortXmitWait,PortXmitDataExtended,PortRcvDataExtended\n",
    );
    for (_, guid, port, words) in ports(fabric, offset) {
        let _ = writeln!(
            out,
            "0x{guid:016x},0x{guid:016x},{port},0,0,{},{},0,{words},{words}",
            words.min(0xffff_ffff),
            words.min(0xffff_ffff)
        );
    }
    out.push_str("END_PM_INFO\n");
    out
}

/// What `--counters FILE …` does: the files read (in parallel) and joined to the link ends.
fn parse_and_join(cluster: &Cluster, files: &[&PathBuf]) -> usize {
    let specs: Vec<CounterSpec> =
        files.iter().map(|p| CounterSpec { rail: None, path: p.to_path_buf() }).collect();
    read_observed(cluster, &specs).unwrap().0.covered()
}

#[divan::bench(sample_count = 10)]
fn both_rails_as_they_stand(bencher: Bencher) {
    let d = data();
    let files = [&d.after[0], &d.after[1]];
    bencher.bench(|| assert_eq!(parse_and_join(&d.cluster, &files), 2 * 69_984));
}

#[divan::bench(sample_count = 10)]
fn both_rails_before_and_after(bencher: Bencher) {
    let d = data();
    let files = [&d.before[0], &d.before[1], &d.after[0], &d.after[1]];
    bencher.bench(|| assert_eq!(parse_and_join(&d.cluster, &files), 2 * 69_984));
}
