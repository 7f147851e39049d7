//! The scheduler's jobs under the time strip (issue 26): one lane per row of bands, each job a
//! filled band from its start to its end on the strip's own time axis, labelled with its id,
//! name and user where the band is wide enough (the window's hover tells the rest).

use super::camera::ScreenRect;
use super::colour::Rgba;
use super::draw::{Align, DrawList, INK, Rect, text};
use crate::view_model::time_strip_jobs::JobBands;

/// Height of one lane, in points.
pub const LANE_H: f32 = 14.0;
/// The gap between the heat map and the first lane.
pub const LANES_GAP: f32 = 4.0;

/// Light fills, one per job in turn, that dark text reads on.
const FILLS: [Rgba; 6] = [
    Rgba::rgb(166, 206, 227),
    Rgba::rgb(178, 223, 138),
    Rgba::rgb(251, 154, 153),
    Rgba::rgb(253, 191, 111),
    Rgba::rgb(202, 178, 214),
    Rgba::rgb(255, 255, 153),
];

/// How tall the lanes are, the gap included (0 without bands).
pub fn lanes_height(jobs: &JobBands) -> f32 {
    match jobs.lanes() {
        0 => 0.0,
        n => LANES_GAP + n as f32 * LANE_H,
    }
}

/// The lanes under `map` (the heat map's rectangle): bands, their labels, and `jobs` left of
/// the first lane.
pub fn draw_lanes(jobs: &JobBands, map: ScreenRect, out: &mut DrawList) {
    if jobs.bands.is_empty() {
        return;
    }
    let top = map.bottom() + LANES_GAP;
    out.texts.push(text([map.x - 6.0, top + LANE_H / 2.0], 11.0, (Align::End, Align::Centre), "jobs"));
    for band in &jobs.bands {
        let x0 = map.x + band.from * map.w;
        let w = ((band.to - band.from) * map.w).max(2.0);
        let y = top + band.lane as f32 * LANE_H;
        let rect = ScreenRect::new(x0, y + 1.0, w, LANE_H - 2.0);
        out.rects.push(Rect { rect, fill: FILLS[band.job % FILLS.len()], stroke: Some(INK) });
        // About 5.5 points a character at 10 points.
        let fits = (w / 5.5) as usize;
        if fits >= 4 {
            let label: String = if band.label.chars().count() <= fits {
                band.label.clone()
            } else {
                band.label.chars().take(fits.saturating_sub(1)).chain(['…']).collect()
            };
            out.texts.push(text([x0 + 3.0, y + LANE_H / 2.0], 10.0, (Align::Start, Align::Centre), label));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::EpochMicros;
    use crate::scene::colour::{ColourMap, ColourScale, ScaleKind};
    use crate::scene::time_strip_draw::StripPicture;
    use crate::view_model::time_strip::TimeStrip;
    use crate::view_model::time_strip_jobs::JobBand;

    fn strip_with_jobs() -> TimeStrip {
        let band = |job: usize, label: &str, from: f32, to: f32, lane: usize| JobBand {
            job,
            label: label.into(),
            from,
            to,
            lane,
        };
        TimeStrip {
            rows: vec!["rail 0 · level 2 · up".into()],
            columns: (1..=4)
                .map(|r| (r, Some(EpochMicros(1_700_000_000_000_000 + i64::from(r) * 60_000_000))))
                .collect(),
            cells: vec![1.0, 2.0, 3.0, 4.0],
            jobs: JobBands {
                bands: vec![
                    band(0, "5001 samplesort (alice)", 0.0, 0.5, 0),
                    band(1, "5002 ior (bob)", 0.25, 1.0, 1),
                ],
                left_out: 0,
            },
            ..Default::default()
        }
    }

    #[test]
    fn jobs_are_bands_in_lanes_under_the_map_where_they_ran_with_the_axis_below_them() {
        let s = strip_with_jobs();
        let scale = ColourScale::new(ColourMap::Viridis, ScaleKind::Linear, 0.0, 4.0);
        let list = StripPicture { strip: &s, scale, title: "t".into(), window: None }.draw_list(800.0, 300.0);
        let map = list.plot;
        let bands: Vec<&Rect> =
            list.rects.iter().filter(|r| r.stroke == Some(INK) && r.rect.y > map.bottom()).collect();
        assert_eq!(bands.len(), 2, "{:?}", list.rects);
        assert!((bands[0].rect.w - map.w / 2.0).abs() < 0.01 && (bands[0].rect.x - map.x).abs() < 0.01);
        assert!((bands[1].rect.x - (map.x + map.w / 4.0)).abs() < 0.01);
        assert!(
            (bands[1].rect.y - bands[0].rect.y - LANE_H).abs() < 0.01,
            "the overlapping job is one lane lower"
        );
        let texts: Vec<&str> = list.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.contains(&"5001 samplesort (alice)") && texts.contains(&"jobs"), "{texts:?}");
        let tick = list.texts.iter().find(|t| t.text == "22:14:20.000").expect("a tick label");
        assert!(tick.pos[1] > bands[1].rect.bottom(), "times of day read under the lanes");
    }
}
