//! Reading a traffic profile whatever its format: ibprof v1 text or PFProf JSON, told apart by
//! content (a JSON object or array is PFProf), so a renamed or gzipped file still reads.
//! A directory holds `*.ibprof[.gz]` files (ibprof) or `*.json[.gz]` files (PFProf, one per rank).

use std::path::Path;

use crate::model::{Profile, Warning};

use super::error::ParseError;
use super::ibprof;
use super::input::Input;
use super::pfprof;

/// How much of a file's (decompressed) start tells PFProf JSON from ibprof text.
const HEAD_BYTES: u64 = 64 << 10;

/// Reads a profile file or directory, ibprof or PFProf.
pub fn read_profile(path: &Path) -> Result<(Profile, Vec<Warning>), ParseError> {
    if path.is_dir() {
        let display = path.display().to_string();
        let names: Vec<String> = std::fs::read_dir(path)
            .map_err(|e| ParseError::io(&display, e))?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .collect();
        let has = |suffix: &str| names.iter().any(|n| n.strip_suffix(".gz").unwrap_or(n).ends_with(suffix));
        return if has(".ibprof") {
            ibprof::read_profile(path)
        } else if has(".json") {
            pfprof::read_pfprof(path)
        } else {
            Err(ParseError::invalid(display, "no *.ibprof or PFProf *.json profiles in this directory"))
        };
    }
    if super::stream::is_regular_file(path) {
        // Streamed by the format's reader (a large plain ibprof in parallel windows): only a
        // head is read here to tell the format.
        let head = super::stream::head(path, HEAD_BYTES)?;
        return if pfprof::looks_like_pfprof(&head) {
            pfprof::read_pfprof(path)
        } else {
            ibprof::read_profile(path)
        };
    }
    let (input, mut warnings) = Input::open(path)?;
    let (profile, more) = if pfprof::looks_like_pfprof(input.text()) {
        pfprof::profile_from_text(input.text(), input.display())?
    } else {
        ibprof::parse_profile(input.text(), input.display())?
    };
    warnings.extend(more);
    Ok((profile, warnings))
}
