//! Port-counter files (perfquery, ibqueryerrors, ibdiagnet2 PM_INFO/.pm, PerfMgr dumps,
//! Prometheus): bytes (plain or gzip) → Input → the recognised reader → joined twice (as it
//! stands, and against itself) to a small two-level fabric.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use shoal::model::Cluster;
use shoal::model::synthetic::TwoLevel;
use shoal::profile_io::Input;
use shoal::profile_io::counters::parse_counters;
use shoal::routing::{CounterInput, observe};

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.counters", data.to_vec()) else { return };
    let Ok((snapshot, _)) = parse_counters(&input) else { return };
    // One fabric for every input: building it each time cost more than the reading.
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    let cluster = CLUSTER.get_or_init(|| Cluster::new(vec![TwoLevel::new(2, 2, 1).build()]));
    let one = CounterInput { rail: None, snapshot };
    let _ = observe(cluster, std::slice::from_ref(&one));
    let _ = observe(cluster, &[one.clone(), one]);
});
