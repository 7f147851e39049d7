//! A global allocator that counts live heap bytes and remembers the peak, shared by the
//! benchmarks and the memory-bounds test (included with `#[path]`), so each can say how much
//! memory one run took above what was live before it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct PeakAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

/// Runs `run` and returns its result with the peak heap it added, in bytes.
#[allow(dead_code)]
pub fn peak_of<T>(run: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = run();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    (out, peak)
}

/// The heap bytes live now (what a value built since an earlier reading holds, by difference).
#[allow(dead_code)]
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}
