//! `shoal gen`: writes synthetic three-level fat trees, larger than ibsim can simulate, as OpenSM
//! dumps (`railN/opensm-subnet.lst`, `railN/opensm.fdbs`) with D-mod-k forwarding tables, and
//! optionally a traffic profile of N ranks × P peers on its hosts (`ranksN-peersP.ibprof`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use shoal::model::RailId;
use shoal::model::synthetic::{PeerProfile, ThreeLevel};
use shoal::profile_io::ibprof::write_profile;
use shoal::profile_io::opensm_write::write_rail_dir;

#[derive(Args, Debug)]
pub struct GenArgs {
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

pub fn run(args: &GenArgs) -> Result<()> {
    if args.k < 2 || !args.k.is_multiple_of(2) {
        bail!("--k must be an even number of ports, at least 2 (got {})", args.k);
    }
    let pods = args.pods.unwrap_or(args.k);
    if pods == 0 || pods > args.k {
        bail!("--pods must be between 1 and k = {} (got {pods})", args.k);
    }
    if args.rails == 0 {
        bail!("--rails must be at least 1");
    }
    let shape_of = |rail: u8| {
        ThreeLevel::k_ary_pods(args.k, pods)
            .rail(RailId(rail), 0x0002_c900_0000_0000 + (u64::from(rail) << 32))
    };
    shape_of(0).check().map_err(anyhow::Error::msg)?;
    for rail in 0..args.rails {
        let shape = shape_of(rail);
        let started = Instant::now();
        let fabric = shape.build();
        let dir = args.out.join(format!("rail{rail}"));
        write_rail_dir(&fabric, &dir).with_context(|| format!("writing {}", dir.display()))?;
        println!(
            "{}: {} hosts, {} switches, {} links ({:.1} s)",
            dir.display(),
            shape.host_count(),
            shape.switch_count(),
            shape.link_count(),
            started.elapsed().as_secs_f64()
        );
    }
    if let Some(ranks) = args.ranks {
        let started = Instant::now();
        let profile = PeerProfile::new(ranks, args.peers).build(&shape_of(0).host_names());
        std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
        let path = args.out.join(format!("ranks{ranks}-peers{}.ibprof", args.peers));
        let write = || -> std::io::Result<()> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
            write_profile(&profile, &mut out)?;
            std::io::Write::flush(&mut out)
        };
        write().with_context(|| format!("writing {}", path.display()))?;
        println!(
            "{}: {ranks} ranks × {} peers ({:.1} s)",
            path.display(),
            args.peers,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
