//! The window's frames allocate meshes of a few megabytes and free them again. Left to itself,
//! glibc hands the top of its heap back to the kernel after each frame (its thresholds adapt
//! to that), so the next frame faults every page in again: under `perf`, page faults and `brk`
//! were 45 % of a TSUBAME frame (`cargo bench --bench gui_frame`). Fixed thresholds keep up to
//! 32 MiB of freed memory for reuse; larger blocks still come from and go back to the kernel.

/// Memory freed by one frame stays for the next; call once, before the window opens.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const KEPT: libc::c_int = 32 << 20;
        // SAFETY: mallopt only sets two allocator parameters; called before any thread starts
        // allocating in earnest, and valid at any time per glibc's documentation.
        unsafe {
            libc::mallopt(libc::M_TRIM_THRESHOLD, KEPT);
            libc::mallopt(libc::M_MMAP_THRESHOLD, KEPT);
        }
    }
}

/// Hands what a load freed back to the kernel. Opening a big fabric parses on the loader's and
/// rayon's threads, each allocating from its own glibc arena, and what they free stays resident
/// (below the window's 32 MiB threshold per arena, or in the arenas' middle) until trimmed.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap pages to the kernel; callable at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
