//! Several jobs on one fabric (issue 12): per-job loads, `all`, contention, placement.

use std::path::{Path, PathBuf};

use shoal::model::synthetic::Pattern;
use shoal::profile_io::ibprof::write_profile;
use shoal::routing::{Loads, RegionLoads};
use shoal::view_model::dataset::{Dataset, FabricData};
use shoal::view_model::trace::JobsError;
use shoal::view_model::{JobRequest, OpenError, OpenRequest, open};

#[path = "support/run_shoal.rs"]
mod run_shoal;
use run_shoal::shoal;

const RAIL0: &str = "sample-data/tworail/rail0";
const RAIL1: &str = "sample-data/tworail/rail1";
const SORT: &str = "sample-data/tworail/samplesort.ibprof.gz";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rails() -> Vec<Vec<PathBuf>> {
    vec![vec![root().join(RAIL0)], vec![root().join(RAIL1)]]
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoal-jobs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_pattern(dir: &Path, name: &str, pattern: Pattern) -> PathBuf {
    let path = dir.join(format!("{name}.ibprof"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    write_profile(&pattern.build(), &mut out).unwrap();
    path
}

fn job(name: &str, profile: &Path, place: &str) -> JobRequest {
    JobRequest { name: name.into(), profile: profile.to_path_buf(), place: place.into() }
}

/// The sample's two rails shared by `jobs`.
fn open_jobs(jobs: &[JobRequest]) -> Result<Dataset, OpenError> {
    open(&OpenRequest { jobs: jobs.to_vec(), ..OpenRequest::of_rails(rails()) }, &|_| {})
}

fn fabric(dataset: &Dataset) -> &FabricData {
    dataset.fabric.as_ref().unwrap()
}

/// The loads of `profile` traced alone on the sample.
fn alone(profile: &Path) -> Loads {
    let request = OpenRequest { profile: Some(profile.to_path_buf()), ..OpenRequest::of_rails(rails()) };
    open(&request, &|_| {}).unwrap().fabric.unwrap().loads
}

#[test]
fn each_jobs_loads_equal_tracing_it_alone_and_all_is_their_sum() {
    let dir = scratch("alone");
    let io = write_pattern(&dir, "io", Pattern::Io { ranks: 6, bytes: 1 << 20, servers: 2, stripes: 1 });
    let specs = [job("sort", &root().join(SORT), "as-recorded"), job("io", &io, "random-switch:3")];
    let opened = open_jobs(&specs).unwrap();
    let jobs = fabric(&opened);
    assert_eq!(jobs.jobs[0].loads, alone(&root().join(SORT)), "sort traced alone");
    // The io job alone: the same pattern with its placed hosts written into the profile.
    let mut placed = Pattern::Io { ranks: 6, bytes: 1 << 20, servers: 2, stripes: 1 }.build();
    for (section, &(rank, host)) in placed.ranks.iter_mut().zip(&jobs.jobs[1].placement) {
        assert_eq!(section.rank, rank);
        section.host = jobs.cluster.hosts[host].name.clone();
    }
    let path = dir.join("io-placed.ibprof");
    write_profile(&placed, &mut std::io::BufWriter::new(std::fs::File::create(&path).unwrap())).unwrap();
    assert_eq!(jobs.jobs[1].loads.total.rails, alone(&path).total.rails);
    let all = &jobs.loads.total;
    let sum = RegionLoads::sum([&jobs.jobs[0].loads.total, &jobs.jobs[1].loads.total]);
    assert_eq!(all.rails, sum.rails);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_host_held_by_two_jobs_is_an_error_naming_both() {
    let sort = root().join(SORT);
    let specs = [job("a", &sort, "as-recorded"), job("b", &sort, "as-recorded")];
    let error = open_jobs(&specs).unwrap_err();
    assert!(
        matches!(&error, OpenError::Jobs(JobsError::SharedHost { first, second, .. }) if first == "a" && second == "b")
    );
    assert!(error.to_string().contains("job a and job b"), "{error}");
}

#[test]
fn placed_jobs_take_only_hosts_the_recorded_job_does_not_hold() {
    let dir = scratch("free");
    let a2a = write_pattern(&dir, "a2a", Pattern::AllToAll { ranks: 6, bytes: 4096 });
    let specs = [job("x", &a2a, "random-node:1"), job("sort", &root().join(SORT), "as-recorded")];
    let opened = open_jobs(&specs).unwrap();
    let jobs = fabric(&opened);
    let (sort, _) = shoal::profile_io::profiles::read_profile(&root().join(SORT)).unwrap();
    let sort_hosts: Vec<usize> = sort.ranks.iter().filter_map(|r| jobs.cluster.host_index(&r.host)).collect();
    assert!(!sort_hosts.is_empty());
    assert!(jobs.jobs[0].placement.iter().all(|(_, h)| !sort_hosts.contains(h)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pattern_without_a_placement_is_an_error_asking_for_one() {
    let dir = scratch("noplace");
    let a2a = write_pattern(&dir, "a2a", Pattern::AllToAll { ranks: 4, bytes: 1 });
    let error = open_jobs(&[job("x", &a2a, "as-recorded")]).unwrap_err();
    assert!(error.to_string().contains("--place x=POLICY"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_writes_placement_csv_and_job_rows_whose_all_sums_the_jobs() {
    let dir = scratch("convert");
    let (ok, _, err) = shoal(&[
        "pattern",
        "alltoall",
        "--ranks",
        "8",
        "--bytes",
        "1MiB",
        "--out",
        dir.join("a.ibprof").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, _, err) = shoal(&[
        "pattern",
        "io",
        "--ranks",
        "10",
        "--servers",
        "2",
        "--bytes",
        "4MiB",
        "--out",
        dir.join("io.ibprof").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let out = dir.join("out");
    let job_a = format!("a={}", dir.join("a.ibprof").display());
    let job_io = format!("io={}", dir.join("io.ibprof").display());
    let (ok, _, err) = shoal(&[
        "convert",
        RAIL0,
        RAIL1,
        "--job",
        &job_a,
        "--job",
        &job_io,
        "--place",
        "a=linear",
        "--place",
        "io=random-switch:7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let placement = std::fs::read_to_string(out.join("placement.csv")).unwrap();
    let mut lines = placement.lines();
    assert_eq!(lines.next(), Some("job,rank,host"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 18);
    let hosts: std::collections::HashSet<&str> = rows.iter().map(|r| r[2]).collect();
    assert_eq!(hosts.len(), 18, "no host twice");
    let links = std::fs::read_to_string(out.join("links.csv")).unwrap();
    let mut lines = links.lines();
    assert_eq!(
        lines.next(),
        Some(
            "rail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a,observed_a_to_b,observed_b_to_a,\
             xmit_wait_a_to_b,xmit_wait_b_to_a,capacity_bytes_per_s,utilisation_a_to_b,utilisation_b_to_a,\
             stall_a_to_b,stall_b_to_a"
        )
    );
    let mut sums: std::collections::HashMap<(String, String), u64> = Default::default();
    for line in lines {
        let c: Vec<&str> = line.split(',').collect();
        let bytes = c[7].parse::<u64>().unwrap() + c[8].parse::<u64>().unwrap();
        *sums.entry((c[6].to_string(), c[5].to_string())).or_default() += bytes;
    }
    let of = |job: &str, region: &str| sums.get(&(job.to_string(), region.to_string())).copied();
    assert_eq!(of("all", "total").unwrap(), of("a", "total").unwrap() + of("io", "total").unwrap());
    assert!(of("a", "1").unwrap() > 0 && of("all", "1").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hot_contended_lists_each_jobs_bytes_and_pairs_at_the_shared_ends() {
    let dir = scratch("hot");
    let a = write_pattern(&dir, "a", Pattern::AllToAll { ranks: 32, bytes: 1 << 20 });
    let io = write_pattern(&dir, "io", Pattern::Io { ranks: 32, bytes: 8 << 20, servers: 4, stripes: 2 });
    let job_a = format!("md={}", a.display());
    let job_io = format!("io={}", io.display());
    let (ok, out, err) = shoal(&[
        "hot",
        RAIL0,
        RAIL1,
        "--job",
        &job_a,
        "--job",
        &job_io,
        "--place",
        "md=random-node:1",
        "--place",
        "io=random-node:2",
        "--contended",
        "--top",
        "5",
    ]);
    assert!(ok, "{err}");
    assert!(out.starts_with("Contended link ends"), "{out}");
    assert!(out.contains("job md:") && out.contains("job io:"), "{out}");
    let ranked =
        out.lines().filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit())).count();
    assert_eq!(ranked, 5);
    let _ = std::fs::remove_dir_all(&dir);
}
