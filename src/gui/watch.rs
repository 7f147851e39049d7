//! Watching the opened files: a change reloads after a debounce, so a dump rewritten in several
//! writes is read once, after the writer is done.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::view_model::OpenRequest;

pub const DEBOUNCE: Duration = Duration::from_millis(600);

pub struct Watcher {
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    rx: Receiver<DebounceEventResult>,
}

impl Watcher {
    /// Watches every path of a request (rail directories recursively).
    pub fn new(request: &OpenRequest, ctx: &egui::Context) -> Result<Watcher, String> {
        let (tx, rx) = channel();
        let c = ctx.clone();
        let mut debouncer = new_debouncer(DEBOUNCE, None, move |r: DebounceEventResult| {
            let _ = tx.send(r);
            c.request_repaint();
        })
        .map_err(|e| e.to_string())?;
        let paths: Vec<PathBuf> = request.paths();
        for p in &paths {
            debouncer
                .watch(p, RecursiveMode::Recursive)
                .map_err(|e| format!("watching {}: {e}", p.display()))?;
        }
        Ok(Watcher { _debouncer: debouncer, rx })
    }

    /// True if any watched file changed (content, not just access) since the last call.
    pub fn changed(&self) -> bool {
        let mut changed = false;
        while let Ok(result) = self.rx.try_recv() {
            if let Ok(events) = result {
                changed |= events.iter().any(|e| !e.kind.is_access() && !e.kind.is_other());
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewritten_file_is_reported_and_the_reports_stop_with_the_writes() {
        let dir = std::env::temp_dir().join(format!("shoal-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("opensm.fdbs");
        std::fs::write(&file, "first").unwrap();
        let request = OpenRequest::of_rails(vec![vec![dir.clone()]]);
        let watcher = Watcher::new(&request, &egui::Context::default()).unwrap();
        assert!(!watcher.changed());
        std::fs::write(&file, "second, written in").unwrap();
        std::fs::write(&file, "second, written in two parts").unwrap();
        let mut seen = false;
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(100));
            if watcher.changed() {
                seen = true;
                break;
            }
        }
        assert!(seen, "no change reported within 10 s");
        // The debounce makes one report of a burst; on a loaded machine the second write's
        // events may still come a debounce later, so at most one more report, then quiet.
        let mut more = 0;
        let mut quiet = false;
        for _ in 0..5 {
            std::thread::sleep(DEBOUNCE * 2);
            if !watcher.changed() {
                quiet = true;
                break;
            }
            more += 1;
        }
        assert!(quiet && more <= 1, "{more} more reports after a burst of two writes (quiet: {quiet})");
        let _ = std::fs::remove_dir_all(dir);
    }
}
