//! The time strip on a canvas (issue 13): the same [`DrawList`] the PNG and SVG painters take
//! for every scene, so `shoal render --module time-strip` writes what the window's strip shows.
//! Cells are filled rectangles ([`super::draw::Rect`], the one rectangle primitive both painters
//! share); row labels sit left of the map, times of day under it, and the legend with its units
//! right of it, as for every other view.

use super::camera::ScreenRect;
use super::colour::{ColourMap, ColourScale, Rgba, ScaleKind};
use super::draw::{Align, DrawList, INK, RIGHT_W, Rect, TITLE_H, frame_and_legends, text};
use super::legend::Legend;
use super::time_strip_jobs_draw::{draw_lanes, lanes_height};
use crate::model::thresholds::{STALL, UTILISATION};
use crate::units::{format_seconds, format_time_of_day};
use crate::view_model::time_strip::{StripMeasure, StripRows, TimeStrip};

/// Width of the row labels, in points: enough for the longest label (about 6 points a character
/// at 11 points), within these bounds.
const ROW_LABELS_MIN: f32 = 120.0;
const ROW_LABELS_SHARE: f32 = 0.4;
/// Height of the time axis and the note under it.
const AXIS_H: f32 = 46.0;
/// The outline of the selected region or window.
const WINDOW: Rgba = Rgba::rgb(230, 30, 30);
/// Times of day written under the axis.
const AXIS_TICKS: usize = 5;

/// `bytes`, or `worst stall %` (the row's worst end's).
fn measure_words(strip: &TimeStrip) -> &'static str {
    match strip.measure {
        StripMeasure::Bytes => "bytes",
        StripMeasure::Utilisation => "worst utilisation %",
        StripMeasure::Stall => "worst stall %",
    }
}

/// What to draw: the strip, its colour scale, a title and, optionally, a window to outline.
pub struct StripPicture<'a> {
    pub strip: &'a TimeStrip,
    pub scale: ColourScale,
    pub title: String,
    /// Columns `a..=b` outlined (a selected region or window).
    pub window: Option<(usize, usize)>,
}

impl<'a> StripPicture<'a> {
    /// The picture `shoal render --module time-strip` writes and the window's strip shows: bytes
    /// from 0 to the strip's busiest cell on `map`, titled with what the columns and rows are.
    pub fn new(
        strip: &'a TimeStrip,
        map: ColourMap,
        kind: ScaleKind,
        rows: StripRows,
        window: Option<(usize, usize)>,
    ) -> StripPicture<'a> {
        // A % is drawn on its whole scale, 0–100, as every view coloured by it.
        let top = if strip.measure.is_percent() { 100.0 } else { strip.max().max(1.0) };
        let scale = ColourScale::new(map, kind, 0.0, top);
        let rows = match rows {
            StripRows::Groups => "rail · level · direction".to_string(),
            StripRows::TopEnds(n) => format!("top {n} link ends"),
        };
        let title = format!("time strip · {} per {} · {rows}", measure_words(strip), strip.column_noun());
        StripPicture { strip, scale, title, window }
    }

    /// The picture on a `width × height` canvas (in points).
    pub fn draw_list(&self, width: f32, height: f32) -> DrawList {
        let longest = self.strip.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        let left = (longest as f32 * 6.0 + 12.0)
            .clamp(ROW_LABELS_MIN, (width * ROW_LABELS_SHARE).max(ROW_LABELS_MIN));
        // The scheduler's jobs take lanes between the map and its time axis.
        let lanes = lanes_height(&self.strip.jobs);
        let plot = ScreenRect::new(
            left,
            TITLE_H,
            (width - left - RIGHT_W).max(1.0),
            (height - TITLE_H - AXIS_H - lanes).max(1.0),
        );
        let mut out = DrawList { width, height, background: Rgba::WHITE, plot, ..Default::default() };
        let strip = self.strip;
        if !strip.rows.is_empty() && !strip.columns.is_empty() {
            self.cells(plot, &mut out);
            self.row_labels(plot, &mut out);
            draw_lanes(&strip.jobs, plot, &mut out);
            self.axis(plot, lanes, &mut out);
            if let Some((a, b)) = self.window {
                let n = strip.columns.len() as f32;
                let x0 = plot.x + a as f32 / n * plot.w;
                let x1 = (plot.x + (b + 1) as f32 / n * plot.w).max(x0 + 2.0);
                // Red reads on every colour map's dark and light ends alike.
                let rect = ScreenRect::new(x0, plot.y, x1 - x0, plot.h);
                out.rects.push(Rect { rect, fill: Rgba::TRANSPARENT, stroke: Some(WINDOW) });
            }
        } else {
            let centre = [plot.x + plot.w / 2.0, plot.y + plot.h / 2.0];
            let what = format!("no {}s", strip.column_noun());
            out.texts.push(text(centre, 14.0, (Align::Centre, Align::Centre), what));
        }
        let caption = format!("{} per {}", measure_words(strip), strip.column_noun());
        let legend = match strip.measure {
            StripMeasure::Bytes => Legend::new("L", &caption, self.scale.clone()),
            StripMeasure::Utilisation => Legend::percent("L", &caption, self.scale.clone(), &UTILISATION),
            StripMeasure::Stall => Legend::percent("L", &caption, self.scale.clone(), &STALL),
        };
        frame_and_legends(&self.title, std::slice::from_ref(&legend), plot, plot.x, &mut out);
        out
    }

    /// One rectangle per run of equal colour along a row, one pixel column per bin at most.
    fn cells(&self, plot: ScreenRect, out: &mut DrawList) {
        let strip = self.strip;
        let binned = strip.binned(plot.w.max(1.0) as usize);
        let (bins, rows) = (binned.bins.len(), strip.rows.len());
        let (w, h) = (plot.w / bins as f32, plot.h / rows as f32);
        for row in 0..rows {
            let colour_at = |bin: usize| self.scale.colour(binned.cells[row * bins + bin]);
            let mut start = 0;
            while start < bins {
                let fill = colour_at(start);
                let end = (start + 1..bins).find(|&b| colour_at(b) != fill).unwrap_or(bins);
                let rect = ScreenRect::new(
                    plot.x + start as f32 * w,
                    plot.y + row as f32 * h,
                    (end - start) as f32 * w,
                    h,
                );
                out.rects.push(Rect { rect, fill, stroke: None });
                start = end;
            }
        }
    }

    /// Row labels, thinned to one per 11 points when rows are dense.
    fn row_labels(&self, plot: ScreenRect, out: &mut DrawList) {
        let rows = self.strip.rows.len();
        let h = plot.h / rows as f32;
        let every = (11.0 / h).ceil().max(1.0) as usize;
        for (row, label) in self.strip.rows.iter().enumerate().step_by(every) {
            let y = plot.y + (row as f32 + 0.5) * h;
            out.texts.push(text([plot.x - 6.0, y], 11.0, (Align::End, Align::Centre), label.clone()));
        }
    }

    /// Ticks with times of day under the map (and its job lanes, `lanes` points tall), and a
    /// line saying what the columns span.
    fn axis(&self, plot: ScreenRect, lanes: f32, out: &mut DrawList) {
        let strip = self.strip;
        let bottom = plot.bottom() + lanes;
        let n = strip.columns.len();
        let ticks = AXIS_TICKS.min(n);
        // A column's time is when it ended (a region's dump, an interval's later snapshot): its
        // tick sits at its right edge.
        for i in 0..ticks {
            let column = if ticks == 1 { 0 } else { i * (n - 1) / (ticks - 1) };
            let x = plot.x + (column + 1) as f32 / n as f32 * plot.w;
            out.rects.push(Rect {
                rect: ScreenRect::new(x - 0.5, bottom, 1.0, 4.0),
                fill: INK,
                stroke: None,
            });
            let (number, time) = strip.columns[column];
            let label =
                time.map_or_else(|| format!("{} {number}", strip.column_noun()), |t| format_time_of_day(t.0));
            let align = if x - plot.x < 40.0 {
                Align::Start
            } else if plot.right() - x < 40.0 {
                Align::End
            } else {
                Align::Centre
            };
            out.texts.push(text([x, bottom + 6.0], 11.0, (align, Align::Start), label));
        }
        out.texts.push(text(
            [plot.x, bottom + 24.0],
            11.0,
            (Align::Start, Align::Start),
            self.span_note(plot.w as usize),
        ));
    }

    /// `20000 regions, 22:13:20.040 – 22:29:51.002 (+991.002 s)`, where interval times come
    /// from, and that binned pixels show their busiest column.
    fn span_note(&self, pixel_columns: usize) -> String {
        let strip = self.strip;
        let n = strip.columns.len();
        let mut note = format!("{n} {}{}", strip.column_noun(), if n == 1 { "" } else { "s" });
        let first = strip.intervals.first().and_then(|i| i.start).or(strip.columns[0].1);
        if let (Some(a), Some(b)) = (first, strip.columns[n - 1].1) {
            note.push_str(&format!(
                ", {} – {} ({})",
                format_time_of_day(a.0),
                format_time_of_day(b.0),
                format_seconds(b.0 - a.0, true)
            ));
        }
        if let Some(source) = strip.time_source {
            note.push_str(&format!("; times: {}", source.describe()));
        }
        if strip.jobs.left_out > 0 {
            note.push_str(&format!("; {} more jobs than the lanes hold", strip.jobs.left_out));
        }
        if n > pixel_columns {
            note.push_str(&format!(
                "; each pixel column shows the busiest {} it covers",
                strip.column_noun()
            ));
        }
        note
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::EpochMicros;
    use crate::scene::colour::{ColourMap, ScaleKind};

    fn strip() -> TimeStrip {
        TimeStrip {
            rows: vec!["rail 0 · level 2 · up".into(), "rail 0 · level 2 · down".into()],
            columns: (1..=4)
                .map(|r| (r, Some(EpochMicros(1_700_000_000_000_000 + i64::from(r) * 500_000))))
                .collect(),
            cells: vec![0.0, 10.0, 10.0, 40.0, 5.0, 5.0, 5.0, 5.0],
            ..Default::default()
        }
    }

    fn picture(strip: &TimeStrip) -> DrawList {
        let scale = ColourScale::new(ColourMap::Viridis, ScaleKind::Linear, 0.0, strip.max());
        StripPicture { strip, scale, title: "strip".into(), window: Some((1, 2)) }.draw_list(800.0, 300.0)
    }

    #[test]
    fn cells_are_filled_rectangles_in_the_colour_of_their_bytes_runs_merged() {
        let s = strip();
        let list = picture(&s);
        let scale = ColourScale::new(ColourMap::Viridis, ScaleKind::Linear, 0.0, 40.0);
        let in_plot = |r: &&Rect| {
            r.stroke.is_none() && r.rect.x >= list.plot.x && r.rect.right() <= list.plot.right() + 0.01
        };
        let cells: Vec<&Rect> = list.rects.iter().filter(in_plot).filter(|r| r.rect.h > 5.0).collect();
        // Row 0: 0 | 10 10 | 40 → three runs; row 1: one run of 5s.
        assert_eq!(cells.len(), 4, "{cells:?}");
        assert_eq!(cells[1].fill, scale.colour(10.0));
        assert!((cells[1].rect.w - list.plot.w / 2.0).abs() < 0.01);
        assert_eq!(cells[3].fill, scale.colour(5.0));
        assert!(
            list.rects
                .iter()
                .any(|r| r.stroke == Some(WINDOW) && (r.rect.w - list.plot.w / 2.0).abs() < 0.01),
            "the window is outlined"
        );
    }

    #[test]
    fn the_axis_reads_times_of_day_and_the_legend_names_its_unit() {
        let s = strip();
        let list = picture(&s);
        let texts: Vec<&str> = list.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.contains(&"22:13:20.500"), "{texts:?}");
        assert!(texts.contains(&"22:13:22.000"), "{texts:?}");
        assert!(texts.contains(&"4 regions, 22:13:20.500 – 22:13:22.000 (+1.500 s)"), "{texts:?}");
        assert!(texts.contains(&"L: bytes per region"), "{texts:?}");
        assert!(texts.contains(&"rail 0 · level 2 · down"), "{texts:?}");
    }
}
