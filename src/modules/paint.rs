//! DrawList → egui shapes. Link lines go into one caller-owned mesh (a feathered quad per line,
//! so thin lines are anti-aliased without egui tessellating thousands of shapes); marks, legend
//! rects and text go through the painter.

use egui::epaint::{Mesh, Vertex, WHITE_UV};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Vec2, pos2, vec2};

use crate::scene::Scene;
use crate::scene::camera::{Camera, ScreenRect, Transform};
use crate::scene::colour::Rgba;
use crate::scene::draw::{
    Align, DrawList, Line, Shape as DotShape, draw_list_without_links, for_each_link_line,
};

pub fn colour(c: Rgba) -> Color32 {
    let [r, g, b, a] = c.0;
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

pub fn rect_of(r: ScreenRect, origin: Pos2) -> Rect {
    Rect::from_min_size(origin + vec2(r.x, r.y), vec2(r.w, r.h))
}

/// Feather of a line quad, in pixels each side of its core.
const FEATHER: f32 = 0.8;

/// The window's tessellation settings. egui's coarse culling computes every mesh's bounds each
/// frame to skip those wholly outside their clip. The link mesh, already culled line by line to
/// the plot, is never skipped, and its bounds were 18 % of a TSUBAME camera frame under `perf`;
/// the window's other shapes are few (tables are capped), so culling them saves little.
pub fn tune_tessellation(ctx: &egui::Context) {
    ctx.tessellation_options_mut(|o| o.coarse_tessellation_culling = false);
}

/// Appends anti-aliased quads for `lines` (offset by `origin`) to `mesh`.
pub fn line_mesh(lines: &[Line], origin: Pos2, mesh: &mut Mesh) {
    mesh.vertices.reserve(lines.len() * 8);
    mesh.indices.reserve(lines.len() * 18);
    for batch in lines.chunks(BATCH) {
        line_quads(batch, origin.to_vec2(), mesh);
    }
}

/// Lines become quads a batch at a time. A quad's normal waits on a square root and a division;
/// taken line by line, each waited on its own (a quarter of a TSUBAME frame under `perf`), while
/// a batch's lengths, computed in one loop with no chain between them, overlap.
const BATCH: usize = 64;

/// Appends the feathered quads of at most [`BATCH`] lines; lines shorter than 1e-3 px are skipped.
fn line_quads(lines: &[Line], o: Vec2, mesh: &mut Mesh) {
    let mut inverse = [0.0f32; BATCH];
    for (inv, line) in inverse.iter_mut().zip(lines) {
        let d = (pos2(line.b[0], line.b[1]) + o) - (pos2(line.a[0], line.a[1]) + o);
        // Pixel offsets cannot overflow a square: `sqrt` here, not `length`'s `hypotf`.
        let len = (d.x * d.x + d.y * d.y).sqrt();
        *inv = if len < 1e-3 { 0.0 } else { 1.0 / len };
    }
    for (line, &inv) in lines.iter().zip(&inverse) {
        if inv != 0.0 {
            line_quad(line, o, inv, mesh);
        }
    }
}

/// Appends one line's feathered quad (`inv`: one over its length): four vertices across each
/// end (transparent, core, core, transparent), written as whole arrays.
#[inline]
fn line_quad(line: &Line, o: Vec2, inv: f32, mesh: &mut Mesh) {
    let (a, b) = (pos2(line.a[0], line.a[1]) + o, pos2(line.b[0], line.b[1]) + o);
    let d = b - a;
    let n = vec2(-d.y, d.x) * inv;
    let core = (line.width - FEATHER).max(0.2) / 2.0;
    let (c, t) = (colour(line.colour), Color32::TRANSPARENT);
    let v = |p: Pos2, offset: f32, color: Color32| Vertex { pos: p + n * offset, uv: WHITE_UV, color };
    let i = mesh.vertices.len() as u32;
    mesh.vertices.extend_from_slice(&[
        v(a, -core - FEATHER, t),
        v(a, -core, c),
        v(a, core, c),
        v(a, core + FEATHER, t),
        v(b, -core - FEATHER, t),
        v(b, -core, c),
        v(b, core, c),
        v(b, core + FEATHER, t),
    ]);
    mesh.indices.extend(QUAD.map(|k| i + k));
}

/// A line quad's triangles: three strips across it (feather, core, feather), the vertices of
/// end `a` numbered 0..4 and those of end `b` 4..8.
const QUAD: [u32; 18] = [0, 1, 4, 1, 5, 4, 1, 2, 5, 2, 6, 5, 2, 3, 6, 3, 7, 6];

fn align2(align: (Align, Align)) -> Align2 {
    let h = match align.0 {
        Align::Start => egui::Align::Min,
        Align::Centre => egui::Align::Center,
        Align::End => egui::Align::Max,
    };
    let v = match align.1 {
        Align::Start => egui::Align::Min,
        Align::Centre => egui::Align::Center,
        Align::End => egui::Align::Max,
    };
    Align2([h, v])
}

/// Paints a draw list at `origin`, its lines as one mesh.
pub fn paint(painter: &Painter, list: &DrawList, origin: Pos2) {
    paint_meshed(painter, list, origin, list.lines.len(), |mesh| line_mesh(&list.lines, origin, mesh));
}

/// Paints `scene` through `camera` into `rect`, as [`paint`] paints its draw list, with the
/// link halves written straight into the mesh (no line list in between).
pub fn paint_scene(painter: &Painter, scene: &Scene, camera: &Camera, rect: Rect) {
    let list = draw_list_without_links(scene, camera, rect.width(), rect.height());
    let t = Transform::new(camera, &scene.bounds, list.plot);
    let o = rect.min.to_vec2();
    paint_meshed(painter, &list, rect.min, scene.halves.len() + list.lines.len(), |mesh| {
        let mut batch = Vec::with_capacity(BATCH);
        for_each_link_line(scene, &t, |line| {
            batch.push(line);
            if batch.len() == BATCH {
                line_quads(&batch, o, mesh);
                batch.clear();
            }
        });
        line_quads(&batch, o, mesh);
        line_mesh(&list.lines, rect.min, mesh);
    });
}

/// Paints a draw list at `origin` whose lines `lines` (at most `line_count`) appends to the
/// mesh that the plain marks then join. One mesh, sized once: egui copies every mesh it is
/// given into its own, and a second mesh would regrow that copy (the lines copied twice).
fn paint_meshed(
    painter: &Painter,
    list: &DrawList,
    origin: Pos2,
    line_count: usize,
    lines: impl FnOnce(&mut Mesh),
) {
    let clipped = background_and_clip(painter, list, origin);
    let mut mesh = Mesh::default();
    // A square takes at most 8 vertices and 30 indices (feathered).
    mesh.vertices.reserve(8 * (line_count + list.dots.len()));
    mesh.indices.reserve(18 * line_count + 30 * list.dots.len());
    lines(&mut mesh);
    let shapes = dots_into(&clipped, list, origin, &mut mesh);
    clipped.add(Shape::mesh(mesh));
    clipped.extend(shapes);
    paint_chrome(painter, list, origin);
}

/// Paints a draw list at `origin`, letting `links` draw the links (clipped to the plot) between
/// the background and the marks, e.g. with a GPU paint callback.
pub fn paint_with(painter: &Painter, list: &DrawList, origin: Pos2, links: impl FnOnce(&Painter)) {
    let clipped = background_and_clip(painter, list, origin);
    over_background(painter, &clipped, list, origin, links);
}

/// What goes over the background: the links (clipped to the plot), the marks, the chrome.
fn over_background(
    painter: &Painter,
    clipped: &Painter,
    list: &DrawList,
    origin: Pos2,
    links: impl FnOnce(&Painter),
) {
    links(clipped);
    paint_dots(clipped, list, origin);
    paint_chrome(painter, list, origin);
}

/// As [`paint_with`], for links drawn as an opaque picture of the whole plot, its background
/// included: the background is filled only around the plot, so that a software renderer shades
/// the plot's pixels once.
pub fn paint_with_opaque_plot(
    painter: &Painter,
    list: &DrawList,
    origin: Pos2,
    links: impl FnOnce(&Painter),
) {
    let full = Rect::from_min_size(origin, vec2(list.width, list.height));
    let plot = rect_of(list.plot, origin);
    // The strips reach a point under the plot's picture: no seam at an edge between pixels.
    let hole = plot.shrink(1.0);
    let strips = [
        Rect::from_x_y_ranges(full.x_range(), full.top()..=hole.top()),
        Rect::from_x_y_ranges(full.x_range(), hole.bottom()..=full.bottom()),
        Rect::from_x_y_ranges(full.left()..=hole.left(), hole.y_range()),
        Rect::from_x_y_ranges(hole.right()..=full.right(), hole.y_range()),
    ];
    for strip in strips {
        painter.rect_filled(strip, 0.0, colour(list.background));
    }
    let clipped = painter.with_clip_rect(plot.intersect(painter.clip_rect()));
    over_background(painter, &clipped, list, origin, links);
}

/// Fills the canvas; returns the painter clipped to the plot.
fn background_and_clip(painter: &Painter, list: &DrawList, origin: Pos2) -> Painter {
    let full = Rect::from_min_size(origin, vec2(list.width, list.height));
    painter.rect_filled(full, 0.0, colour(list.background));
    painter.with_clip_rect(rect_of(list.plot, origin).intersect(painter.clip_rect()))
}

/// Paints the dots: plain squares (most marks of a big network) as one mesh, the rest as
/// shapes on top (lit squares have a ring, so they stay above the plain ones).
pub fn paint_dots(painter: &Painter, list: &DrawList, origin: Pos2) {
    let mut mesh = Mesh::default();
    mesh.vertices.reserve(4 * list.dots.len());
    mesh.indices.reserve(6 * list.dots.len());
    let shapes = dots_into(painter, list, origin, &mut mesh);
    painter.add(Shape::mesh(mesh));
    painter.extend(shapes);
}

/// Appends the plain squares to `mesh`; returns the other dots' shapes, to paint after it.
fn dots_into(painter: &Painter, list: &DrawList, origin: Pos2, mesh: &mut Mesh) -> Vec<Shape> {
    let o = origin.to_vec2();
    let squares = SquareStyle::of(painter.ctx());
    let mut shapes = Vec::new();
    for dot in &list.dots {
        let c = pos2(dot.centre[0], dot.centre[1]) + o;
        let square = Rect::from_center_size(c, Vec2::splat(2.0 * dot.radius));
        if dot.shape == DotShape::Square && dot.ring.is_none() && squares.add(mesh, square, colour(dot.fill))
        {
            continue;
        }
        let stroke = dot.ring.map_or(Stroke::NONE, |r| Stroke::new(1.5, colour(r)));
        shapes.push(match dot.shape {
            DotShape::Circle => Shape::Circle(egui::epaint::CircleShape {
                center: c,
                radius: dot.radius,
                fill: colour(dot.fill),
                stroke,
            }),
            DotShape::Square => Shape::rect_filled(square, 0.0, colour(dot.fill)),
        });
        if dot.shape == DotShape::Square && dot.ring.is_some() {
            shapes.push(Shape::rect_stroke(square, 0.0, stroke, egui::StrokeKind::Outside));
        }
    }
    shapes
}

/// How egui's tessellator fills a plain rectangle (rounded to pixels, feathered by half a
/// feather each way), so squares built here look as `Shape::rect_filled` would, without egui
/// tessellating tens of thousands of shapes each frame.
struct SquareStyle {
    ppp: f32,
    feather: f32,
    round: bool,
}

impl SquareStyle {
    fn of(ctx: &egui::Context) -> SquareStyle {
        let ppp = ctx.pixels_per_point();
        let (on, size, round) = ctx
            .tessellation_options(|o| (o.feathering, o.feathering_size_in_pixels, o.round_rects_to_pixels));
        SquareStyle { ppp, feather: if on { size / ppp } else { 0.0 }, round }
    }

    /// Appends a filled square; `false` if egui would draw it otherwise (a sliver, as a line).
    fn add(&self, mesh: &mut Mesh, rect: Rect, fill: Color32) -> bool {
        use egui::emath::GuiRounding;
        let r = if self.round { rect.round_to_pixels(self.ppp) } else { rect };
        if r.width() <= 2.0 * self.feather || r.height() <= 2.0 * self.feather {
            return false;
        }
        let corners = |r: Rect| [r.left_top(), r.right_top(), r.right_bottom(), r.left_bottom()];
        let base = mesh.vertices.len() as u32;
        // On pixel edges, a feather of at most a pixel changes no pixel (the centres either side
        // stay fully in or out): a plain quad (half the vertices, a fifth of the indices) looks the same.
        if self.feather <= 0.0 || (self.round && self.feather * self.ppp <= 1.0) {
            for p in corners(r) {
                mesh.colored_vertex(p, fill);
            }
            mesh.add_triangle(base, base + 1, base + 2);
            mesh.add_triangle(base, base + 2, base + 3);
            return true;
        }
        let half = 0.5 * self.feather;
        for (inner, outer) in corners(r.shrink(half)).into_iter().zip(corners(r.expand(half))) {
            mesh.colored_vertex(inner, fill);
            mesh.colored_vertex(outer, Color32::TRANSPARENT);
        }
        // The same triangles as egui's `fill_closed_path`: the feather ring, then the fill.
        let (inner, outer) = (|k: u32| base + 2 * k, |k: u32| base + 2 * k + 1);
        let mut k0 = 3;
        for k1 in 0..4 {
            mesh.add_triangle(inner(k1), inner(k0), outer(k0));
            mesh.add_triangle(outer(k0), outer(k1), inner(k1));
            k0 = k1;
        }
        mesh.add_triangle(inner(0), inner(1), inner(2));
        mesh.add_triangle(inner(0), inner(2), inner(3));
        true
    }
}

pub fn paint_chrome(painter: &Painter, list: &DrawList, origin: Pos2) {
    for r in &list.rects {
        let rect = rect_of(r.rect, origin);
        if r.fill.0[3] > 0 {
            painter.rect_filled(rect, 0.0, colour(r.fill));
        }
        if let Some(s) = r.stroke {
            painter.rect_stroke(rect, 0.0, Stroke::new(1.0, colour(s)), egui::StrokeKind::Inside);
        }
    }
    for t in &list.texts {
        let pos = origin + vec2(t.pos[0], t.pos[1]);
        painter.text(pos, align2(t.align), &t.text, FontId::proportional(t.size), colour(t.colour));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::draw::draw_list;
    use crate::scene::scene_for;
    use crate::view_model::highlight::{Highlight, Seed};
    use crate::view_model::{Dataset, LayoutChoice, ViewSpec};
    use egui::epaint::ClippedPrimitive;

    /// One egui pass painting with `f`, tessellated.
    fn tessellated(f: impl Fn(&Painter, Rect)) -> Vec<ClippedPrimitive> {
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(900.0, 600.0))),
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |ui| {
            let rect = Rect::from_min_size(pos2(10.0, 20.0), vec2(800.0, 500.0));
            f(ui.painter(), rect);
        });
        // No renderer: the font atlas upload is dropped on purpose.
        out.textures_delta.clear();
        ctx.tessellate(out.shapes, out.pixels_per_point)
    }

    #[test]
    fn a_scene_painted_straight_into_its_mesh_tessellates_as_its_draw_list_does() {
        let d = Dataset::synthetic(6, 4, 3, 2);
        let highlight = Highlight { seeds: [Seed::node(5)].into() };
        let spec = ViewSpec { health_layer: true, ..ViewSpec::default() };
        let scene = scene_for(&d, &spec, &Default::default(), &highlight, (&LayoutChoice::FatTree, 1.6))
            .expect("the total exists");
        let camera = Camera { zoom: 1.7, ..Camera::default() };
        let direct = tessellated(|p, rect| paint_scene(p, &scene, &camera, rect));
        let listed = tessellated(|p, rect| {
            paint(p, &draw_list(&scene, &camera, rect.width(), rect.height()), rect.min)
        });
        assert!(
            direct.iter().any(
                |c| matches!(&c.primitive, egui::epaint::Primitive::Mesh(m) if m.vertices.len() > 8 * 40)
            )
        );
        assert_eq!(format!("{direct:?}"), format!("{listed:?}"));
    }
}
