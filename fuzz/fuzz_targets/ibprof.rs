//! ibprof v1 profiles: bytes → profile; whatever parses must survive write → parse unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::ibprof::{parse_profile, write_profile};

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.ibprof", data.to_vec()) else { return };
    let Ok((profile, _)) = parse_profile(input.text(), input.display()) else { return };
    let mut written = Vec::new();
    write_profile(&profile, &mut written).expect("writing to memory cannot fail");
    let text = String::from_utf8(written).expect("the writer writes UTF-8");
    let (again, warnings) = parse_profile(&text, "rewritten").expect("what the writer wrote parses");
    assert_eq!(again, profile, "parse → write → parse changed the profile:\n{text}\n{warnings:?}");
});
