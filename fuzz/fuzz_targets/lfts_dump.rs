//! `opensm-lfts.dump` forwarding tables: bytes (plain or gzip) → Input → switch tables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::lfts_dump::parse_lfts_dump;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.dump", data.to_vec()) {
        let _ = parse_lfts_dump(&input);
    }
});
