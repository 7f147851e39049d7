//! Adaptive-routing inputs (issue 24): bytes (plain or gzip) → `parse_ar_info` (ibdiagnet2's
//! AR_INFO section) and `parse_far` (the `.far` AR groups).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::ibdiagnet2_ar_info::parse_ar_info;
use shoal::profile_io::ibdiagnet2_far::parse_far;

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.far", data.to_vec()) else { return };
    let _ = parse_ar_info(&input);
    let _ = parse_far(&input);
});
