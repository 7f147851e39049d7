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
        let len = d.length();
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

pub fn paint_dots(painter: &Painter, list: &DrawList, origin: Pos2) {
    let o = origin.to_vec2();
    let mut shapes = Vec::with_capacity(list.dots.len());
    for dot in &list.dots {
        let c = pos2(dot.centre[0], dot.centre[1]) + o;
        let stroke = dot.ring.map_or(Stroke::NONE, |r| Stroke::new(1.5, colour(r)));
        shapes.push(match dot.shape {
            DotShape::Circle => Shape::Circle(egui::epaint::CircleShape {
                center: c,
                radius: dot.radius,
                fill: colour(dot.fill),
                stroke,
            }),
            DotShape::Square => Shape::rect_filled(
                Rect::from_center_size(c, Vec2::splat(2.0 * dot.radius)),
                0.0,
                colour(dot.fill),
            ),
        });
        if dot.shape == DotShape::Square && dot.ring.is_some() {
            shapes.push(Shape::rect_stroke(
                Rect::from_center_size(c, Vec2::splat(2.0 * dot.radius)),
                0.0,
                stroke,
                egui::StrokeKind::Outside,
            ));
        }
    }
    painter.extend(shapes);
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
