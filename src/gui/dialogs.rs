//! The window's file dialogs: each runs on its own thread and answers through a channel; where
//! none can be shown, the typed-path window stands in ([`super::path_entry`]).

use super::{Dialog, ShoalApp, open, path_entry, recent, session};

impl ShoalApp {
    /// Runs a file dialog on its own thread. Where none can be shown (no portal, no zenity: see
    /// [`path_entry`]) the typed-path window opens instead, at once or when the dialog comes
    /// back empty too fast to have been seen.
    pub(super) fn spawn_dialog(
        &mut self,
        purpose: path_entry::Purpose,
        make: impl FnOnce() -> Option<Dialog> + Send + 'static,
        ctx: &egui::Context,
    ) {
        if let Some(why) = path_entry::no_native_dialog() {
            self.path_entry.show_for(purpose, why);
            return;
        }
        let tx = self.dialogs.0.clone();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let asked = std::time::Instant::now();
            let answer = make().or_else(|| {
                path_entry::unshown_dialog(asked.elapsed()).map(|why| Dialog::Unavailable(purpose, why))
            });
            if let Some(d) = answer {
                let _ = tx.send(d);
                ctx.request_repaint();
            }
        });
    }

    pub(super) fn open_dialog(&mut self, ctx: &egui::Context) {
        self.spawn_dialog(
            path_entry::Purpose::Rails,
            || {
                rfd::FileDialog::new()
                    .set_title("Open rail directories (one per rail)")
                    .pick_folders()
                    .map(Dialog::Open)
            },
            ctx,
        );
    }

    pub(super) fn profile_dialog(&mut self, ctx: &egui::Context) {
        self.spawn_dialog(
            path_entry::Purpose::Profile,
            || {
                rfd::FileDialog::new()
                    .set_title("Open an ibprof profile")
                    .add_filter("ibprof profile", &["ibprof", "gz"])
                    .add_filter("loads file (IBPROF_LOADS)", &["csv", "gz"])
                    .pick_file()
                    .map(Dialog::Profile)
            },
            ctx,
        );
    }

    pub(super) fn export_dialog(&mut self, ctx: &egui::Context) {
        self.spawn_dialog(
            path_entry::Purpose::Export,
            || {
                rfd::FileDialog::new()
                    .set_title("Export the view")
                    .add_filter("PNG image", &["png"])
                    .add_filter("SVG drawing", &["svg"])
                    .set_file_name("shoal.png")
                    .save_file()
                    .map(Dialog::Export)
            },
            ctx,
        );
    }

    /// Acts on what a file dialog (or the typed-path window) answered.
    pub(super) fn handle_dialog(&mut self, d: Dialog, ctx: &egui::Context) {
        match d {
            Dialog::Open(paths) => {
                if let Some(r) = recent::request_from_paths(&paths, self.current.as_ref()) {
                    self.open(r, ctx);
                }
            }
            Dialog::Profile(p) => match self.current.clone() {
                Some(mut r) => {
                    // A loads file (`*.csv`) stands in for a profile: one or the other.
                    let is_loads = match crate::view_model::classify(&p) {
                        Some(kind) => kind == crate::view_model::PathKind::Loads,
                        None => p.to_string_lossy().to_ascii_lowercase().contains(".csv"),
                    };
                    (r.profile, r.loads) = if is_loads { (None, Some(p)) } else { (Some(p), None) };
                    self.open(r, ctx);
                }
                None => self.errors.push("open rails before a profile".into()),
            },
            Dialog::Jobs(paths) => self.place_new_jobs(&paths),
            Dialog::Run(p) => open::open_run(self, &p, ctx),
            Dialog::SaveSession(p) => session::save(self, &p),
            Dialog::OpenSession(p) => session::open(self, &p, ctx),
            Dialog::Unavailable(purpose, why) => {
                self.status = "no file dialog here: type a path".into();
                self.path_entry.show_for(purpose, why);
            }
            Dialog::Export(p) => match self.export_focused(&p) {
                Ok(()) => self.status = format!("exported {}", p.display()),
                Err(e) => self.errors.push(format!("export failed: {e}")),
            },
        }
    }
}
