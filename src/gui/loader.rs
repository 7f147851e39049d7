//! Loading off the UI thread: a worker thread runs [`open`], publishing progress; the
//! app polls for the result each frame. A failed load never replaces the data on screen.

use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
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
        let progress = Arc::new(Mutex::new(Progress { fraction: 0.0, stage: "starting".into() }));
        let (tx, rx) = channel();
        let (p, c, r) = (progress.clone(), ctx.clone(), request.clone());
        std::thread::spawn(move || {
            let report = |now: Progress| {
                if let Ok(mut slot) = p.lock() {
                    *slot = now;
                }
                c.request_repaint();
            };
            let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| open(&r, &report))) {
                Ok(result) => result.map_err(|e| e.to_string()),
                Err(_) => Err("the loader crashed (a bug in shoal); the data on screen is kept".to_string()),
            };
            let _ = tx.send(result);
            c.request_repaint();
        });
        self.job = Some(Job { request, reason, started: Instant::now(), progress, rx });
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
