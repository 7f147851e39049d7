//! The hostile corpus (issue 24): every folder of `tests/hostile/` is one case, a `shoal` command
//! on inputs built to break a surface (loads, counters, CSV in and out, generators, flags,
//! routing engines, outputs), with the answer it must give. `tests/hostile/README.md` describes
//! the `case.txt` directives. The collector's settings have their own corpus, run under MPI:
//! `collector/tests/hostile_settings.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty `$OUT` for one case.
fn fresh_out(case: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile").join(case);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Case {
    dir: PathBuf,
    out: PathBuf,
}

impl Case {
    fn expand(&self, text: &str) -> String {
        text.replace("$SAMPLE", &root().join("sample-data/tworail").display().to_string())
            .replace("$DATA", &root().join("sample-data").display().to_string())
            .replace("$OUT", &self.out.display().to_string())
    }

    fn path(&self, text: &str) -> PathBuf {
        self.dir.join(self.expand(text))
    }

    fn run(&self, args: &str) -> Output {
        Command::new(env!("CARGO_BIN_EXE_shoal"))
            .args(self.expand(args).split_whitespace())
            .current_dir(&self.dir)
            .output()
            .unwrap()
    }
}

/// Runs one case; every failed expectation, as text.
fn check_case(dir: &Path) -> Vec<String> {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let case = Case { dir: dir.to_path_buf(), out: fresh_out(&name) };
    let text = std::fs::read_to_string(dir.join("case.txt")).unwrap();
    let mut last: Option<Output> = None;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (directive, value) = line.split_once(": ").unwrap_or((line, ""));
        let stdout =
            last.as_ref().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
        let stderr =
            last.as_ref().map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).unwrap_or_default();
        let ok = match directive {
            "run" => {
                if let Some(o) = &last
                    && !o.status.success()
                {
                    failures.push(format!("{name}: an earlier command failed: {stderr}"));
                }
                last = Some(case.run(value));
                true
            }
            "exit" => {
                last.as_ref().and_then(|o| o.status.code()).map(|c| c.to_string()) == Some(value.to_string())
            }
            "stdout" => stdout.contains(&case.expand(value)),
            "stderr" => stderr.contains(&case.expand(value)),
            "stdout-not" => !stdout.contains(&case.expand(value)),
            "stderr-not" => !stderr.contains(&case.expand(value)),
            "file" => {
                let (path, wanted) = value.split_once(" contains ").unwrap();
                std::fs::read_to_string(case.path(path)).is_ok_and(|t| t.contains(&case.expand(wanted)))
            }
            "absent" => !case.path(value).exists(),
            "only" => {
                let mut words = value.split_whitespace();
                let folder = case.path(words.next().unwrap());
                let mut wanted: Vec<String> = words.map(String::from).collect();
                let mut found: Vec<String> = std::fs::read_dir(&folder)
                    .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
                    .unwrap_or_default();
                wanted.sort();
                found.sort();
                found == wanted
            }
            other => panic!("{name}: unknown directive `{other}`"),
        };
        if !ok {
            failures.push(format!("{name}: `{line}` does not hold\n  stdout: {stdout}\n  stderr: {stderr}"));
        }
    }
    failures
}

#[test]
fn every_hostile_case_gives_its_expected_answer() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("tests/hostile"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.txt").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= 15, "the corpus is there: {cases:?}");
    let failures: Vec<String> = cases.iter().flat_map(|c| check_case(c)).collect();
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// `shoal convert`'s own links.csv, names with commas and formula starts included, reads back
/// through `--loads` to the same table (issue 24, 11).
#[test]
fn converts_own_links_table_reads_back_as_loads_to_the_same_table() {
    let sample = root().join("sample-data/tworail");
    let out = fresh_out("roundtrip");
    let rail = sample.join("rail0");
    let convert = |args: &[String], to: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_shoal"))
            .arg("convert")
            .arg(&rail)
            .args(args)
            .arg("--out")
            .arg(to)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(to.join("links.csv")).unwrap()
    };
    let job = format!("--job=-md, run 2={}", sample.join("bcast-rail0-only.ibprof").display());
    let first = convert(&[job], &out.join("a"));
    assert!(first.contains(",\"'-md, run 2\","), "quoted and disarmed: {}", &first[..400]);
    let again = convert(&["--loads".into(), out.join("a/links.csv").display().to_string()], &out.join("b"));
    let rows = |t: &str| -> Vec<String> {
        // The job's name is the loads file's own; the bytes of every row are what must agree.
        t.lines().map(|l| l.replace("\"'-md, run 2\"", "JOB").replace(",'-md, run 2,", ",JOB,")).collect()
    };
    assert_eq!(rows(&first), rows(&again));
}
