//! Fewer pixels shaded a frame on a software renderer (llvmpipe, lavapipe). There a frame's
//! cost is the pixels its shapes cover, about 0.2 µs each on two cores (the bundled sample at
//! 1440 × 900: 0.28 s of the renderer's CPU time a frame), and the panels' backgrounds covered
//! the whole window under everything else. A clear costs next to nothing, so the frame is
//! cleared to the panels' colour and the panels paint no background of their own: the same
//! pixels.

use egui::Color32;

/// At the start of a frame: takes the panels' fill (kept in `fill`) out of the style, so the
/// panels leave their background to the clear. Again after a change of theme.
pub fn clear_panels(ctx: &egui::Context, fill: &mut Color32) {
    let now = ctx.global_style().visuals.panel_fill;
    if now != Color32::TRANSPARENT {
        *fill = now;
        ctx.all_styles_mut(|style| style.visuals.panel_fill = Color32::TRANSPARENT);
    }
}

/// The colour a frame is cleared to: the panels' colour when they leave their background to the
/// clear, else eframe's own default.
pub fn clear_color(panels_by_clear: Option<Color32>) -> [f32; 4] {
    match panels_by_clear {
        Some(fill) => fill.to_normalized_gamma_f32(),
        None => Color32::from_rgba_unmultiplied(12, 12, 12, 180).to_normalized_gamma_f32(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panels_leave_their_colour_to_the_clear_and_again_after_new_visuals() {
        let ctx = egui::Context::default();
        let grey = ctx.global_style().visuals.panel_fill;
        let mut fill = Color32::RED;
        clear_panels(&ctx, &mut fill);
        assert_eq!(fill, grey);
        assert_eq!(ctx.global_style().visuals.panel_fill, Color32::TRANSPARENT);
        assert_eq!(clear_color(Some(fill)), grey.to_normalized_gamma_f32());
        // A theme switch brings an opaque fill back: taken out again, its colour kept.
        ctx.set_visuals(egui::Visuals { panel_fill: Color32::BLUE, ..egui::Visuals::light() });
        clear_panels(&ctx, &mut fill);
        assert_eq!((fill, ctx.global_style().visuals.panel_fill), (Color32::BLUE, Color32::TRANSPARENT));
    }
}
