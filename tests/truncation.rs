//! A dump cut short (a subnet manager still writing it, a full disk, a partial copy) must give
//! an error or warnings, never a panic, and never a fabric that is half of one thing and half of
//! another. Every fixture is cut at 200 offsets and fed to every parser; `.gz` fixtures are cut
//! both as compressed bytes and as text. The contract (see `Input::open`):
//! - a file read whole is one snapshot; one that changes while being read is an error;
//! - a snapshot that ends mid-line parses its complete lines, and says so in a warning;
//! - whatever parses is a consistent fabric: every link joins two known nodes, every LID has
//!   one owner.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use shoal::model::{Fabric, Lid, RailId};
use shoal::profile_io::fdbs::parse_fdbs;
use shoal::profile_io::host_map::parse_host_map;
use shoal::profile_io::ibdiagnet_lst::parse_lst;
use shoal::profile_io::ibprof::parse_profile;
use shoal::profile_io::lfts_dump::parse_lfts_dump;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};
use shoal::profile_io::{Input, ParseError};
use shoal::routing::trace;

const OFFSETS: usize = 200;

/// A forwarding-table reader (`.fdbs` or lfts dump).
type TableParser =
    fn(&Input) -> Result<(shoal::profile_io::tables::SwitchTables, Vec<shoal::model::Warning>), ParseError>;
/// Large fixtures are cut within their first 128 KiB (and near their end), which keeps a debug
/// test run short; the parsers are line-based, so a later cut tests nothing new.
const WINDOW: usize = 128 * 1024;
/// Fixtures up to this size go through every parser; larger ones through the parsers of their
/// own kind (by name), since feeding 3 MB of profile to the link-list parser 200 times in a debug
/// build tests the same "unrecognised line" path at great cost.
const ALL_PARSERS_UP_TO: usize = 64 * 1024;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root().join("tests/fixtures"), root().join("sample-data")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixture directories are readable") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() { dirs.push(path) } else { files.push(path) }
        }
    }
    files.sort();
    files
}

/// Cut points: 200 spread over the first `WINDOW` bytes, plus cuts in the file's last line.
fn offsets(len: usize) -> Vec<usize> {
    let window = len.min(WINDOW);
    let mut cuts: Vec<usize> = (0..OFFSETS).map(|i| i * window / OFFSETS).collect();
    let end_cuts = if len > WINDOW { 1 } else { 8 };
    cuts.extend((1..=end_cuts).filter_map(|back| len.checked_sub(back)));
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// What a parsed result says about its own consistency; panics (fails the test) if it is not.
fn assert_consistent(fabric: &Fabric, what: &str) {
    for edge in fabric.graph.edge_indices() {
        let (a, b) = fabric.graph.edge_endpoints(edge).expect("an edge has two ends");
        let link = &fabric.graph[edge];
        assert_eq!(fabric.link_at(a, link.a_port), Some(edge), "{what}: link {edge:?} A end");
        assert_eq!(fabric.link_at(b, link.b_port), Some(edge), "{what}: link {edge:?} B end");
    }
    for node in fabric.graph.node_indices() {
        for info in fabric.node(node).ports.values().filter(|i| i.lid.0 != 0) {
            let owner = fabric.owner_of_lid(info.lid).expect("a port's LID is indexed");
            assert_eq!(owner.node, node, "{what}: LID {} owner", info.lid);
        }
    }
    let lids: Vec<Lid> =
        fabric.graph.node_indices().filter_map(|n| fabric.node(n).base_lid()).take(8).collect();
    for &s in &lids {
        for &d in &lids {
            let _ = trace(fabric, s, d);
        }
    }
}

/// Runs every parser on a cut text. `full_tables` is the intact table file of the same rail,
/// if there is one, to build a rail from a cut link list.
fn every_parser(text: &[u8], cut_mid_line: bool, name: &str, full_tables: Option<&Input>) {
    let Ok((input, _)) = Input::from_bytes(name, text.to_vec()) else { return };
    let all = text.len() <= ALL_PARSERS_UP_TO;
    let plain = name.strip_suffix(".gz").unwrap_or(name);
    if (all || plain.ends_with(".lst"))
        && let Ok((fabric, warnings)) = parse_lst(&input, RailId(0))
    {
        assert!(!cut_mid_line || !warnings.is_empty(), "{name}: a cut .lst parsed without a warning");
        assert_consistent(&fabric, name);
        if let Some(tables) = full_tables {
            let inputs = RailInputs {
                inputs: vec![(DumpKind::LinkList, input.clone()), (DumpKind::Fdbs, tables.clone())],
            };
            if let Ok((fabric, _)) = build_rail(&inputs, RailId(0), name) {
                assert_consistent(&fabric, name);
            }
        }
    }
    let table_parsers: [(bool, TableParser); 2] =
        [(plain.ends_with(".fdbs"), parse_fdbs), (plain.ends_with("lfts.dump"), parse_lfts_dump)];
    for (mine, parse) in table_parsers {
        if (all || mine)
            && let Ok((_, warnings)) = parse(&input)
        {
            assert!(!cut_mid_line || !warnings.is_empty(), "{name}: cut tables parsed without a warning");
        }
    }
    if all || plain.ends_with(".ibprof") {
        let _: Result<_, ParseError> = parse_profile(input.text(), name);
    }
    if all {
        let _ = parse_host_map(input.text(), name);
    }
    // Counter files: whichever format the cut text still looks like.
    let _ = shoal::profile_io::counters::parse_counters(&input);
}

fn decompressed(path: &Path) -> Vec<u8> {
    let (input, _) = Input::open(path).expect("fixtures open");
    input.text().as_bytes().to_vec()
}

#[test]
fn every_fixture_cut_at_two_hundred_offsets_gives_errors_or_warnings_never_a_panic() {
    // Files in parallel: each is independent, and a debug build is slow.
    let cuts_tried: usize = fixtures().par_iter().map(|path| cut_one(path)).sum();
    assert!(cuts_tried > 30 * OFFSETS, "only {cuts_tried} cuts: fixtures missing?");
}

/// Cuts one fixture at every offset; returns the number of cuts tried.
fn cut_one(path: &Path) -> usize {
    let mut cuts_tried = 0;
    let raw = std::fs::read(path).expect("fixtures are readable");
    let name = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    let tables = path
        .parent()
        .map(|dir| dir.join("opensm.fdbs"))
        .filter(|fdbs| fdbs.exists() && name.ends_with(".lst"))
        .map(|fdbs| Input::open(&fdbs).expect("fixture tables open").0);
    let text = if name.ends_with(".gz") {
        // The compressed bytes cut short: a decompression error, never a panic.
        for cut in offsets(raw.len()) {
            if let Ok((input, _)) = Input::from_bytes(&name, raw[..cut].to_vec()) {
                every_parser(input.text().as_bytes(), false, &name, None);
            }
            cuts_tried += 1;
        }
        decompressed(path)
    } else {
        raw
    };
    for cut in offsets(text.len()) {
        let prefix = &text[..cut];
        let mid_line = !prefix.is_empty() && !prefix.ends_with(b"\n") && prefix.contains(&b'\n');
        every_parser(prefix, mid_line, &name, tables.as_ref());
        cuts_tried += 1;
    }
    cuts_tried
}

#[test]
fn a_rail_whose_link_list_is_cut_mid_line_loads_its_complete_lines_with_a_warning_naming_the_file() {
    let dir = root().join("tests/fixtures/testbed");
    let lst = std::fs::read_to_string(dir.join("opensm-subnet.lst")).expect("fixture");
    let cut = lst.len() / 2;
    let complete_lines = lst[..cut].lines().count() - 1;
    let inputs = RailInputs {
        inputs: vec![
            (DumpKind::LinkList, Input::from_text("cut/opensm-subnet.lst", &lst[..cut])),
            (DumpKind::Fdbs, Input::open(&dir.join("opensm.fdbs")).expect("fixture").0),
        ],
    };
    let (fabric, warnings) = build_rail(&inputs, RailId(0), "cut").expect("the complete lines make a fabric");
    assert_consistent(&fabric, "cut");
    let truncation = warnings
        .iter()
        .find(|w| w.file == "cut/opensm-subnet.lst" && w.message.contains("line end"))
        .unwrap_or_else(|| panic!("a warning names the cut file: {warnings:?}"));
    assert_eq!(truncation.line, Some(complete_lines + 1));
    // OpenSM lists each link from both ends, so half the lines still hold most links; none is
    // invented.
    let (whole, _) = parse_lst(&Input::from_text("whole", lst.clone()), RailId(0)).expect("fixture");
    assert!(fabric.link_count() <= whole.link_count());
}
