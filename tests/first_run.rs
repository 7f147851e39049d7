//! The first run on the machines admins have (issue 16): no display, profiles from pipes and
//! standard input, FIFOs in dump folders, node descriptions holding terminal escapes.

use std::io::Write;
use std::process::{Command, Stdio};

const RAILS: [&str; 2] = ["sample-data/tworail/rail0", "sample-data/tworail/rail1"];
const PROFILE_GZ: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn shoal() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// `shoal ARGS…` with `stdin` on its standard input: (success, stdout, stderr).
fn shoal_with_stdin(args: &[&str], stdin: &[u8]) -> (bool, String, String) {
    let mut child = shoal()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("shoal runs");
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&bytes));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn manifest(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn without_a_display_the_window_error_names_shoal_render() {
    let out = shoal().env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("neither DISPLAY nor WAYLAND_DISPLAY"), "{stderr}");
    assert!(stderr.contains("shoal render"), "{stderr}");
}

#[test]
fn a_profile_on_standard_input_reads_as_the_file_does() {
    let gz = std::fs::read(manifest(PROFILE_GZ)).unwrap();
    let from_file = shoal().args(["hot", RAILS[0], RAILS[1], "--profile", PROFILE_GZ]).output().unwrap();
    assert!(from_file.status.success());
    let expected = String::from_utf8_lossy(&from_file.stdout).into_owned();
    for name in ["-", "/dev/stdin"] {
        let (ok, stdout, stderr) = shoal_with_stdin(&["hot", RAILS[0], RAILS[1], "--profile", name], &gz);
        assert!(ok, "{name}: {stderr}");
        assert_eq!(stdout, expected, "--profile {name} (gzip through a pipe)");
    }
}

#[test]
fn a_fifo_in_a_rail_folder_is_skipped_with_a_warning_and_nothing_blocks() {
    let dir = std::env::temp_dir().join(format!("shoal-fifo-rail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(manifest(RAILS[0])).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let fifo = dir.join("topology.txt");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let out = shoal().args(["info", "-v"]).arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}");
    let all = format!("{stdout}{stderr}");
    assert!(all.contains(&format!("{}: skipped: a FIFO", fifo.display())), "{all}");
}

#[test]
fn node_descriptions_with_terminal_escapes_are_printed_escaped() {
    let dir = std::env::temp_dir().join(format!("shoal-escape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lst = std::fs::read(manifest("sample-data/tworail/rail0/opensm-subnet.lst.gz")).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(lst.as_slice()), &mut text).unwrap();
    // Any node can set its own description: one writes a clear-screen sequence into it.
    // (`info` names the switches where pairs stop: with no tables given, every leaf.)
    let mut text = text.replace("MF0;r0-L1-00-01:SX6036/U1", "leaf\u{1b}[2J\u{1b}]0;owned\u{7}");
    // And a bad line whose warning quotes a word of it.
    text.push_str("{ b\u{1b}[31mad line }\n");
    std::fs::write(dir.join("opensm-subnet.lst"), text).unwrap();
    let out = shoal().args(["info", "-v"]).arg(dir.join("opensm-subnet.lst")).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let printed = [out.stdout, out.stderr].concat();
    let shown = String::from_utf8_lossy(&printed);
    assert!(!printed.contains(&0x1b), "no raw escape byte reaches the terminal: {shown}");
    assert!(shown.contains("leaf\\x1b[2J\\x1b]0;owned\\x07"), "{shown}");
    assert!(shown.contains("b\\x1b[31mad"), "{shown}");
}
