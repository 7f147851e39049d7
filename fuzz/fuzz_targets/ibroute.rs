//! `ibroute` / `dump_fts` forwarding tables: bytes (plain or gzip) → Input → switch tables.
//! (Its parallel chunking starts at 1 MiB, past the 4 KiB inputs fuzzed: one chunk here.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::ibroute::parse_ibroute;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.ibroute", data.to_vec()) {
        let _ = parse_ibroute(&input);
    }
});
