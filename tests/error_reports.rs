//! How failures and odd figures read (issue 16, follow-ups): a path said once, warnings that
//! explain an error printed with it, a capped byte sum that keeps its table aligned. Each test
//! runs the `shoal` binary as a user would.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;
#[path = "support/torus_zero_axis.rs"]
mod torus_zero_axis;
use torus_zero_axis::torus_with_zero_axis;

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_run_that_cannot_be_read_names_its_meta_file_once() {
    let dir = temp_dir("meta-once");
    let meta = torus_with_zero_axis(&dir);
    let meta = meta.to_str().unwrap();
    let png = dir.join("x.png");
    for args in [
        vec!["query", meta, "--domain", "links", "--attr", "packets"],
        vec!["render", meta, "--out", png.to_str().unwrap()],
    ] {
        let (ok, _, err) = shoal(&args);
        assert!(!ok, "{err}");
        assert_eq!(err.matches("torus8_meta.yaml").count(), 1, "{}: {err}", args[0]);
        assert!(err.contains("cannot read the run"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_error_prints_the_warnings_that_explain_it() {
    // A gzip bomb whose only link line is one endless line: skipped for its length, so the file
    // holds no link. The error alone would not say why.
    let dir = temp_dir("error-warnings");
    let path = dir.join("subnet.lst.gz");
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(b"# subnet\n").unwrap();
    encoder.write_all(&vec![0u8; 3 << 20]).unwrap();
    encoder.write_all(b"\n").unwrap();
    std::fs::write(&path, encoder.finish().unwrap()).unwrap();
    let (ok, _, err) = shoal(&["info", path.to_str().unwrap()]);
    assert!(!ok);
    let error = err.find("the topology holds no link").expect(&err);
    let skipped = err.find("subnet.lst.gz:2: line of 3145728 bytes is longer than").expect(&err);
    assert!(skipped > error, "the warning is printed under the error: {err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hot_keeps_its_columns_aligned_when_a_byte_sum_is_capped() {
    let args =
        ["hot", "sample-data/testbed", "--profile", "tests/fixtures/bad_data/wrap.ibprof", "--top", "3"];
    let (ok, out, err) = shoal(&args);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let header = lines.iter().position(|l| l.trim_start().starts_with("#  rail")).expect(&out);
    let end_of = |line: &str, word: &str| line.find(word).map(|at| line[..at + word.len()].chars().count());
    let bytes_end = end_of(lines[header], "bytes").unwrap();
    let share_end = end_of(lines[header], "share").unwrap();
    let rows: Vec<&str> = lines[header + 1..].iter().copied().filter(|l| l.ends_with('%')).collect();
    assert!(rows.iter().any(|r| r.contains("16 EiB (overflow)")), "{out}");
    for row in rows {
        let chars: Vec<char> = row.chars().collect();
        assert_eq!(chars.len(), share_end, "shares end where their header does:\n{out}");
        let (last, next) = (chars[bytes_end - 1], chars[bytes_end]);
        assert!(last != ' ' && next == ' ', "bytes end where their header does:\n{out}");
    }
}
