//! Text for the PNG painter: the Ubuntu Light face egui uses, rasterised with ab_glyph, so an
//! exported label looks like the one in the window.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};

use crate::scene::draw::Align;

/// The face, parsed once per export.
pub struct Face {
    font: FontRef<'static>,
}

impl Face {
    /// The bundled face. `None` only if the font bytes shipped with epaint were corrupt.
    pub fn bundled() -> Option<Face> {
        FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).ok().map(|font| Face { font })
    }

    /// Width of `text` at `size` pixels.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let scaled = self.font.as_scaled(PxScale::from(size));
        let mut width = 0.0;
        let mut previous = None;
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(p) = previous {
                width += scaled.kern(p, id);
            }
            width += scaled.h_advance(id);
            previous = Some(id);
        }
        width
    }

    /// Calls `plot(x, y, coverage)` for every covered pixel of `text` placed at `pos` with
    /// `align` (horizontal, vertical), like the egui painter places it.
    pub fn rasterise(
        &self,
        text: &str,
        size: f32,
        pos: [f32; 2],
        align: (Align, Align),
        mut plot: impl FnMut(i32, i32, f32),
    ) {
        let scaled = self.font.as_scaled(PxScale::from(size));
        let width = self.width(text, size);
        let height = scaled.ascent() - scaled.descent();
        let x0 = match align.0 {
            Align::Start => pos[0],
            Align::Centre => pos[0] - width / 2.0,
            Align::End => pos[0] - width,
        };
        let top = match align.1 {
            Align::Start => pos[1],
            Align::Centre => pos[1] - height / 2.0,
            Align::End => pos[1] - height,
        };
        let baseline = top + scaled.ascent();
        let mut x = x0;
        let mut previous = None;
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(p) = previous {
                x += scaled.kern(p, id);
            }
            let glyph = id.with_scale_and_position(PxScale::from(size), point(x, baseline));
            x += scaled.h_advance(id);
            previous = Some(id);
            if let Some(outline) = self.font.outline_glyph(glyph) {
                let b = outline.px_bounds();
                outline.draw(|gx, gy, coverage| {
                    plot(b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, coverage);
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_face_measures_and_draws_text() {
        let face = Face::bundled().unwrap();
        assert!(face.width("1.5 MiB", 11.0) > face.width("B", 11.0));
        let mut covered = 0;
        face.rasterise("N", 14.0, [10.0, 10.0], (Align::Start, Align::Start), |x, y, c| {
            assert!((9..30).contains(&x) && (9..30).contains(&y), "{x},{y}");
            if c > 0.5 {
                covered += 1;
            }
        });
        assert!(covered > 10);
    }
}
#[cfg(test)]
mod glyph_tests {
    use ab_glyph::Font;

    /// Labels use only characters the bundled face has (egui would draw tofu, kittest panics).
    #[test]
    fn the_bundled_face_has_the_characters_labels_use() {
        let f = ab_glyph::FontRef::try_from_slice(epaint_default_fonts::UBUNTU_LIGHT).unwrap();
        for c in "−≤—…×·".chars() {
            assert_ne!(f.glyph_id(c).0, 0, "{c}");
        }
    }
}
