//! The traffic matrix on a canvas (issue 23): senders as rows, receivers as columns, in one
//! order. As INTAP-MPI drew it, a cell's hue is its hop class (red inside a host, green one
//! switch, blue 3, pink 5, cyan 7) and its intensity its value over the global maximum; a diff
//! (A − B) is drawn on the view's diverging map instead. The same [`DrawList`] the PNG and SVG
//! painters take, so `shoal render --module matrix` writes what the window shows.

use super::camera::ScreenRect;
use super::colour::{ColourMap, ColourScale, Rgba, ScaleKind};
use super::draw::{Align, DrawList, INK, RIGHT_W, Rect, TITLE_H, frame_and_legends, text, wrap_caption};
use super::legend::Legend;
use crate::routing::RegionKey;
use crate::view_model::matrix::{CellValues, MatrixGrid, MatrixShow, RailChoice};
use crate::view_model::values::RegionSelection;
use crate::view_model::view::ViewSpec;

/// INTAP-MPI's hues by switches crossed, and black for a path the tables do not deliver.
pub const HOP_HUES: [(u32, Rgba); 5] = [
    (0, Rgba::rgb(214, 39, 40)),
    (1, Rgba::rgb(44, 160, 44)),
    (3, Rgba::rgb(31, 89, 214)),
    (5, Rgba::rgb(227, 100, 190)),
    (7, Rgba::rgb(23, 190, 207)),
];
const OTHER_HOPS: Rgba = Rgba::rgb(140, 110, 60);
const UNDELIVERED: Rgba = Rgba::rgb(0, 0, 0);
/// A non-empty cell is at least this intense, so the lightest traffic still shows.
const MIN_INTENSITY: f64 = 0.12;
const LABELS_W: f32 = 150.0;
const BOTTOM_H: f32 = 40.0;
/// The hop key's height (title, seven swatches, the intensity lines), when it sits under the map.
const KEY_H: f32 = 210.0;
/// Points per character of the 11-point notes (the UI font averages about 0.55 em).
const NOTE_CHAR_W: f32 = 6.0;
/// Outline of the cells a highlight reaches.
const LIT: Rgba = Rgba::rgb(0, 0, 0);

/// The hue of a hop class.
pub fn hop_hue(hops: Option<u32>) -> Rgba {
    match hops {
        None => UNDELIVERED,
        Some(h) => HOP_HUES.iter().find(|(k, _)| *k == h).map_or(OTHER_HOPS, |(_, c)| *c),
    }
}

/// `hue` at `intensity` (0..1) over white.
fn tinted(hue: Rgba, intensity: f64) -> Rgba {
    let t = intensity.clamp(0.0, 1.0) as f32;
    let mix = |c: u8| (255.0 + (f32::from(c) - 255.0) * t).round() as u8;
    let [r, g, b, _] = hue.0;
    Rgba::rgb(mix(r), mix(g), mix(b))
}

/// What to draw: the grid, the unit of its values, the title, and the cells to outline.
pub struct MatrixPicture<'a> {
    pub grid: &'a MatrixGrid,
    pub unit: &'a str,
    pub title: String,
    /// The diff's map (ignored unless the grid is signed).
    pub diverging: ColourMap,
    pub lit: Vec<(u32, u32)>,
}

impl MatrixPicture<'_> {
    /// The picture on a `width × height` canvas (in points): a square map left of its labels,
    /// the hop key beside it, or under it where that leaves a larger map (a tall view).
    pub fn draw_list(&self, width: f32, height: f32) -> DrawList {
        let (side, key_below) = map_side(width, height, self.grid.signed);
        let plot = ScreenRect::new(LABELS_W, TITLE_H, side, side);
        let mut out = DrawList { width, height, background: Rgba::WHITE, plot, ..Default::default() };
        let n = self.grid.side();
        let legends = if self.grid.signed { vec![self.diff_legend()] } else { Vec::new() };
        let mut below = plot.bottom() + 8.0;
        if n == 0 {
            let centre = [plot.x + plot.w / 2.0, plot.y + plot.h / 2.0];
            out.texts.push(text(centre, 14.0, (Align::Centre, Align::Centre), "no traffic between entities"));
        } else {
            match self.grid.options.show {
                MatrixShow::Bars => self.bars(plot, &mut out),
                MatrixShow::Cells => self.cells(plot, &mut out),
            }
            below = self.labels(plot, width, &mut out);
        }
        frame_and_legends(&self.title, &legends, plot, 8.0, &mut out);
        if !self.grid.signed {
            let origin =
                if key_below { [LABELS_W, below + 10.0] } else { [plot.right() + 14.0, plot.y + 8.0] };
            self.hop_key(origin, &mut out);
        }
        out
    }

    fn diff_scale(&self) -> ColourScale {
        let m = self.grid.max.max(1.0);
        ColourScale::new(self.diverging, ScaleKind::Linear, -m, m)
    }

    fn diff_legend(&self) -> Legend {
        Legend::new("D", &format!("{} A − B per cell", self.unit), self.diff_scale())
    }

    /// The colour of a cell: its hop class's hue at its share of the maximum, or the diff's map.
    pub fn cell_colour(&self, value: f64, hops: Option<u32>) -> Rgba {
        if self.grid.signed {
            return self.diff_scale().colour(value);
        }
        let share = value / self.grid.max.max(f64::MIN_POSITIVE);
        tinted(hop_hue(hops), MIN_INTENSITY + (1.0 - MIN_INTENSITY) * share)
    }

    fn cells(&self, plot: ScreenRect, out: &mut DrawList) {
        let n = self.grid.side() as f32;
        let w = plot.w / n;
        for cell in &self.grid.cells {
            let rect = ScreenRect::new(plot.x + cell.col as f32 * w, plot.y + cell.row as f32 * w, w, w);
            out.rects.push(Rect { rect, fill: self.cell_colour(cell.value, cell.hops), stroke: None });
        }
        for &(row, col) in &self.lit {
            let rect =
                ScreenRect::new(plot.x + col as f32 * w, plot.y + row as f32 * w, w.max(2.0), w.max(2.0));
            out.rects.push(Rect { rect, fill: Rgba::TRANSPARENT, stroke: Some(LIT) });
        }
    }

    /// INTAP-MPI's stacked bars: a row per bin, what it sent split by hop class, the longest
    /// bar the map's width.
    fn bars(&self, plot: ScreenRect, out: &mut DrawList) {
        let h = plot.h / self.grid.side() as f32;
        let gap = if h > 4.0 { 1.0 } else { 0.0 };
        let longest = self.longest_bar();
        for (row, classes) in self.grid.bars.iter().enumerate() {
            let mut x = plot.x;
            for &(hops, value) in classes {
                let w = (value / longest) as f32 * plot.w;
                let rect = ScreenRect::new(x, plot.y + row as f32 * h + gap / 2.0, w, h - gap);
                out.rects.push(Rect { rect, fill: hop_hue(hops), stroke: None });
                x += w;
            }
        }
    }

    /// The longest bar's value (what a bar the map's width sent).
    pub fn longest_bar(&self) -> f64 {
        let sums = self.grid.bars.iter().map(|b| b.iter().map(|c| c.1).sum::<f64>());
        sums.fold(0.0, f64::max).max(f64::MIN_POSITIVE)
    }

    /// A value in the picture's unit.
    fn amount(&self, value: f64) -> String {
        if self.unit == "bytes" {
            crate::units::format_bytes_f64(value)
        } else {
            // "1 message", "2 messages": the unit is plural.
            let unit = if value.round() == 1.0 { self.unit.trim_end_matches('s') } else { self.unit };
            format!("{value:.0} {unit}")
        }
    }

    /// Row labels left (thinned to one per 11 points), and under the map what the axes are,
    /// wrapped to the canvas; returns where the note ends.
    fn labels(&self, plot: ScreenRect, width: f32, out: &mut DrawList) -> f32 {
        let n = self.grid.side();
        let h = plot.h / n as f32;
        let every = (11.0 / h).ceil().max(1.0) as usize;
        for (row, label) in self.grid.labels.iter().enumerate().step_by(every) {
            let y = plot.y + (row as f32 + 0.5) * h;
            out.texts.push(text([plot.x - 6.0, y], 11.0, (Align::End, Align::Centre), label.clone()));
        }
        let by = self.grid.options.by.name();
        let mut note = match self.grid.options.show {
            MatrixShow::Cells => format!("rows: sending {by}s, columns: receiving {by}s, in the same order"),
            MatrixShow::Bars => format!(
                "rows: sending {by}s; a bar: the {} each sent, split by switches crossed (longest {})",
                self.unit,
                self.amount(self.longest_bar())
            ),
        };
        if self.grid.per_bin > 1 {
            note.push_str(&format!(
                "; {} {by}s, {} per cell (aggregated to fit; drill down to see each)",
                self.grid.entities.len(),
                self.grid.per_bin
            ));
        }
        if let Some(clauses) = &self.grid.pair_filter {
            note.push_str(&format!("; filtered: only the pairs with {clauses}"));
        }
        let chars = ((width - plot.x - 8.0) / NOTE_CHAR_W).max(20.0) as usize;
        let mut y = plot.bottom() + 8.0;
        for line in wrap_caption(&note, chars) {
            out.texts.push(text([plot.x, y], 11.0, (Align::Start, Align::Start), line));
            y += 14.0;
        }
        y
    }

    /// The hop-class key at `origin`: a swatch per class, and what intensity means.
    fn hop_key(&self, [x, mut y]: [f32; 2], out: &mut DrawList) {
        out.texts.push(text([x, y], 13.0, (Align::Start, Align::Start), "hue: switches crossed"));
        y += 22.0;
        let names =
            [(Some(0), "0 (same host)"), (Some(1), "1"), (Some(3), "3"), (Some(5), "5"), (Some(7), "7")];
        let rows = names.iter().copied().chain([(Some(2), "other"), (None, "not delivered")]);
        for (hops, name) in rows {
            out.rects.push(Rect {
                rect: ScreenRect::new(x, y, 14.0, 14.0),
                fill: hop_hue(hops),
                stroke: Some(INK),
            });
            out.texts.push(text([x + 20.0, y + 7.0], 11.0, (Align::Start, Align::Centre), name));
            y += 19.0;
        }
        y += 8.0;
        let lines = match self.grid.options.show {
            MatrixShow::Cells => {
                ["intensity: value over".to_string(), format!("the maximum, {}", self.amount(self.grid.max))]
            }
            MatrixShow::Bars => [
                "bar length: what a row".to_string(),
                format!("sent, {} at most", self.amount(self.longest_bar())),
            ],
        };
        for line in &lines {
            out.texts.push(text([x, y], 11.0, (Align::Start, Align::Start), line.clone()));
            y += 15.0;
        }
    }
}

/// The map's side on a `width × height` canvas, and whether the hop key goes under it: under
/// it where that leaves a larger map (a diff keeps its colour bar beside the map).
pub fn map_side(width: f32, height: f32, signed: bool) -> (f32, bool) {
    let beside = (width - LABELS_W - RIGHT_W).min(height - TITLE_H - BOTTOM_H).max(1.0);
    let under = (width - LABELS_W - 12.0).min(height - TITLE_H - BOTTOM_H - KEY_H).max(1.0);
    if !signed && under > beside { (under, true) } else { (beside, false) }
}

fn key_name(key: RegionKey) -> String {
    match key {
        RegionKey::Total => "whole run".into(),
        RegionKey::Region(n) => format!("region {n}"),
    }
}

pub fn rail_name(rail: RailChoice) -> String {
    match rail {
        RailChoice::Worse => "every rail (worse hue)".into(),
        RailChoice::Rail(r) => format!("rail {r}"),
    }
}

/// The picture of a grid as a view's spec titles and colours it (the window's and `render`'s).
pub fn picture<'g>(grid: &'g MatrixGrid, spec: &ViewSpec, lit: Vec<(u32, u32)>) -> MatrixPicture<'g> {
    let o = &grid.options;
    let unit = match o.values {
        CellValues::Bytes => "bytes",
        CellValues::Messages => "messages",
    };
    let what = match spec.selection {
        RegionSelection::Region(n) => format!("region {n}"),
        RegionSelection::Diff(a, b) => format!("{} − {}", key_name(a), key_name(b)),
        _ => "whole run".into(),
    };
    let title = match o.show {
        MatrixShow::Cells => {
            format!("traffic matrix · {unit} per {} pair · {} · {what}", o.by.name(), rail_name(o.rail))
        }
        MatrixShow::Bars => {
            format!("hop classes · {unit} sent per {} · {} · {what}", o.by.name(), rail_name(o.rail))
        }
    };
    MatrixPicture { grid, unit, title, diverging: spec.diverging_map, lit }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::matrix::{MatrixCell, MatrixGrid};

    fn grid(signed: bool) -> MatrixGrid {
        let cell = |row, col, value, hops| MatrixCell { row, col, value, hops };
        MatrixGrid {
            entities: vec![(0, 0), (0, 1), (0, 2)],
            per_bin: 1,
            labels: vec!["a".into(), "b".into(), "c".into()],
            cells: vec![cell(0, 1, 100.0, Some(1)), cell(1, 2, 25.0, Some(3)), cell(2, 0, -50.0, Some(0))],
            max: 100.0,
            signed,
            ..Default::default()
        }
    }

    fn picture(grid: &MatrixGrid) -> MatrixPicture<'_> {
        MatrixPicture {
            grid,
            unit: "bytes",
            title: "m".into(),
            diverging: ColourMap::RdBu,
            lit: vec![(1, 2)],
        }
    }

    #[test]
    fn the_busiest_cell_is_its_hop_class_hue_at_full_intensity_and_lighter_cells_fade_to_white() {
        let g = grid(false);
        let p = picture(&g);
        assert_eq!(p.cell_colour(100.0, Some(1)), hop_hue(Some(1)));
        let faint = p.cell_colour(25.0, Some(3));
        let blue = hop_hue(Some(3));
        assert!(faint.0[0] > blue.0[0] && faint.0[1] > blue.0[1], "{faint:?} lighter than {blue:?}");
        assert_eq!(hop_hue(None), UNDELIVERED);
    }

    #[test]
    fn cells_sit_at_their_row_and_column_and_the_lit_cell_is_outlined() {
        let g = grid(false);
        let list = picture(&g).draw_list(800.0, 600.0);
        let w = list.plot.w / 3.0;
        let filled: Vec<&Rect> = list.rects.iter().filter(|r| r.stroke.is_none() && r.rect.w == w).collect();
        assert_eq!(filled.len(), 3);
        assert!(
            (filled[0].rect.x - (list.plot.x + w)).abs() < 0.01
                && (filled[0].rect.y - list.plot.y).abs() < 0.01
        );
        assert!(
            list.rects
                .iter()
                .any(|r| r.stroke == Some(LIT) && (r.rect.x - (list.plot.x + 2.0 * w)).abs() < 0.01)
        );
        let texts: Vec<&str> = list.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.contains(&"hue: switches crossed") && texts.contains(&"0 (same host)"), "{texts:?}");
    }

    #[test]
    fn a_diff_is_drawn_on_the_diverging_map_with_its_legend() {
        let g = grid(true);
        let p = picture(&g);
        let scale = ColourScale::new(ColourMap::RdBu, ScaleKind::Linear, -100.0, 100.0);
        assert_eq!(p.cell_colour(-50.0, Some(0)), scale.colour(-50.0));
        let list = p.draw_list(800.0, 600.0);
        assert!(list.texts.iter().any(|t| t.text == "D: bytes A − B per cell"), "{:?}", list.texts);
    }
}
