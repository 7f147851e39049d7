//! PFProf JSON profiles: bytes → text → profile, then the region table built from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::region_table;
use shoal::profile_io::pfprof::profile_from_text;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok((profile, _)) = profile_from_text(text, "fuzz.json") {
        let _ = region_table(&profile, "fuzz.json");
    }
});
