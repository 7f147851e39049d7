//! Memory stays proportional to the input (issue 6): tiny adversarial files in every input format
//! (`.lst`, `.fdbs`, lfts dump, ibnetdiscover, ibnetdiscover -p, ibroute/dump_fts, ibdiagnet2
//! db_csv, ibprof, PFProf, host map, gzip), each built to make a careless parser allocate by what
//! the file *claims* (a LID of 0xBFFF, a peer of rank 16,777,215, four billion processes, a
//! thousand ranks with a region each, cumulative phases that repeat every peer) rather than by
//! what it holds. A counting allocator measures the peak heap of each parse.
//!
//! One test function on purpose: the allocator counts every thread, so cases must not overlap.

use shoal::model::{RailId, region_table};
use shoal::profile_io::Input;
use shoal::profile_io::fdbs::parse_fdbs;
use shoal::profile_io::host_map::parse_host_map;
use shoal::profile_io::ibdiagnet_lst::parse_lst;
use shoal::profile_io::ibdiagnet2_csv::read_db_csv;
use shoal::profile_io::ibnetdiscover::read_ibnetdiscover;
use shoal::profile_io::ibnetdiscover_ports::read_ports_list;
use shoal::profile_io::ibprof::parse_profile;
use shoal::profile_io::ibroute::parse_ibroute;
use shoal::profile_io::lfts_dump::parse_lfts_dump;
use shoal::profile_io::pfprof::profile_from_text;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail, kind_from_content};

#[path = "support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// The peak heap `run` adds above what was live before it.
fn peak_of<T>(run: impl FnOnce() -> T) -> usize {
    peak_alloc::peak_of(run).1
}

/// What any input may cost: 1 MiB of fixed-size indexes (a fabric's LID index covers the whole
/// unicast range, 49,151 LIDs × 12 bytes) plus 256 bytes per byte of input.
fn budget(input_len: usize) -> usize {
    (1 << 20) + 256 * input_len
}

fn fdbs_with_far_lids(switches: usize) -> String {
    (0..switches)
        .map(|s| format!("dump_ucast_routes: Switch 0x{:016x}\n0xBFFF : 001  : 01   : yes\n", 0x100 + s))
        .collect()
}

fn lfts_with_far_lids(switches: usize) -> String {
    (0..switches)
        .map(|s| {
            format!(
                "Unicast lids [0-49151] of switch Lid 1 guid 0x{:016x} ('s'):\n0xBFFF 001\n1 lids dumped\n",
                0x100 + s
            )
        })
        .collect()
}

fn lst_with_far_lids(links: usize) -> String {
    (0..links)
        .map(|i| {
            format!(
                "{{ SW Ports:24 NodeGUID:{:016x} {{s}} LID:BFF{:X} PN:01 }} {{ CA Ports:01 NodeGUID:{:016x} {{h}} LID:{:04X} PN:01 }} PHY=4x LOG=ACT SPD=10\n",
                0x100 + i,
                i % 16,
                0x10000 + i,
                0x8000 + i
            )
        })
        .collect()
}

fn profile_with_far_peers(ranks: usize) -> String {
    let mut text = String::from("ibprof 1\njob ranks 16777216\n");
    for r in 0..ranks {
        text.push_str(&format!(
            "rank {r} host h starttime 1\nregion 1 dumptime 2\npeer 16777215 sent 1 recv 1\n"
        ));
    }
    text
}

fn profile_with_a_region_per_rank(ranks: usize) -> String {
    let mut text = String::from("ibprof 1\njob ranks 100000\n");
    for r in 0..ranks {
        text.push_str(&format!("rank {r} host h starttime 1\nregion {r} dumptime 2\n"));
    }
    text
}

/// Switch `i` at LID 0xBFFF − i, its one host at 48,000 + i: far LIDs in every topology format.
fn far(i: usize) -> (u64, u64, usize, usize) {
    (0x100 + i as u64, 0x10_0000 + 2 * i as u64, 0xBFFF - i, 48_000 + i)
}

fn ibnetdiscover_with_far_lids(switches: usize) -> String {
    (0..switches)
        .map(|i| {
            let (sw, ca, sl, cl) = far(i);
            format!(
                "Switch\t24 \"S-{sw:016x}\"\t\t# \"s{i}\" base port 0 lid {sl} lmc 0\n\
                 [1]\t\"H-{ca:016x}\"[1]({:x}) \t\t# \"h{i} HCA-1\" lid {cl} 4xQDR\n\n\
                 Ca\t1 \"H-{ca:016x}\"\t\t# \"h{i} HCA-1\"\n\
                 [1]({:x}) \t\"S-{sw:016x}\"[1]\t\t# lid {cl} lmc 0 \"s{i}\" lid {sl} 4xQDR\n\n",
                ca + 1,
                ca + 1
            )
        })
        .collect()
}

fn ports_list_with_far_lids(switches: usize) -> String {
    (0..switches)
        .map(|i| {
            let (sw, ca, sl, cl) = far(i);
            format!(
                "CA    {cl}  1 0x{:016x} 4x QDR - SW     {sl} 1 0x{sw:016x} ( 'h{i} HCA-1' - 's{i}' )\n",
                ca + 1
            )
        })
        .collect()
}

fn ibroute_with_far_lids(switches: usize) -> String {
    (0..switches)
        .map(|i| {
            let (sw, _, sl, _) = far(i);
            format!(
                "Unicast lids [0x0-0xbfff] of switch Lid {sl} guid 0x{sw:016x} (s{i}):\n  Lid  Out   Destination\n       Port     Info \n0xbfff 001 : (Channel Adapter portguid 0x0000000000000001: 'h HCA-1')\n1 valid lids dumped\n"
            )
        })
        .collect()
}

fn db_csv_with_far_lids(switches: usize) -> String {
    let mut nodes = String::from("START_NODES\nNodeDesc,NumPorts,NodeType,NodeGUID,PortGUID\n");
    let mut ports = String::from("START_PORTS\nNodeGuid,PortGuid,PortNum,LID,LMC\n");
    let mut links = String::from("START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n");
    for i in 0..switches {
        let (sw, ca, sl, cl) = far(i);
        nodes.push_str(&format!(
            "\"s{i}\",24,2,0x{sw:016x},0x{sw:016x}\n\"h{i} HCA-1\",1,1,0x{ca:016x},0x{:016x}\n",
            ca + 1
        ));
        ports
            .push_str(&format!("0x{sw:016x},0x{sw:016x},0,{sl},7\n0x{sw:016x},0x{sw:016x},1,{sl},7\n0x{ca:016x},0x{:016x},1,{cl},7\n", ca + 1));
        links.push_str(&format!("0x{sw:016x},1,0x{ca:016x},1\n"));
    }
    format!("{nodes}END_NODES\n{ports}END_PORTS\n{links}END_LINKS\n")
}

/// PFProf ranks claiming four billion processes, each at the top of that range.
fn pfprof_with_far_ranks(ranks: usize) -> String {
    let objects: Vec<String> = (0..ranks)
        .map(|i| {
            format!(
                "{{\"n_procs\": 4294967295, \"processor_name\": \"h\", \"rank\": {}, \"tx_bytes\": [0, 7], \"rx_bytes\": [7]}}",
                4_294_967_294 - i
            )
        })
        .collect();
    format!("[{}]", objects.join(","))
}

/// One rank whose first phase counts `peers` peers, then `phases` empty phases: cumulative dumps
/// would repeat every peer in each.
fn pfprof_with_empty_phases(peers: usize, phases: usize) -> String {
    let first = format!("{{\"tx_bytes\": [{}], \"rx_bytes\": []}}", vec!["1"; peers].join(","));
    let rest = vec!["{\"tx_bytes\": [], \"rx_bytes\": []}"; phases].join(",");
    format!("{{\"n_procs\": {peers}, \"processor_name\": \"h\", \"rank\": 0, \"phases\": [{first},{rest}]}}")
}

/// PFProf ranks with a different number of phases each: a ranks × phases grid of regions.
fn pfprof_with_a_phase_count_per_rank(ranks: usize) -> String {
    let objects: Vec<String> = (0..ranks)
        .map(|r| {
            let phases = if r == 0 {
                vec!["{\"tx_bytes\": [1]}"; 4 * ranks].join(",")
            } else {
                "{\"tx_bytes\": [1]}".into()
            };
            format!(
                "{{\"n_procs\": {ranks}, \"processor_name\": \"h\", \"rank\": {r}, \"phases\": [{phases}]}}"
            )
        })
        .collect();
    format!("[{}]", objects.join(","))
}

fn host_map_with_far_ranks(lines: usize) -> String {
    (0..lines).map(|i| format!("rank {} h{i}\n", u32::MAX - i as u32)).collect()
}

/// The topology formats and the other table and profile formats, as `report` rows; each parse
/// must succeed (an error would be a cheap way to pass).
fn other_formats(scale: usize, report: &mut Vec<(&'static str, usize, usize)>) {
    let cases: [(&'static str, &'static str, String, DumpKind); 4] = [
        (
            "ibnetdiscover: switches at LIDs 0xBFFx",
            "rail: ibnetdiscover + ibroute",
            ibnetdiscover_with_far_lids(8 * scale),
            DumpKind::Ibnetdiscover,
        ),
        (
            "ibnetdiscover -p: switches at LIDs 0xBFFx",
            "rail: ibnetdiscover -p + ibroute",
            ports_list_with_far_lids(8 * scale),
            DumpKind::PortsList,
        ),
        (
            "db_csv: switches at LIDs 0xBFFx, LMC 7",
            "rail: db_csv + ibroute",
            db_csv_with_far_lids(8 * scale),
            DumpKind::Ibdiagnet2Csv,
        ),
        ("ibroute: a row at LID 0xBFFF per switch", "", ibroute_with_far_lids(16 * scale), DumpKind::Ibroute),
    ];
    for (case, rail_case, text, kind) in cases {
        let input = Input::from_text("f", text.clone());
        assert_eq!(kind_from_content(&input), Some(kind), "{case}: detected as its format");
        let peak = peak_of(|| {
            let result = match kind {
                DumpKind::Ibnetdiscover => read_ibnetdiscover(&input).map(|(l, _)| l.len()),
                DumpKind::PortsList => read_ports_list(&input).map(|(l, _)| l.len()),
                DumpKind::Ibdiagnet2Csv => read_db_csv(&input).map(|(l, _)| l.len()),
                _ => parse_ibroute(&input).map(|(t, _)| t.len()),
            };
            assert!(result.as_ref().is_ok_and(|&n| n > 0), "{case}: {result:?}");
        });
        report.push((case, text.len(), peak));
        if kind != DumpKind::Ibroute {
            // The whole rail too: the fabric's LID index and the tables' rows at far LIDs.
            let tables = ibroute_with_far_lids(8 * scale);
            let peak = peak_of(|| {
                let inputs = RailInputs {
                    inputs: vec![
                        (kind, Input::from_text("f", text.clone())),
                        (DumpKind::Ibroute, Input::from_text("t", tables.clone())),
                    ],
                };
                build_rail(&inputs, RailId(0), "rail").expect("far LIDs still make a rail")
            });
            report.push((rail_case, text.len() + tables.len(), peak));
        }
    }
    let text = pfprof_with_far_ranks(16 * scale);
    let peak = peak_of(|| profile_from_text(&text, "p.json").expect("far ranks are read"));
    report.push(("pfprof: ranks near 4,294,967,295", text.len(), peak));

    let text = host_map_with_far_ranks(16 * scale);
    let peak = peak_of(|| parse_host_map(&text, "hosts.map"));
    report.push(("host map: ranks near 4,294,967,295", text.len(), peak));
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

#[test]
fn small_adversarial_files_cost_memory_in_proportion_to_their_size_not_their_claims() {
    let mut report = Vec::new();
    for scale in [1usize, 10] {
        let text = fdbs_with_far_lids(16 * scale);
        let peak = peak_of(|| parse_fdbs(&Input::from_text("f.fdbs", text.clone())));
        report.push(("fdbs: a table row at LID 0xBFFF per switch", text.len(), peak));

        let text = lfts_with_far_lids(16 * scale);
        let peak = peak_of(|| parse_lfts_dump(&Input::from_text("f.dump", text.clone())));
        report.push(("lfts dump: a row at LID 0xBFFF per switch", text.len(), peak));

        let text = lst_with_far_lids(8 * scale);
        let peak = peak_of(|| parse_lst(&Input::from_text("f.lst", text.clone()), RailId(0)));
        report.push(("lst: switches at LIDs 0xBFFx", text.len(), peak));

        let (lst, fdbs) = (lst_with_far_lids(8 * scale), fdbs_with_far_lids(8 * scale));
        let peak = peak_of(|| {
            let inputs = RailInputs {
                inputs: vec![
                    (DumpKind::LinkList, Input::from_text("f.lst", lst.clone())),
                    (DumpKind::Fdbs, Input::from_text("f.fdbs", fdbs.clone())),
                ],
            };
            build_rail(&inputs, RailId(0), "rail")
        });
        report.push(("rail: both of the above", lst.len() + fdbs.len(), peak));

        let text = profile_with_far_peers(16 * scale);
        let peak = peak_of(|| parse_profile(&text, "p.ibprof"));
        report.push(("ibprof: peer 16,777,215 in every rank", text.len(), peak));

        other_formats(scale, &mut report);
    }
    // PFProf phases are cumulative: 2,000 peers then 2,000 empty phases would make 4 million
    // peer records from 36 KB; refused, cheaply.
    let text = pfprof_with_empty_phases(2000, 2000);
    let mut refused = None;
    let peak = peak_of(|| refused = Some(profile_from_text(&text, "p.json").is_err()));
    assert_eq!(refused, Some(true), "phases far shorter than the first are refused");
    report.push(("pfprof: empty phases after a long one (refused)", text.len(), peak));
    // A PFProf rank with 4,000 phases beside 999 ranks with one: a ranks × regions grid.
    let text = pfprof_with_a_phase_count_per_rank(1000);
    let mut refused = None;
    let peak = peak_of(|| refused = Some(profile_from_text(&text, "p.json").is_err()));
    assert_eq!(refused, Some(true), "a PFProf grid sparser than the limit is refused");
    report.push(("pfprof: one rank with 4,000 phases (refused)", text.len(), peak));
    // A gzip file whose footer claims a gigabyte of text: the claim is not trusted past what
    // deflate can expand (1032:1).
    let mut forged = gzip(b"dump_ucast_routes: Switch 0x1\n");
    let at = forged.len() - 4;
    forged[at..].copy_from_slice(&(1u32 << 30).to_le_bytes());
    let len = forged.len();
    let peak = peak_of(|| Input::from_bytes("f.fdbs.gz", forged));
    report.push(("gzip: a footer claiming 1 GiB", len, peak));
    // A profile of 2,000 ranks that each name their own region would need 4 million counter
    // sets: it is refused, cheaply.
    let text = profile_with_a_region_per_rank(2000);
    let mut refused = None;
    let peak = peak_of(|| refused = Some(parse_profile(&text, "p.ibprof").is_err()));
    assert_eq!(refused, Some(true), "a profile sparser than the limit is refused");
    report.push(("ibprof: a region per rank (refused)", text.len(), peak));
    // Just under the limit it is read, and the region table it makes stays within budget.
    let text = profile_with_a_region_per_rank(250);
    let (profile, _) = parse_profile(&text, "p.ibprof").expect("250 × 250 is within the limit");
    let peak = peak_of(|| region_table(&profile, "p.ibprof"));
    report.push(("region table: 250 ranks × 250 regions", text.len(), peak));

    for (case, len, peak) in &report {
        eprintln!("{case:45} {len:>7} bytes in, peak heap {peak:>9} bytes");
    }
    for (case, len, peak) in report {
        // The region table is ranks × regions by design; 48 bytes a cell, 256 bytes per input byte
        // covers it only because the parser refuses grids much sparser than this one.
        let allowed = if case.starts_with("region table") { budget(len) * 2 } else { budget(len) };
        assert!(peak <= allowed, "{case}: {len} bytes of input took {peak} bytes of heap (budget {allowed})");
    }
}
