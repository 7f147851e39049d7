//! ibprof v1 reader speed on the size the pipeline budget is set for: an all-to-all profile of
//! 1,296 ranks × 1,295 peers × 2 regions (3.4 M `peer` lines, ~130 MB), generated in memory with
//! `write_profile`. Also the same from a file (`read_profile`), the region deltas of that
//! profile, and the writer.
//!
//! `cargo bench --bench ibprof` (divan prints bytes/s for the parse and write benches).

use divan::Bencher;
use divan::counter::BytesCount;
use shoal::model::{
    Dump, EpochMicros, Guid, Lid, LocalPort, PeerBytes, Profile, ProfileSource, RankSection, region_table,
};
use shoal::profile_io::ibprof::{parse_profile, write_profile};

fn main() {
    divan::main();
}

/// An all-to-all job: region 1 sends 1 KiB per pair, region 2 adds 0.25..1.75 MiB per pair
/// (a fixed pseudo-random spread), both cumulative.
fn alltoall(ranks: u32) -> Profile {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let size: Vec<u64> =
        (0..u64::from(ranks) * u64::from(ranks)).map(|_| 262_144 + next() % 1_572_864).collect();
    let bytes = |from: u32, to: u32| size[(from * ranks + to) as usize];
    let sections = (0..ranks)
        .map(|r| {
            let dump = |region: u32, big: bool| Dump {
                region,
                name: Some(if big { "exchange" } else { "sample" }.into()),
                dumptime: EpochMicros(1_700_000_000_000_000 + i64::from(region) * 1_000_000),
                peers: (0..ranks)
                    .filter(|&p| p != r)
                    .map(|p| {
                        let extra = |a, b| if big { bytes(a, b) } else { 0 };
                        PeerBytes { peer: p, sent: 1024 + extra(r, p), recv: 1024 + extra(p, r) }
                    })
                    .collect(),
                lids: Vec::new(),
                ..Default::default()
            };
            RankSection {
                rank: r,
                host: format!("n{:04}", r + 1),
                pid: Some(20_000 + r),
                starttime: EpochMicros(1_700_000_000_000_000),
                ports: (0..2)
                    .map(|i| LocalPort {
                        index: i,
                        device: Some(format!("mlx5_{i}")),
                        portnum: Some(1),
                        guid: Guid(0x0002_c903_0000_0000 | u64::from(i) << 20 | u64::from(r)),
                        lid: Lid((r + 1) as u16),
                        lmc: 0,
                    })
                    .collect(),
                dumps: vec![dump(1, false), dump(2, true)],
            }
        })
        .collect();
    Profile {
        job_ranks: ranks,
        mpi: Some("Open MPI 4.1.5".into()),
        source: Some(ProfileSource::Pmpi),
        ranks: sections,
    }
}

fn text(ranks: u32) -> String {
    let mut out = Vec::new();
    write_profile(&alltoall(ranks), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[divan::bench(args = [128, 1296], sample_count = 10)]
fn parse(bencher: Bencher, ranks: u32) {
    let text = text(ranks);
    bencher.counter(BytesCount::new(text.len())).bench(|| {
        let (profile, warnings) = parse_profile(&text, "alltoall.ibprof").unwrap();
        assert!(warnings.is_empty());
        profile
    });
}

#[divan::bench(args = [1296], sample_count = 10)]
fn region_deltas(bencher: Bencher, ranks: u32) {
    let profile = alltoall(ranks);
    bencher.bench(|| region_table(&profile, "alltoall.ibprof"));
}

#[divan::bench(args = [1296], sample_count = 5)]
fn write(bencher: Bencher, ranks: u32) {
    let profile = alltoall(ranks);
    let len = text(ranks).len();
    bencher.counter(BytesCount::new(len)).bench(|| {
        let mut out = Vec::with_capacity(len);
        write_profile(&profile, &mut out).unwrap();
        out
    });
}

/// The 1,296-rank profile written once to a file, for the benches that start from disk.
fn profile_file() -> &'static std::path::PathBuf {
    static PATH: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("alltoall-1296.ibprof");
        std::fs::write(&path, text(1296)).unwrap();
        path
    })
}

/// From disk: read the file, check it is UTF-8, parse. The pipeline's profile stage.
#[divan::bench(sample_count = 10)]
fn read_profile_file(bencher: Bencher) {
    let path = profile_file();
    bencher
        .counter(BytesCount::new(std::fs::metadata(path).unwrap().len()))
        .bench(|| shoal::profile_io::ibprof::read_profile(path).unwrap().0);
}

/// The parts of [`read_profile_file`] before parsing: the read alone, then read + UTF-8 check.
#[divan::bench(sample_count = 10)]
fn read_bytes_only(bencher: Bencher) {
    let path = profile_file();
    bencher.bench(|| std::fs::read(path).unwrap());
}

#[divan::bench(sample_count = 10)]
fn open_input_only(bencher: Bencher) {
    let path = profile_file();
    bencher.bench(|| shoal::profile_io::input::Input::open(path).unwrap().0);
}
