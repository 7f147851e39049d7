//! Real dumps are dirty. Each test damages a copy of a real fixture the way dumps break in the
//! field, then checks for the named warning (file, line, what was skipped), that the rest still
//! parses, that what can be traced is traced as ibtracert saw it, and that the undelivered pairs
//! are reported with the switch that dropped them. Nothing may panic.

mod common;

use std::path::{Path, PathBuf};

use common::{ibtracert, load, root, scratch, summary, text, traced};
use proptest::prelude::*;
use shoal::model::{Fabric, Lid, RailId, Warning};
use shoal::profile_io::Input;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};
use shoal::routing::{DropReason, Outcome, ca_reachability, trace};

const STDERR: &str = "ibwarn: [12345] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1,22)";

fn testbed() -> PathBuf {
    root().join("tests/fixtures/formats/testbed")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn switch_named(fabric: &Fabric, tag: &str) -> petgraph::graph::NodeIndex {
    fabric.switches().find(|&s| fabric.node(s).description.contains(tag)).unwrap()
}

fn warnings_about<'w>(warnings: &'w [Warning], needle: &str) -> Vec<&'w Warning> {
    warnings.iter().filter(|w| w.message.contains(needle)).collect()
}

#[test]
fn a_switch_table_repeating_a_lid_and_lacking_a_range_drops_only_those_lids_at_that_switch() {
    let dir = scratch("lid-range");
    let routes = dir.join("ibroute");
    std::fs::create_dir_all(&routes).unwrap();
    std::fs::copy(testbed().join("ibroute/lid-3.txt"), routes.join("lid-3.txt")).unwrap();
    // Switch LID 2 (tb-L1-00): row 0x0005 repeated with another port, rows 0x0018-0x001f gone.
    let mut lines: Vec<String> =
        text(&testbed().join("ibroute/lid-2.txt")).lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.starts_with("0x0005 ")).unwrap();
    lines.insert(at + 1, "0x0005 017 : (Channel Adapter portguid 0x0002c90300010005: 'n0003 HCA-1')".into());
    lines.retain(|l| !(0x18..=0x1f).any(|lid| l.starts_with(&format!("0x{lid:04x} "))));
    let damaged = write(&routes, "lid-2.txt", &(lines.join("\n") + "\n"));
    let (fabric, warnings) = load(&[testbed().join("ibnetdiscover.txt"), routes]);

    let shown = damaged.display().to_string();
    let repeated = warnings_about(&warnings, "is listed again");
    assert_eq!(repeated.len(), 1, "{warnings:#?}");
    assert_eq!((repeated[0].file.as_str(), repeated[0].line), (shown.as_str(), Some(at + 2)));
    assert!(repeated[0].message.contains("LID 0x0005"), "{}", repeated[0]);
    let lacking = warnings_about(&warnings, "has no route to 8 CA LIDs (0x0018-0x001f)");
    assert_eq!(lacking.len(), 1, "{warnings:#?}");
    assert_eq!((lacking[0].file.as_str(), lacking[0].line), (shown.as_str(), Some(1)));

    // The first row of 0x0005 stands; the lacking LIDs are dropped at tb-L1-00 and nowhere else.
    let l1_00 = switch_named(&fabric, "tb-L1-00");
    let reach = ca_reachability(&fabric);
    assert_eq!(reach.by_dropping_node(), vec![(Some(l1_00), DropReason::MissingEntry, 21 * 8)]);
    assert_eq!(reach.pairs - reach.delivered, 21 * 8);
    for pair in ibtracert(&root().join("tests/fixtures/ibtracert/testbed/rail0/ibtracert.txt")) {
        let through_l1_00 = pair.src.0 == 1 || (4..=23).contains(&pair.src.0);
        if through_l1_00 && (0x18..=0x1f).contains(&pair.dst.0) {
            let outcome = trace(&fabric, pair.src, pair.dst).outcome;
            assert_eq!(outcome, Outcome::Dropped { at: Some(l1_00), reason: DropReason::MissingEntry });
        } else {
            assert_eq!(traced(&fabric, pair.src, pair.dst), Some(pair.steps), "{} -> {}", pair.src, pair.dst);
        }
    }
}

/// Removes the first switch-to-switch cable of the switch described `tag` from an ibnetdiscover
/// topology (its line in both blocks). Returns the new text and (switch guid, port, peer guid,
/// peer port).
fn remove_uplink(topology: &str, tag: &str) -> (String, (String, String, String, String)) {
    let lines: Vec<&str> = topology.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("Switch") && l.contains(tag)).unwrap();
    let guid = lines[header].split('"').nth(1).unwrap().to_string(); // S-…
    let (offset, uplink) = lines[header + 1..]
        .iter()
        .enumerate()
        .find(|(_, l)| l.starts_with('[') && l.contains("\"S-"))
        .unwrap();
    let port = uplink[1..uplink.find(']').unwrap()].to_string();
    let peer = uplink.split('"').nth(1).unwrap().to_string();
    let after_peer = &uplink[uplink.find(&format!("\"{peer}\"[")).unwrap() + peer.len() + 3..];
    let peer_port = after_peer[..after_peer.find(']').unwrap()].to_string();
    let back = format!("\"{guid}\"[{port}]");
    let peer_header =
        lines.iter().position(|l| l.starts_with("Switch") && l.contains(&format!("\"{peer}\""))).unwrap();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let in_peer_block = i > peer_header && lines[peer_header..i].iter().all(|l| !l.trim().is_empty());
        if i == header + 1 + offset
            || (in_peer_block && line.starts_with(&format!("[{peer_port}]")) && line.contains(&back))
        {
            continue;
        }
        out.push(*line);
    }
    (out.join("\n") + "\n", (guid, port, peer, peer_port))
}

#[test]
fn an_uplink_missing_from_a_fat_tree_is_named_and_its_pairs_are_dropped_at_its_two_switches() {
    let fx = root().join("tests/fixtures/formats/tworail-rail0");
    let dir = scratch("uplink");
    let (topology, (guid, port, peer, peer_port)) =
        remove_uplink(&text(&fx.join("ibnetdiscover.txt.gz")), "r0-L1-00-00");
    assert_eq!(topology.lines().count() + 2, text(&fx.join("ibnetdiscover.txt.gz")).lines().count());
    let topo = write(&dir, "ibnetdiscover.txt", &topology);
    let tables = fx.join("dump_fts.txt.gz");
    let (fabric, warnings) = load(&[topo, tables.clone()]);

    let (full, _) = load(&[root().join("sample-data/tworail/rail0")]);
    assert_eq!(fabric.link_count() + 1, full.link_count());
    let dead: Vec<_> = warnings_about(&warnings, "which has no link");
    assert_eq!(dead.len(), 2, "{warnings:#?}");
    let named = |w: &Warning, g: &str, p: &str| {
        w.message.contains(&format!("0x{}", &g[2..])) && w.message.contains(&format!("out of port {p},"))
    };
    assert!(dead.iter().any(|w| named(w, &guid, &port)), "{dead:#?}");
    assert!(dead.iter().any(|w| named(w, &peer, &peer_port)), "{dead:#?}");
    assert!(dead.iter().all(|w| w.file == tables.display().to_string() && w.line.is_some()));

    let ends = [
        switch_named(&fabric, "r0-L1-00-00"),
        fabric.node_by_guid(shoal::model::Guid::parse_hex(&peer[2..]).unwrap()).unwrap(),
    ];
    let reach = ca_reachability(&fabric);
    assert!(reach.delivered > 0 && reach.delivered < reach.pairs);
    for (at, reason, _) in reach.by_dropping_node() {
        assert_eq!(reason, DropReason::DeadPort);
        assert!(at.is_some_and(|at| ends.contains(&at)), "dropped elsewhere");
    }
    let (mut dropped, mut same) = (0, 0);
    for pair in ibtracert(&root().join("tests/fixtures/ibtracert/tworail/rail0/ibtracert.txt")) {
        match trace(&fabric, pair.src, pair.dst).outcome {
            Outcome::Delivered => {
                assert_eq!(traced(&fabric, pair.src, pair.dst), Some(pair.steps));
                same += 1;
            }
            Outcome::Dropped { at, reason } => {
                assert_eq!(reason, DropReason::DeadPort);
                assert!(at.is_some_and(|at| ends.contains(&at)));
                dropped += 1;
            }
        }
    }
    assert!(dropped > 0 && same > 100, "{dropped} dropped, {same} delivered");
}

#[test]
fn a_switch_cabled_to_itself_is_skipped_with_its_line_and_nothing_else_changes() {
    let dir = scratch("loopback");
    let mut lines: Vec<String> =
        text(&testbed().join("ibnetdiscover.txt")).lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.starts_with("[36]")).unwrap();
    lines.insert(
        at + 1,
        "[37]\t\"S-0002c90200010001\"[38]\t\t# \"MF0;tb-L1-01:SX6036/U1\" lid 3 4xQDR".into(),
    );
    let topo = write(&dir, "ibnetdiscover.txt", &(lines.join("\n") + "\n"));
    let (fabric, warnings) = load(&[topo.clone(), testbed().join("dump_fts.txt")]);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert_eq!((warnings[0].file.clone(), warnings[0].line), (topo.display().to_string(), Some(at + 2)));
    assert!(
        warnings[0].message.contains("cabled to itself (port 37 to port 38); link skipped"),
        "{}",
        warnings[0]
    );
    let (clean, _) = load(&[testbed().join("ibnetdiscover.txt"), testbed().join("dump_fts.txt")]);
    assert_eq!(summary(&fabric), summary(&clean));
}

#[test]
fn stderr_lines_inside_every_file_are_named_and_the_rest_parses_as_if_they_were_not_there() {
    let dir = scratch("stderr");
    let mut damaged = Vec::new();
    for name in ["ibnetdiscover.txt", "ibnetdiscover-p.txt", "dump_fts.txt"] {
        let mut lines: Vec<String> = text(&testbed().join(name)).lines().map(String::from).collect();
        let middle = lines.len() / 2;
        lines.insert(middle, STDERR.into());
        lines.insert(0, STDERR.into()); // and one at the top
        damaged.push((write(&dir, name, &(lines.join("\n") + "\n")), middle + 2));
    }
    let (clean, _) = load(&[testbed().join("ibnetdiscover.txt"), testbed().join("dump_fts.txt")]);
    for topology in [0, 1] {
        let (fabric, warnings) = load(&[damaged[topology].0.clone(), damaged[2].0.clone()]);
        assert_eq!(warnings.len(), 4, "{warnings:#?}");
        for (path, middle) in [&damaged[topology], &damaged[2]] {
            let lines: Vec<_> =
                warnings.iter().filter(|w| w.file == path.display().to_string()).map(|w| w.line).collect();
            assert_eq!(lines, vec![Some(1), Some(*middle)], "{}", path.display());
        }
        assert!(warnings.iter().all(|w| w.message.starts_with("skipped a tool's error message")));
        let (got, want) = (summary(&fabric), summary(&clean));
        assert_eq!((got.links, got.lids, got.routes), (want.links, want.lids, want.routes));
        assert_eq!(ca_reachability(&fabric).pairs, ca_reachability(&fabric).delivered);
    }
}

/// Builds a rail from texts, as the loader would from files.
fn build(
    topology: (DumpKind, &str),
    tables: (DumpKind, &str),
) -> Result<(Fabric, Vec<Warning>), shoal::profile_io::ParseError> {
    let inputs = RailInputs {
        inputs: vec![
            (topology.0, Input::from_text("topology", topology.1.to_string())),
            (tables.0, Input::from_text("tables", tables.1.to_string())),
        ],
    };
    build_rail(&inputs, RailId(0), "rail 0")
}

fn mangle(text: &str, cuts: &[(usize, usize, u8)]) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for &(line, at, how) in cuts {
        if lines.is_empty() {
            break;
        }
        let i = line % lines.len();
        match how % 4 {
            0 => drop(lines.remove(i)),
            1 => {
                let keep = at % (lines[i].len() + 1);
                let cut: String = lines[i].chars().take(keep).collect();
                lines[i] = cut;
            }
            2 => lines.insert(i, lines[i].clone()),
            _ => lines.insert(i, STDERR.into()),
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn damaged_dumps_of_every_format_never_panic(cuts in prop::collection::vec((0usize..5000, 0usize..200, 0u8..4), 1..12)) {
        let tb = testbed();
        let dump_fts = text(&tb.join("dump_fts.txt"));
        for (kind, file) in [
            (DumpKind::Ibnetdiscover, tb.join("ibnetdiscover.txt")),
            (DumpKind::PortsList, tb.join("ibnetdiscover-p.txt")),
            (DumpKind::Ibdiagnet2Csv, tb.join("ibdiagnet2/ibdiagnet2.db_csv")),
        ] {
            let topology = mangle(&text(&file), &cuts);
            let tables = mangle(&dump_fts, &cuts);
            if let Ok((fabric, _)) = build((kind, &topology), (DumpKind::Ibroute, &tables)) {
                let _ = ca_reachability(&fabric);
                let _ = trace(&fabric, Lid(1), Lid(44));
            }
        }
    }
}
