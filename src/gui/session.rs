//! File → Save session / Open session: the workspace and what it was opened from, as one YAML
//! file ([`crate::view_model::session`]), and back.

use std::path::Path;

use crate::view_model::session::Session;

use super::{Dialog, ShoalApp, path_entry::Purpose};

/// The two menu entries.
pub(super) fn menu_items(app: &mut ShoalApp, ui: &mut egui::Ui) {
    if ui.button("Save session…").clicked() {
        app.spawn_dialog(
            Purpose::SaveSession,
            || {
                rfd::FileDialog::new()
                    .set_title("Save the session")
                    .add_filter("shoal session", &["yaml", "yml"])
                    .set_file_name("session.yaml")
                    .save_file()
                    .map(Dialog::SaveSession)
            },
            ui.ctx(),
        );
    }
    if ui.button("Open session…").clicked() {
        app.spawn_dialog(
            Purpose::OpenSession,
            || {
                rfd::FileDialog::new()
                    .set_title("Open a session")
                    .add_filter("shoal session", &["yaml", "yml"])
                    .pick_file()
                    .map(Dialog::OpenSession)
            },
            ui.ctx(),
        );
    }
}

/// File → Save session: the error, if any, goes to the warnings panel.
pub(super) fn save(app: &mut ShoalApp, path: &Path) {
    match app.save_session(path) {
        Ok(()) => app.status = format!("saved the session {}", path.display()),
        Err(e) => app.errors.push(format!("could not save the session: {e}")),
    }
}

/// File → Open session (and a dropped session file).
pub(super) fn open(app: &mut ShoalApp, path: &Path, ctx: &egui::Context) {
    if let Err(e) = app.open_session(path, ctx) {
        app.errors.push(format!("could not open the session: {e}"));
    }
}

impl ShoalApp {
    /// Writes the workspace and what it was opened from as a session; without data open there
    /// is nothing to save.
    pub fn save_session(&self, path: &Path) -> Result<(), String> {
        let request = self.current.as_ref().ok_or("nothing is open: a session names the files it shows")?;
        self.ws.to_session(request).write(path).map_err(|e| e.to_string())
    }

    /// Opens a session: its request loads in the background, then its views replace the
    /// workspace's.
    pub fn open_session(&mut self, path: &Path, ctx: &egui::Context) -> Result<(), String> {
        let mut session = Session::read(path).map_err(|e| e.to_string())?;
        crate::modules::registry::check_session(&mut session, path)?;
        let request = session.request.clone();
        self.pending_session = Some(session);
        self.open(request, ctx);
        Ok(())
    }
}
