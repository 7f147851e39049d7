//! Shared by the MPI integration tests: build test programs with each MPI's compiler wrapper,
//! run them on 4 ranks with libibprof preloaded, and read the profiles they write.
//!
//! These tests need Debian's `openmpi-bin libopenmpi-dev mpich gfortran`;
//! `scripts/test-collector.sh` installs whatever is missing and runs them.

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};

use ibprof_format::{Record, strict};

pub const RANKS: u32 = 4;

/// `on_both_mpis!(name)`: the test `fn name(mpi: Mpi)` run once on Open MPI and once on MPICH
/// (the invoking file imports `Mpi`).
#[allow(unused_macros)]
macro_rules! on_both_mpis {
    ($name:ident) => {
        mod $name {
            #[test]
            fn openmpi() {
                super::$name(super::Mpi::OpenMpi)
            }
            #[test]
            fn mpich() {
                super::$name(super::Mpi::Mpich)
            }
        }
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mpi {
    OpenMpi,
    Mpich,
}

impl Mpi {
    pub fn tag(self) -> &'static str {
        match self {
            Mpi::OpenMpi => "openmpi",
            Mpi::Mpich => "mpich",
        }
    }

    fn cc(self) -> &'static str {
        match self {
            Mpi::OpenMpi => "mpicc.openmpi",
            Mpi::Mpich => "mpicc.mpich",
        }
    }

    fn fc(self) -> &'static str {
        match self {
            Mpi::OpenMpi => "mpifort.openmpi",
            Mpi::Mpich => "mpifort.mpich",
        }
    }
}

/// The collector library that cargo built for this test run. `cargo test` builds the cdylib
/// into `target/<profile>/deps/` next to the test binary (it only copies it up to
/// `target/<profile>/` on `cargo build`), so that copy is always the current one.
pub fn libibprof() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("target/<profile>/deps");
    let lib = deps.join("libibprof.so");
    assert!(lib.exists(), "{} is missing: run `cargo build -p ibprof` first", lib.display());
    lib
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ibprof-mpi")
}

/// A fresh directory for one test's outputs.
pub fn workdir(test: &str) -> PathBuf {
    let d = scratch().join("runs").join(test);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create work dir");
    d
}

/// Compiles `collector/tests/mpi/<source>` with `mpi`'s wrapper, once per test process.
pub fn build(mpi: Mpi, source: &str) -> PathBuf {
    build_with(mpi, source, "", &[])
}

/// Like [`build`], naming the output `<stem><suffix>` and adding `extra` compiler arguments
/// (`{bin}` in them stands for the output directory). A suffix ending in `.so` builds a shared
/// library.
pub fn build_with(mpi: Mpi, source: &str, suffix: &str, extra: &[&str]) -> PathBuf {
    type Built = HashMap<(Mpi, String, String), PathBuf>;
    static BUILT: OnceLock<Mutex<Built>> = OnceLock::new();
    let key = (mpi, source.to_string(), suffix.to_string());
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = built.get(&key) {
        return p.clone();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("tests/mpi").join(source);
    let out_dir = scratch().join("bin").join(mpi.tag());
    std::fs::create_dir_all(&out_dir).expect("create bin dir");
    let stem = Path::new(source).file_stem().and_then(|s| s.to_str()).unwrap_or("prog");
    let exe = out_dir.join(format!("{stem}{suffix}"));
    let fortran = source.ends_with(".f90");
    let mut cmd = Command::new(if fortran { mpi.fc() } else { mpi.cc() });
    cmd.arg("-O1").arg("-g");
    if !fortran {
        cmd.arg("-I").arg(root.join("include")).arg("-pthread");
    }
    if suffix.ends_with(".so") {
        cmd.args(["-shared", "-fPIC"]);
    }
    cmd.arg(&src).arg("-o").arg(&exe);
    let bin = out_dir.display().to_string();
    cmd.args(extra.iter().map(|a| a.replace("{bin}", &bin)));
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("cannot run {:?} ({e}); install the MPI packages or run scripts/test-collector.sh", cmd)
    });
    assert!(out.status.success(), "compiling {source}: {}", String::from_utf8_lossy(&out.stderr));
    built.insert(key, exe.clone());
    exe
}

/// A fake sysfs tree with active InfiniBand ports `(device, port, lid)`, for `IBPROF_SYSFS_ROOT`.
pub fn fake_sysfs(dir: &Path, ports: &[(&str, u8, u16)]) -> PathBuf {
    let root = dir.join("sysfs");
    for (i, (dev, num, lid)) in ports.iter().enumerate() {
        let p = root.join("class/infiniband").join(dev).join("ports").join(num.to_string());
        std::fs::create_dir_all(p.join("gids")).expect("create fake sysfs");
        let files = [
            ("lid", format!("0x{lid:x}")),
            ("lid_mask_count", "0".to_string()),
            ("state", "4: ACTIVE".to_string()),
            ("link_layer", "InfiniBand".to_string()),
            ("gids/0", format!("fe80:0000:0000:0000:0002:c903:0000:{:04x}", i + 1)),
        ];
        for (name, text) in files {
            std::fs::write(p.join(name), text + "\n").expect("write fake sysfs");
        }
    }
    root
}

/// MPI jobs run one at a time: the machine has few cores and each job oversubscribes them.
fn one_job_at_a_time() -> MutexGuard<'static, ()> {
    static JOBS: Mutex<()> = Mutex::new(());
    JOBS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs `exe` on `ranks` ranks in `dir`, with `env` set in every rank; preloads libibprof if
/// `preload`. Never hangs: the job is killed after two minutes.
pub fn run(mpi: Mpi, ranks: u32, exe: &Path, dir: &Path, preload: bool, env: &[(&str, String)]) -> Output {
    let mut vars: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    if preload {
        vars.push(("LD_PRELOAD".into(), libibprof().display().to_string()));
    }
    let mut cmd = Command::new("timeout");
    cmd.arg("120").current_dir(dir);
    match mpi {
        Mpi::OpenMpi => {
            cmd.args(["mpirun.openmpi", "-np", &ranks.to_string(), "--oversubscribe", "--allow-run-as-root"]);
            cmd.args(["--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none"]);
            for (k, v) in &vars {
                cmd.arg("-x").arg(format!("{k}={v}"));
            }
        }
        Mpi::Mpich => {
            cmd.args(["mpiexec.mpich", "-n", &ranks.to_string()]);
            for (k, v) in &vars {
                cmd.arg("-genv").arg(k).arg(v);
            }
        }
    }
    cmd.arg(exe);
    let _one = one_job_at_a_time();
    cmd.output().unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"))
}

/// Like [`run`], and the job must succeed.
pub fn run_ok(mpi: Mpi, exe: &Path, dir: &Path, preload: bool, env: &[(&str, String)]) -> Output {
    let out = run(mpi, RANKS, exe, dir, preload, env);
    assert!(
        out.status.success(),
        "{} job failed ({}):\nstdout:\n{}\nstderr:\n{}",
        mpi.tag(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A profile as the tests look at it.
#[derive(Debug, Default, PartialEq)]
pub struct Profile {
    pub job_ranks: u32,
    pub source: String,
    pub ranks: BTreeMap<u32, Rank>,
}

#[derive(Debug, Default, PartialEq)]
pub struct Rank {
    pub host: String,
    /// The `port` lines, without their line ends.
    pub ports: Vec<String>,
    pub regions: Vec<Region>,
}

#[derive(Debug, Default, PartialEq)]
pub struct Region {
    pub number: u32,
    pub name: Option<String>,
    pub peers: BTreeMap<u32, (u64, u64)>,
    pub lids: BTreeMap<(u32, u16), (u64, u64)>,
    /// Messages `(sent, recv)` of the peer lines that count them.
    pub msgs: BTreeMap<u32, (u64, u64)>,
    /// The `msgsize` lines: bin → `(sent, recv)`.
    pub sizes: BTreeMap<u32, (u64, u64)>,
}

/// Reads an ibprof v1 file strictly: see [`parse_profile`].
pub fn read_profile(path: &Path) -> Profile {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    parse_profile(&text)
}

/// Reads an ibprof v1 text with the format's strict reader (`ibprof_format::strict`): a line the
/// format does not allow where it stands, or a counter written twice in a region, fails the test.
pub fn parse_profile(text: &str) -> Profile {
    let records =
        strict::parse(text).unwrap_or_else(|e| panic!("not a valid ibprof v1 profile: {e}\n{text}"));
    let mut p = Profile::default();
    let mut current = 0;
    for record in records {
        match record {
            Record::Header => {}
            Record::Job(job) => {
                p.job_ranks = job.ranks;
                p.source = job.source.unwrap_or_default().to_string();
            }
            Record::Rank(rank) => {
                current = rank.rank;
                p.ranks.insert(rank.rank, Rank { host: rank.host.into_owned(), ..Rank::default() });
            }
            Record::Port(port) => {
                let mut line = Vec::new();
                ibprof_format::push_port(&mut line, &port);
                let line = String::from_utf8_lossy(&line).trim_end().to_string();
                section(&mut p, current).ports.push(line);
            }
            Record::Region(region) => section(&mut p, current).regions.push(Region {
                number: region.number,
                name: region.name.map(|n| n.into_owned()),
                ..Region::default()
            }),
            Record::Peer(c) => {
                let region = last_region(&mut p, current);
                let twice = region.peers.insert(c.peer, (c.sent, c.recv)).is_some();
                assert!(!twice, "peer {} twice in one region of rank {current}", c.peer);
                if let Some(m) = c.msgs {
                    region.msgs.insert(c.peer, (m.sent, m.recv));
                }
            }
            Record::Size(b) => {
                let twice =
                    last_region(&mut p, current).sizes.insert(b.bin, (b.msgs.sent, b.msgs.recv)).is_some();
                assert!(!twice, "msgsize {} twice in one region of rank {current}", b.bin);
            }
            Record::Lid(c) => {
                let twice =
                    last_region(&mut p, current).lids.insert((c.port, c.lid), (c.sent, c.recv)).is_some();
                assert!(!twice, "lid {} {:#x} twice in one region of rank {current}", c.port, c.lid);
            }
        }
    }
    p
}

/// The strict reader has checked that ports and regions follow a rank line.
fn section(p: &mut Profile, rank: u32) -> &mut Rank {
    p.ranks.get_mut(&rank).expect("a rank line before its section")
}

/// The strict reader has checked that counter lines follow a region line.
fn last_region(p: &mut Profile, rank: u32) -> &mut Region {
    section(p, rank).regions.last_mut().expect("a region line before its counters")
}
