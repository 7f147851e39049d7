//! What the environment says about the display: whether a window can open at all, and keeping
//! the window's start quiet on X11 without a Wayland session.
//!
//! Mesa's Vulkan device-select layer asks Wayland for the default GPU whenever the instance
//! enables the Wayland surface extension (wgpu enables every surface extension). Where no
//! Wayland session exists (`ssh -X`, Xvfb, a bare X server) `XDG_RUNTIME_DIR` is usually unset,
//! and libwayland then prints `error: XDG_RUNTIME_DIR is invalid or not set in the environment.`
//! once per probe: four times at each launch, for nothing, since there is no compositor to ask.

use std::ffi::OsString;
use std::path::Path;

/// Why no window can open here, if none can: on Linux and the BSDs a window needs an X server
/// (`DISPLAY`) or a Wayland compositor (`WAYLAND_DISPLAY`). `var` reads the environment.
pub fn no_display(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<&'static str> {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    let needs_one = cfg!(all(unix, not(target_os = "macos")));
    (needs_one && !set("DISPLAY") && !set("WAYLAND_DISPLAY"))
        .then_some("neither DISPLAY nor WAYLAND_DISPLAY is set")
}

/// The variable that turns Mesa's device-select layer off (the driver's own GPU order stays).
pub const NO_DEVICE_SELECT: &str = "NODEVICE_SELECT";

/// Whether the device-select layer's Wayland probe can only fail (and print its error): no
/// `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR` unset or not a directory, and the user has not chosen
/// for the layer already. `var` reads the environment.
pub fn probe_is_pointless(var: impl Fn(&str) -> Option<OsString>) -> bool {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    let runtime_dir_ok = var("XDG_RUNTIME_DIR").is_some_and(|d| !d.is_empty() && Path::new(&d).is_dir());
    !set("WAYLAND_DISPLAY") && !runtime_dir_ok && var(NO_DEVICE_SELECT).is_none()
}

/// Turns the pointless probe off. Call before any thread is started (it sets a variable of
/// this process's environment).
pub fn quiet_pointless_probe() {
    if probe_is_pointless(|name| std::env::var_os(name)) {
        // SAFETY: called from `gui::run_with` on the main thread before eframe, wgpu or any
        // loader thread starts, so no other thread reads the environment meanwhile.
        unsafe { std::env::set_var(NO_DEVICE_SELECT, "1") };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn an_x11_session_without_a_runtime_dir_skips_the_wayland_probe() {
        assert!(probe_is_pointless(env(&[("DISPLAY", ":0")])));
        assert!(probe_is_pointless(env(&[("DISPLAY", ":0"), ("XDG_RUNTIME_DIR", "/no/such/dir")])));
    }

    #[test]
    fn a_wayland_session_or_a_valid_runtime_dir_keeps_the_probe() {
        assert!(!probe_is_pointless(env(&[("WAYLAND_DISPLAY", "wayland-0")])));
        let dir = std::env::temp_dir();
        let dir = dir.to_str().unwrap_or("/tmp");
        assert!(!probe_is_pointless(env(&[("DISPLAY", ":0"), ("XDG_RUNTIME_DIR", dir)])));
    }

    #[test]
    fn a_users_own_device_select_choice_is_kept() {
        assert!(!probe_is_pointless(env(&[("DISPLAY", ":0"), (NO_DEVICE_SELECT, "0")])));
    }
}
