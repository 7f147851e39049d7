//! DrawList → PNG: anti-aliased lines (by [`super::line_raster`]) and marks (by tiny-skia)
//! clipped to the plot, legends and text on top. Lines of one colour and width are painted as
//! one shape, as one stroked path would be.

use tiny_skia::{
    Color, FillRule, Mask, Paint, PathBuilder, Pixmap, PremultipliedColorU8, Rect, Stroke, Transform,
};

use crate::scene::colour::Rgba;
use crate::scene::draw::{DrawList, Shape};

use super::ExportError;
use super::line_layer;
use super::line_raster::PixelRect;
use super::text::Face;

fn paint(c: Rgba) -> Paint<'static> {
    let [r, g, b, a] = c.0;
    let mut p = Paint::default();
    p.set_color_rgba8(r, g, b, a);
    p.anti_alias = true;
    p
}

/// Paints `list` (in points) at `pixels_per_point` pixels per point.
pub fn paint_pixmap(list: &DrawList, pixels_per_point: f32) -> Result<Pixmap, ExportError> {
    let s = pixels_per_point;
    let (w, h) = ((list.width * s).round() as u32, (list.height * s).round() as u32);
    let mut pixmap = Pixmap::new(w, h).ok_or(ExportError::Size { width: w, height: h })?;
    let [r, g, b, a] = list.background.0;
    pixmap.fill(Color::from_rgba8(r, g, b, a));
    let scale = Transform::from_scale(s, s);

    stroke_lines(&mut pixmap, list, s);
    let clip = plot_clip(list, w, h, scale).ok_or(ExportError::Size { width: w, height: h })?;
    fill_dots(&mut pixmap, list, scale, &clip);
    paint_rects(&mut pixmap, list, scale);
    draw_texts(&mut pixmap, list, s)?;
    Ok(pixmap)
}

/// A mask of the plot's rectangle under `transform`, `w` × `h` pixels.
fn plot_clip(list: &DrawList, w: u32, h: u32, transform: Transform) -> Option<Mask> {
    let mut clip = Mask::new(w, h)?;
    let p = list.plot;
    if let Some(rect) = Rect::from_xywh(p.x, p.y, p.w, p.h) {
        clip.fill_path(&PathBuilder::from_rect(rect), FillRule::Winding, false, transform);
    }
    Some(clip)
}

/// The links, clipped to the plot, painted by [`line_layer::paint_lines`].
fn stroke_lines(pixmap: &mut Pixmap, list: &DrawList, s: f32) {
    let p = list.plot;
    let clip = PixelRect { left: p.x * s, top: p.y * s, right: (p.x + p.w) * s, bottom: (p.y + p.h) * s };
    let width = pixmap.width() as usize;
    line_layer::paint_lines(pixmap.data_mut(), width, &list.lines, s, clip);
}

/// Node marks, clipped to the plot.
fn fill_dots(pixmap: &mut Pixmap, list: &DrawList, scale: Transform, clip: &Mask) {
    for dot in &list.dots {
        let [x, y] = dot.centre;
        let path = match dot.shape {
            Shape::Circle => PathBuilder::from_circle(x, y, dot.radius),
            Shape::Square => {
                Rect::from_xywh(x - dot.radius, y - dot.radius, 2.0 * dot.radius, 2.0 * dot.radius)
                    .map(PathBuilder::from_rect)
            }
        };
        let Some(path) = path else { continue };
        pixmap.fill_path(&path, &paint(dot.fill), FillRule::Winding, scale, Some(clip));
        if let Some(ring) = dot.ring {
            let stroke = Stroke { width: 1.5, ..Default::default() };
            pixmap.stroke_path(&path, &paint(ring), &stroke, scale, Some(clip));
        }
    }
}

/// Frames, legends and brushes, unclipped.
fn paint_rects(pixmap: &mut Pixmap, list: &DrawList, scale: Transform) {
    for rect in &list.rects {
        let r = rect.rect;
        let Some(shape) = Rect::from_xywh(r.x, r.y, r.w.max(0.01), r.h.max(0.01)) else { continue };
        if rect.fill.0[3] > 0 {
            // As a path: tiny-skia 0.11's anti-aliased `fill_rect` asserts on some sub-pixel
            // rectangles (a 1-point axis tick at a half-pixel offset panicked in `fill_dot8`).
            pixmap.fill_path(
                &PathBuilder::from_rect(shape),
                &paint(rect.fill),
                FillRule::Winding,
                scale,
                None,
            );
        }
        if let Some(stroke_colour) = rect.stroke {
            let path = PathBuilder::from_rect(shape);
            pixmap.stroke_path(
                &path,
                &paint(stroke_colour),
                &Stroke { width: 1.0, ..Default::default() },
                scale,
                None,
            );
        }
    }
}

/// Labels, rasterised with the bundled font at `s` pixels per point.
fn draw_texts(pixmap: &mut Pixmap, list: &DrawList, s: f32) -> Result<(), ExportError> {
    if !list.texts.is_empty() {
        let face = Face::bundled().ok_or(ExportError::Font)?;
        for text in &list.texts {
            let pos = [text.pos[0] * s, text.pos[1] * s];
            let colour = text.colour;
            face.rasterise(&text.text, text.size * s, pos, text.align, |x, y, coverage| {
                blend(pixmap, x, y, colour, coverage);
            });
        }
    }
    Ok(())
}

/// Source-over blend of one text pixel.
fn blend(pixmap: &mut Pixmap, x: i32, y: i32, c: Rgba, coverage: f32) {
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    if x < 0 || y < 0 || x >= w || y >= h {
        return;
    }
    let i = (y * w + x) as usize;
    let a = coverage.clamp(0.0, 1.0) * c.alpha_f32();
    let dst = pixmap.pixels()[i];
    let mix = |s: u8, d: u8| (f32::from(s) * a + f32::from(d) * (1.0 - a)).round() as u8;
    let alpha = mix(255, dst.alpha());
    let out = PremultipliedColorU8::from_rgba(
        mix(c.0[0], dst.red()).min(alpha),
        mix(c.0[1], dst.green()).min(alpha),
        mix(c.0[2], dst.blue()).min(alpha),
        alpha,
    );
    if let Some(out) = out {
        pixmap.pixels_mut()[i] = out;
    }
}

/// Encodes straight-alpha RGBA with fast compression (a 3840×2160 canvas in tens of ms).
pub fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, ExportError> {
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(|e| ExportError::Png(e.to_string()))?;
    writer.write_image_data(&rgba).map_err(|e| ExportError::Png(e.to_string()))?;
    writer.finish().map_err(|e| ExportError::Png(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::camera::ScreenRect;
    use crate::scene::draw::Line;

    const RED: Rgba = Rgba([255, 0, 0, 255]);

    fn canvas(lines: Vec<Line>) -> DrawList {
        DrawList {
            width: 200.0,
            height: 300.0,
            background: Rgba::WHITE,
            plot: ScreenRect::new(20.0, 10.0, 160.0, 280.0),
            lines,
            dots: Vec::new(),
            rects: Vec::new(),
            texts: Vec::new(),
        }
    }

    fn pixel(p: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        let c = p.pixel(x, y).expect("inside").demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    }

    #[test]
    fn a_line_through_every_band_is_painted_in_each_and_clipped_to_the_plot() {
        let line = Line { a: [100.5, 0.0], b: [100.5, 300.0], width: 3.0, colour: RED, half: 0 };
        let p = paint_pixmap(&canvas(vec![line]), 1.0).expect("painted");
        for y in 10..290 {
            assert_eq!(pixel(&p, 100, y), RED.0, "row {y}");
            assert_eq!(pixel(&p, 110, y), Rgba::WHITE.0, "row {y}");
        }
        for y in (0..10).chain(290..300) {
            assert_eq!(pixel(&p, 100, y), Rgba::WHITE.0, "row {y} is outside the plot");
        }
    }

    #[test]
    fn groups_are_painted_in_first_appearance_order_so_a_later_colour_lies_on_top() {
        let blue = Rgba([0, 0, 255, 255]);
        let across = |colour| Line { a: [20.0, 150.0], b: [180.0, 150.0], width: 4.0, colour, half: 0 };
        let down = |colour| Line { a: [100.0, 10.0], b: [100.0, 290.0], width: 4.0, colour, half: 0 };
        // Red comes first in both lists; the second red line joins red's group, under blue.
        let p = paint_pixmap(&canvas(vec![across(RED), down(blue), down(RED)]), 1.0).expect("painted");
        assert_eq!(pixel(&p, 100, 150), blue.0, "the crossing is blue's");
        assert_eq!(pixel(&p, 100, 50), blue.0);
        assert_eq!(pixel(&p, 50, 150), RED.0);
    }

    #[test]
    fn a_diagonal_across_band_edges_has_no_gap_or_seam() {
        // From the plot's top-left corner to its bottom-right: every row's leftmost red pixel
        // lies on the line, whichever band holds the row.
        let line = Line { a: [20.0, 10.0], b: [180.0, 290.0], width: 2.0, colour: RED, half: 0 };
        let p = paint_pixmap(&canvas(vec![line]), 2.0).expect("painted");
        for y in (24..576).step_by(3) {
            let on_line = 40.0 + (y as f32 - 20.0) * (320.0 / 560.0);
            let red = (0..p.width()).find(|&x| pixel(&p, x, y)[1] < 128).expect("the line crosses the row");
            assert!((red as f32 - on_line).abs() < 4.0, "row {y}: {red} against {on_line}");
        }
    }
}
