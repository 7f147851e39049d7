//! `shoal pattern`: a synthetic job's profile for what-ifs (no hosts: place it with `--place`).

use std::io::BufWriter;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use shoal::model::synthetic::Pattern;
use shoal::profile_io::ibprof::write_profile;
use shoal::view_model::filter::parse_number;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PatternName {
    /// Every rank sends --bytes to every other rank.
    Alltoall,
    /// Rank r sends --bytes to rank r + ranks/2.
    Shift,
    /// The last --servers ranks are I/O servers; each other rank writes --bytes striped
    /// round-robin over --stripes of them.
    Io,
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
    };
    if let Err(problem) = pattern.check() {
        bail!("{problem}");
    }
    let profile = pattern.build();
    let file =
        std::fs::File::create(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    write_profile(&profile, &mut BufWriter::new(file))
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "wrote {} ({} pattern, {ranks} ranks, no hosts: use it with --place NAME=POLICY)",
        args.out.display(),
        pattern.name()
    );
    Ok(())
}
