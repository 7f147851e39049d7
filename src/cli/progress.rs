//! Progress bars (indicatif) for work that takes more than a second, drawn on standard error
//! only when it is a terminal: piped or redirected, a command prints nothing extra. The bar
//! appears after [`DELAY`], so quick commands never flash one.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work shorter than this shows no bar.
pub const DELAY: Duration = Duration::from_secs(1);

/// One bar over a command's work, in thousandths; hidden unless standard error is a terminal.
pub struct Progress {
    bar: ProgressBar,
    /// Set when the work ends; the delayed start and the end take it in turn, so a bar never
    /// appears after its work is over.
    done: Arc<Mutex<bool>>,
}

impl Progress {
    /// A bar for `what` (`gen`, `render`, …), shown after [`DELAY`] if standard error is a
    /// terminal.
    pub fn new(what: &str) -> Self {
        Self::on(what, std::io::stderr().is_terminal())
    }

    /// As [`Progress::new`], with the terminal test given: `false` never draws.
    pub fn on(what: &str, terminal: bool) -> Self {
        let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{prefix} [{elapsed}] {bar:30} {percent:>3}% {msg}") {
            bar.set_style(style);
        }
        bar.set_prefix(what.to_string());
        let done = Arc::new(Mutex::new(false));
        if terminal {
            let (bar, done) = (bar.clone(), done.clone());
            std::thread::spawn(move || {
                std::thread::sleep(DELAY);
                let done = done.lock().unwrap_or_else(|e| e.into_inner());
                if !*done {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        Progress { bar, done }
    }

    /// Moves the bar to `fraction` (0 to 1) of the work, saying what is being done.
    pub fn stage(&self, fraction: f32, stage: &str) {
        self.bar.set_position((fraction.clamp(0.0, 1.0) * 1000.0) as u64);
        self.bar.set_message(stage.to_string());
    }

    /// The callback `view_model::open` reports its stages to.
    pub fn of_open(&self) -> impl Fn(shoal::view_model::Progress) + '_ {
        move |p| self.stage(p.fraction, &p.stage)
    }

    /// Runs `print` with the bar lifted, so a line printed meanwhile does not tear it.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }

    /// Whether the bar can ever be drawn (only on a terminal, after the delay).
    #[cfg(test)]
    pub fn is_hidden(&self) -> bool {
        self.bar.is_hidden()
    }
}

impl Drop for Progress {
    /// The bar goes when the work ends, leaving the terminal as it was.
    fn drop(&mut self) {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        *done = true;
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_terminal_the_bar_is_never_drawn() {
        let progress = Progress::on("gen", false);
        progress.stage(0.5, "writing rail 0");
        assert!(progress.is_hidden());
    }
}
