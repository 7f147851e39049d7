//! Gzip bombs of many short lines (issue 16): a small `.gz` that expands to a mountain of short
//! junk or valid-looking lines costs memory by what the reader keeps (the real dump at its
//! head, a hundred warnings and a count), not by what the file expands to. Before, formats read
//! whole held the expanded text once (1 GiB for a 1 MiB bomb).
//!
//! Every format whose reader used to take the whole text is read here through the entry point a
//! real load uses, from a real dump or profile with a bomb appended. The bombs are generated
//! here (one compressed MiB repeated as gzip members, which every gunzip concatenates), never
//! committed. One test function on purpose: the counting allocator counts every thread, so
//! cases must not overlap.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use shoal::model::{RailId, Warning};
use shoal::profile_io::boxfish_table::parse_table;
use shoal::profile_io::counters::read_counters;
use shoal::profile_io::host_map::read_host_map;
use shoal::profile_io::ibroute::parse_ibroute;
use shoal::profile_io::lfts_dump::parse_lfts_dump;
use shoal::profile_io::line_warnings::MAX_LINE_WARNINGS;
use shoal::profile_io::loads_file::read_loads_file;
use shoal::profile_io::profiles::read_profile;
use shoal::profile_io::{Input, ParseError, load_rail};

#[path = "support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const MIB: usize = 1 << 20;

/// What the bombed bytes expand to in each case: twice the budget, so holding them fails.
const EXPANDED: usize = 32 * MIB;

/// What reading any case may cost: the read piece, the gunzip buffer, the real dump at the
/// head and what is parsed from it, with room to spare.
const BUDGET: usize = 16 * MIB;

fn gzip(bytes: &[u8], level: Compression) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), level);
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// `head`, then `line` repeated to [`EXPANDED`] bytes, then `tail`, as gzip members.
fn bomb(dir: &Path, name: &str, head: &[u8], line: &str, tail: &str) -> PathBuf {
    let unit = line.repeat(MIB / line.len());
    let member = gzip(unit.as_bytes(), Compression::best());
    let mut bytes = gzip(head, Compression::fast());
    for _ in 0..EXPANDED / unit.len() {
        bytes.extend_from_slice(&member);
    }
    bytes.extend(gzip(tail.as_bytes(), Compression::fast()));
    assert!(bytes.len() < EXPANDED / 64, "{name}: the bomb itself is small ({} bytes)", bytes.len());
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    path
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The bombed lines were each counted: some warning says how many were not listed.
fn counted(warnings: &[Warning], case: &str) {
    let lines = EXPANDED / 64;
    let count = warnings.iter().find_map(|w| {
        let (n, rest) = w.message.split_once(' ')?;
        (rest.starts_with("more problem lines") || rest.starts_with("lines of tool debug"))
            .then(|| n.parse::<usize>().ok())?
    });
    assert!(count.is_some_and(|n| n >= lines), "{case}: the skipped lines are counted: {warnings:?}");
    assert!(warnings.len() <= MAX_LINE_WARNINGS + 8, "{case}: warnings are capped ({})", warnings.len());
}

type Case = (&'static str, PathBuf, Box<dyn Fn(&Path) -> Result<Vec<Warning>, ParseError>>);

fn rail(path: &Path) -> Result<Vec<Warning>, ParseError> {
    load_rail(&[path.to_path_buf()], RailId(0)).map(|(_, warnings)| warnings)
}

#[test]
fn gzip_bombs_of_short_lines_cost_what_is_kept_not_what_they_expand_to() {
    let dir = std::env::temp_dir().join(format!("shoal-short-bombs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lst = fixture("sample-data/testbed/opensm-subnet.lst");
    let ibnetdiscover = fixture("tests/fixtures/formats/testbed/ibnetdiscover.txt");
    let ports = fixture("tests/fixtures/formats/testbed/ibnetdiscover-p.txt");
    let db_csv = fixture("tests/fixtures/formats/testbed/ibdiagnet2/ibdiagnet2.db_csv");
    let dump_fts = fixture("tests/fixtures/formats/testbed/dump_fts.txt");
    let lfts = fixture("sample-data/testbed/opensm-lfts.dump");
    let ibprof = fixture("sample-data/testbed/alltoall.ibprof");
    let pfprof = fixture("tests/fixtures/pfprof/oxton-result0.json");
    let pfprof_open = &pfprof[..pfprof.iter().rposition(|&b| b == b'}').unwrap()];
    let tables = |path: &Path| parse_ibroute(&Input::deferred(path)).map(|(_, w)| w);
    let lfts_tables = |path: &Path| parse_lfts_dump(&Input::deferred(path)).map(|(_, w)| w);
    let profile = |path: &Path| read_profile(path).map(|(_, w)| w);
    let perfquery = fixture("tests/fixtures/counters/testbed/perfquery-x-before.txt");
    let loads = b"rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a\n0,0x1,1,0x2,1,,10,20\n";
    let host_map = fixture("sample-data/tworail/collector-samplesort-8.hostmap");
    let counters = |path: &Path| read_counters(path).map(|(_, w)| w);
    let loads_file = |path: &Path| read_loads_file(path).map(|(_, w)| w);
    let hosts = |path: &Path| read_host_map(path).map(|(_, w)| w);
    let boxfish = fixture("tests/fixtures/boxfish/tiny/tiny_links.yaml");
    let table = |path: &Path| parse_table(&Input::deferred(path)).map(|(_, w)| w);
    let cases: Vec<Case> = vec![
        ("lst junk", bomb(&dir, "a.lst.gz", &lst, "junk line\n", ""), Box::new(rail)),
        (
            "lst valid-looking",
            bomb(&dir, "b.lst.gz", &lst, "{ SW Ports:24 NodeGUID:0x1 LID:0002 } { CA } PHY=4x\n", ""),
            Box::new(rail),
        ),
        ("ibnetdiscover junk", bomb(&dir, "topo.txt.gz", &ibnetdiscover, "junk line\n", ""), Box::new(rail)),
        (
            "ibnetdiscover -p valid-looking",
            bomb(&dir, "ports.txt.gz", &ports, "CA 12 1 0xnotaguid 4x QDR - SW 3 1\n", ""),
            Box::new(rail),
        ),
        ("db_csv junk", bomb(&dir, "ibdiagnet2.db_csv.gz", &db_csv, "junk,line\n", ""), Box::new(rail)),
        ("ibroute junk rows", bomb(&dir, "fts.txt.gz", &dump_fts, "0xzz junk row\n", ""), Box::new(tables)),
        ("lfts junk", bomb(&dir, "lfts.dump.gz", &lfts, "junk line\n", ""), Box::new(lfts_tables)),
        ("ibprof junk", bomb(&dir, "a.ibprof.gz", &ibprof, "junk line\n", ""), Box::new(profile)),
        (
            "ibprof repeated peer records",
            bomb(&dir, "b.ibprof.gz", &ibprof, "peer 1 sent 1 recv 1\n", ""),
            Box::new(profile),
        ),
        (
            "perfquery bad counters",
            bomb(&dir, "pq.txt.gz", &perfquery, "PortXmitData:...x\n", ""),
            Box::new(counters),
        ),
        (
            "loads file bad rows",
            bomb(&dir, "l.csv.gz", loads, "0,0x1,1,0x2,1,,x,1\n", ""),
            Box::new(loads_file),
        ),
        ("host map junk", bomb(&dir, "h.map.gz", &host_map, "a b c d\n", ""), Box::new(hosts)),
        ("Boxfish table bad rows", bomb(&dir, "t.yaml.gz", &boxfish, "1 2 x\n", ""), Box::new(table)),
        ("PFProf white space", bomb(&dir, "r.json.gz", pfprof_open, "        \n", "}\n"), Box::new(profile)),
    ];
    for (case, path, read) in cases {
        let (result, peak) = peak_alloc::peak_of(|| read(&path));
        let warnings = result.unwrap_or_else(|e| panic!("{case}: {e}"));
        assert!(peak < BUDGET, "{case}: {} MiB of heap for {} MiB of lines", peak / MIB, EXPANDED / MIB);
        if case != "PFProf white space" {
            counted(&warnings, case);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
