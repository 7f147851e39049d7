//! The ibprof v1 traffic profile: reader and writer (format: `docs/formats/ibprof.md`).

mod read;
mod tokens;
mod write;

pub use read::{MAX_RANKS, parse_profile, read_profile};
pub use write::write_profile;

#[cfg(test)]
mod tests;
