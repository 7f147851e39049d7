//! Loading off the UI thread: a worker thread runs [`open`], publishing progress; the
//! app polls for the result each frame. A failed load never replaces the data on screen.
//!
//! The files named on the command line start loading before the window exists
//! ([`Loader::start_detached`]): setting up the window and its renderer took the first 0.2 s of
//! a k = 36 start, with the loader waiting for it (perf of the window's first frame).

use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::view_model::dataset::Dataset;
use crate::view_model::{OpenRequest, Progress, open};

/// Why the load was started: a new file, or a watched file that changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Open,
    Reload,
}

/// A finished load.
pub struct Loaded {
    pub request: OpenRequest,
    pub reason: Reason,
    pub result: Result<Dataset, String>,
}

struct Job {
    request: OpenRequest,
    reason: Reason,
    started: Instant,
    progress: Arc<Mutex<Progress>>,
    rx: Receiver<Result<Dataset, String>>,
    /// The window to wake, once there is one.
    window: Arc<OnceLock<egui::Context>>,
}

#[derive(Default)]
pub struct Loader {
    job: Option<Job>,
}

/// Loads shorter than this show no progress bar.
pub const SHOW_PROGRESS_AFTER: Duration = Duration::from_millis(500);

impl Loader {
    /// Starts loading (a load already running is abandoned: its result is dropped).
    pub fn start(&mut self, request: OpenRequest, reason: Reason, ctx: &egui::Context) {
        *self = Loader::start_detached(request, reason);
        self.attach(ctx);
    }

    /// Starts loading before there is a window to wake: [`Loader::attach`] names it once it
    /// exists.
    pub fn start_detached(request: OpenRequest, reason: Reason) -> Loader {
        let progress = Arc::new(Mutex::new(Progress { fraction: 0.0, stage: "starting".into() }));
        let (tx, rx) = channel();
        let window = Arc::new(OnceLock::<egui::Context>::new());
        let (p, w, r) = (progress.clone(), window.clone(), request.clone());
        std::thread::spawn(move || {
            let wake = || {
                if let Some(ctx) = w.get() {
                    ctx.request_repaint();
                }
            };
            let report = |now: Progress| {
                if let Ok(mut slot) = p.lock() {
                    *slot = now;
                }
                wake();
            };
            let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| open(&r, &report))) {
                Ok(result) => result.map_err(|e| e.to_string()),
                Err(_) => Err("the loader crashed (a bug in shoal); the data on screen is kept".to_string()),
            };
            let _ = tx.send(result);
            wake();
        });
        Loader { job: Some(Job { request, reason, started: Instant::now(), progress, rx, window }) }
    }

    /// The window to wake when the load progresses or ends; woken now too, in case it already
    /// has.
    pub fn attach(&self, ctx: &egui::Context) {
        if let Some(job) = &self.job {
            let _ = job.window.set(ctx.clone());
            ctx.request_repaint();
        }
    }

    /// What is being loaded, if anything.
    pub fn request(&self) -> Option<&OpenRequest> {
        self.job.as_ref().map(|job| &job.request)
    }

    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// The running load's progress, once it has run long enough to deserve a bar.
    pub fn progress(&self) -> Option<Progress> {
        let job = self.job.as_ref()?;
        if job.started.elapsed() < SHOW_PROGRESS_AFTER {
            return None;
        }
        job.progress.lock().ok().map(|p| p.clone())
    }

    /// How long until the running load's progress bar is due (zero once it is shown).
    pub fn bar_due_in(&self) -> Option<Duration> {
        let job = self.job.as_ref()?;
        Some(SHOW_PROGRESS_AFTER.saturating_sub(job.started.elapsed()))
    }

    /// The finished load, if the worker is done.
    pub fn poll(&mut self) -> Option<Loaded> {
        let job = self.job.as_ref()?;
        let result = match job.rx.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Err("the loader stopped without a result".to_string()),
        };
        let job = self.job.take()?;
        Some(Loaded { request: job.request, reason: job.reason, result })
    }

    /// Blocks until the running load finishes (tests, and nothing else).
    pub fn wait(&mut self) -> Option<Loaded> {
        let job = self.job.take()?;
        let result = job.rx.recv().unwrap_or_else(|_| Err("the loader stopped without a result".to_string()));
        Some(Loaded { request: job.request, reason: job.reason, result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_started_before_the_window_is_there_for_the_window_to_take() {
        let mut loader = Loader::start_detached(OpenRequest::sample(), Reason::Open);
        assert_eq!(loader.request(), Some(&OpenRequest::sample()));
        // The window arrives whenever it is ready; the load neither waits for it nor is lost.
        loader.attach(&egui::Context::default());
        let loaded = loader.wait().expect("a load was running");
        assert_eq!(loaded.reason, Reason::Open);
        let dataset = loaded.result.expect("the bundled sample loads");
        assert!(dataset.fabric.is_some());
        assert!(!loader.busy());
    }

    #[test]
    fn a_failed_load_reports_its_error_whether_or_not_a_window_was_attached() {
        let missing = OpenRequest::of_rails(vec![vec!["/nonexistent/rail".into()]]);
        let mut loader = Loader::start_detached(missing, Reason::Open);
        let error = loader.wait().expect("a load was running").result.err().expect("no such files");
        assert!(error.contains("/nonexistent/rail"), "{error}");
    }
}
