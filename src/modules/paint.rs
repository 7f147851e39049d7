//! DrawList → egui shapes. Link lines go into one caller-owned mesh (a feathered quad per line,
//! so thin lines are anti-aliased without egui tessellating thousands of shapes); marks, legend
//! rects and text go through the painter.

use egui::epaint::{Mesh, Vertex, WHITE_UV};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Vec2, pos2, vec2};

use crate::scene::camera::ScreenRect;
use crate::scene::colour::Rgba;
use crate::scene::draw::{Align, DrawList, Line, Shape as DotShape};

pub fn colour(c: Rgba) -> Color32 {
    let [r, g, b, a] = c.0;
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

pub fn rect_of(r: ScreenRect, origin: Pos2) -> Rect {
    Rect::from_min_size(origin + vec2(r.x, r.y), vec2(r.w, r.h))
}

/// Appends anti-aliased quads for `lines` (offset by `origin`) to `mesh`.
pub fn line_mesh(lines: &[Line], origin: Pos2, mesh: &mut Mesh) {
    const FEATHER: f32 = 0.8;
    mesh.vertices.reserve(lines.len() * 8);
    mesh.indices.reserve(lines.len() * 18);
    let o = origin.to_vec2();
    for line in lines {
        let (a, b) = (pos2(line.a[0], line.a[1]) + o, pos2(line.b[0], line.b[1]) + o);
        let d = b - a;
        // Pixel offsets cannot overflow a square: `sqrt` here, not `length`'s `hypotf` (9 % of
        // a TSUBAME frame under perf).
        let len = (d.x * d.x + d.y * d.y).sqrt();
        if len < 1e-3 {
            continue;
        }
        let n = vec2(-d.y, d.x) / len;
        let core = (line.width - FEATHER).max(0.2) / 2.0;
        let c = colour(line.colour);
        let base = mesh.vertices.len() as u32;
        for p in [a, b] {
            for (offset, col) in [
                (-core - FEATHER, Color32::TRANSPARENT),
                (-core, c),
                (core, c),
                (core + FEATHER, Color32::TRANSPARENT),
            ] {
                mesh.vertices.push(Vertex { pos: p + n * offset, uv: WHITE_UV, color: col });
            }
        }
        for k in 0..3 {
            let (i, j) = (base + k, base + 4 + k);
            mesh.indices.extend_from_slice(&[i, i + 1, j, i + 1, j + 1, j]);
        }
    }
}

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
    paint_with(painter, list, origin, |clipped| {
        let mut mesh = Mesh::default();
        line_mesh(&list.lines, origin, &mut mesh);
        clipped.add(Shape::mesh(mesh));
    });
}

/// Paints a draw list at `origin`, letting `links` draw the links (clipped to the plot) between
/// the background and the marks, e.g. with a GPU paint callback.
pub fn paint_with(painter: &Painter, list: &DrawList, origin: Pos2, links: impl FnOnce(&Painter)) {
    let full = Rect::from_min_size(origin, vec2(list.width, list.height));
    painter.rect_filled(full, 0.0, colour(list.background));
    let clipped = painter.with_clip_rect(rect_of(list.plot, origin).intersect(painter.clip_rect()));
    links(&clipped);
    paint_dots(&clipped, list, origin);
    paint_chrome(painter, list, origin);
}

/// Paints the dots: plain squares (most marks of a big network) as one mesh, the rest as
/// shapes on top (lit squares have a ring, so they stay above the plain ones).
pub fn paint_dots(painter: &Painter, list: &DrawList, origin: Pos2) {
    let o = origin.to_vec2();
    let squares = SquareStyle::of(painter.ctx());
    let mut mesh = Mesh::default();
    mesh.vertices.reserve(4 * list.dots.len());
    mesh.indices.reserve(6 * list.dots.len());
    let mut shapes = Vec::new();
    for dot in &list.dots {
        let c = pos2(dot.centre[0], dot.centre[1]) + o;
        let square = Rect::from_center_size(c, Vec2::splat(2.0 * dot.radius));
        if dot.shape == DotShape::Square
            && dot.ring.is_none()
            && squares.add(&mut mesh, square, colour(dot.fill))
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
    painter.add(Shape::mesh(mesh));
    painter.extend(shapes);
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
