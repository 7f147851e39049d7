//! ibprof v1 from disk: gzip detected by content, directories of per-rank files merged, and the
//! synthetic sample profiles in `sample-data/` read and differenced without a warning.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use shoal::model::{Profile, Warning, region_table};
use shoal::profile_io::ParseError;
use shoal::profile_io::ibprof::{parse_profile, read_profile, write_profile};

const TWO_RANKS: &str = r#"ibprof 1
job ranks 3 mpi "Open MPI 4.1.4" source pmpi
rank 0 host n0001 starttime 1700000000.000000
region 1 name "sample sort" dumptime 1700000001.500000
peer 1 sent 4096 recv 2048
rank 1 host n0002 starttime 1700000000.000001
region 1 dumptime 1700000001.600000
peer 0 sent 2048 recv 4096
"#;

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ibprof-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn gzip(text: &str) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

fn write(profile: &Profile) -> String {
    let mut out = Vec::new();
    write_profile(profile, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The profile of `TWO_RANKS` cut into one text per rank.
fn per_rank_texts() -> Vec<String> {
    let (profile, _) = parse_profile(TWO_RANKS, "two").unwrap();
    profile.ranks.iter().map(|r| write(&Profile { ranks: vec![r.clone()], ..profile.clone() })).collect()
}

fn messages(warnings: &[Warning]) -> Vec<String> {
    warnings.iter().map(Warning::to_string).collect()
}

#[test]
fn gzip_is_detected_by_its_magic_bytes_whatever_the_name() {
    let dir = scratch("gzip");
    let (expected, _) = parse_profile(TWO_RANKS, "two").unwrap();
    for name in ["job.ibprof.gz", "job.ibprof", "job.txt"] {
        std::fs::write(dir.join(name), gzip(TWO_RANKS)).unwrap();
        let (profile, warnings) = read_profile(&dir.join(name)).unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(profile, expected, "{name}");
    }
}

#[test]
fn warnings_name_the_file_as_given_and_the_line() {
    let dir = scratch("names");
    let path = dir.join("bad.ibprof");
    std::fs::write(&path, TWO_RANKS.replace("peer 0 sent 2048", "peer 0 sent lots")).unwrap();
    let (_, warnings) = read_profile(&path).unwrap();
    assert_eq!(
        messages(&warnings),
        [format!("{}:8: peer line: bad or missing `sent` count `lots`; line skipped", path.display())]
    );
}

#[test]
fn a_missing_file_or_another_version_is_an_error() {
    let dir = scratch("errors");
    assert!(matches!(read_profile(&dir.join("nope.ibprof")), Err(ParseError::Io { .. })));
    std::fs::write(dir.join("v2.ibprof"), "ibprof 2\n").unwrap();
    let err = read_profile(&dir.join("v2.ibprof")).unwrap_err().to_string();
    assert!(
        err.ends_with("v2.ibprof:1: ibprof format version 2 is not supported (this reader knows version 1)"),
        "{err}"
    );
}

#[test]
fn a_directory_of_per_rank_files_reads_as_one_profile_in_rank_order() {
    let dir = scratch("merge");
    let texts = per_rank_texts();
    // Name order puts rank 1 first; plain and gzip files mix; other files are ignored.
    std::fs::write(dir.join("a-rank1.ibprof"), &texts[1]).unwrap();
    std::fs::write(dir.join("b-rank0.ibprof.gz"), gzip(&texts[0])).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a profile").unwrap();
    std::fs::create_dir(dir.join("sub.ibprof")).unwrap();
    let (merged, warnings) = read_profile(&dir).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(merged, parse_profile(TWO_RANKS, "two").unwrap().0);
}

#[test]
fn a_rank_in_two_files_keeps_the_first_and_names_both_places() {
    let dir = scratch("duplicate");
    let texts = per_rank_texts();
    std::fs::write(dir.join("rank0.ibprof"), &texts[0]).unwrap();
    std::fs::write(dir.join("rank0-again.ibprof.gz"), gzip(&texts[0].replace("n0001", "elsewhere"))).unwrap();
    let (merged, warnings) = read_profile(&dir).unwrap();
    assert_eq!(merged.ranks.len(), 1);
    assert_eq!(merged.ranks[0].host, "elsewhere", "`rank0-again` sorts first, so it is kept");
    let first = dir.join("rank0-again.ibprof.gz");
    let second = dir.join("rank0.ibprof");
    assert_eq!(
        messages(&warnings),
        [format!(
            "{}:3: rank 0 was already read from {}:3; this section is skipped",
            second.display(),
            first.display()
        )]
    );
}

#[test]
fn differing_job_lines_keep_the_first_and_ranks_beyond_it_are_skipped() {
    let dir = scratch("jobs");
    let texts = per_rank_texts();
    std::fs::write(dir.join("1.ibprof"), &texts[0]).unwrap();
    let bigger = "ibprof 1\njob ranks 9 source peruse\nrank 5 host x starttime 1\nrank 1 host y starttime 1\n\
                  region 1 dumptime 2\npeer 8 sent 1 recv 1\npeer 0 sent 1 recv 1\n";
    std::fs::write(dir.join("2.ibprof"), bigger).unwrap();
    let (merged, warnings) = read_profile(&dir).unwrap();
    assert_eq!((merged.job_ranks, merged.source), (3, Some(shoal::model::ProfileSource::Pmpi)));
    assert_eq!(merged.ranks.iter().map(|r| r.rank).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(merged.ranks[1].dumps[0].peers.len(), 1);
    let (one, two) = (dir.join("1.ibprof").display().to_string(), dir.join("2.ibprof").display().to_string());
    assert_eq!(
        messages(&warnings),
        [
            format!("{two}:2: job line differs from {one}:2; keeping that one"),
            format!("{two}:3: rank 5 is not a rank of this job (3 ranks); this section is skipped"),
            format!("{two}:4: rank 1: 1 peer counters name ranks beyond this job's 3; skipped"),
        ]
    );
}

#[test]
fn an_unusable_file_in_a_directory_is_skipped_with_a_warning_unless_all_are() {
    let dir = scratch("unusable");
    std::fs::write(dir.join("a.ibprof"), "ibprof 3\n").unwrap();
    let err = read_profile(&dir).unwrap_err().to_string();
    assert!(err.contains("version 3"), "{err}");
    std::fs::write(dir.join("b.ibprof"), TWO_RANKS).unwrap();
    let (merged, warnings) = read_profile(&dir).unwrap();
    assert_eq!(merged.ranks.len(), 2);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.starts_with("file skipped: "), "{warnings:?}");
    assert_eq!(warnings[0].file, dir.join("a.ibprof").display().to_string());
}

#[test]
fn a_directory_without_profiles_is_an_error() {
    let dir = scratch("empty");
    std::fs::write(dir.join("README"), "x").unwrap();
    let err = read_profile(&dir).unwrap_err().to_string();
    assert!(err.ends_with("no *.ibprof or *.ibprof.gz files in this directory"), "{err}");
}

#[test]
fn the_sample_profiles_read_and_difference_without_a_warning() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-data");
    for (file, ranks, regions) in [
        ("testbed/alltoall.ibprof", 84, 2),
        ("tworail/samplesort.ibprof.gz", 224, 2),
        ("tworail/bcast-both-rails.ibprof", 224, 2),
        ("tworail/bcast-rail0-only.ibprof", 224, 2),
    ] {
        let (profile, warnings) = read_profile(&root.join(file)).unwrap();
        assert!(warnings.is_empty(), "{file}: {warnings:?}");
        assert_eq!((profile.job_ranks as usize, profile.ranks.len()), (ranks, ranks), "{file}");
        let (table, warnings) = region_table(&profile, file);
        assert!(warnings.is_empty(), "{file}: {warnings:?}");
        assert_eq!(table.regions.len(), regions, "{file}");
        let (again, _) = parse_profile(&write(&profile), file).unwrap();
        assert_eq!(again, profile, "{file}");
    }
}

#[test]
fn the_example_in_the_format_document_reads_cleanly_and_its_deltas_are_as_stated() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats/ibprof.md"))
        .unwrap();
    let example = doc.split("```\n").nth(1).unwrap();
    let (profile, warnings) = parse_profile(example, "ibprof.md").unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(profile.ranks[0].ports[1].lmc, 1);
    let (table, warnings) = region_table(&profile, "ibprof.md");
    assert!(warnings.is_empty(), "{warnings:?}");
    let (_, ranks) = table.region(&profile, 2).unwrap();
    let peers: Vec<(u32, u64, u64)> = ranks[0].peers.iter().map(|p| (p.peer, p.sent, p.recv)).collect();
    assert_eq!(peers, [(1, 1_048_576, 1_048_576)]);
    let lids: Vec<(u32, u16, u64)> = ranks[0].lids.iter().map(|l| (l.port, l.lid.0, l.sent)).collect();
    assert_eq!(lids, [(0, 0x13, 524_288), (1, 0x13, 524_288)]);
}

/// A file is parsed as it is read (streamed), a text in memory in parallel chunks: both give
/// the same profile and the same warnings, with the same line numbers, whatever the damage.
#[test]
fn a_streamed_profile_file_reads_as_its_text_does() {
    let dir = scratch("streamed");
    let real = ["sample-data/testbed/alltoall.ibprof", "tests/fixtures/bad_data/stray-lids.ibprof"];
    let mut texts: Vec<(String, String)> =
        real.iter().map(|p| (p.replace('/', "_"), std::fs::read_to_string(p).unwrap())).collect();
    let damaged = [
        ("no-header", "rank 0 host a starttime 1\n".to_string()),
        ("empty", "\n\n".to_string()),
        ("cut", format!("{TWO_RANKS}peer 2 sent 1")),
        ("junk", format!("{TWO_RANKS}junk\n\n{}\nbogus line\n", "x".repeat(2 << 20))),
        ("indented-rank", "ibprof 1\n  rank 0 host a starttime 1\nrank 1 host b starttime 1\n".into()),
    ];
    texts.extend(damaged.into_iter().map(|(n, t)| (n.to_string(), t)));
    for (name, text) in texts {
        let path = dir.join(format!("{name}.ibprof.gz"));
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(text.as_bytes()).unwrap();
        std::fs::write(&path, encoder.finish().unwrap()).unwrap();
        let shown = path.display().to_string();
        let streamed = read_profile(&path).map_err(|e| e.to_string());
        let whole = match shoal::profile_io::Input::from_bytes(shown.clone(), std::fs::read(&path).unwrap()) {
            Ok((input, mut warnings)) => parse_profile(input.text(), &shown).map(|(profile, more)| {
                warnings.extend(more);
                (profile, warnings)
            }),
            Err(e) => Err(e),
        };
        match (streamed, whole) {
            (Ok((a, wa)), Ok((b, wb))) => {
                assert_eq!(a, b, "{name}: same profile");
                let lines = |w: &[Warning]| w.iter().map(|w| (w.line, w.message.clone())).collect::<Vec<_>>();
                assert_eq!(lines(&wa), lines(&wb), "{name}: same warnings");
            }
            (Err(a), Err(b)) => assert!(a.starts_with(&b.to_string()), "{name}: same error:\n{a}\n{b}"),
            (a, b) => panic!("{name}: streamed {:?} but whole {:?}", a.map(|_| ()), b.map(|_| ())),
        }
    }
}
