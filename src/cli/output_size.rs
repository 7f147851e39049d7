//! Before a generator writes (`shoal gen`, `shoal pattern`): how big its output will be, and
//! whether the disk it goes to has room, so a run that cannot finish is refused at once, with
//! the figures, instead of filling the disk or memory (issue 24).

use std::path::Path;

use anyhow::{Result, bail};
use shoal::units::format_bytes;

/// Decimal digits of `n`.
pub fn digits(n: u64) -> u64 {
    n.checked_ilog10().map_or(1, |d| u64::from(d) + 1)
}

/// At most how many bytes an ibprof profile of `ranks` ranks and `peer_lines` peer lines takes:
/// the prelude, a `rank` and a `region` line per rank (host names of at most `host_chars`
/// characters), and `peer R sent B recv B` lines with byte counts of at most `max_bytes`.
pub fn profile_bound(ranks: u64, peer_lines: u64, host_chars: u64, max_bytes: u64) -> u64 {
    let rank_line = "rank  host  starttime 1700000000.000000\n".len() as u64 + digits(ranks) + host_chars + 2;
    let region_line = "region 1 name \"exchange\" dumptime 1700000001.000000\n".len() as u64 + 8;
    let peer_line = "peer  sent  recv \n".len() as u64 + digits(ranks) + 2 * digits(max_bytes);
    let prelude = 200;
    ranks
        .saturating_mul(rank_line + region_line)
        .saturating_add(peer_lines.saturating_mul(peer_line))
        .saturating_add(prelude)
}

/// At most how many bytes one rail's OpenSM dumps take (`opensm-subnet.lst` and `opensm.fdbs`
/// as `gen` writes them): a line per link end of two node descriptions (generated names, a few
/// tens of characters) with GUIDs, LIDs and ports, and per switch a header and a line per LID.
pub fn rail_dumps_bound(nodes: u64, switches: u64, links: u64) -> u64 {
    const LST_LINE: u64 = 320;
    const FDBS_LINE: u64 = 32;
    const FDBS_HEADER: u64 = 100;
    let lst = links.saturating_mul(2).saturating_mul(LST_LINE);
    let fdbs = switches.saturating_mul(FDBS_HEADER.saturating_add(nodes.saturating_mul(FDBS_LINE)));
    lst.saturating_add(fdbs)
}

/// Free bytes for an unprivileged user on the file system that holds `dir` (or its nearest
/// existing parent); `None` where the platform cannot say.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    let existing =
        dir.ancestors().find(|d| d.exists() && !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    statvfs_free(existing)
}

#[cfg(unix)]
fn statvfs_free(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `path` is a NUL-terminated string and `stat` a valid place for the answer.
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    Some((stat.f_bavail as u64).saturating_mul(stat.f_frsize as u64))
}

#[cfg(not(unix))]
fn statvfs_free(_dir: &Path) -> Option<u64> {
    None
}

/// Says how big `what` will be, and refuses when the disk under `dir` has less room than that.
pub fn check_room(dir: &Path, what: &str, bound: u64) -> Result<()> {
    match free_bytes(dir) {
        Some(free) if bound > free => bail!(
            "{what} would take up to {} and {} has {} free; nothing was written",
            format_bytes(bound),
            dir.display(),
            format_bytes(free)
        ),
        Some(free) => {
            eprintln!(
                "{what}: up to {} ({} free on {})",
                format_bytes(bound),
                format_bytes(free),
                dir.display()
            );
        }
        None => eprintln!("{what}: up to {}", format_bytes(bound)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_count_decimal_places() {
        assert_eq!([digits(0), digits(9), digits(10), digits(u64::MAX)], [1, 1, 2, 20]);
    }

    #[test]
    fn a_profile_bound_saturates_instead_of_wrapping() {
        assert_eq!(profile_bound(u64::MAX, u64::MAX, 10, u64::MAX), u64::MAX);
        assert!(profile_bound(2, 2, 5, 10) < 1000);
    }

    #[test]
    fn a_rail_bound_covers_what_gen_writes_for_a_small_tree() {
        let dir = std::env::temp_dir().join(format!("shoal-rail-bound-{}", std::process::id()));
        let fabric = shoal::model::synthetic::ThreeLevel::k_ary_pods(4, 4)
            .rail(shoal::model::RailId(0), 0x0002_c900_0000_0000)
            .build();
        shoal::profile_io::opensm_write::write_rail_dir(&fabric, &dir).unwrap();
        let written: u64 =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).sum();
        std::fs::remove_dir_all(&dir).unwrap();
        let bound = rail_dumps_bound(
            fabric.graph.node_count() as u64,
            fabric.switches().count() as u64,
            fabric.link_count() as u64,
        );
        assert!(written <= bound, "{written} bytes written, bound {bound}");
        assert!(bound < written * 4, "the bound stays near what is written: {bound} for {written}");
        assert_eq!(rail_dumps_bound(u64::MAX, u64::MAX, u64::MAX), u64::MAX, "it saturates");
    }

    #[test]
    fn the_current_directory_has_a_free_figure() {
        assert!(
            free_bytes(Path::new("no/such/dir/here")).is_some(),
            "statvfs of the nearest existing parent"
        );
    }
}
