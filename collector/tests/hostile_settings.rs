//! The collector's settings when they are hostile or cannot be honoured (issue 24), in real MPI
//! jobs (Open MPI and MPICH): the job always finishes; a setting the collector cannot honour is
//! named and dropped or capped; an output path that is a symbolic link or a file that keeps no
//! bytes is never reported as written.

#[macro_use]
mod common;

use std::path::{Path, PathBuf};

use common::{Mpi, build, run};

fn tworail() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample-data/tworail")
}

/// Runs samplesort on 4 ranks under libibprof; the job must succeed. Its stderr.
fn run_job(mpi: Mpi, dir: &Path, env: &[(&str, String)]) -> String {
    let out = run(mpi, 4, &build(mpi, "samplesort.c"), dir, true, env);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{} job failed ({}): {stderr}", mpi.tag(), out.status);
    stderr
}

fn a_symbolic_link_as_ibprof_out_is_refused_and_its_target_untouched(mpi: Mpi) {
    let dir = common::workdir(&format!("symlink_{}", mpi.tag()));
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, b"precious").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("app.ibprof")).unwrap();
    let stderr = run_job(mpi, &dir, &[("IBPROF_OUT", dir.join("app.ibprof").display().to_string())]);
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious", "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(!stderr.contains("ibprof: wrote"), "{stderr}");
}
on_both_mpis!(a_symbolic_link_as_ibprof_out_is_refused_and_its_target_untouched);

fn a_file_that_keeps_no_bytes_is_not_reported_as_written(mpi: Mpi) {
    let dir = common::workdir(&format!("proc_{}", mpi.tag()));
    let stderr = run_job(mpi, &dir, &[("IBPROF_OUT", "/proc/version".into())]);
    assert!(!stderr.contains("ibprof: wrote"), "{stderr}");
    assert!(stderr.contains("/proc/version"), "the failure names the file: {stderr}");
}
on_both_mpis!(a_file_that_keeps_no_bytes_is_not_reported_as_written);

fn a_top_k_too_large_for_memory_is_capped_named_once_and_the_loads_file_written(mpi: Mpi) {
    for (case, k) in [("million", "1000000"), ("u32max", "4294967295")] {
        let dir = common::workdir(&format!("topk_cap_{case}_{}", mpi.tag()));
        let env = [
            (
                "IBPROF_RAILS",
                format!("{};{}", tworail().join("rail0").display(), tworail().join("rail1").display()),
            ),
            ("IBPROF_HOSTMAP", tworail().join("collector-samplesort-8.hostmap").display().to_string()),
            ("IBPROF_LOADS", dir.join("run.loads.csv").display().to_string()),
            ("IBPROF_TOPK", k.to_string()),
        ];
        let stderr = run_job(mpi, &dir, &env);
        let named = format!("ibprof: IBPROF_TOPK={k} capped at ");
        assert_eq!(stderr.matches(&named).count(), 1, "named once: {stderr}");
        let after = &stderr[stderr.find(&named).unwrap() + named.len()..];
        let capped: usize = after[..after.find(':').unwrap()].parse().unwrap();
        assert!(capped > 0 && capped.to_string() != k, "{stderr}");
        let text = std::fs::read_to_string(dir.join("run.loads.csv")).unwrap();
        assert!(text.contains(&format!("# topk,{capped}\n")), "the summary is kept, at the capped size");
        assert!(text.contains(&format!("top-K {capped} (IBPROF_TOPK={k} capped)")), "{}", &text[..200]);
    }
}
on_both_mpis!(a_top_k_too_large_for_memory_is_capped_named_once_and_the_loads_file_written);
