//! Congestion regions over time on a canvas (issue 22, item 6), time first: one row per counter
//! interval, each region a numbered box as wide as its extent (link ends, over the widest
//! interval's total), filled by its worst stall on the 0–100 % stall scale with the seed's
//! thresholds on the legend; lines join regions of consecutive intervals that share a link end
//! (split and merge). The same [`DrawList`] the PNG and SVG painters take, so
//! `shoal render --module congestion` writes what the window's view shows.

use super::camera::ScreenRect;
use super::colour::{ColourMap, ColourScale, Rgba, ScaleKind};
use super::draw::{Align, DrawList, Line, REGION_STEP, RIGHT_W, Rect, TITLE_H, frame_and_legends, text};
use super::legend::Legend;
use crate::model::thresholds::STALL;
use crate::view_model::congestion::Evolution;

/// Room for the interval numbers left of the rows.
const LEFT_W: f32 = 48.0;
/// Room under the rows for the note on what the boxes are.
const BOTTOM_H: f32 = 30.0;
/// A box is never narrower than this (its number must fit).
const MIN_BOX_W: f32 = 16.0;
/// The picked region's outline and the time cursor's mark: red, as the time strip's window.
const PICKED: Rgba = Rgba::rgb(230, 30, 30);
const EDGE: Rgba = Rgba::rgb(90, 90, 90);

/// What to draw: the regions, the threshold they were found at, the region picked and the time
/// cursor's interval (0-based), if any.
pub struct RegionsPicture<'a> {
    pub evolution: &'a Evolution,
    pub picked: Option<u32>,
    pub cursor: Option<u32>,
}

impl RegionsPicture<'_> {
    /// The rows' rectangle on a `width × height` canvas.
    pub fn plot(width: f32, height: f32) -> ScreenRect {
        ScreenRect::new(
            LEFT_W,
            TITLE_H,
            (width - LEFT_W - RIGHT_W).max(1.0),
            (height - TITLE_H - BOTTOM_H).max(1.0),
        )
    }

    /// Each region's box in `plot` (in `evolution.regions` order): rows by interval, widths by
    /// extent over the widest interval's total.
    pub fn boxes(&self, plot: ScreenRect) -> Vec<ScreenRect> {
        let e = self.evolution;
        let extent = |range: &std::ops::Range<usize>| -> usize {
            e.regions[range.clone()].iter().map(|r| r.ends.len()).sum()
        };
        let widest = e.by_interval.iter().map(extent).max().unwrap_or(1).max(1) as f32;
        let row_h = plot.h / e.by_interval.len().max(1) as f32;
        let mut boxes = Vec::with_capacity(e.regions.len());
        for (t, range) in e.by_interval.iter().enumerate() {
            let mut x = plot.x;
            for region in &e.regions[range.clone()] {
                let w = (region.ends.len() as f32 / widest * plot.w).max(MIN_BOX_W);
                let y = plot.y + t as f32 * row_h + row_h * 0.15;
                boxes.push(ScreenRect::new(x, y, (w - 2.0).max(1.0), row_h * 0.7));
                x += w;
            }
        }
        boxes
    }

    /// The number of the region whose box holds `point`, in a `width × height` canvas.
    pub fn region_at(&self, width: f32, height: f32, point: [f32; 2]) -> Option<u32> {
        let boxes = self.boxes(Self::plot(width, height));
        self.evolution.regions.iter().zip(boxes).find(|(_, b)| b.contains(point)).map(|(r, _)| r.number)
    }

    pub fn draw_list(&self, width: f32, height: f32) -> DrawList {
        let plot = Self::plot(width, height);
        let mut out = DrawList { width, height, background: Rgba::WHITE, plot, ..Default::default() };
        let scale = ColourScale::new(ColourMap::YlOrRd, ScaleKind::Linear, 0.0, 100.0);
        let e = self.evolution;
        let rows = e.by_interval.len();
        if rows == 0 {
            let what = "no counter intervals: congestion regions need snapshots with times";
            out.texts.push(text(plot.centre(), 14.0, (Align::Centre, Align::Centre), what));
        }
        let row_h = plot.h / rows.max(1) as f32;
        for t in 0..rows {
            let y = plot.y + (t as f32 + 0.5) * row_h;
            let at_cursor = self.cursor == Some(t as u32);
            let label = if at_cursor { format!("> {}", t + 1) } else { format!("{}", t + 1) };
            out.texts.push(text([plot.x - 6.0, y], 11.0, (Align::End, Align::Centre), label));
            if at_cursor {
                let rect = ScreenRect::new(plot.x, plot.y + t as f32 * row_h, plot.w, row_h);
                out.rects.push(Rect { rect, fill: Rgba::TRANSPARENT, stroke: Some(PICKED) });
            }
        }
        let boxes = self.boxes(plot);
        for &(a, b) in &e.links {
            let (ra, rb) = (boxes[a as usize], boxes[b as usize]);
            let (a, b) = ([ra.x + ra.w / 2.0, ra.y + ra.h], [rb.x + rb.w / 2.0, rb.y]);
            out.lines.push(Line { a, b, width: 1.5, colour: EDGE, half: REGION_STEP });
        }
        for (region, rect) in e.regions.iter().zip(&boxes) {
            let fill = scale.colour(f64::from(region.worst_stall));
            let stroke = if self.picked == Some(region.number) { PICKED } else { EDGE };
            out.rects.push(Rect { rect: *rect, fill, stroke: Some(stroke) });
            let number = region.number.to_string();
            out.texts.push(text(rect.centre(), 11.0, (Align::Centre, Align::Centre), number));
        }
        // Short enough for a view beside the fat tree; docs/congestion.md says what a region is.
        let note = format!(
            "{} region(s) in {rows} interval(s) at stall ≥ {} %; width = link ends, lines = shared ends",
            e.regions.len(),
            e.threshold
        );
        out.texts.push(text([plot.x, plot.bottom() + 8.0], 11.0, (Align::Start, Align::Start), note));
        let title = "congestion regions over time · one row per counter interval";
        let legend = Legend::percent("L", "worst stall per region", scale, &STALL);
        frame_and_legends(title, std::slice::from_ref(&legend), plot, plot.x, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::congestion::Region;

    fn evolution() -> Evolution {
        let region = |number, interval, ends: Vec<u32>, worst_stall| Region {
            number,
            interval,
            ends,
            worst_stall,
            tier: 1,
            up: true,
        };
        Evolution {
            regions: vec![region(1, 0, vec![1, 2, 3], 50.0), region(2, 1, vec![3], 20.0)],
            by_interval: vec![0..1, 1..2],
            links: vec![(0, 1)],
            threshold: 10.0,
        }
    }

    #[test]
    fn boxes_are_as_wide_as_their_extent_and_a_point_in_one_names_its_region() {
        let e = evolution();
        let picture = RegionsPicture { evolution: &e, picked: None, cursor: None };
        let plot = RegionsPicture::plot(800.0, 400.0);
        let boxes = picture.boxes(plot);
        assert!(boxes[0].w > 2.5 * boxes[1].w, "{boxes:?}");
        assert!(boxes[1].y > boxes[0].y, "interval 2 is the second row");
        assert_eq!(picture.region_at(800.0, 400.0, boxes[1].centre()), Some(2));
        assert_eq!(picture.region_at(800.0, 400.0, [1.0, 1.0]), None);
    }

    #[test]
    fn the_picture_numbers_the_regions_joins_them_and_marks_the_cursor_and_the_pick() {
        let e = evolution();
        let list = RegionsPicture { evolution: &e, picked: Some(2), cursor: Some(1) }.draw_list(800.0, 400.0);
        let texts: Vec<&str> = list.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.contains(&"1") && texts.contains(&"2") && texts.contains(&"> 2"), "{texts:?}");
        assert!(texts.iter().any(|t| t.contains("10 % hurts")), "the legend names the thresholds: {texts:?}");
        assert_eq!(list.lines.len(), 1, "regions 1 and 2 share an end");
        let red = list.rects.iter().filter(|r| r.stroke == Some(PICKED)).count();
        assert_eq!(red, 2, "the cursor's row and the picked region are outlined");
    }
}
