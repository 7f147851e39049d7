//! The collector at scale, in real MPI jobs on shared memory (Open MPI and MPICH): the loads
//! file traced in situ equals `shoal convert` on the gathered profile of the same run, the
//! MPI-IO profile equals the rank-0 one byte for byte, the top-K summary names the true top K,
//! and a fabric that does not load is a message and a counted line, not a failed job.

#[macro_use]
mod common;

use std::path::{Path, PathBuf};

use common::{Mpi, build, run};
use shoal::export::tables::{JobLoads, TableFormat, link_rows, write_table};
use shoal::routing::RegionKey;
use shoal::view_model::dataset::Attribution;
use shoal::view_model::{OpenRequest, open};

fn tworail() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample-data/tworail")
}

fn rails() -> Vec<Vec<PathBuf>> {
    vec![vec![tworail().join("rail0")], vec![tworail().join("rail1")]]
}

fn host_map() -> PathBuf {
    tworail().join("collector-samplesort-8.hostmap")
}

/// The environment of an in-situ run writing `run.loads.csv` and `run.ibprof` into `dir`.
fn in_situ_env(dir: &Path, top_k: u32) -> Vec<(&'static str, String)> {
    let r = rails();
    vec![
        ("IBPROF_RAILS", format!("{};{}", r[0][0].display(), r[1][0].display())),
        ("IBPROF_HOSTMAP", host_map().display().to_string()),
        ("IBPROF_LOADS", dir.join("run.loads.csv").display().to_string()),
        ("IBPROF_OUT", dir.join("run.ibprof").display().to_string()),
        ("IBPROF_TOPK", top_k.to_string()),
    ]
}

fn run_job(mpi: Mpi, ranks: u32, source: &str, dir: &Path, env: &[(&str, String)]) -> String {
    let out = run(mpi, ranks, &build(mpi, source), dir, true, env);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{} job failed: {stderr}", mpi.tag());
    stderr
}

/// `shoal convert`'s links.csv for a profile, as text.
fn converted(profile: &Path) -> String {
    let request = OpenRequest {
        profile: Some(profile.to_path_buf()),
        host_map: Some(host_map()),
        ..OpenRequest::of_rails(rails())
    };
    let dataset = open(&request, &|_| {}).unwrap();
    let fabric = dataset.fabric.as_ref().unwrap();
    let mut out = Vec::new();
    let loads = &fabric.loads;
    // The in-situ file names its rows' job `job` (then `all`), as write_loads_file does.
    let jobs = [JobLoads { name: "job", loads }];
    write_table(&link_rows(&fabric.cluster, &jobs, &loads.total, None), TableFormat::Csv, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn table_of(loads_file: &Path) -> String {
    let text = std::fs::read_to_string(loads_file).unwrap();
    text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect()
}

fn in_situ_loads_equal_convert_of_the_gathered_profile(mpi: Mpi) {
    for ranks in [4, 8] {
        let dir = common::workdir(&format!("in_situ_{}_{ranks}", mpi.tag()));
        run_job(mpi, ranks, "samplesort.c", &dir, &in_situ_env(&dir, 0));
        let mine = table_of(&dir.join("run.loads.csv"));
        let theirs = converted(&dir.join("run.ibprof"));
        assert_eq!(mine.lines().count(), theirs.lines().count(), "{ranks} ranks: rows");
        for (i, (a, b)) in mine.lines().zip(theirs.lines()).enumerate() {
            assert_eq!(a, b, "{ranks} ranks, row {i}");
        }
        assert!(mine.lines().any(|l| l.contains(",total,") && !l.ends_with(",0,0")), "traffic in the total");
        assert!(mine.lines().filter(|l| l.contains(",2,")).count() > 0, "regions 0..2 and total");
    }
}
on_both_mpis!(in_situ_loads_equal_convert_of_the_gathered_profile);

/// Runs samplesort on 8 ranks writing both ways with `extra` settings, and returns rank 0's
/// report after checking that the MPI-IO file equals the rank-0 file byte for byte.
fn mpi_io_equals_rank0(mpi: Mpi, case: &str, extra: &[(&str, &str)]) -> String {
    let dir = common::workdir(&format!("mpiio_{case}_{}", mpi.tag()));
    let out = dir.join("both.ibprof");
    // A stale longer file must not survive past the new profile's end.
    std::fs::write(&out, vec![b'x'; 4 << 20]).unwrap();
    let mut env = vec![("IBPROF_OUT", out.display().to_string()), ("IBPROF_WRITER", "both".to_string())];
    env.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    let stderr = run_job(mpi, 8, "samplesort.c", &dir, &env);
    let (a, b) = (std::fs::read(&out).unwrap(), std::fs::read(dir.join("both.ibprof.rank0")).unwrap());
    assert!(a.len() > 1000);
    assert!(a == b, "MPI-IO and rank-0 files differ ({} vs {} bytes)\n{stderr}", a.len(), b.len());
    stderr
}

fn the_mpi_io_profile_equals_the_rank0_profile(mpi: Mpi) {
    let stderr = mpi_io_equals_rank0(mpi, "one_writer", &[]);
    assert!(stderr.contains("(8 ranks, MPI-IO, 1 writer,"), "{stderr}");
}
on_both_mpis!(the_mpi_io_profile_equals_the_rank0_profile);

fn blocks_of_ranks_write_their_own_parts_of_the_profile(mpi: Mpi) {
    let stderr = mpi_io_equals_rank0(mpi, "blocks", &[("IBPROF_IO_BLOCK", "3")]);
    assert!(stderr.contains("(8 ranks, MPI-IO, 3 writers,"), "writers 0, 3 and 6: {stderr}");
}
on_both_mpis!(blocks_of_ranks_write_their_own_parts_of_the_profile);

fn a_writer_that_cannot_open_the_file_forwards_its_block_to_rank_0(mpi: Mpi) {
    let extra = [("IBPROF_IO_BLOCK", "3"), ("IBPROF_TEST_WRITERS_CANNOT_OPEN", "1")];
    let stderr = mpi_io_equals_rank0(mpi, "forward", &extra);
    assert!(stderr.contains("MPI-IO, 3 writers,") && !stderr.contains("error"), "{stderr}");
    assert!(stderr.contains("2 of 3 writers could not open"), "writers 3 and 6 forwarded: {stderr}");
}
on_both_mpis!(a_writer_that_cannot_open_the_file_forwards_its_block_to_rank_0);

fn a_setting_not_understood_is_named_once(mpi: Mpi) {
    let dir = common::workdir(&format!("setting_{}", mpi.tag()));
    let env =
        vec![("IBPROF_OUT", dir.join("p.ibprof").display().to_string()), ("IBPROF_IO_BLOCK", "0".into())];
    let stderr = run_job(mpi, 4, "samplesort.c", &dir, &env);
    let named = "ibprof: setting not understood: IBPROF_IO_BLOCK=0 (not a whole number ≥ 1; 64 used)";
    assert_eq!(stderr.matches(named).count(), 1, "{stderr}");
    assert!(stderr.contains("(4 ranks, MPI-IO, 1 writer,"), "{stderr}");
}
on_both_mpis!(a_setting_not_understood_is_named_once);

fn the_top_k_summary_names_the_true_top_k(mpi: Mpi) {
    let dir = common::workdir(&format!("topk_{}", mpi.tag()));
    run_job(mpi, 8, "topk.c", &dir, &in_situ_env(&dir, 3));
    let request = OpenRequest { loads: Some(dir.join("run.loads.csv")), ..OpenRequest::of_rails(rails()) };
    let dataset = open(&request, &|_| {}).unwrap();
    let fabric = dataset.fabric.as_ref().unwrap();
    let Attribution::TopK(top) = &fabric.attribution else { panic!("a top-K summary") };
    assert_eq!(top.k, 3);
    let host = |name: &str| fabric.cluster.host_index(name);
    // Ranks 1, 2, 3 are hosts n0030, n0060, n0090 (the host map); rank 0 is n0001. Rail split
    // halves every transfer.
    let truth = [("n0030", 50_000u64), ("n0060", 45_000), ("n0090", 40_000)];
    let total = &fabric.loads.total;
    let (rail, index, bytes) = total
        .rails
        .iter()
        .enumerate()
        .flat_map(|(r, l)| l.bytes.nonzero().map(move |(i, b)| (r, i, b)))
        .max_by_key(|&(r, i, b)| (b, std::cmp::Reverse((r, i))))
        .unwrap();
    assert_eq!(bytes, 135_000 + 4 * 500, "the busiest end carries every byte into rank 0's host on its rail");
    let pairs = top.pairs(RegionKey::Total, rail, shoal::model::LinkEnd::from_index(index));
    let listed: Vec<_> = pairs.iter().map(|p| (p.0, p.1)).collect();
    let expected: Vec<_> = truth.iter().map(|(h, _)| (host(h), host("n0001"))).collect();
    assert_eq!(listed, expected, "{pairs:?}");
    let kept: u64 = pairs.iter().map(|p| p.2).sum();
    let bound = (bytes - kept) / 4;
    for (p, (_, t)) in pairs.iter().zip(truth) {
        assert!(p.2 <= t && t <= p.2 + bound, "{} within [{}, {}]", t, p.2, p.2 + bound);
    }
}
on_both_mpis!(the_top_k_summary_names_the_true_top_k);

fn a_fabric_that_does_not_load_is_a_message_and_a_counted_line(mpi: Mpi) {
    let dir = common::workdir(&format!("bad_fabric_{}", mpi.tag()));
    let mut env = in_situ_env(&dir, 0);
    env[0].1 = dir.join("no-such-rail").display().to_string();
    let stderr = run_job(mpi, 4, "samplesort.c", &dir, &env);
    assert_eq!(stderr.matches("cannot load the fabric").count(), 1, "{stderr}");
    let text = std::fs::read_to_string(dir.join("run.loads.csv")).unwrap();
    assert!(text.contains("# problem,1,cannot load the fabric"), "{text}");
    assert!(dir.join("run.ibprof").exists(), "the per-peer profile is still written");
}
on_both_mpis!(a_fabric_that_does_not_load_is_a_message_and_a_counted_line);

fn a_host_missing_from_the_map_is_counted_not_fatal(mpi: Mpi) {
    let dir = common::workdir(&format!("no_map_{}", mpi.tag()));
    let mut env = in_situ_env(&dir, 0);
    env.retain(|(k, _)| *k != "IBPROF_HOSTMAP");
    let stderr = run_job(mpi, 4, "samplesort.c", &dir, &env);
    assert_eq!(stderr.matches("is not in any fabric").count(), 1, "{stderr}");
    let text = std::fs::read_to_string(dir.join("run.loads.csv")).unwrap();
    assert!(text.lines().any(|l| l.starts_with("# problem,4,host ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("# unplaced,total,")), "{text}");
}
on_both_mpis!(a_host_missing_from_the_map_is_counted_not_fatal);
