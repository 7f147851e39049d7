//! Typing a path when no file dialog can open. rfd's dialogs need an XDG desktop portal (on the
//! session D-Bus) or the `zenity` program; on a login node over `ssh -X` or under a bare window
//! manager there is neither, and `pick_file` returns `None` without showing anything (issue 16).
//! Shoal detects that, says so in the window, and offers this field instead: Tab completes the
//! typed prefix from the directory listing, Enter opens what the dialog would have.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::{Key, Modifiers, Ui};

use super::Dialog;

/// What the path is for: the dialog it stands in for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// One folder (or comma-joined files) per rail.
    Rails,
    Profile,
    /// One profile to add as a job sharing the fabric.
    Jobs,
    Run,
    Export,
    SaveSession,
    OpenSession,
}

impl Purpose {
    fn title(self) -> &'static str {
        match self {
            Purpose::Rails => "Open rails by path",
            Purpose::Profile => "Open a profile by path",
            Purpose::Jobs => "Add a profile as a job by path",
            Purpose::Run => "Open a run by path",
            Purpose::Export => "Export the view to a path",
            Purpose::SaveSession => "Save the session to a path",
            Purpose::OpenSession => "Open a session by path",
        }
    }

    fn hint(self) -> &'static str {
        match self {
            Purpose::Rails => "a rail's dump folder (add one per rail)",
            Purpose::Profile => "an ibprof or PFProf file, .gz, or a folder of them",
            Purpose::Jobs => "an ibprof profile (.gz) to add as a job",
            Purpose::Run => "a Boxfish *_meta.yaml, a nodes.csv, or a folder holding one",
            Purpose::Export => "a .png or .svg file to write",
            Purpose::SaveSession => "a .yaml file to write",
            Purpose::OpenSession => "a shoal session (.yaml)",
        }
    }
}

/// The packages that give native dialogs, named wherever shoal says none is available.
pub const DIALOG_PACKAGES: &str =
    "install xdg-desktop-portal-gtk (or the -gnome/-kde portal) or zenity for native file dialogs";

/// Why no native file dialog can be shown here, if that is certain before trying: no `zenity`
/// on `PATH` and no session D-Bus for a portal to answer on.
pub fn no_native_dialog() -> Option<String> {
    if cfg!(any(target_os = "windows", target_os = "macos")) || program_on_path("zenity") {
        return None;
    }
    let bus_named = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty());
    let bus_socket =
        std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|dir| Path::new(&dir).join("bus").exists());
    (!bus_named && !bus_socket).then(|| {
        "no file dialog is available: no session D-Bus for an XDG desktop portal, and no zenity".into()
    })
}

/// A dialog that came back empty this fast was never shown: rfd found neither a portal nor
/// zenity (a person takes longer than this to cancel).
pub const UNSHOWN_DIALOG: Duration = Duration::from_millis(700);

/// Why an empty answer after `elapsed` means no dialog was shown, if it does.
pub fn unshown_dialog(elapsed: Duration) -> Option<String> {
    (elapsed < UNSHOWN_DIALOG && !program_on_path("zenity"))
        .then(|| "no file dialog appeared: no XDG desktop portal answered and zenity is not installed".into())
}

fn program_on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}

/// The state of the typed-path window (plain data, kept by the app).
#[derive(Debug, Default)]
pub struct PathEntry {
    /// Shown while `Some`: what the path is for and why no dialog opened.
    pub open: Option<(Purpose, String)>,
    pub text: String,
    /// Rails added so far (for [`Purpose::Rails`]).
    pub rails: Vec<PathBuf>,
}

impl PathEntry {
    /// Opens the window for `purpose`, saying `why` no dialog was shown.
    pub fn show_for(&mut self, purpose: Purpose, why: String) {
        self.open = Some((purpose, why));
        self.rails.clear();
    }

    /// Draws the window; returns what to open when the user confirms.
    pub(super) fn ui(&mut self, ctx: &egui::Context) -> Option<Dialog> {
        let (purpose, why) = self.open.clone()?;
        let mut keep_open = true;
        let mut chosen = None;
        egui::Window::new(purpose.title()).open(&mut keep_open).collapsible(false).default_width(560.0).show(
            ctx,
            |ui| {
                ui.colored_label(ui.visuals().warn_fg_color, format!("{why}; {DIALOG_PACKAGES}."));
                ui.label(format!("Type {}. Tab completes; Enter opens.", purpose.hint()));
                chosen = self.field(ui, purpose);
            },
        );
        if !keep_open || chosen.is_some() {
            self.open = None;
        }
        chosen
    }

    fn field(&mut self, ui: &mut Ui, purpose: Purpose) -> Option<Dialog> {
        let id = ui.make_persistent_id("typed-path");
        let tab =
            ui.memory(|m| m.has_focus(id)) && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Tab));
        let completion = complete(&self.text);
        if tab && completion.common.len() > self.text.len() {
            self.text = completion.common.clone();
            move_cursor_to_end(ui.ctx(), id, &self.text);
        }
        let edit = egui::TextEdit::singleline(&mut self.text)
            .id(id)
            .lock_focus(true)
            .desired_width(f32::INFINITY)
            .hint_text(purpose.hint());
        let response = ui.add(edit);
        if self.open.is_some() && !response.has_focus() && self.text.is_empty() {
            response.request_focus();
        }
        let entered = response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        for rail in &self.rails {
            ui.monospace(format!("rail: {}", rail.display()));
        }
        let mut chosen = None;
        ui.horizontal(|ui| {
            if purpose == Purpose::Rails && ui.button("Add rail").clicked() && !self.text.trim().is_empty() {
                self.rails.push(expand_home(self.text.trim()));
                self.text.clear();
            }
            if ui
                .button(match purpose {
                    Purpose::Export => "Export",
                    Purpose::SaveSession => "Save",
                    _ => "Open",
                })
                .clicked()
                || entered
            {
                chosen = self.confirm(purpose);
            }
        });
        self.candidates(ui, &completion);
        chosen
    }

    /// Up to a dozen entries matching the typed prefix; a click takes one.
    fn candidates(&mut self, ui: &mut Ui, completion: &Completion) {
        for candidate in completion.candidates.iter().take(12) {
            if ui.small_button(candidate).clicked() {
                self.text = candidate.clone();
            }
        }
        if completion.candidates.len() > 12 {
            ui.small(format!("… {} more", completion.candidates.len() - 12));
        }
    }

    fn confirm(&mut self, purpose: Purpose) -> Option<Dialog> {
        let typed = self.text.trim();
        let path = (!typed.is_empty()).then(|| expand_home(typed));
        match purpose {
            Purpose::Rails => {
                let mut rails = std::mem::take(&mut self.rails);
                rails.extend(path);
                (!rails.is_empty()).then_some(Dialog::Open(rails))
            }
            Purpose::Profile => path.map(Dialog::Profile),
            Purpose::Jobs => path.map(|p| Dialog::Jobs(vec![p])),
            Purpose::Run => path.map(Dialog::Run),
            Purpose::Export => path.map(Dialog::Export),
            Purpose::SaveSession => path.map(Dialog::SaveSession),
            Purpose::OpenSession => path.map(Dialog::OpenSession),
        }
    }
}

fn move_cursor_to_end(ctx: &egui::Context, id: egui::Id, text: &str) {
    if let Some(mut state) = egui::TextEdit::load_state(ctx, id) {
        let end = egui::text::CCursor::new(text.chars().count());
        state.cursor.set_char_range(Some(egui::text::CCursorRange::one(end)));
        egui::TextEdit::store_state(ctx, id, state);
    }
}

/// `~/x` as `$HOME/x`.
fn expand_home(typed: &str) -> PathBuf {
    match (typed.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(typed),
    }
}

/// What a typed prefix can complete to.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// Every entry of the prefix's directory whose name starts with the typed name, sorted,
    /// written as the user would type it (folders end in `/`). Hidden entries only when the
    /// typed name starts with a dot.
    pub candidates: Vec<String>,
    /// The longest text every candidate starts with (at least the typed text).
    pub common: String,
}

/// Completes `typed` from the directory listing: the folder part is listed, the rest is the
/// name prefix.
pub fn complete(typed: &str) -> Completion {
    let (folder, name) = match typed.rfind('/') {
        Some(cut) => (&typed[..=cut], &typed[cut + 1..]),
        None => ("", typed),
    };
    let listed = if folder.is_empty() { PathBuf::from(".") } else { expand_home(folder) };
    let Ok(entries) = std::fs::read_dir(&listed) else {
        return Completion { candidates: Vec::new(), common: typed.to_string() };
    };
    let mut candidates: Vec<String> = entries
        .flatten()
        .filter_map(|entry| {
            let file_name = entry.file_name().into_string().ok()?;
            if !file_name.starts_with(name) || (file_name.starts_with('.') && !name.starts_with('.')) {
                return None;
            }
            let folder_mark = if entry.path().is_dir() { "/" } else { "" };
            Some(format!("{folder}{file_name}{folder_mark}"))
        })
        .collect();
    candidates.sort();
    let common = match candidates.split_first() {
        Some((first, rest)) => {
            let mut common = first.as_str();
            for other in rest {
                let shared =
                    common.char_indices().zip(other.chars()).take_while(|((_, a), b)| a == b).count();
                let end = common.char_indices().nth(shared).map_or(common.len(), |(i, _)| i);
                common = &common[..end];
            }
            common.to_string()
        }
        None => typed.to_string(),
    };
    Completion { common: if common.len() >= typed.len() { common } else { typed.to_string() }, candidates }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_prefix_completes_to_what_the_folder_holds() {
        let dir = std::env::temp_dir().join(format!("shoal-complete-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("rail0")).unwrap();
        std::fs::create_dir_all(dir.join("rail1")).unwrap();
        std::fs::write(dir.join("run.ibprof.gz"), "").unwrap();
        std::fs::write(dir.join(".hidden"), "").unwrap();
        let base = format!("{}/", dir.display());
        let rails = complete(&format!("{base}ra"));
        assert_eq!(rails.candidates, vec![format!("{base}rail0/"), format!("{base}rail1/")]);
        assert_eq!(rails.common, format!("{base}rail"));
        let profile = complete(&format!("{base}run"));
        assert_eq!(profile.common, format!("{base}run.ibprof.gz"), "one match completes whole");
        assert_eq!(complete(&base).candidates.len(), 3, "hidden entries only when typed");
        assert_eq!(complete(&format!("{base}.h")).candidates, vec![format!("{base}.hidden")]);
        let none = complete(&format!("{base}zzz"));
        assert!(none.candidates.is_empty());
        assert_eq!(none.common, format!("{base}zzz"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_dialog_answered_empty_at_once_without_zenity_was_never_shown() {
        if program_on_path("zenity") {
            return; // then rfd shows zenity's dialog: an empty answer is a cancel
        }
        assert!(unshown_dialog(Duration::from_millis(5)).is_some());
        assert!(unshown_dialog(Duration::from_secs(3)).is_none(), "a person cancelled");
    }
}
