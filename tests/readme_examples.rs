//! The README is whole Markdown, and every example in it runs as written (issue 25).
//!
//! Examples are the ```` ```sh ```` blocks: each command (a line, with `\` continuations; `#`
//! lines are comments) runs through `bash` in the order written, from a copy of the repository's
//! sample data in a temporary folder, with the `shoal` built for these tests first on `PATH`.
//! A command that opens the window (`shoal` and paths, no subcommand) runs with no display: it
//! must get as far as the display check, and every path it names must exist. Blocks of other
//! kinds (`console`: installing; `text`: an MPI job's lines) are not run and hold no `shoal`
//! command.

use std::path::{Path, PathBuf};
use std::process::Command;

const SUBCOMMANDS: [&str; 17] = [
    "convert",
    "matrix",
    "locality",
    "health",
    "jobs",
    "why",
    "trace",
    "hot",
    "info",
    "gen",
    "route",
    "render",
    "pattern",
    "query",
    "completions",
    "man",
    "help",
];

/// What the examples read, copied beside their outputs.
const INPUTS: [&str; 6] = [
    "sample-data",
    "tests/fixtures/counters",
    "tests/fixtures/ar",
    "tests/fixtures/health",
    "tests/fixtures/pfprof",
    "tests/fixtures/stall-series",
];

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md")
}

/// A fenced block: its info string and its lines.
struct Block {
    info: String,
    lines: Vec<String>,
}

/// A fence opener or closer: up to three spaces, then three or more backticks or tildes.
fn fence(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let mark = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.chars().take_while(|c| *c == mark).count();
    (indent <= 3 && run >= 3).then(|| (mark, run, rest[run..].trim()))
}

/// The fenced blocks, the H1 headings outside them, and whether the last fence is left open.
fn parse(markdown: &str) -> (Vec<Block>, Vec<String>, bool) {
    let (mut blocks, mut titles) = (Vec::new(), Vec::new());
    let mut open: Option<(char, usize, Block)> = None;
    let mut previous_text = false;
    for line in markdown.lines() {
        match (&mut open, fence(line)) {
            (Some((mark, run, _)), Some((m, r, rest))) if m == *mark && r >= *run && rest.is_empty() => {
                blocks.push(open.take().map(|(_, _, b)| b).expect("open"));
            }
            (Some((_, _, block)), _) => block.lines.push(line.to_string()),
            (None, Some((mark, run, info))) => {
                open = Some((mark, run, Block { info: info.to_string(), lines: Vec::new() }));
            }
            (None, None) => {
                let trimmed = line.trim_start();
                let indent = line.len() - trimmed.len();
                if indent <= 3 && (trimmed == "#" || trimmed.starts_with("# ")) {
                    titles.push(trimmed.to_string());
                }
                // A setext H1: text underlined with `=`.
                if previous_text && !trimmed.is_empty() && trimmed.chars().all(|c| c == '=') {
                    titles.push(trimmed.to_string());
                }
                previous_text = !trimmed.is_empty();
                continue;
            }
        }
        previous_text = false;
    }
    (blocks, titles, open.is_some())
}

/// The commands of a block: continuation lines joined, comment and blank lines dropped.
fn commands(block: &Block) -> Vec<String> {
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in &block.lines {
        let trimmed = line.trim();
        if current.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => current.push_str(head),
            None => {
                current.push_str(trimmed);
                commands.push(std::mem::take(&mut current));
            }
        }
    }
    assert!(current.is_empty(), "a block ends in a continuation: {current}");
    commands
}

/// `shoal` with no subcommand (and not asking for help or the version): the window.
fn opens_the_window(command: &str) -> bool {
    let mut words = command.split_whitespace();
    let informs = ["--help", "-h", "--version", "-V"];
    words.next() == Some("shoal")
        && words.next().is_some_and(|w| !SUBCOMMANDS.contains(&w) && !informs.contains(&w))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A temporary folder with the examples' inputs, and a `bin/` whose `shoal` is the one built.
fn workspace() -> PathBuf {
    let root = std::env::temp_dir().join(format!("shoal-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for input in INPUTS {
        copy_dir(&repo.join(input), &root.join(input));
    }
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_shoal"), root.join("bin/shoal")).unwrap();
    root
}

fn run(root: &Path, command: &str, window: bool) -> std::process::Output {
    let path = format!("{}:{}", root.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    let mut bash = Command::new("bash");
    bash.args(["-o", "pipefail", "-c", command]).current_dir(root).env("PATH", path);
    if window {
        bash.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    }
    bash.output().expect("bash runs")
}

#[test]
fn the_readme_is_whole_markdown_with_one_title_and_closed_fences() {
    let (blocks, titles, unclosed) = parse(&readme());
    assert!(!unclosed, "the last code fence is never closed");
    assert_eq!(titles, vec!["# shoal".to_string()], "exactly one H1");
    assert!(blocks.iter().any(|b| b.info == "sh"), "the README has examples");
    for block in blocks.iter().filter(|b| b.info != "sh") {
        assert!(
            block.lines.iter().all(|l| !l.trim_start().starts_with("shoal ")),
            "a `shoal` command outside an ```sh block is never run: {:?}",
            block.lines
        );
    }
}

#[test]
fn the_checker_finds_an_open_fence_and_a_stray_title() {
    let (_, titles, unclosed) = parse("# a\n\n```sh\nx\n```\n\n```\n# not a title\n");
    assert!(unclosed);
    assert_eq!(titles, vec!["# a"]);
    let (blocks, titles, unclosed) = parse("# a\ntext\n# b\n~~~~text\n```\n~~~~\nc\n===\n");
    assert!(!unclosed);
    assert_eq!(blocks[0].lines, vec!["```"]);
    assert_eq!(titles, vec!["# a", "# b", "==="]);
}

#[test]
fn the_readme_names_the_install_line_and_what_the_window_needs() {
    let readme = readme();
    assert!(readme.contains("cargo install --path ."));
    for package in ["mesa-vulkan-drivers", "libgl1-mesa-dri", "libxkbcommon-x11-0"] {
        assert!(readme.contains(package), "the window's run-time package {package}");
    }
}

#[test]
fn every_readme_example_runs_verbatim_in_order() {
    let (blocks, _, _) = parse(&readme());
    let root = workspace();
    let mut ran = 0;
    for block in blocks.iter().filter(|b| b.info == "sh") {
        for command in commands(block) {
            let window = opens_the_window(&command);
            let out = run(&root, &command, window);
            let stderr = String::from_utf8_lossy(&out.stderr);
            if window {
                assert!(stderr.contains("neither DISPLAY nor WAYLAND_DISPLAY"), "{command}\n{stderr}");
                for path in command.split_whitespace().skip(1).filter(|w| w.contains('/')) {
                    assert!(root.join(path).exists(), "{command}: {path} exists");
                }
            } else {
                assert!(out.status.success(), "`{command}` failed:\n{stderr}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 30, "{ran} examples");
    std::fs::remove_dir_all(&root).unwrap();
}
