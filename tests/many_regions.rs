//! Many regions (issue 13): a 20,000-step time loop on the two-rail sample costs memory by the
//! bytes that moved, not by regions × link ends. The target is `shoal hot --region N` at
//! ≤ 150 MB peak memory (RSS); the release binary measured 111–117 MB RSS for an 88 MB heap
//! peak (`/usr/bin/time -v`, heaptrack). What the heap may take here leaves the binary, thread
//! stacks and allocator overhead (23–29 MB measured) room under 150 MB.

#[path = "support/peak_alloc.rs"]
mod peak_alloc;
#[path = "support/time_steps.rs"]
mod time_steps;

use peak_alloc::PeakAlloc;
use shoal::pipeline;
use shoal::routing::{LoadOptions, RegionKey};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// The heap `hot --region N` may peak at: 150 MB of RSS less the 30 MB the rest takes.
const HOT_REGION_HEAP: usize = 120_000_000;

#[test]
fn hot_on_one_of_twenty_thousand_regions_stays_within_its_memory_target() {
    let path = time_steps::time_step_profile(16, 20_000);
    let rails = time_steps::sample_rails();
    let options = LoadOptions { only_region: Some(150), ..Default::default() };
    let (analysis, peak) = peak_alloc::peak_of(|| pipeline::analyse(&rails, Some(&path), &options).unwrap());
    let profile = analysis.profile.as_ref().unwrap();
    assert_eq!(profile.regions.regions.len(), 20_000, "every region is known");
    assert_eq!(profile.loads.regions.len(), 1, "only region 150 is traced");
    assert!(profile.loads.get(RegionKey::Region(150)).is_some());
    eprintln!("peak heap {:.1} MB", peak as f64 / 1e6);
    assert!(peak <= HOT_REGION_HEAP, "peak heap {:.1} MB", peak as f64 / 1e6);
}
