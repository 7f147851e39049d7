//! Loads files mapped onto a fabric (issue 24): bytes (plain or gzip) → `parse_loads_file` (the
//! `csv` crate per line, quoted names, a BOM) → `loads_from_file` on a small two-level fabric
//! (sparse regions, saturating sums and notes, the top-K table) → the saturation warnings → the
//! writer, and the written file read back.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use shoal::export::loads_file::{LoadsNotes, write_loads_file};
use shoal::model::Cluster;
use shoal::model::synthetic::TwoLevel;
use shoal::profile_io::Input;
use shoal::profile_io::loads_file::parse_loads_file;
use shoal::routing::loads_input::loads_from_file;

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.loads.csv", data.to_vec()) else { return };
    let Ok((file, _)) = parse_loads_file(&input) else { return };
    // One fabric for every input: building it each time cost more than the reading.
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    let cluster = CLUSTER.get_or_init(|| Cluster::new(vec![TwoLevel::new(2, 2, 1).build()]));
    let (loads, top, _) = loads_from_file(cluster, &file);
    let mut out = Vec::new();
    write_loads_file(cluster, &loads, &LoadsNotes::default(), top.as_ref(), &mut out).unwrap();
    let (again, _) = parse_loads_file(&Input::from_bytes("again.csv", out).unwrap().0).unwrap();
    let (back, _, _) = loads_from_file(cluster, &again);
    assert_eq!(back.total.rails.len(), loads.total.rails.len());
    for (a, b) in back.total.rails.iter().zip(&loads.total.rails) {
        // By the ends that carried bytes (a rail with no total rows reads as 0 link ends).
        let (a, b): (Vec<_>, Vec<_>) = (a.bytes.nonzero().collect(), b.bytes.nonzero().collect());
        assert_eq!(a, b, "what the writer wrote reads back end for end");
    }
});
