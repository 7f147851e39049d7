//! DrawList → PNG with tiny-skia: anti-aliased lines and marks clipped to the plot, legends and
//! text on top. Lines of one colour and width are stroked as one path (there are only 256
//! colours per map), which keeps a 3840×2160 export of a TSUBAME-sized fabric well under a second;
//! a group too big for one path on a band is stroked in several ([`SPLIT_ABOVE`]).

use std::collections::HashMap;

use rayon::prelude::*;
use tiny_skia::{
    Color, FillRule, LineCap, Mask, Paint, PathBuilder, Pixmap, PixmapMut, PremultipliedColorU8, Rect,
    Stroke, Transform,
};

use crate::scene::colour::Rgba;
use crate::scene::draw::{DrawList, Shape};

use super::ExportError;
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

    stroke_lines(&mut pixmap, list, scale);
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

/// Bands of rows the link layer is painted in. Fixed, not taken from the thread count: a band's
/// edge pixels are anti-aliased from where its lines enter it, so the count is part of what the
/// picture is, and it must be the same on every machine. Sixteen keep a few threads busy while
/// long lines make some bands heavier than others.
const BANDS: usize = 16;

/// The links, clipped to the plot. Lines are the export's heaviest layer (most of the CPU of a
/// k = 36 render), so the canvas is cut into bands of rows painted in parallel: each band
/// strokes, under a transform moved up by its first row, the lines that reach its rows (a line
/// wholly above or below a band adds nothing to its pixels; stroking every line in every band
/// made each band clip all 70,000 lines of a k = 36 fabric). Anti-aliased edges then differ
/// from a whole-canvas stroke's by a few levels on about 0.2 % of pixels (measured on a
/// TSUBAME-sized render), never in colour.
fn stroke_lines(pixmap: &mut Pixmap, list: &DrawList, scale: Transform) {
    let (keys, group_of) = line_groups(list);
    if keys.is_empty() {
        return;
    }
    let (w, h) = (pixmap.width(), pixmap.height());
    let bands = BANDS.clamp(1, h as usize);
    let band_rows = (h as usize).div_ceil(bands);
    let row_bytes = w as usize * 4;
    pixmap.data_mut().par_chunks_mut(band_rows * row_bytes).enumerate().for_each(|(i, bytes)| {
        let rows = (bytes.len() / row_bytes) as u32;
        let Some(mut band) = PixmapMut::from_bytes(bytes, w, rows) else { return };
        let top = (i * band_rows) as f32;
        let moved = scale.post_translate(0.0, -top);
        let Some(clip) = plot_clip(list, w, rows, moved) else { return };
        let paths = band_paths(list, &group_of, keys.len(), scale.sy, top..top + rows as f32);
        for ((colour, width), paths) in keys.iter().zip(paths) {
            let stroke =
                Stroke { width: f32::from_bits(*width), line_cap: LineCap::Butt, ..Default::default() };
            for path in paths.into_iter().filter_map(PathBuilder::finish) {
                band.stroke_path(&path, &paint(*colour), &stroke, moved, Some(&clip));
            }
        }
    });
}

/// The (colour, width) groups of the lines, in first-appearance order so that lit lines stay on
/// top (there are only 256 colours per map, so a group is one path), and each line's group.
fn line_groups(list: &DrawList) -> (Vec<(Rgba, u32)>, Vec<u32>) {
    let mut keys: Vec<(Rgba, u32)> = Vec::new();
    let mut index: HashMap<(Rgba, u32), u32> = HashMap::new();
    let group_of = list
        .lines
        .iter()
        .map(|line| {
            let key = (line.colour, line.width.to_bits());
            *index.entry(key).or_insert_with(|| {
                keys.push(key);
                keys.len() as u32 - 1
            })
        })
        .collect();
    (keys, group_of)
}

/// A group with more lines than this on one band is stroked as several paths of
/// [`LINES_PER_PATH`] lines. tiny-skia's scan converter keeps a path's edges sorted along each
/// row, and crossing lines make that cost grow with the square of their count: a k = 36 rail's
/// 70,000 lines of one colour (its picture without a profile) took 3.5 s as one path, and under
/// 1 s in paths of 512. Only such huge groups are split: where two paths' anti-aliased edges
/// overlap they blend rather than join, which shows as faint ripples in areas dense with
/// lines of one colour (a TSUBAME-sized fabric's pictures, with or without a profile, stay
/// one path a group and draw exactly as before).
const SPLIT_ABOVE: usize = 16_384;

/// The lines of each path of a group split by [`SPLIT_ABOVE`].
const LINES_PER_PATH: usize = 512;

/// The paths of each group of the lines that reach the rows `band` (in pixels,
/// `pixels_per_point` pixels per point): their strokes' half width and a pixel of
/// anti-aliasing on either side. A group's lines keep their order.
fn band_paths(
    list: &DrawList,
    group_of: &[u32],
    groups: usize,
    pixels_per_point: f32,
    band: std::ops::Range<f32>,
) -> Vec<Vec<PathBuilder>> {
    let reaches = |line: &crate::scene::draw::Line| {
        let reach = (line.width * 0.5 + 1.0) * pixels_per_point + 2.0;
        let (y0, y1) = (line.a[1] * pixels_per_point, line.b[1] * pixels_per_point);
        y0.max(y1) + reach >= band.start && y0.min(y1) - reach <= band.end
    };
    let mut counts = vec![0usize; groups];
    for (line, &group) in list.lines.iter().zip(group_of) {
        counts[group as usize] += usize::from(reaches(line));
    }
    let per_path: Vec<usize> =
        counts.iter().map(|&n| if n > SPLIT_ABOVE { LINES_PER_PATH } else { usize::MAX }).collect();
    let mut paths: Vec<Vec<PathBuilder>> = (0..groups).map(|_| Vec::new()).collect();
    let mut placed = vec![0usize; groups];
    for (line, &group) in list.lines.iter().zip(group_of) {
        if !reaches(line) {
            continue;
        }
        let g = group as usize;
        if placed[g] % per_path[g] == 0 {
            paths[g].push(PathBuilder::new());
        }
        placed[g] += 1;
        let path = paths[g].last_mut().expect("a path was just pushed");
        path.move_to(line.a[0], line.a[1]);
        path.line_to(line.b[0], line.b[1]);
    }
    paths
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
    fn only_a_group_too_big_for_one_path_on_a_band_is_split_and_its_lines_keep_their_order() {
        let line = |x: f32| Line { a: [x, 0.0], b: [x + 1.0, 300.0], width: 1.0, colour: RED, half: 0 };
        let far = Line { a: [5.0, 280.0], b: [6.0, 290.0], width: 1.0, colour: RED, half: 0 };
        let mut lines: Vec<Line> = (0..SPLIT_ABOVE).map(|i| line(i as f32 * 0.01)).collect();
        lines.push(far);
        let list = canvas(lines);
        let groups = vec![0; list.lines.len()];
        // Rows 0..100 see SPLIT_ABOVE lines: one path. All 300 rows see one more: split.
        assert_eq!(band_paths(&list, &groups, 1, 1.0, 0.0..100.0)[0].len(), 1);
        let split = band_paths(&list, &groups, 1, 1.0, 0.0..300.0);
        assert_eq!(split[0].len(), (SPLIT_ABOVE + 1).div_ceil(LINES_PER_PATH));
        let last = split[0].last().expect("paths").clone().finish().expect("a path");
        assert_eq!(last.points().last().map(|p| (p.x, p.y)), Some((6.0, 290.0)), "the last line comes last");
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
