//! DrawList → SVG text. One `<line class="half">` per visible link half (with `data-rail` and
//! `data-end`, the link-end index), marks as circles and squares, legends as rects, labels as
//! text; links and marks are clipped to the plot.

use std::fmt::Write;

use crate::model::echo::echo;
use crate::scene::Scene;
use crate::scene::colour::Rgba;
use crate::scene::draw::{Align, DrawList, REGION_STEP, Shape};

fn colour_attrs(name: &str, c: Rgba) -> String {
    if c.0[3] == 255 {
        format!(r#"{name}="{}""#, c.hex())
    } else {
        format!(r#"{name}="{}" {name}-opacity="{:.3}""#, c.hex(), c.alpha_f32())
    }
}

/// Label text as SVG character data: capped and control characters made visible
/// ([`echo`], as the terminal and the window show them, so nothing invalid in XML is written),
/// then XML-escaped.
fn escape(text: &str) -> String {
    echo(text).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The SVG document for `list`, `pixels_per_point` pixels per point (the viewBox is in points).
pub fn to_svg(scene: &Scene, list: &DrawList, pixels_per_point: f32) -> String {
    let s = pixels_per_point;
    let mut out = String::with_capacity(list.lines.len() * 120 + 4096);
    let (w, h) = (list.width, list.height);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {w} {h}" font-family="Ubuntu, sans-serif">"#,
        (w * s).round(),
        (h * s).round()
    );
    let p = list.plot;
    let _ = writeln!(
        out,
        r#"<defs><clipPath id="plot"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath></defs>"#,
        p.x, p.y, p.w, p.h
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" {}/>"#, colour_attrs("fill", list.background));
    let _ = writeln!(out, r#"<g clip-path="url(#plot)" stroke-linecap="butt">"#);
    write_lines(&mut out, scene, list);
    write_dots(&mut out, list);
    let _ = writeln!(out, "</g>");
    write_rects(&mut out, list);
    write_texts(&mut out, list);
    out.push_str("</svg>\n");
    out
}

/// One `<line class="half">` per visible link half (with its rail and link end), one
/// `<line class="health">` per dash of the health layer, and one `<line class="step">` per
/// step between congestion regions.
fn write_lines(out: &mut String, scene: &Scene, list: &DrawList) {
    for line in &list.lines {
        match scene.halves.get(line.half) {
            Some(half) => {
                let _ = write!(
                    out,
                    r#"<line class="half" data-rail="{}" data-end="{}""#,
                    half.rail,
                    half.end.index()
                );
            }
            None if line.half == REGION_STEP => out.push_str(r#"<line class="step""#),
            None => out.push_str(r#"<line class="health""#),
        }
        let _ = writeln!(
            out,
            r#" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" {} stroke-width="{:.2}"/>"#,
            line.a[0],
            line.a[1],
            line.b[0],
            line.b[1],
            colour_attrs("stroke", line.colour),
            line.width
        );
    }
}

/// Node marks: circles and squares.
fn write_dots(out: &mut String, list: &DrawList) {
    for dot in &list.dots {
        let [x, y] = dot.centre;
        let r = dot.radius;
        let ring = dot
            .ring
            .map(|c| format!(" {} stroke-width=\"1.5\"", colour_attrs("stroke", c)))
            .unwrap_or_default();
        let fill = colour_attrs("fill", dot.fill);
        let _ = match dot.shape {
            Shape::Circle => {
                writeln!(out, r#"<circle class="node" cx="{x:.2}" cy="{y:.2}" r="{r:.2}" {fill}{ring}/>"#)
            }
            Shape::Square => writeln!(
                out,
                r#"<rect class="node" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" {fill}{ring}/>"#,
                x - r,
                y - r,
                2.0 * r,
                2.0 * r
            ),
        };
    }
}

/// Frames, legends and brushes.
fn write_rects(out: &mut String, list: &DrawList) {
    for rect in &list.rects {
        let r = rect.rect;
        let fill =
            if rect.fill.0[3] == 0 { r#"fill="none""#.to_string() } else { colour_attrs("fill", rect.fill) };
        let stroke = rect.stroke.map(|c| format!(" {}", colour_attrs("stroke", c))).unwrap_or_default();
        let _ = writeln!(
            out,
            r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" {fill}{stroke}/>"#,
            r.x, r.y, r.w, r.h
        );
    }
}

/// Labels, anchored as their alignment says.
fn write_texts(out: &mut String, list: &DrawList) {
    for text in &list.texts {
        let anchor = match text.align.0 {
            Align::Start => "start",
            Align::Centre => "middle",
            Align::End => "end",
        };
        let baseline = match text.align.1 {
            Align::Start => "hanging",
            Align::Centre => "central",
            Align::End => "text-after-edge",
        };
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" font-size="{}" text-anchor="{anchor}" dominant-baseline="{baseline}" {}>{}</text>"#,
            text.pos[0],
            text.pos[1],
            text.size,
            colour_attrs("fill", text.colour),
            escape(&text.text)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_text_with_escape_sequences_is_valid_xml_and_shown_as_the_terminal_shows_it() {
        let description = "sw\u{1b}[2J\u{0}<b>&\"\u{fffe}";
        let svg = format!("<svg><text>{}</text></svg>", escape(description));
        let doc = roxmltree::Document::parse(&svg).expect("valid XML");
        let text = doc.root_element().first_child().and_then(|t| t.text()).unwrap();
        assert_eq!(text, echo(description));
        assert_eq!(text, "sw\\x1b[2J\\x00<b>&\"\\u{fffe}");
        let long = escape(&"n".repeat(10_000));
        assert!(long.len() < 200 && long.ends_with("(10000 chars)"), "{long}");
    }
}
