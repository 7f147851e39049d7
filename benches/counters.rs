//! Port counters of both rails of a k = 36 three-level fat tree (2 × 34,992 links = 69,984
//! links, 139,968 sending ports), written by the bench as real tools print them: rail 0 as
//! concatenated `perfquery -x` blocks (LIDs), rail 1 as an ibdiagnet2 `db_csv` `PM_INFO` section
//! (GUIDs), written once to files. Measured: what `--counters` does, the files read from disk (in
//! parallel, streamed) and joined to the link ends
//! (target ≤ 0.3 s), once per rail (counters as they stand) and before + after (two per rail).
//!
//! Then (issue 22) `shoal health`'s work on the before + after pair: degraded links (every link
//! 4x NDR but one per rail at 1x), error ports and stalled ports, plus the stall % and
//! utilisation of every link end (target ≤ 0.5 s).
//!
//! `cargo bench --bench counters`

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::Bencher;
use shoal::model::synthetic::ThreeLevel;
use shoal::model::{Cluster, Fabric, LinkEnd, RailId};
use shoal::routing::health::health;
use shoal::routing::link_rates::LinkRates;
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
        let mut rails = vec![
            ThreeLevel::k_ary(K).build(),
            ThreeLevel::k_ary(K).rail(RailId(1), 0x0002_c901_0000_0000).build(),
        ];
        for fabric in &mut rails {
            for link in fabric.graph.edge_weights_mut() {
                (link.width, link.speed) = (Some("4x".into()), Some("NDR".into()));
            }
            let slow = fabric.graph.edge_indices().nth(7).expect("a link");
            fabric.graph[slow].width = Some("1x".into());
        }
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
        "START_PM_INFO\nNodeGUID,PortGUID,PortNumber,LinkDownedCounter,SymbolErrorCounter,PortXmitData,PortRcvData,PortXmitWait,PortXmitDataExtended,PortRcvDataExtended,PortXmitWaitExt\n",
    );
    for (i, (_, guid, port, words)) in ports(fabric, offset).enumerate() {
        // Every 97th port has a symbol error more after; every port waited a little.
        let symbols = u64::from(offset > 0 && i % 97 == 0);
        let _ = writeln!(
            out,
            "0x{guid:016x},0x{guid:016x},{port},0,{symbols},{},{},{},{words},{words},{}",
            words.min(0xffff_ffff),
            words.min(0xffff_ffff),
            words / 3,
            words / 3
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

/// The four files read, without the join: what the readers cost of the pair above.
#[divan::bench(sample_count = 10)]
fn read_only_before_and_after(bencher: Bencher) {
    let d = data();
    let files = [&d.before[0], &d.before[1], &d.after[0], &d.after[1]];
    bencher.bench(|| {
        files
            .iter()
            .map(|f| shoal::profile_io::counters::read_counters(f).unwrap().0.ports.len())
            .sum::<usize>()
    });
}

/// Health (degraded links, error ports, stalled ports) and every link end's stall % and
/// utilisation, from the before + after pair already joined.
#[divan::bench(sample_count = 10)]
fn health_and_stall_from_two_snapshots(bencher: Bencher) {
    let d = data();
    let specs: Vec<CounterSpec> = [&d.before[0], &d.before[1], &d.after[0], &d.after[1]]
        .iter()
        .map(|p| CounterSpec { rail: None, path: p.to_path_buf() })
        .collect();
    let (observed, _) = read_observed(&d.cluster, &specs).unwrap();
    bencher.bench(|| {
        let found = health(&d.cluster, Some(&observed));
        assert_eq!(found.degraded.len(), 2);
        let rates = LinkRates::new(&d.cluster, &observed);
        let mut known = 0usize;
        for (rail, fabric) in d.cluster.rails.iter().enumerate() {
            for i in 0..fabric.link_end_count() {
                let end = LinkEnd::from_index(i);
                known += usize::from(rates.stall_percent(rail, end).is_some());
                known += usize::from(rates.utilisation_percent(rail, end).is_some());
            }
        }
        (found.errors.len(), found.stalled.len(), known)
    });
}

#[divan::bench(sample_count = 10)]
fn both_rails_before_and_after(bencher: Bencher) {
    let d = data();
    let files = [&d.before[0], &d.before[1], &d.after[0], &d.after[1]];
    bencher.bench(|| assert_eq!(parse_and_join(&d.cluster, &files), 2 * 69_984));
}
