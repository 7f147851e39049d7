//! `--host-map` files: text → host map.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::host_map::parse_host_map;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.map", data.to_vec()) {
        let _ = parse_host_map(input.text(), input.display());
    }
});
