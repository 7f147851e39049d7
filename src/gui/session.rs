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

/// Writes the workspace as a session; without data open there is nothing to save.
pub fn save(app: &mut ShoalApp, path: &Path) {
    let Some(request) = app.current.as_ref() else {
        app.errors.push("nothing is open: a session names the files it shows".into());
        return;
    };
    match app.ws.to_session(request).write(path) {
        Ok(()) => app.status = format!("saved the session {}", path.display()),
        Err(e) => app.errors.push(format!("could not save the session: {e}")),
    }
}

/// Opens a session: its request loads in the background, then its views replace the
/// workspace's.
pub fn open(app: &mut ShoalApp, path: &Path, ctx: &egui::Context) {
    match Session::read(path) {
        Ok(session) => {
            let request = session.request.clone();
            app.pending_session = Some(session);
            app.open(request, ctx);
        }
        Err(e) => app.errors.push(format!("could not open the session: {e}")),
    }
}
