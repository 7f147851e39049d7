//! Port counter snapshots (`perfquery`, `ibqueryerrors`, ibdiagnet2 PM files): bytes (plain or
//! gzip) → Input → snapshot.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::counters::parse_counters;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.counters", data.to_vec()) {
        let _ = parse_counters(&input);
    }
});
