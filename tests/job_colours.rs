//! Jobs' colours reach the picture by one road (issue 21): `render --colour-by
//! contention|job:NAME|all` and `--diff-jobs A B` draw the same link ends in the same colours
//! with and without a clause that keeps everything, and the legend's top is the largest value
//! `convert` writes to links.csv for what is coloured.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use shoal::units::format_bytes;

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-job-colours-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, _, err) = shoal(&args);
    assert!(ok, "shoal {args:?}: {err}");
}

/// A k = 8 fabric on two rails and two jobs placed where they share link ends.
struct Setup {
    dir: PathBuf,
    open: Vec<String>,
}

fn setup(name: &str) -> Setup {
    let dir = scratch(name);
    let p = |f: &str| dir.join(f).display().to_string();
    run(&["gen", "--k", "8", "--rails", "2", "--ranks", "8", "--peers", "2", "--out", &p("k8")]
        .map(String::from));
    let a = ["pattern", "alltoall", "--ranks", "8", "--bytes", "1MiB", "--out", &p("a.ibprof")];
    run(&a.map(String::from));
    let b = ["pattern", "io", "--ranks", "10", "--servers", "2", "--bytes", "4MiB", "--out", &p("b.ibprof")];
    run(&b.map(String::from));
    let open = [
        p("k8/rail0"),
        p("k8/rail1"),
        "--job".into(),
        format!("a={}", p("a.ibprof")),
        "--job".into(),
        format!("b={}", p("b.ibprof")),
        "--place".into(),
        "a=random-node:1".into(),
        "--place".into(),
        "b=random-node:2".into(),
    ]
    .to_vec();
    Setup { dir, open }
}

/// The SVG's link lines (position, colour, width, end) and its legend labels.
fn render(s: &Setup, what: &[&str], clause: Option<&str>, name: &str) -> (Vec<String>, Vec<String>) {
    let out = s.dir.join(format!("{name}.svg"));
    let mut args: Vec<String> = ["render".to_string()].into_iter().chain(s.open.iter().cloned()).collect();
    args.extend(what.iter().map(|w| w.to_string()));
    if let Some(c) = clause {
        args.extend(["--where".into(), c.into()]);
    }
    args.extend(["--out".into(), out.display().to_string()]);
    run(&args);
    let svg = std::fs::read_to_string(&out).unwrap();
    let lines = svg.lines().filter(|l| l.contains("<line")).map(String::from).collect();
    let labels = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.to_string()))
        .collect();
    (lines, labels)
}

/// links.csv's largest bytes at one end, per job, for the total.
fn largest_per_job(s: &Setup) -> HashMap<String, u64> {
    let out = s.dir.join("convert");
    let mut args: Vec<String> = ["convert".to_string()].into_iter().chain(s.open.iter().cloned()).collect();
    args.extend(["--out".into(), out.display().to_string()]);
    run(&args);
    let links = std::fs::read_to_string(Path::new(&out).join("links.csv")).unwrap();
    let mut largest: HashMap<String, u64> = HashMap::new();
    for line in links.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        if c[5] != "total" {
            continue;
        }
        let most = c[7].parse::<u64>().unwrap().max(c[8].parse::<u64>().unwrap());
        let entry = largest.entry(c[6].to_string()).or_default();
        *entry = (*entry).max(most);
    }
    largest
}

#[test]
fn job_colours_are_the_same_with_and_without_a_clause_that_keeps_everything() {
    let s = setup("same");
    for (name, what) in [
        ("contention", vec!["--colour-by", "contention"]),
        ("job-a", vec!["--colour-by", "job:a"]),
        ("all", vec!["--colour-by", "all"]),
        ("diff", vec!["--diff-jobs", "a", "b"]),
    ] {
        let (plain, plain_labels) = render(&s, &what, None, &format!("{name}-plain"));
        let (kept, kept_labels) = render(&s, &what, Some("rail >= 0"), &format!("{name}-where"));
        assert!(!plain.is_empty(), "{name}: links drawn");
        assert_eq!(plain, kept, "{name}: the same ends in the same colours and order");
        let legend =
            |labels: &[String]| labels.iter().filter(|l| l.ends_with('B')).cloned().collect::<Vec<_>>();
        assert_eq!(legend(&plain_labels), legend(&kept_labels), "{name}: the same legends");
    }
    let _ = std::fs::remove_dir_all(&s.dir);
}

#[test]
fn a_jobs_legend_tops_out_at_that_jobs_largest_end_in_links_csv() {
    let s = setup("legend");
    let largest = largest_per_job(&s);
    for job in ["a", "b"] {
        let (_, labels) = render(&s, &["--colour-by", &format!("job:{job}")], None, job);
        let top = format_bytes(largest[job]);
        assert!(labels.contains(&top), "job {job}: legend {labels:?} has links.csv's largest end, {top}");
    }
    let (_, labels) = render(&s, &["--colour-by", "all"], None, "all");
    assert!(labels.contains(&format_bytes(largest["all"])), "all: {labels:?}");
    assert_ne!(largest["a"], largest["all"], "the jobs' sum is not job a's bytes");
    let _ = std::fs::remove_dir_all(&s.dir);
}
