//! `ibnetdiscover -p` port reports: bytes (plain or gzip) → Input → links → fabric without tables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::RailId;
use shoal::profile_io::Input;
use shoal::profile_io::ibnetdiscover_ports::read_ports_list;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.ports", data.to_vec()) else { return };
    if read_ports_list(&input).is_ok() {
        let inputs = RailInputs { inputs: vec![(DumpKind::PortsList, input)] };
        let _ = build_rail(&inputs, RailId(0), "fuzz rail");
    }
});
