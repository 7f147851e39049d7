//! `shoal gen`: writes synthetic fabrics larger than ibsim can simulate, as OpenSM dumps
//! (`railN/opensm-subnet.lst`, `railN/opensm.fdbs`) with D-mod-k forwarding tables: three-level
//! fat trees, or rail-optimized GPU clusters (`--shape rail-optimized`: hosts with one HCA per
//! plane); and optionally a traffic profile of N ranks × P peers on its hosts.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use shoal::model::ProfileSource;
use shoal::model::synthetic::{PeerProfile, RailOptimized, ThreeLevel};
use shoal::model::{Fabric, RailId};
use shoal::profile_io::ibprof::{MAX_RANKS, ProfileJob, ProfileWriter};
use shoal::profile_io::opensm_write::write_rail_dir;

use super::output_size;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shape {
    /// A k-ary three-level fat tree (`--k`, `--pods`), one HCA per host.
    FatTree,
    /// Scalable units of hosts with one HCA per plane, HCA k of each host on the SU's leaf of
    /// plane k, every leaf cabled to every spine (`--sus`, `--su-hosts`, `--planes`, `--spines`).
    RailOptimized,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// The kind of fabric.
    #[arg(long, value_enum, default_value = "fat-tree")]
    pub shape: Shape,
    /// Rail-optimized: scalable units (groups of hosts sharing one leaf per plane).
    #[arg(long, default_value_t = 16)]
    pub sus: usize,
    /// Rail-optimized: hosts per scalable unit.
    #[arg(long, default_value_t = 64)]
    pub su_hosts: usize,
    /// Rail-optimized: HCAs per host (`mlx5_0` …), one plane of leaves each.
    #[arg(long, default_value_t = 8)]
    pub planes: usize,
    /// Rail-optimized: spine switches, each cabled once to every leaf.
    #[arg(long, default_value_t = 64)]
    pub spines: usize,
    /// Switch radix k of the k-ary three-level fat tree (even). 36 gives 11,664 hosts and
    /// 34,992 links per rail; 48 gives 27,648 hosts and 82,944 links.
    #[arg(long, default_value_t = 36)]
    pub k: usize,
    /// Cable only this many of the k pods (default: all), for smaller trees of the same switches.
    #[arg(long)]
    pub pods: Option<usize>,
    /// Rails (subnets) to write, each with the same hosts: OUT/rail0, OUT/rail1, ...
    #[arg(long, default_value_t = 1)]
    pub rails: u8,
    /// Also write a profile of this many ranks (rank r on host r mod hosts), each sending to
    /// `--peers` others spread over the job, as OUT/ranksN-peersP.ibprof.
    #[arg(long)]
    pub ranks: Option<u32>,
    /// Peers each rank sends to in the `--ranks` profile.
    #[arg(long, default_value_t = 100, requires = "ranks")]
    pub peers: u32,
    /// Directory to write into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// One rail of the chosen shape, its counts (hosts, switches, links) and its host names.
fn build_rail(args: &GenArgs, rail: u8) -> Result<(Fabric, [usize; 3], Vec<String>)> {
    let guid_base = 0x0002_c900_0000_0000 + (u64::from(rail) << 32);
    match args.shape {
        Shape::FatTree => {
            let shape =
                ThreeLevel::k_ary_pods(args.k, args.pods.unwrap_or(args.k)).rail(RailId(rail), guid_base);
            let counts = [shape.host_count(), shape.switch_count(), shape.link_count()];
            Ok((shape.build(), counts, shape.host_names()))
        }
        Shape::RailOptimized => {
            let mut shape = RailOptimized::new(args.sus, args.su_hosts, args.planes, args.spines);
            shape.guid_base = guid_base;
            shape.check().map_err(anyhow::Error::msg)?;
            let counts = [shape.host_count(), shape.switch_count(), shape.link_count()];
            let mut fabric = shape.build();
            fabric.rail = RailId(rail);
            Ok((fabric, counts, shape.host_names()))
        }
    }
}

pub fn run(args: &GenArgs) -> Result<()> {
    if args.shape == Shape::RailOptimized {
        return write_all(args);
    }
    if args.k < 2 || !args.k.is_multiple_of(2) {
        bail!("--k must be an even number of ports, at least 2 (got {})", args.k);
    }
    let pods = args.pods.unwrap_or(args.k);
    if pods == 0 || pods > args.k {
        bail!("--pods must be between 1 and k = {} (got {pods})", args.k);
    }
    ThreeLevel::k_ary_pods(args.k, pods).check().map_err(anyhow::Error::msg)?;
    write_all(args)
}

fn write_all(args: &GenArgs) -> Result<()> {
    if args.rails == 0 {
        bail!("--rails must be at least 1");
    }
    let profile = profile_room(args)?;
    let mut host_names = Vec::new();
    let progress = super::progress::Progress::new("gen");
    // Each rail is a step (building, then writing), and the profile one more.
    let steps = f32::from(args.rails) + if args.ranks.is_some() { 1.0 } else { 0.0 };
    for rail in 0..args.rails {
        let started = Instant::now();
        progress.stage(f32::from(rail) / steps, &format!("building rail {rail}"));
        let (fabric, [hosts, switches, links], names) = build_rail(args, rail)?;
        if rail == 0 {
            // Every rail has rail 0's shape: the room for all of them and the profile is known
            // before anything is written.
            check_room(args, &fabric, &profile)?;
        }
        host_names = names;
        let dir = args.out.join(format!("rail{rail}"));
        progress.stage((f32::from(rail) + 0.3) / steps, &format!("writing {}", dir.display()));
        write_rail_dir(&fabric, &dir).with_context(|| format!("writing {}", dir.display()))?;
        let cas = fabric.cas().count();
        let cas = if cas == hosts { String::new() } else { format!(" ({cas} CAs)") };
        progress.suspend(|| {
            println!(
                "{}: {hosts} hosts{cas}, {switches} switches, {links} links ({:.1} s)",
                dir.display(),
                started.elapsed().as_secs_f64()
            )
        });
    }
    if let Some(ranks) = args.ranks {
        let started = Instant::now();
        progress.stage(f32::from(args.rails) / steps, &format!("writing a profile of {ranks} ranks"));
        let path = args.out.join(format!("ranks{ranks}-peers{}.ibprof", args.peers));
        write_peer_profile(&PeerProfile::new(ranks, args.peers), &host_names, &path)
            .inspect_err(|_| {
                // A half-written profile would read as a smaller job.
                let _ = std::fs::remove_file(&path);
            })
            .with_context(|| format!("writing {}", path.display()))?;
        drop(progress);
        println!(
            "{}: {ranks} ranks × {} peers ({:.1} s)",
            path.display(),
            args.peers,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// `--ranks`/`--peers` within the format (2^24 ranks): the profile's description and its
/// bound in bytes, if one is asked for (issue 24: `--ranks 1000000000 --peers 1000000000`
/// aborted allocating 96 GB).
fn profile_room(args: &GenArgs) -> Result<Option<(String, u64)>> {
    let Some(ranks) = args.ranks else { return Ok(None) };
    if ranks > MAX_RANKS {
        bail!("--ranks {ranks}: the ibprof format holds at most {MAX_RANKS} ranks (2^24)");
    }
    let profile = PeerProfile::new(ranks, args.peers);
    // Host names: the generators' `n00001 HCA-1`-style names, a few tens of characters.
    let bound = output_size::profile_bound(u64::from(ranks), profile.peer_lines(), 32, 65_536 + 6 * 4096);
    let per_rank = profile.peer_lines() / u64::from(ranks.max(1));
    Ok(Some((format!("the profile ({ranks} ranks × {per_rank} peers)"), bound)))
}

/// Says how much the dumps of every rail (each shaped like `fabric`) and the profile will take,
/// and refuses when the disk under `--out` has less room.
fn check_room(args: &GenArgs, fabric: &Fabric, profile: &Option<(String, u64)>) -> Result<()> {
    let rail = output_size::rail_dumps_bound(
        fabric.graph.node_count() as u64,
        fabric.switches().count() as u64,
        fabric.link_count() as u64,
    );
    let mut what = format!("the dumps of {} rail(s)", args.rails);
    let mut bound = rail.saturating_mul(u64::from(args.rails));
    if let Some((profile, size)) = profile {
        what = format!("{what} and {profile}");
        bound = bound.saturating_add(*size);
    }
    output_size::check_room(&args.out, &what, bound)
}

/// Writes the profile section by section: one rank's peers in memory at a time.
fn write_peer_profile(profile: &PeerProfile, hosts: &[String], path: &std::path::Path) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let job = ProfileJob {
        ranks: profile.ranks,
        mpi: Some("synthetic".into()),
        source: Some(ProfileSource::Pmpi.as_str()),
    };
    let mut writer = ProfileWriter::new(&mut out, &job);
    for r in 0..profile.ranks {
        writer.section(&profile.section(r, hosts))?;
    }
    writer.finish()?;
    Ok(())
}
