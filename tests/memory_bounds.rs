//! Memory stays proportional to the input (issue 6): tiny adversarial files, each built to make
//! a careless parser allocate by what the file *claims* (a LID of 0xBFFF, a peer of rank
//! 16,777,215, a thousand ranks with a region each) rather than by what it holds. A counting
//! allocator measures the peak heap of each parse.
//!
//! One test function on purpose: the allocator counts every thread, so cases must not overlap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use shoal::model::{RailId, region_table};
use shoal::profile_io::Input;
use shoal::profile_io::fdbs::parse_fdbs;
use shoal::profile_io::ibdiagnet_lst::parse_lst;
use shoal::profile_io::ibprof::parse_profile;
use shoal::profile_io::lfts_dump::parse_lfts_dump;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The peak heap `run` adds above what was live before it.
fn peak_of<T>(run: impl FnOnce() -> T) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let kept = run();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(kept);
    peak
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
    }
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
