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
use shoal::routing::RegionKey;
use shoal::view_model::{OpenRequest, open_regions};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// The heap `hot --region N` may peak at: 150 MB of RSS less the 30 MB the rest takes.
const HOT_REGION_HEAP: usize = 120_000_000;

#[test]
fn hot_on_one_of_twenty_thousand_regions_stays_within_its_memory_target() {
    let path = time_steps::time_step_profile(16, 20_000);
    let rails = time_steps::sample_rails();
    let request = OpenRequest { profile: Some(path.clone()), ..OpenRequest::of_rails(rails.clone()) };
    let (dataset, peak) = peak_alloc::peak_of(|| open_regions(&request, Some(150), &|_| {}).unwrap());
    let fabric = dataset.fabric.as_ref().unwrap();
    let (table, _) = shoal::model::region_table(fabric.profile.as_ref().unwrap(), "steps");
    assert_eq!(table.regions.len(), 20_000, "every region is known");
    assert_eq!(fabric.loads.regions.len(), 1, "only region 150 is traced");
    assert!(fabric.loads.get(RegionKey::Region(150)).is_some());
    eprintln!("peak heap {:.1} MB", peak as f64 / 1e6);
    assert!(peak <= HOT_REGION_HEAP, "peak heap {:.1} MB", peak as f64 / 1e6);
}
