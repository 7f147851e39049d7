//! `.lst` link lists: bytes (plain or gzip) → Input → links → fabric without tables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::RailId;
use shoal::profile_io::Input;
use shoal::profile_io::ibdiagnet_lst::parse_lst;

fuzz_target!(|data: &[u8]| {
    if let Ok((input, _)) = Input::from_bytes("fuzz.lst", data.to_vec()) {
        let _ = parse_lst(&input, RailId(0));
    }
});
