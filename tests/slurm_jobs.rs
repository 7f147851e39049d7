//! Jobs from Slurm's accounting (issue 26): `--jobs-from` reads `sacct --parsable2` output
//! (hand-made here in the documented format: no slurmdbd runs on these machines; hostlists
//! are checked against Slurm's own `scontrol show hostnames` in the library's tests), places
//! each job on the fabric, traces its footprint through the real tables, and, with counters
//! from a real Prometheus, ranks who shared a job's links.

#[path = "support/prometheus.rs"]
mod prometheus;
#[path = "support/run_shoal.rs"]
mod run_shoal;
#[path = "support/scratch_dir.rs"]
mod scratch_dir;

use std::collections::BTreeSet;
use std::path::PathBuf;

use prometheus::serve_testbed_first_minute;
use run_shoal::shoal;
use scratch_dir::ScratchDir;
use shoal::routing::trace;
use shoal::view_model::dataset::FabricData;
use shoal::view_model::shared_links::shared_with;
use shoal::view_model::{OpenRequest, PrometheusRequest, open};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A sacct file in a fresh scratch folder (kept while the test holds it), and its path.
fn sacct(name: &str, text: &str) -> (ScratchDir, PathBuf) {
    let dir = ScratchDir::new(&format!("slurm-{name}"));
    let path = dir.join("sacct.txt");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn open_fabric(request: &OpenRequest) -> (FabricData, Vec<String>) {
    let dataset = open(request, &|_| {}).unwrap();
    let warnings = dataset.warnings.iter().map(|w| w.to_string()).collect();
    (dataset.fabric.unwrap(), warnings)
}

#[test]
fn convert_writes_each_job_once_and_every_link_end_of_the_routes_among_its_hosts() {
    let scratch = ScratchDir::new("slurm-convert");
    let out = scratch.join("out");
    let (ok, _, err) = shoal(&[
        "convert",
        "sample-data/tworail/rail0",
        "sample-data/tworail/rail1",
        "--jobs-from",
        "sample-data/tworail/sacct.txt",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(!err.contains("warning"), "the sample is clean: {err}");
    let jobs = std::fs::read_to_string(out.join("jobs.csv")).unwrap();
    let mut lines = jobs.lines();
    assert_eq!(lines.next(), Some("job,name,user,start,end,state,hosts"));
    let ids: Vec<&str> = lines.map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(ids, ["5001", "5002", "5003", "5004"], "steps (5001.batch, 5001.0 …) are not jobs");
    assert!(jobs.contains("5003,lammps,carol,2026-11-24T10:20:00Z,,RUNNING,n0020 n0021"), "{jobs}");

    // Job 5004's rows are the link ends on the traced path of every pair of its hosts.
    let footprints = std::fs::read_to_string(out.join("footprints.csv")).unwrap();
    assert!(footprints.starts_with("job,rail,a_guid,a_port,b_guid,b_port\n"));
    let written: BTreeSet<String> =
        footprints.lines().filter(|l| l.starts_with("5004,")).map(String::from).collect();
    let request = OpenRequest::of_rails(vec![
        vec![root().join("sample-data/tworail/rail0")],
        vec![root().join("sample-data/tworail/rail1")],
    ]);
    let (fabric, _) = open_fabric(&request);
    let cluster = &fabric.cluster;
    let hosts: Vec<usize> =
        ["n0001", "n0002", "n0003", "n0004"].iter().map(|h| cluster.host_index(h).unwrap()).collect();
    let mut traced = BTreeSet::new();
    for (rail, f) in cluster.rails.iter().enumerate() {
        let lid = |h: usize| f.node(cluster.hosts[h].on_rail(rail)[0]).base_lid().unwrap();
        for &a in &hosts {
            for &b in hosts.iter().filter(|&&b| b != a) {
                let path = trace(f, lid(a), lid(b));
                assert!(path.delivered());
                for end in path.link_ends {
                    let ((x, xp), (y, yp)) = f.link_end_nodes(end).unwrap();
                    traced.insert(format!(
                        "5004,{rail},{},{},{},{}",
                        f.node(x).guid,
                        xp.0,
                        f.node(y).guid,
                        yp.0
                    ));
                }
            }
        }
    }
    assert!(traced.len() > 8, "both rails, up and down: {traced:?}");
    assert_eq!(written, traced);
}

#[test]
fn nodes_outside_the_fabric_and_unreadable_nodelists_are_named() {
    let (_dir, path) = sacct(
        "outside",
        "JobID|JobName|User|NodeList|Start|End|State\n\
         7|wrf|dan|n[0001-0002],cn[07-08]|2023-11-14T22:13:20|2023-11-14T23:13:20|COMPLETED\n\
         8|bad|dan|n[0004-0001]|2023-11-14T22:13:20|2023-11-14T23:13:20|FAILED\n",
    );
    let request = OpenRequest {
        jobs_from: Some(path.clone()),
        ..OpenRequest::of_rails(vec![vec![root().join("sample-data/testbed")]])
    };
    let (fabric, warnings) = open_fabric(&request);
    assert_eq!(fabric.scheduled.len(), 1);
    let file = path.display().to_string();
    let outside = format!("{file}:2: job 7 (wrf): 2 of its 4 nodes are not in the fabric: cn07, cn08");
    assert!(warnings.contains(&outside), "{warnings:?}");
    assert!(
        warnings.iter().any(|w| w.starts_with(&format!("{file}:3: job 8: NodeList `n[0004-0001]`"))),
        "{warnings:?}"
    );
}

/// 2023-11-14T22:13:20Z.
const T0: i64 = 1_700_000_000;

#[test]
fn who_shared_my_links_ranks_the_overlapping_jobs_by_the_bytes_on_the_shared_ends_in_their_common_time() {
    // The testbed's traffic moves between T0 and T0 + 60; nothing moves in the next minute.
    let server = serve_testbed_first_minute(T0);
    // Job 1 spans both minutes; 2 ran in the first beside it, 3 in the second on the same
    // nodes as 2; 4 ran before them all. Each job spans both leaf switches.
    let at = |s: i64| {
        shoal::profile_io::prometheus_api::time::rfc3339_of(s as f64).trim_end_matches('Z').to_string()
    };
    let text = format!(
        "JobID|JobName|User|NodeList|Start|End|State\n\
         1|mine|ann|n[0001-0010],n[0022-0031]|{}|{}|COMPLETED\n\
         2|busy|bob|n[0011-0021],n[0032-0042]|{}|{}|COMPLETED\n\
         3|late|cat|n[0011-0021],n[0032-0042]|{}|{}|COMPLETED\n\
         4|early|dan|n[0011-0021],n[0032-0042]|{}|{}|COMPLETED\n",
        at(T0),
        at(T0 + 120),
        at(T0),
        at(T0 + 60),
        at(T0 + 60),
        at(T0 + 120),
        at(T0 - 600),
        at(T0 - 60)
    );
    let (_dir, jobs) = sacct("shared", &text);
    let request = OpenRequest {
        jobs_from: Some(jobs),
        prometheus: Some(PrometheusRequest {
            url: server.url.clone(),
            from: T0.to_string(),
            to: (T0 + 120).to_string(),
            step: Some("60s".into()),
        }),
        ..OpenRequest::of_rails(vec![vec![root().join("sample-data/testbed")]])
    };
    let (fabric, _) = open_fabric(&request);
    let ranked = shared_with(&fabric, 0);
    let names: Vec<&str> = ranked.iter().map(|s| fabric.scheduled[s.job].name.as_str()).collect();
    assert_eq!(names, ["busy", "late"], "the job that ran before shares no time");
    // Expected: the first interval's observed bytes on the ends both footprints cross.
    let (mine, busy) = (&fabric.scheduled[0], &fabric.scheduled[1]);
    let observed = fabric.observed.as_ref().unwrap();
    let first = &observed.series[0];
    let shared: Vec<_> = mine.footprint.rails[0].iter().filter(|&&e| busy.crosses(0, e)).collect();
    assert!(!shared.is_empty());
    let expected: u64 = shared.iter().map(|e| first.rails[0][e.index()].unwrap_or(0)).sum();
    assert!(expected > 0, "the testbed's traffic crosses the inter-switch links");
    assert_eq!((ranked[0].shared_ends, ranked[0].bytes), (shared.len(), Some(expected)));
    assert_eq!(ranked[1].bytes, Some(0), "nothing moved in the second minute");
    assert_eq!(ranked[0].overlap, (T0 as f64, (T0 + 60) as f64));
}

#[test]
fn a_jobs_footprint_is_a_highlight_found_by_its_id_or_name() {
    let (_dir, path) = sacct(
        "highlight",
        "JobID|JobName|User|NodeList|Start|End|State\n\
         9|cfd|eve|n[0001-0002],n0030|2023-11-14T22:13:20|2023-11-14T23:13:20|COMPLETED\n",
    );
    let request = OpenRequest {
        jobs_from: Some(path),
        ..OpenRequest::of_rails(vec![vec![root().join("sample-data/testbed")]])
    };
    let dataset = open(&request, &|_| {}).unwrap();
    let fabric = dataset.fabric.as_ref().unwrap();
    let seeds = shoal::view_model::highlight::search(&dataset, "job 9");
    assert_eq!(seeds, shoal::view_model::highlight::search(&dataset, "job cfd"));
    let links = seeds
        .iter()
        .filter(|s| matches!(s, shoal::view_model::Seed::Id { domain: shoal::model::Domain::Links, .. }))
        .count();
    assert_eq!(links, fabric.scheduled[0].footprint.len());
    assert_eq!(seeds.len() - links, 3, "and the job's three hosts");
}

#[test]
fn footprints_are_a_link_attribute_whose_contended_ends_are_those_two_jobs_cross() {
    let sacct = "tests/fixtures/slurm/testbed-sacct.txt";
    let (ok, out, err) = shoal(&[
        "query",
        "sample-data/testbed",
        "--jobs-from",
        sacct,
        "--domain",
        "links",
        "--attr",
        "footprints",
    ]);
    assert!(ok, "{err}");
    let counts: Vec<f64> =
        out.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(counts.len(), 114, "every link end of the testbed");
    let request = OpenRequest {
        jobs_from: Some(root().join(sacct)),
        ..OpenRequest::of_rails(vec![vec![root().join("sample-data/testbed")]])
    };
    let (fabric, _) = open_fabric(&request);
    let contended =
        shoal::view_model::dataset::scheduled::footprint_contention(&fabric.cluster, &fabric.scheduled);
    assert!(!contended[0].is_empty());
    assert_eq!(counts.iter().filter(|&&c| c >= 2.0).count(), contended[0].len());
    let crossings: usize = fabric.scheduled.iter().map(|j| j.footprint.len()).sum();
    assert_eq!(counts.iter().sum::<f64>() as usize, crossings, "each footprint end counted once per job");
}
