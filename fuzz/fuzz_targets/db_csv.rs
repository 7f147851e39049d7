//! ibdiagnet2 `db_csv` (NODES, PORTS, LINKS sections): bytes (plain or gzip) → Input → links →
//! fabric without tables.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::RailId;
use shoal::profile_io::Input;
use shoal::profile_io::ibdiagnet2_csv::read_db_csv;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.db_csv", data.to_vec()) else { return };
    if read_db_csv(&input).is_ok() {
        let inputs = RailInputs { inputs: vec![(DumpKind::Ibdiagnet2Csv, input)] };
        let _ = build_rail(&inputs, RailId(0), "fuzz rail");
    }
});
