//! A scene on a pixel canvas: the [`DrawList`] every painter consumes (egui, PNG, SVG), and
//! picking (which glyph is under the cursor).
//!
//! The canvas is split once, here, so all painters agree: a title strip on top, level labels on
//! the left, the plot in the middle (links and nodes are clipped to it), the legends on the right.

use crate::layout::Position;

use super::camera::{Camera, ScreenRect, Transform};
use super::colour::Rgba;
use super::legend::Legend;
use super::{Emphasis, HealthMark, MarkOf, Scene};

pub(crate) const TITLE_H: f32 = 26.0;
const LEFT_W: f32 = 46.0;
pub(crate) const RIGHT_W: f32 = 176.0;
const BOTTOM_H: f32 = 10.0;
const LEGEND_STEPS: usize = 64;
pub const INK: Rgba = Rgba::rgb(40, 40, 48);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Start,
    Centre,
    End,
}

/// What a line that is no link half is, in its `half` field.
pub const HEALTH_DASH: usize = usize::MAX;
/// A line joining two regions of the congestion view (an evolution step).
pub const REGION_STEP: usize = usize::MAX - 1;

/// A straight line; link halves carry their index into `Scene::halves`, other lines
/// [`HEALTH_DASH`] or [`REGION_STEP`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub a: [f32; 2],
    pub b: [f32; 2],
    pub width: f32,
    pub colour: Rgba,
    pub half: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Circle,
    Square,
}

/// A node mark: `radius` is half the side of a square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dot {
    pub centre: [f32; 2],
    pub radius: f32,
    pub shape: Shape,
    pub fill: Rgba,
    /// An outline, drawn for highlighted marks.
    pub ring: Option<Rgba>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub rect: ScreenRect,
    pub fill: Rgba,
    pub stroke: Option<Rgba>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub pos: [f32; 2],
    pub size: f32,
    pub colour: Rgba,
    /// Horizontal, then vertical alignment of the text box on `pos`.
    pub align: (Align, Align),
    pub text: String,
}

/// Pixel-space primitives, painted in this order: background, `lines` and `dots` clipped to
/// `plot`, then `rects` and `texts` unclipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    pub width: f32,
    pub height: f32,
    pub background: Rgba,
    pub plot: ScreenRect,
    pub lines: Vec<Line>,
    pub dots: Vec<Dot>,
    pub rects: Vec<Rect>,
    pub texts: Vec<Text>,
}

/// The plot rectangle of a `width × height` canvas.
pub fn plot_rect(width: f32, height: f32) -> ScreenRect {
    ScreenRect::new(LEFT_W, TITLE_H, width - LEFT_W - RIGHT_W, height - TITLE_H - BOTTOM_H)
}

/// Sizes in pixels for the current zoom: (line width, mark radius).
pub fn glyph_sizes(scene: &Scene, t: &Transform) -> (f32, f32) {
    let slot_px = scene.slot * t.scale[0];
    ((slot_px * 0.25).clamp(1.0, 3.0), (slot_px * 0.35).clamp(1.5, 6.0))
}

pub fn draw_list(scene: &Scene, camera: &Camera, width: f32, height: f32) -> DrawList {
    let mut out = draw_list_without_links(scene, camera, width, height);
    let t = Transform::new(camera, &scene.bounds, out.plot);
    // The halves go under every other line (the health layer's dashes).
    let others = std::mem::take(&mut out.lines);
    link_lines(scene, &t, &mut out.lines);
    out.lines.extend(others);
    out
}

/// [`draw_list`] without the link halves' lines, for a painter that draws them itself, straight
/// from the scene ([`for_each_link_line`], or the GPU): the other lines (dashes) stay.
pub fn draw_list_without_links(scene: &Scene, camera: &Camera, width: f32, height: f32) -> DrawList {
    let plot = plot_rect(width, height);
    let t = Transform::new(camera, &scene.bounds, plot);
    let mut out = DrawList { width, height, background: scene.background, plot, ..Default::default() };
    node_dots(scene, &t, &mut out.dots);
    health_glyphs(scene, &t, &mut out);
    brackets(scene, &t, &mut out);
    chrome(scene, &t, &mut out);
    out
}

/// The visible link halves as lines (culled to the plot).
pub fn link_lines(scene: &Scene, t: &Transform, out: &mut Vec<Line>) {
    out.reserve(scene.halves.len());
    for_each_link_line(scene, t, |line| out.push(line));
}

/// Calls `f` with each visible link half as a line, in scene order (culled to the plot).
#[inline]
pub fn for_each_link_line(scene: &Scene, t: &Transform, mut f: impl FnMut(Line)) {
    let (width, _) = glyph_sizes(scene, t);
    let p = t.plot;
    for (i, h) in scene.halves.iter().enumerate() {
        let (a, b) = (t.to_screen(h.from), t.to_screen(h.to));
        if a[0].max(b[0]) < p.x
            || a[0].min(b[0]) > p.right()
            || a[1].max(b[1]) < p.y
            || a[1].min(b[1]) > p.bottom()
        {
            continue;
        }
        let w = if h.emphasis == Emphasis::Lit { width * 2.0 + 1.0 } else { width };
        f(Line { a, b, width: w, colour: h.colour, half: i });
    }
}

fn node_dots(scene: &Scene, t: &Transform, out: &mut Vec<Dot>) {
    let (_, radius) = glyph_sizes(scene, t);
    // Hosts closer than 1.5 px would only smear into a band: leave them out (lit ones stay).
    let dense = scene.slot * t.scale[0] < 1.5;
    for m in &scene.marks {
        if dense && matches!(m.of, MarkOf::Host(_)) && m.emphasis != Emphasis::Lit {
            continue;
        }
        let centre = t.to_screen(m.at);
        if !t.plot.contains(centre) {
            continue;
        }
        let shape = if matches!(m.of, MarkOf::Host(_)) { Shape::Circle } else { Shape::Square };
        let ring = (m.emphasis == Emphasis::Lit).then_some(Rgba::rgb(0, 150, 255));
        out.push(Dot { centre, radius, shape, fill: m.colour, ring });
    }
}

/// Brackets as thin rectangles and a centred caption, hung in pixels under the host row and
/// clipped to the plot.
fn brackets(scene: &Scene, t: &Transform, out: &mut DrawList) {
    let plot = t.plot;
    for b in &scene.brackets {
        let [x0, row_y] = t.to_screen(Position { x: b.x_min, y: b.y });
        let x1 = t.to_screen(Position { x: b.x_max, y: b.y })[0];
        let y = row_y + 8.0 + f32::from(b.row) * 16.0;
        if x1 < plot.x || x0 > plot.right() || y < plot.y || y + 14.0 > plot.bottom() {
            continue;
        }
        let lit = b.emphasis == Emphasis::Lit;
        let colour = if lit { Rgba::rgb(0, 150, 255) } else { Rgba::rgb(120, 120, 130) };
        let thick = if lit { 2.0 } else { 1.0 };
        let clip = |x: f32| x.clamp(plot.x, plot.right());
        let rect = |x: f32, y: f32, w: f32, h: f32| Rect {
            rect: ScreenRect::new(x, y, w, h),
            fill: colour,
            stroke: None,
        };
        out.rects.push(rect(clip(x0), y, (clip(x1) - clip(x0)).max(thick), thick));
        let ends = [b.x_min, b.x_max];
        let ticks = if b.ticks.is_empty() { &ends[..] } else { &b.ticks[..] };
        for &tx in ticks {
            let x = t.to_screen(Position { x: tx, y: b.y })[0];
            if x >= plot.x && x <= plot.right() {
                out.rects.push(rect(x - thick / 2.0, y - 4.0, thick, 4.0));
            }
        }
        let room = x1 - x0 + 12.0;
        if lit || room >= 6.5 * b.text.chars().count() as f32 {
            let centre = (clip(x0) + clip(x1)) / 2.0;
            let mut label = text([centre, y + 2.0], 11.0, (Align::Centre, Align::Start), b.text.clone());
            label.colour = if lit { colour } else { INK };
            out.texts.push(label);
        }
    }
}

pub(crate) fn text(pos: [f32; 2], size: f32, align: (Align, Align), s: impl Into<String>) -> Text {
    Text { pos, size, colour: INK, align, text: s.into() }
}

/// Title, level labels, plot frame and legends.
fn chrome(scene: &Scene, t: &Transform, out: &mut DrawList) {
    let plot = t.plot;
    for label in &scene.labels {
        let y = t.to_screen(Position { x: 0.0, y: label.y })[1];
        if y >= plot.y && y <= plot.bottom() {
            out.texts.push(text([LEFT_W - 6.0, y], 12.0, (Align::End, Align::Centre), label.text.clone()));
        }
    }
    frame_and_legends(&scene.title, &scene.legends, plot, LEFT_W, out);
}

/// The title (from `title_x`), the plot's frame and the legends right of the plot: shared by
/// every scene and by the time strip ([`super::time_strip_draw`]).
pub fn frame_and_legends(
    title: &str,
    legends: &[Legend],
    plot: ScreenRect,
    title_x: f32,
    out: &mut DrawList,
) {
    let width = plot.x + plot.w + RIGHT_W - title_x;
    out.texts.push(text(
        [title_x, TITLE_H / 2.0],
        15.0,
        (Align::Start, Align::Centre),
        ellipsised(title, width, 15.0),
    ));
    out.rects.push(Rect { rect: plot, fill: Rgba::TRANSPARENT, stroke: Some(Rgba::rgb(200, 200, 200)) });
    let top = plot.y + 22.0;
    let captions: Vec<Vec<String>> =
        legends.iter().map(|l| wrap_caption(&format!("{}: {}", l.title, l.caption), CAPTION_CHARS)).collect();
    let lines = captions.iter().map(Vec::len).sum::<usize>();
    let bottom = (plot.bottom() - 28.0 - CAPTION_LINE * lines as f32).max(top + 20.0);
    // A legend without ticks colours nothing ("N: not coloured"): its caption says so, and it
    // gets no empty bar.
    for (i, legend) in legends.iter().filter(|l| !l.ticks.is_empty()).enumerate() {
        let x = plot.right() + 14.0 + i as f32 * 82.0;
        let bar = ScreenRect::new(x, top, 14.0, bottom - top);
        out.texts.push(text([x + 7.0, top - 6.0], 14.0, (Align::Centre, Align::End), legend.title.clone()));
        let step = bar.h / LEGEND_STEPS as f32;
        for s in 0..LEGEND_STEPS {
            let v = (s as f64 + 0.5) / LEGEND_STEPS as f64;
            let y = bar.bottom() - (s + 1) as f32 * step;
            let fill = legend.scale.colour(legend.scale.value_at(v));
            out.rects.push(Rect { rect: ScreenRect::new(bar.x, y, bar.w, step + 0.5), fill, stroke: None });
        }
        out.rects.push(Rect { rect: bar, fill: Rgba::TRANSPARENT, stroke: Some(INK) });
        for (pos, label) in &legend.ticks {
            let y = bar.bottom() - *pos as f32 * bar.h;
            out.rects.push(Rect {
                rect: ScreenRect::new(bar.right(), y - 0.5, 4.0, 1.0),
                fill: INK,
                stroke: None,
            });
            out.texts.push(text([bar.right() + 6.0, y], 11.0, (Align::Start, Align::Centre), label.clone()));
        }
        out.texts.push(text(
            [x + 7.0, bar.bottom() + 6.0],
            11.0,
            (Align::Centre, Align::Start),
            legend.scale_name(),
        ));
    }
    for (i, line) in captions.into_iter().flatten().enumerate() {
        let y = bottom + 26.0 + i as f32 * CAPTION_LINE;
        out.texts.push(text([plot.right() + 14.0, y], 11.0, (Align::Start, Align::Start), line));
    }
}

/// Legend captions fit the legend column: about this many characters of 11 px text per line.
const CAPTION_CHARS: usize = 26;
const CAPTION_LINE: f32 = 15.0;

/// `title` cut to what fits `width` pixels at font `size`, ending in `…` when cut: a title
/// never runs under the legends or off a narrow view (compare, diff). The window shows the whole
/// title on hover. Widths are estimated per character (the UI font averages about 0.55 em).
pub fn ellipsised(title: &str, width: f32, size: f32) -> String {
    const EM_PER_CHAR: f32 = 0.55;
    let fits = (width / (size * EM_PER_CHAR)).floor().max(1.0) as usize;
    if title.chars().count() <= fits {
        return title.to_string();
    }
    let kept: String = title.chars().take(fits.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word stands
/// alone); continuation lines are indented so each caption reads as one item.
pub(crate) fn wrap_caption(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let indent = if lines.is_empty() { 0 } else { 2 };
        if !line.is_empty() && indent + line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.into_iter().enumerate().map(|(i, l)| if i == 0 { l } else { format!("  {l}") }).collect()
}

/// What is under the cursor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Picked {
    Mark(usize),
    Half(usize),
}

/// The mark under `cursor` (within its radius plus 3 px), else the nearest link half within
/// 4 px, else nothing. Indices point into the scene's `marks` / `halves`.
pub fn pick(scene: &Scene, t: &Transform, cursor: [f32; 2]) -> Option<Picked> {
    if !t.plot.contains(cursor) {
        return None;
    }
    let (width, radius) = glyph_sizes(scene, t);
    let dist2 = |p: [f32; 2]| (p[0] - cursor[0]).powi(2) + (p[1] - cursor[1]).powi(2);
    let reach = (radius + 3.0).powi(2);
    let best_mark = scene
        .marks
        .iter()
        .enumerate()
        .map(|(i, m)| (i, dist2(t.to_screen(m.at))))
        .filter(|&(_, d)| d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((i, _)) = best_mark {
        return Some(Picked::Mark(i));
    }
    let reach = (width / 2.0 + 4.0).powi(2);
    scene
        .halves
        .iter()
        .enumerate()
        .map(|(i, h)| (i, segment_dist2(t.to_screen(h.from), t.to_screen(h.to), cursor)))
        .filter(|&(_, d)| d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| Picked::Half(i))
}

fn segment_dist2(a: [f32; 2], b: [f32; 2], p: [f32; 2]) -> f32 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 { (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
    let (x, y) = (a[0] + t * dx, a[1] + t * dy);
    (x - p[0]).powi(2) + (y - p[1]).powi(2)
}

/// Dash and gap lengths, in pixels.
const DASH_ON: f32 = 7.0;
const DASH_OFF: f32 = 5.0;
/// The ring of an error port.
const ERROR_RING: Rgba = Rgba::rgb(220, 0, 0);
/// The dashes of a degraded link: dark, over its colours.
const DASH: Rgba = Rgba::rgb(20, 20, 28);
/// The marks as dashes (lines of no half) and rings.
fn health_glyphs(scene: &Scene, t: &Transform, out: &mut DrawList) {
    let (width, radius) = glyph_sizes(scene, t);
    for mark in &scene.health {
        match *mark {
            HealthMark::Degraded { a, b } => {
                dashes(t.to_screen(a), t.to_screen(b), width.max(1.5), &mut out.lines)
            }
            HealthMark::ErrorPort { at } => out.dots.push(Dot {
                centre: t.to_screen(at),
                radius: radius.max(3.0) * 1.3,
                shape: Shape::Circle,
                fill: Rgba::TRANSPARENT,
                ring: Some(ERROR_RING),
            }),
        }
    }
}

fn dashes(a: [f32; 2], b: [f32; 2], width: f32, out: &mut Vec<Line>) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1.0 {
        return;
    }
    let (ux, uy) = (dx / length, dy / length);
    let mut s = 0.0;
    while s < length {
        let e = (s + DASH_ON).min(length);
        let p = |d: f32| [a[0] + ux * d, a[1] + uy * d];
        out.push(Line { a: p(s), b: p(e), width, colour: DASH, half: HEALTH_DASH });
        s = e + DASH_OFF;
    }
}

#[cfg(test)]
mod tests {
    use super::{ellipsised, wrap_caption};

    #[test]
    fn a_title_too_long_for_its_view_ends_in_an_ellipsis_and_a_short_one_is_kept() {
        let title = "view 1: samplesort.ibprof.gz on rail0 + rail1 — fat tree — region 2 − region 1";
        assert_eq!(ellipsised(title, 2000.0, 15.0), title);
        let cut = ellipsised(title, 200.0, 15.0);
        assert!(cut.ends_with('…') && title.starts_with(cut.trim_end_matches('…')), "{cut}");
        assert!(cut.chars().count() as f32 * 15.0 * 0.55 <= 200.0, "{cut}");
    }

    #[test]
    fn long_legend_captions_wrap_at_spaces_and_indent_what_follows() {
        assert_eq!(wrap_caption("N: bytes_sent (sum)", 26), ["N: bytes_sent (sum)"]);
        assert_eq!(
            wrap_caption("L: ar_minus_static, AR modelled (sum)", 26),
            ["L: ar_minus_static, AR", "  modelled (sum)"]
        );
        assert_eq!(
            wrap_caption("L: an_attribute_name_longer_than_the_line", 10),
            ["L:", "  an_attribute_name_longer_than_the_line"]
        );
    }
}
