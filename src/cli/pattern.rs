//! `shoal pattern`: a synthetic job's profile for what-ifs (no hosts: place it with `--place`).

use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use shoal::model::ProfileSource;
use shoal::model::synthetic::Pattern;
use shoal::profile_io::ibprof::{MAX_RANKS, ProfileJob, ProfileWriter};
use shoal::view_model::filter::parse_number;

use super::output_size;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PatternName {
    /// Every rank sends --bytes to every other rank.
    Alltoall,
    /// Rank r sends --bytes to rank r + ranks/2.
    Shift,
    /// The last --servers ranks are I/O servers; each other rank writes --bytes striped
    /// round-robin over --stripes of them.
    Io,
    /// NAS CG's exchanges on NPB-CG's process grid (128 ranks: 8 × 16): recursive doubling
    /// within each row plus the transpose partner, --bytes each way per exchange.
    Cg,
    /// MILC's 4-D nearest-neighbour stencil (128 ranks: 4 × 4 × 4 × 2, periodic), --bytes to
    /// each ±1 neighbour.
    Milc,
}

#[derive(Args, Debug)]
pub struct PatternArgs {
    #[arg(value_enum)]
    pub pattern: PatternName,
    /// Ranks in the job (for `io`, clients and servers together).
    #[arg(long)]
    pub ranks: u32,
    /// Bytes per message (per peer, or per client for `io`): `1MiB`, `64KiB`, `1e6`.
    #[arg(long, value_parser = parse_bytes)]
    pub bytes: u64,
    /// `io`: how many of the ranks serve.
    #[arg(long, default_value_t = 1)]
    pub servers: u32,
    /// `io`: servers each client's bytes are striped over.
    #[arg(long, default_value_t = 1)]
    pub stripes: u32,
    /// The profile to write (ibprof v1; `.gz` is not added).
    #[arg(long)]
    pub out: PathBuf,
}

fn parse_bytes(text: &str) -> Result<u64, String> {
    match parse_number(text) {
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= u64::MAX as f64 => Ok(v as u64),
        _ => Err(format!("`{text}` is not a whole number of bytes (e.g. 1MiB, 4096)")),
    }
}

pub fn run(args: &PatternArgs) -> Result<()> {
    let (ranks, bytes) = (args.ranks, args.bytes);
    let pattern = match args.pattern {
        PatternName::Alltoall => Pattern::AllToAll { ranks, bytes },
        PatternName::Shift => Pattern::Shift { ranks, bytes },
        PatternName::Io => Pattern::Io { ranks, bytes, servers: args.servers, stripes: args.stripes },
        PatternName::Cg => Pattern::Cg { ranks, bytes },
        PatternName::Milc => Pattern::Milc { ranks, bytes },
    };
    if let Err(problem) = pattern.check() {
        bail!("{problem}");
    }
    if ranks > MAX_RANKS {
        bail!("--ranks {ranks}: the ibprof format holds at most {MAX_RANKS} ranks (2^24)");
    }
    let bound = output_size::profile_bound(u64::from(ranks), pattern.peer_lines(), 0, bytes);
    let dir = args.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let what =
        format!("{} ({} pattern, {} peer lines)", args.out.display(), pattern.name(), pattern.peer_lines());
    output_size::check_room(dir, &what, bound)?;
    write_streamed(pattern, &args.out).inspect_err(|_| {
        // A half-written profile is worse than none: it would read as a smaller job.
        let _ = std::fs::remove_file(&args.out);
    })?;
    println!(
        "wrote {} ({} pattern, {ranks} ranks, no hosts: use it with --place NAME=POLICY)",
        args.out.display(),
        pattern.name()
    );
    Ok(())
}

/// Writes the profile rank by rank, each rank's peers as they are made: memory is the writer's
/// buffer, whatever --ranks is (issue 24: 100,000 ranks of alltoall held 9.7 GB).
fn write_streamed(pattern: Pattern, path: &Path) -> Result<()> {
    let context = || format!("writing {}", path.display());
    let mut file =
        BufWriter::new(std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?);
    let (ranks, mpi) = pattern.job();
    let job =
        ProfileJob { ranks, mpi: Some(mpi.as_str().into()), source: Some(ProfileSource::Pmpi.as_str()) };
    let mut writer = ProfileWriter::new(&mut file, &job);
    let dump = pattern.dump_head();
    for r in 0..ranks {
        writer.rank(&pattern.section_head(r)).with_context(context)?;
        writer.region(&dump).with_context(context)?;
        for p in pattern.peers(r) {
            writer.peer(p.peer, p.sent, p.recv).with_context(context)?;
        }
    }
    writer.finish().with_context(context)
}
