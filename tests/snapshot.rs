//! The snapshot contract (issue 6, part 6) at library level: a dump rewritten while it is read is
//! an error, never a half-old, half-new fabric; the caller keeps what it had, and once the file
//! is complete it reads whole. (The GUI's reload path is tested in tests/gui.rs: a failed reload
//! keeps the data on screen.)

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;

use shoal::model::synthetic::ThreeLevel;
use shoal::profile_io::load_cluster;
use shoal::profile_io::opensm_write::write_rail_dir;

/// 6 of the 12 pods of a k = 12 tree: 34,992 table rows, about 1 MB of `.fdbs`.
fn shape() -> ThreeLevel {
    ThreeLevel::k_ary_pods(12, 6)
}

fn rail_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-snapshot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_rail_dir(&shape().build(), &dir).expect("temp dir writable");
    dir
}

#[test]
fn a_table_file_appended_to_while_it_is_read_is_an_error_and_reads_whole_once_complete() {
    let dir = rail_dir("append");
    let rails = vec![vec![dir.clone()]];
    let (good, warnings) = load_cluster(&rails).expect("the complete rail loads");
    assert!(warnings.is_empty(), "{warnings:?}");

    // The subnet manager appends to its dump, a row every millisecond, until we stop it.
    let fdbs = dir.join("opensm.fdbs");
    let stop = AtomicBool::new(false);
    let (started, wait) = channel();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut file = std::fs::OpenOptions::new().append(true).open(&fdbs).expect("appendable");
            let mut first = true;
            while !stop.load(Ordering::Relaxed) {
                file.write_all(b"0x0001 : 001  : 01   : yes\n").expect("appendable");
                if std::mem::take(&mut first) {
                    started.send(()).expect("the reader waits");
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        });
        wait.recv().expect("the writer starts");
        let result = load_cluster(&rails);
        stop.store(true, Ordering::Relaxed);
        result
    });
    let err = result.expect_err("a file that grew during the read is not a fabric");
    assert!(err.to_string().contains("changed while it was being read"), "{err}");
    assert!(err.to_string().contains("opensm.fdbs"), "the error names the file: {err}");

    // What the caller had is untouched, and once the writer is done the file reads whole: the
    // appended rows repeat LID 1 for the last switch and are warned about (the first 100 of
    // them, then a count).
    assert_eq!(good.rails[0].switches_with_lft(), shape().switch_count());
    let (again, warnings) = load_cluster(&rails).expect("the complete file loads");
    assert_eq!(again.rails[0].link_count(), good.rails[0].link_count());
    assert!(
        !warnings.is_empty()
            && warnings
                .iter()
                .all(|w| w.message.contains("listed again") || w.message.contains("more problem lines")),
        "{warnings:?}"
    );
    std::fs::remove_dir_all(&dir).expect("temp dir removable");
}

#[test]
fn a_link_list_cut_short_between_two_reads_is_read_as_it_now_is_with_a_warning_not_a_panic() {
    let dir = rail_dir("cut");
    let rails = vec![vec![dir.clone()]];
    let lst = dir.join("opensm-subnet.lst");
    let text = std::fs::read(&lst).expect("written");
    // Cut inside a line, as a writer interrupted mid-write leaves it.
    std::fs::write(&lst, &text[..text.len() / 2 + 7]).expect("writable");
    let (cut, warnings) = load_cluster(&rails).expect("a cut link list still loads its whole lines");
    assert!(warnings.iter().any(|w| w.message.contains("truncated")), "{warnings:?}");
    assert!(cut.rails[0].link_count() < shape().link_count());
    std::fs::remove_dir_all(&dir).expect("temp dir removable");
}
