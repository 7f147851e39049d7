//! Loads files (`IBPROF_LOADS`, link-end loads collected in situ): bytes (plain or gzip) →
//! Input → loads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::loads_file::parse_loads_file;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.loads.csv", data.to_vec()) {
        let _ = parse_loads_file(&input);
    }
});
