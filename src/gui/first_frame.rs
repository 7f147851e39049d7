//! `SHOAL_FIRST_FRAME=1`: how long the window takes to show what it opened, for timing the
//! window (`scripts/measure-peers.py`, issue 27), not for users. Once the first frame that drew
//! the opened data set has been presented, one line goes to stderr — seconds since the process
//! started, resident memory now and at its peak — and the window closes. `SHOAL_FRAME_LOG=1`
//! ([`FrameLog`]) writes a line every frame instead, and leaves the window open.

/// Tracks the frames until the data set has been on screen once.
#[derive(Debug, Default)]
pub struct FirstFrame {
    drawn: bool,
    reported: bool,
}

impl FirstFrame {
    /// A tracker when `SHOAL_FIRST_FRAME` is set (to anything but empty or `0`).
    pub fn from_env() -> Option<FirstFrame> {
        switched_on("SHOAL_FIRST_FRAME").then(FirstFrame::default)
    }

    /// At the start of a frame: if the last one drew the data set, it has been presented now.
    pub fn frame_started(&mut self, ctx: &egui::Context) {
        if self.drawn && !self.reported {
            self.reported = true;
            eprintln!("{}", report_line());
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// At the end of a frame: whether it drew an opened data set (then one more frame is asked
    /// for, whose start is the moment this one was presented).
    pub fn frame_ended(&mut self, ctx: &egui::Context, has_data: bool) {
        if has_data && !self.drawn {
            self.drawn = true;
            ctx.request_repaint();
        }
    }
}

/// `SHOAL_FRAME_LOG=1`: one line a frame on stderr, `frame N at S s` (seconds since the window
/// opened), for counting the frames a gesture gets (`scripts/measure-window-frames.sh`), not
/// for users.
#[derive(Debug)]
pub struct FrameLog {
    frames: u64,
    opened: std::time::Instant,
}

impl FrameLog {
    /// A log when `SHOAL_FRAME_LOG` is set (to anything but empty or `0`).
    pub fn from_env() -> Option<FrameLog> {
        switched_on("SHOAL_FRAME_LOG").then(|| FrameLog { frames: 0, opened: std::time::Instant::now() })
    }

    /// At the start of a frame.
    pub fn frame_started(&mut self) {
        self.frames += 1;
        eprintln!("frame {} at {:.3} s", self.frames, self.opened.elapsed().as_secs_f64());
    }
}

/// Whether the environment variable `name` is set to anything but empty or `0`.
fn switched_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// `first frame with the data set: 1.84 s after start, 412 MB resident (peak 455 MB)`.
fn report_line() -> String {
    let since = seconds_since_start().map_or("?".into(), |s| format!("{s:.2}"));
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mb = |key: &str| status_kib(&status, key).map_or("?".into(), |k| format!("{:.0}", k as f64 / 1024.0));
    format!(
        "first frame with the data set: {since} s after start, {} MB resident (peak {} MB)",
        mb("VmRSS:"),
        mb("VmHWM:")
    )
}

/// A `/proc/self/status` line's value in KiB (`VmRSS:   1234 kB`).
fn status_kib(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// Seconds since this process started: the system's uptime less the process's start time
/// (`/proc/self/stat` field 22, in clock ticks since boot).
fn seconds_since_start() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let after = &stat[stat.rfind(')')? + 1..];
    let start_ticks: f64 = after.split_whitespace().nth(19)?.parse().ok()?;
    let uptime: f64 =
        std::fs::read_to_string("/proc/uptime").ok()?.split_whitespace().next()?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (ticks > 0).then(|| uptime - start_ticks / ticks as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_values_are_read_in_kib() {
        let status = "Name:\tshoal\nVmHWM:\t  455000 kB\nVmRSS:\t  412000 kB\n";
        assert_eq!(status_kib(status, "VmRSS:"), Some(412_000));
        assert_eq!(status_kib(status, "VmHWM:"), Some(455_000));
        assert_eq!(status_kib(status, "VmSwap:"), None);
    }

    #[test]
    fn this_process_started_a_moment_ago_not_before_boot() {
        let s = seconds_since_start().expect("Linux's /proc");
        assert!((0.0..86_400.0 * 365.0).contains(&s), "{s}");
    }
}
