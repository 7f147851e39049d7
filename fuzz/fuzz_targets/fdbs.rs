//! `.fdbs` forwarding tables: bytes (plain or gzip) → Input → switch tables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::fdbs::parse_fdbs;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.fdbs", data.to_vec()) {
        let _ = parse_fdbs(&input);
    }
});
