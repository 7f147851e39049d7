//! A whole rail: the input is a link list and a forwarding-table file (`.fdbs` or lfts dump)
//! separated by a NUL byte; the two are built into one fabric (LMC inference, table attachment,
//! table checks) and every LID pair of the result is traced.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::model::{Lid, RailId};
use shoal::profile_io::Input;
use shoal::profile_io::rail::{DumpKind, RailInputs, build_rail};

fuzz_target!(|data: &[u8]| {
    let (list, tables) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    let Ok((list, _)) = Input::from_bytes("fuzz.lst", list.to_vec()) else { return };
    let Ok((tables, _)) = Input::from_bytes("fuzz.tables", tables.to_vec()) else { return };
    let table_kind =
        if tables.text().contains("dump_ucast_routes") { DumpKind::Fdbs } else { DumpKind::LftsDump };
    let inputs = RailInputs { inputs: vec![(DumpKind::LinkList, list), (table_kind, tables)] };
    let Ok((fabric, _)) = build_rail(&inputs, RailId(0), "fuzz rail") else { return };
    let lids: Vec<Lid> =
        fabric.graph.node_indices().filter_map(|n| fabric.node(n).base_lid()).take(16).collect();
    for &src in &lids {
        for &dst in &lids {
            let _ = shoal::routing::trace(&fabric, src, dst);
        }
    }
});
