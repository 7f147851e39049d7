//! `ibnetdiscover` topology files: bytes (plain or gzip) → Input → links → fabric without tables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::RailId;
use shoal::profile_io::Input;
use shoal::profile_io::ibnetdiscover::read_ibnetdiscover;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.ibnetdiscover", data.to_vec()) else { return };
    if read_ibnetdiscover(&input).is_ok() {
        // And the fabric it makes (duplicate ports, LMC, far LIDs).
        let inputs = RailInputs { inputs: vec![(DumpKind::Ibnetdiscover, input)] };
        let _ = build_rail(&inputs, RailId(0), "fuzz rail");
    }
});
