//! Opening the window in a headless harness, shared by the GUI tests (included with `#[path]`).

use egui_kittest::Harness;
use shoal::gui::ShoalApp;
use shoal::view_model::OpenRequest;

/// A 1280×800 window with `request` opened and loaded.
#[allow(dead_code)]
pub fn open_window(request: OpenRequest) -> Harness<'static, ShoalApp> {
    let mut h = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_eframe(move |cc| {
        let mut app = ShoalApp::empty();
        app.open(request, &cc.egui_ctx);
        app
    });
    finish_loading(&mut h);
    h
}

/// Waits for the background load, then lets the app take it in.
pub fn finish_loading(h: &mut Harness<'static, ShoalApp>) {
    let ctx = h.ctx.clone();
    let app = h.state_mut();
    if let Some(loaded) = app.loader.wait() {
        app.finish_load(loaded, Some(&ctx));
    }
    h.run();
}
