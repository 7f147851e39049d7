//! OpenSM PerfMgr dumps (issue 24), both forms read directly (not through recognition, so the
//! fuzzer spends its time in this reader): bytes (plain or gzip) → `parse_perfmgr` human and
//! machine; a machine row never takes more or fewer fields than its header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shoal::profile_io::Input;
use shoal::profile_io::counters::perfmgr::{PerfMgrForm, parse_perfmgr};

fuzz_target!(|data: &[u8]| {
    let Ok((input, _)) = Input::from_bytes("fuzz.pm.log", data.to_vec()) else { return };
    let _ = parse_perfmgr(&input, PerfMgrForm::Human);
    let _ = parse_perfmgr(&input, PerfMgrForm::Machine);
});
