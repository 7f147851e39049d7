//! Anti-aliased straight lines with butt caps, painted straight into a band of rows of a
//! premultiplied RGBA8 canvas: the PNG export's link layer.
//!
//! tiny-skia strokes a line by turning it into an outline and scan-converting that with
//! supersampled rows and sorted edges: general, and most of a big render's time (a k = 36
//! two-rail render spent 1.2 of its 3.3 s there, for 140,000 links). A link is a thin
//! rectangle, so here each pixel's coverage is computed directly: the overlap of the pixel,
//! taken as a unit box across and along the line, with the line's width and its length (exact
//! for a line along a pixel axis, within a few levels of the exact area elsewhere, and summing to
//! the line's area), times the plot rectangle's own overlap with the pixel (the clip).
//!
//! Lines of one colour and width form a group, painted as one shape, as a single stroked path
//! would be: where a group's lines meet, their coverages add up to full, and the group's colour
//! is laid once over what was under the group. So two lines side by side leave no seam, and a
//! translucent colour does not darken where its own lines cross. Where a group already covers a
//! pixel fully, its other lines cost one look at the pixel's stamp: a k = 36 render's links touch
//! 52 million pixels, half of them already full. Each pixel's value depends only on the lines and
//! the pixel, never on the band that holds it.

use crate::scene::colour::Rgba;
use crate::scene::draw::Line;

/// A rectangle in canvas pixels, edges included as fractions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelRect {
    pub left: f32,
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
}

/// A band of rows being painted, with what each of its pixels last received.
pub struct Band<'p> {
    /// Premultiplied RGBA8, `width` pixels a row.
    pixels: &'p mut [u8],
    /// Per pixel: the tag of the group that last painted it (0: none) above the group's
    /// coverage there so far (the low 8 bits, 0..=255).
    stamps: Vec<u32>,
    width: usize,
    rows: usize,
    /// The band's first row in the canvas.
    top: usize,
    /// The clip's overlap with each column and with each of the band's rows, in 0..=1.
    column_clip: Vec<f32>,
    row_clip: Vec<f32>,
    /// The group being painted and its tag (numbered from 1 in this band, up to [`MAX_TAG`]).
    group: Option<u32>,
    tag: u32,
}

/// Tags fill the 24 bits above a stamp's coverage; past the last, the stamps start over.
const MAX_TAG: u32 = (1 << 24) - 1;

impl<'p> Band<'p> {
    /// `pixels` are rows `top..` of a canvas `width` pixels wide; nothing is painted outside
    /// `clip` (canvas pixels).
    pub fn new(pixels: &'p mut [u8], width: usize, top: usize, clip: PixelRect) -> Self {
        let rows = pixels.len() / (4 * width.max(1));
        let column_clip = (0..width).map(|x| overlap(x as f32 + 0.5, clip.left, clip.right)).collect();
        let row_clip = (0..rows).map(|y| overlap((top + y) as f32 + 0.5, clip.top, clip.bottom)).collect();
        let stamps = vec![0; width * rows];
        Band { pixels, stamps, width, rows, top, column_clip, row_clip, group: None, tag: 0 }
    }

    /// Paints `line` as part of `group`. A group's lines come one after another: a line of
    /// another group ends the group before it.
    pub fn line(&mut self, group: u32, line: &ReadyLine) {
        let Some(segment) = &line.segment else { return };
        let top = self.top as f32;
        let [y0, y1] = line.rows;
        if y1 < top || y0 > top + self.rows as f32 {
            return;
        }
        if self.group != Some(group) {
            self.begin_group(group);
        }
        let [ux, uy] = segment.along;
        let (tag, colour, half, length) = (self.tag, line.colour, segment.half, segment.length);
        if segment.steep {
            let run = Run { tag, colour, half, length, d_along: ux, d_across: -uy };
            let rows = pixel_span(y0 - top, y1 - top, self.rows);
            for row in rows {
                self.cross::<true>(segment, &run, row + self.top);
            }
        } else {
            let run = Run { tag, colour, half, length, d_along: uy, d_across: ux };
            let bottom = top + self.rows as f32;
            let (x0, x1) = segment.columns_within(top - segment.reach, bottom + segment.reach);
            let past = segment.past_ends();
            for column in pixel_span(x0 - past, x1 + past, self.width) {
                self.cross::<false>(segment, &run, column);
            }
        }
    }

    fn begin_group(&mut self, group: u32) {
        self.group = Some(group);
        if self.tag == MAX_TAG {
            self.stamps.fill(0);
            self.tag = 0;
        }
        self.tag += 1;
    }

    /// Paints the pixels of one row (canvas row `major`, when `STEEP`) or one column of the band
    /// that the line covers. The orientation is a constant, so each loop has only its own
    /// arithmetic: a k = 36 render crosses 22 million rows and columns of about 2.3 pixels.
    #[inline(always)]
    fn cross<const STEEP: bool>(&mut self, segment: &Segment, run: &Run, major: usize) {
        let (centre, reach) = (segment.minor_at::<STEEP>(as_f32(major) + 0.5), segment.reach);
        let (minor_clip, major_clip, stride, minor_offset) = if STEEP {
            (&self.column_clip[..], self.row_clip[major - self.top], 1, 0.0)
        } else {
            (&self.row_clip[..], self.column_clip[major], self.width, as_f32(self.top))
        };
        let minors =
            pixel_span(centre - minor_offset - reach, centre - minor_offset + reach, minor_clip.len());
        if minors.is_empty() {
            return;
        }
        let first = minors.start;
        let (major_at, minor_at) = (as_f32(major) + 0.5, as_f32(first) + minor_offset + 0.5);
        let (along, across) =
            if STEEP { segment.frame([minor_at, major_at]) } else { segment.frame([major_at, minor_at]) };
        let i = if STEEP { (major - self.top) * self.width + first } else { first * self.width + major };
        let clips = &minor_clip[minors];
        let last_along = along + run.d_along * as_f32(clips.len() - 1);
        let (stamps, (pixels, _)) = (&mut self.stamps[..], self.pixels.as_chunks_mut::<4>());
        // Most rows are far from the line's ends, where every pixel is wholly along it.
        let (near, far) = if along < last_along { (along, last_along) } else { (last_along, along) };
        if near >= 0.5 && far <= segment.length - 0.5 {
            run.paint::<false>(stamps, pixels, clips, major_clip, (i, stride), [along, across]);
        } else {
            run.paint::<true>(stamps, pixels, clips, major_clip, (i, stride), [along, across]);
        }
    }
}

/// What painting one row (or column) of a line needs.
struct Run {
    tag: u32,
    colour: Rgba,
    half: f32,
    length: f32,
    d_along: f32,
    d_across: f32,
}

impl Run {
    /// Paints pixels `i`, `i + stride`, … (one per clip in `clips`), the first at `along` and
    /// `across` from the line's origin; `ENDS`: some of them may lie beyond the line's ends.
    /// Full pixels and pixels the line misses are skipped by branches: a branch-free loop
    /// (every pixel laid, at no coverage where it adds none) took 1.03 s for a k = 36 render's
    /// links against 0.75 s, and one over a fixed count of pixels per row longer still.
    #[inline(always)]
    fn paint<const ENDS: bool>(
        &self,
        stamps: &mut [u32],
        pixels: &mut [[u8; 4]],
        clips: &[f32],
        major_clip: f32,
        (mut i, stride): (usize, usize),
        [mut along, mut across]: [f32; 2],
    ) {
        let scale = major_clip * 255.0;
        for clip in clips {
            let stamp = stamps[i];
            let before = if stamp >> 8 == self.tag { stamp & 0xff } else { 0 };
            if before < 255 {
                let mut share = overlap(across, -self.half, self.half) * clip * scale;
                if ENDS {
                    share *= overlap(along, 0.0, self.length);
                }
                // Through `i32`, a single conversion: `share` is within 0..=255.
                let added = ((share + 0.5) as i32 as u32).min(255 - before);
                if added > 0 {
                    stamps[i] = self.tag << 8 | (before + added);
                    lay(&mut pixels[i], self.colour, before, added);
                }
            }
            along += self.d_along;
            across += self.d_across;
            i += stride;
        }
    }
}

/// Lays `colour` over a pixel whose group coverage goes from `before` to `before + added`
/// (out of 255).
///
/// The pixel already holds the group's colour over what was under the group at the coverage
/// so far; moving it toward the colour by the added share of what that left uncovered gives
/// the colour over the same pixel at the new coverage, with no copy of what was under.
#[inline(always)]
fn lay(pixel: &mut [u8; 4], colour: Rgba, before: u32, added: u32) {
    let a = colour.0[3];
    let towards = if before == 0 {
        (u32::from(a) * added + 127) / 255
    } else {
        let alpha = f32::from(a) / 255.0;
        let uncovered = 1.0 - alpha * before as f32 / 255.0;
        ((alpha * added as f32 / uncovered + 0.5) as i32 as u32).min(255)
    };
    // The four channels at once, one to each 16-bit lane of a `u64`: a lane's mix is at most
    // 255 × 255, and `(y + (y >> 8)) >> 8` with `y = x + 128` is `(x + 127) / 255` exactly for
    // such `x`.
    let under = u64::from(u32::from_le_bytes(*pixel));
    let under =
        (under & 0xff) | (under & 0xff00) << 8 | (under & 0xff_0000) << 16 | (under & 0xff00_0000) << 24;
    let mix = opaque_lanes(colour) * u64::from(towards) + under * u64::from(255 - towards) + LANES_128;
    let out = ((mix + ((mix >> 8) & LANES_255)) >> 8) & LANES_255;
    let out = (out & 0xff) | (out >> 8) & 0xff00 | (out >> 16) & 0xff_0000 | (out >> 24) & 0xff00_0000;
    *pixel = (out as u32).to_le_bytes();
}

/// 128 and 255 in each 16-bit lane.
const LANES_128: u64 = 0x0080_0080_0080_0080;
const LANES_255: u64 = 0x00ff_00ff_00ff_00ff;

/// `colour`'s red, green and blue and a full alpha, one to each 16-bit lane.
#[inline(always)]
fn opaque_lanes(colour: Rgba) -> u64 {
    let [r, g, b, _] = colour.0;
    u64::from(r) | u64::from(g) << 16 | u64::from(b) << 32 | 255 << 48
}

/// A line made ready for painting in any band: its geometry once, and the canvas rows it may
/// touch.
#[derive(Clone, Debug)]
pub struct ReadyLine {
    /// `None` for a line of no length or not finite (a stroke with butt caps paints nothing).
    segment: Option<Segment>,
    rows: [f32; 2],
    colour: Rgba,
}

impl ReadyLine {
    /// `line` (in points) on a canvas of `pixels_per_point`; a zero width is a hairline, one
    /// pixel wide, as tiny-skia strokes it.
    pub fn new(line: &Line, pixels_per_point: f32) -> ReadyLine {
        let s = pixels_per_point;
        let half = if line.width > 0.0 { line.width * s * 0.5 } else { 0.5 };
        let segment = Segment::new([line.a[0] * s, line.a[1] * s], [line.b[0] * s, line.b[1] * s], half);
        let rows = segment.as_ref().map_or([f32::NAN; 2], |s| {
            let past = s.past_ends();
            [s.origin[1].min(s.end[1]) - past, s.origin[1].max(s.end[1]) + past]
        });
        ReadyLine { segment, rows, colour: line.colour }
    }

    /// The canvas rows the line may touch (none, for a line that paints nothing).
    pub fn rows(&self) -> [f32; 2] {
        self.rows
    }
}

/// A line in canvas pixels, with its unit direction.
#[derive(Clone, Debug)]
struct Segment {
    origin: [f32; 2],
    end: [f32; 2],
    along: [f32; 2],
    length: f32,
    half: f32,
    /// More vertical than horizontal: painted row by row, else column by column.
    steep: bool,
    /// Minor-axis change per pixel along the major axis.
    slope: f32,
    /// How far either side of the line's centre, along the minor axis, a pixel centre may be
    /// and still be covered.
    reach: f32,
}

impl Segment {
    /// `None` for a line of no length or not finite (a stroke with butt caps paints nothing).
    fn new(origin: [f32; 2], end: [f32; 2], half: f32) -> Option<Segment> {
        let (dx, dy) = (end[0] - origin[0], end[1] - origin[1]);
        let length = dx.hypot(dy);
        let finite = [origin[0], origin[1], end[0], end[1], half].iter().all(|v| v.is_finite());
        if !(finite && length > 0.0 && length.is_finite() && half > 0.0) {
            return None;
        }
        let along = [dx / length, dy / length];
        let steep = along[1].abs() >= along[0].abs();
        let (m, k) = if steep { (1, 0) } else { (0, 1) };
        let (slope, reach) = (along[k] / along[m], (half + 0.5) / along[m].abs());
        Some(Segment { origin, end, along, length, half, steep, slope, reach })
    }

    /// How far beyond its end points, along either axis, the centre of a pixel the line covers
    /// may lie: at most √(0.25 + (half + 0.5)²), which `half + 1` bounds.
    fn past_ends(&self) -> f32 {
        self.half + 1.0
    }

    /// The minor-axis centre of the line's crossing of the row (or column, unless `STEEP`)
    /// centred at `major`.
    #[inline(always)]
    fn minor_at<const STEEP: bool>(&self, major: f32) -> f32 {
        let (m, k) = if STEEP { (1, 0) } else { (0, 1) };
        self.origin[k] + (major - self.origin[m]) * self.slope
    }

    /// The x range where the line is between rows `top` and `bottom` (all of it, if level).
    fn columns_within(&self, top: f32, bottom: f32) -> (f32, f32) {
        let (x0, x1) = (self.origin[0].min(self.end[0]), self.origin[0].max(self.end[0]));
        if self.along[1] == 0.0 {
            return (x0, x1);
        }
        let at = |y: f32| self.origin[0] + (y - self.origin[1]) * self.along[0] / self.along[1];
        let (a, b) = (at(top), at(bottom));
        (a.min(b).max(x0), a.max(b).min(x1))
    }

    /// A point's distance along the line from its origin, and across it.
    fn frame(&self, [x, y]: [f32; 2]) -> (f32, f32) {
        let (rx, ry) = (x - self.origin[0], y - self.origin[1]);
        (rx * self.along[0] + ry * self.along[1], ry * self.along[0] - rx * self.along[1])
    }
}

/// How much of the unit interval centred at `centre` lies within `lo..hi`.
#[inline(always)]
fn overlap(centre: f32, lo: f32, hi: f32) -> f32 {
    // Plain comparisons, not `min`/`max`, which also handle NaN (none reaches here).
    let (right, left) = (centre + 0.5, centre - 0.5);
    let inside = if right < hi { right } else { hi } - if left > lo { left } else { lo };
    inside.clamp(0.0, 1.0)
}

/// The pixels whose centres lie within `lo..=hi`, within `0..len`. In whole numbers once
/// clamped: float-to-unsigned conversions cost a dozen instructions each, and this runs for
/// every row a line crosses.
#[inline(always)]
fn pixel_span(lo: f32, hi: f32, len: usize) -> std::ops::Range<usize> {
    let limit = as_f32(len) + 1.0;
    let first = ceil(clamp(lo, -1.0, limit) - 0.5).max(0);
    let end = (floor(clamp(hi, -1.0, limit) - 0.5) + 1).min(len as i32);
    if first >= end { 0..0 } else { first as usize..end as usize }
}

/// `v` within `lo..=hi` by plain comparisons (a NaN stays NaN).
#[inline(always)]
fn clamp(v: f32, lo: f32, hi: f32) -> f32 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// A count (a pixel's index, a run's length) as a float, through `u32`, which converts in one
/// instruction where `usize` takes a branch.
#[inline(always)]
fn as_f32(n: usize) -> f32 {
    n as u32 as f32
}

/// `v.ceil()`, as [`floor`].
#[inline(always)]
fn ceil(v: f32) -> i32 {
    -floor(-v)
}

/// `v.floor()` as a whole number, for |v| well under 2²³, without the libm call `floor` is on
/// baseline x86-64.
#[inline(always)]
fn floor(v: f32) -> i32 {
    let t = v as i32;
    if t as f32 > v { t - 1 } else { t }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: [u8; 4] = [255; 4];

    fn canvas(width: usize, rows: usize) -> Vec<u8> {
        WHITE.repeat(width * rows)
    }

    fn everywhere(width: usize, rows: usize) -> PixelRect {
        PixelRect { left: 0.0, top: 0.0, right: width as f32, bottom: rows as f32 }
    }

    fn line(a: [f32; 2], b: [f32; 2], width: f32, colour: Rgba) -> Line {
        Line { a, b, width, colour, half: 0 }
    }

    fn paint(width: usize, rows: usize, lines: &[(u32, Line)]) -> Vec<u8> {
        let mut pixels = canvas(width, rows);
        let mut band = Band::new(&mut pixels, width, 0, everywhere(width, rows));
        for (group, l) in lines {
            band.line(*group, &ReadyLine::new(l, 1.0));
        }
        pixels
    }

    fn at(pixels: &[u8], width: usize, x: usize, y: usize) -> [u8; 4] {
        let i = 4 * (y * width + x);
        [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
    }

    /// How much darker than white the canvas got, summed over pixels (in pixel units).
    fn ink(pixels: &[u8]) -> f32 {
        pixels.chunks(4).map(|p| f32::from(255 - p[1]) / 255.0).sum()
    }

    #[test]
    fn a_line_on_pixel_edges_covers_exactly_its_pixels_and_its_half_pixel_edges() {
        let black = Rgba::BLACK;
        let p = paint(20, 20, &[(0, line([5.0, 2.0], [5.0, 18.0], 2.0, black))]);
        for y in 2..18 {
            assert_eq!(at(&p, 20, 4, y), [0, 0, 0, 255], "row {y}");
            assert_eq!(at(&p, 20, 5, y), [0, 0, 0, 255], "row {y}");
            assert_eq!(at(&p, 20, 3, y), WHITE, "row {y}");
            assert_eq!(at(&p, 20, 6, y), WHITE, "row {y}");
        }
        assert_eq!(at(&p, 20, 4, 1), WHITE, "the butt cap ends at the line's end");
        let half = paint(20, 20, &[(0, line([5.5, 2.0], [5.5, 18.0], 2.0, black))]);
        assert_eq!(at(&half, 20, 4, 9), [127, 127, 127, 255], "half covered");
        assert_eq!(at(&half, 20, 5, 9), [0, 0, 0, 255]);
        assert_eq!(at(&half, 20, 6, 9), [127, 127, 127, 255]);
    }

    #[test]
    fn a_diagonal_line_lays_down_as_much_ink_as_its_area() {
        for (from, to, width) in [([3.0, 4.0], [90.0, 61.0], 1.5), ([10.0, 90.0], [40.0, 7.0], 0.6)] {
            let p = paint(100, 100, &[(0, line(from, to, width, Rgba::BLACK))]);
            let area = (to[0] - from[0]).hypot(to[1] - from[1]) * width;
            let ink = ink(&p);
            assert!((ink - area).abs() < 0.01 * area, "{ink} against {area}");
        }
    }

    #[test]
    fn lines_of_one_group_side_by_side_leave_no_seam() {
        let black = Rgba::BLACK;
        let lines = [
            (0, line([4.25, 0.0], [4.25, 10.0], 1.5, black)),
            (0, line([5.75, 0.0], [5.75, 10.0], 1.5, black)),
        ];
        let p = paint(10, 10, &lines);
        assert_eq!(at(&p, 10, 4, 5), [0, 0, 0, 255], "the pixel both edges share is full");
    }

    #[test]
    fn a_translucent_group_is_laid_once_where_its_lines_cross_and_a_second_group_over_it() {
        let ghost = Rgba([0, 0, 0, 128]);
        let cross = |group| {
            [
                (0, line([0.0, 10.0], [20.0, 10.0], 4.0, ghost)),
                (group, line([10.0, 0.0], [10.0, 20.0], 4.0, ghost)),
            ]
        };
        let one = paint(20, 20, &cross(0));
        let two = paint(20, 20, &cross(1));
        assert_eq!(at(&one, 20, 10, 10), at(&one, 20, 3, 10), "one group: the crossing is no darker");
        assert!(
            at(&two, 20, 10, 10)[0] < at(&two, 20, 3, 10)[0],
            "two groups: the second lies over the first"
        );
    }

    #[test]
    fn nothing_is_painted_outside_the_clip_and_its_edge_pixels_are_partly_covered() {
        let mut pixels = canvas(10, 10);
        let clip = PixelRect { left: 2.5, top: 0.0, right: 10.0, bottom: 10.0 };
        let mut band = Band::new(&mut pixels, 10, 0, clip);
        band.line(0, &ReadyLine::new(&line([0.0, 5.0], [10.0, 5.0], 2.0, Rgba::BLACK), 1.0));
        assert_eq!(at(&pixels, 10, 1, 4), WHITE);
        assert_eq!(at(&pixels, 10, 2, 4), [127, 127, 127, 255]);
        assert_eq!(at(&pixels, 10, 3, 4), [0, 0, 0, 255]);
    }

    #[test]
    fn a_band_paints_its_rows_as_the_whole_canvas_does() {
        let lines = [
            (0, line([1.0, 1.0], [38.0, 29.0], 1.7, Rgba::rgb(200, 30, 10))),
            (1, line([30.0, 2.0], [4.0, 27.0], 0.8, Rgba([10, 90, 200, 180]))),
            (2, line([2.0, 3.0], [39.0, 26.0], 9.0, Rgba([0, 160, 60, 200]))),
        ];
        let whole = paint(40, 30, &lines);
        let mut banded = canvas(40, 30);
        for (i, rows) in banded.chunks_mut(40 * 4 * 7).enumerate() {
            let mut band = Band::new(rows, 40, i * 7, everywhere(40, 30));
            for (group, l) in &lines {
                band.line(*group, &ReadyLine::new(l, 1.0));
            }
        }
        assert_eq!(whole, banded);
    }

    proptest::proptest! {
        #[test]
        fn pixel_spans_are_the_pixels_whose_centres_lie_within_the_bounds(
            lo in -50.0f32..150.0, width in 0.0f32..40.0, len in 0usize..100,
        ) {
            let hi = lo + width;
            let expected: Vec<usize> =
                (0..len).filter(|&p| p as f32 + 0.5 >= lo && p as f32 + 0.5 <= hi).collect();
            proptest::prop_assert_eq!(pixel_span(lo, hi, len).collect::<Vec<_>>(), expected);
        }

        #[test]
        fn floor_and_ceil_agree_with_the_standard_ones(v in -1.0e6f32..1.0e6) {
            proptest::prop_assert_eq!(floor(v) as f32, v.floor());
            proptest::prop_assert_eq!(ceil(v) as f32, v.ceil());
        }
    }

    #[test]
    fn degenerate_and_off_canvas_lines_paint_nothing() {
        let black = Rgba::BLACK;
        let nan = f32::NAN;
        let lines = [
            (0, line([5.0, 5.0], [5.0, 5.0], 3.0, black)),
            (0, line([nan, 5.0], [8.0, 5.0], 3.0, black)),
            (0, line([1.0, 5.0], [8.0, f32::INFINITY], 3.0, black)),
            (0, line([1.0, -30.0], [8.0, -20.0], 3.0, black)),
            (0, line([-1e30, 50.0], [1e30, 50.0], 3.0, black)),
        ];
        assert_eq!(paint(10, 10, &lines), canvas(10, 10));
    }

    #[test]
    fn a_zero_width_is_a_hairline_one_pixel_wide() {
        let p = paint(10, 10, &[(0, line([0.0, 5.5], [10.0, 5.5], 0.0, Rgba::BLACK))]);
        assert_eq!(ink(&p), 10.0);
        assert_eq!(at(&p, 10, 3, 5), [0, 0, 0, 255]);
        assert_eq!(at(&p, 10, 3, 4), WHITE);
        assert_eq!(at(&p, 10, 3, 6), WHITE);
    }
}
