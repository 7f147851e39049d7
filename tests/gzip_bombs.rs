//! Gzip bombs (issue 16): a small `.gz` that expands to hundreds of MB costs memory by what is
//! kept from it, not by what it expands to. The bombs are generated here (one compressed MiB
//! repeated as gzip members, which every gunzip concatenates), never committed.
//!
//! One test function on purpose: the counting allocator counts every thread, so cases must not
//! overlap.

use std::io::Write;
use std::path::PathBuf;

use flate2::Compression;
use flate2::write::GzEncoder;
use shoal::profile_io::Input;
use shoal::profile_io::fdbs::read_fdbs_file;
use shoal::profile_io::lines::MAX_LINE_BYTES;

#[path = "support/peak_alloc.rs"]
mod peak_alloc;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

const MIB: usize = 1 << 20;

/// What reading any of these bombs may cost: the 4 MiB read piece, the 1 MiB gunzip buffer, one
/// line up to the 1 MiB bound, and the decoder's own state, with room to spare.
const BUDGET: usize = 16 * MIB;

/// A gzip file of `members` copies of `unit` compressed: it expands to `members × unit.len()`.
fn bomb(name: &str, head: &str, unit: &[u8], members: usize) -> (PathBuf, usize) {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(unit).unwrap();
    let member = encoder.finish().unwrap();
    let mut first = GzEncoder::new(Vec::new(), Compression::fast());
    first.write_all(head.as_bytes()).unwrap();
    let mut bytes = first.finish().unwrap();
    for _ in 0..members {
        bytes.extend_from_slice(&member);
    }
    let dir = std::env::temp_dir().join(format!("shoal-bombs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes.len())
}

#[test]
fn gzip_bombs_cost_memory_by_what_is_kept_not_by_what_they_expand_to() {
    let expanded = 128 * MIB;
    let members = expanded / MIB;

    // One endless line of NUL bytes after a valid header, read whole as most formats are.
    let (path, size) = bomb("opensm-subnet.lst.gz", "# subnet\n", &vec![0u8; MIB], members);
    assert!(size < MIB, "the bomb itself is small: {size} bytes");
    let (result, peak) = peak_alloc::peak_of(|| Input::open(&path));
    let (input, warnings) = result.unwrap();
    assert!(peak < BUDGET, "one endless line cost {} MiB of heap", peak / MIB);
    assert_eq!(input.lines().count(), 2, "the header and the skipped line, left blank");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, Some(2));
    assert!(warnings[0].message.contains(&format!("{} bytes", expanded)), "{}", warnings[0].message);
    assert!(warnings[0].message.contains(&MAX_LINE_BYTES.to_string()), "{}", warnings[0].message);

    // Bytes that are not UTF-8 (each would become a 3-byte U+FFFD), on lines just over the bound.
    let mut unit = vec![0xffu8; MIB + 1];
    unit.push(b'\n');
    let (path, _) = bomb("bad.lst.gz", "", &unit, members);
    let (result, peak) = peak_alloc::peak_of(|| Input::open(&path));
    let (_, warnings) = result.unwrap();
    assert!(peak < BUDGET, "invalid UTF-8 lines cost {} MiB of heap", peak / MIB);
    assert!(warnings.iter().any(|w| w.message.contains("limit")), "{warnings:?}");

    // A forwarding-table file streamed by the rail loader: 128 MiB of rows the parser rejects
    // keeps a hundred warnings and a count, nothing else.
    let garbage = "this is not a forwarding table row at all\n".repeat(MIB / 42);
    let head = "dump_ucast_routes: Switch 0x0002c90200010000\n0x0001 : 001  : 01   : yes\n";
    let (path, _) = bomb("opensm.fdbs.gz", head, garbage.as_bytes(), members);
    let (result, peak) = peak_alloc::peak_of(|| read_fdbs_file(&path));
    let (tables, warnings) = result.unwrap();
    assert!(peak < BUDGET, "a streamed table bomb cost {} MiB of heap", peak / MIB);
    assert_eq!(tables.len(), 1);
    assert!(warnings.len() <= 102, "warnings are capped: {}", warnings.len());

    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}
