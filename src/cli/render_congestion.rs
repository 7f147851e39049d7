//! `shoal render --module congestion`: congestion regions over time written as PNG or SVG, drawn
//! as the window's congestion view draws it ([`shoal::scene::congestion_draw`]): one row per
//! counter interval, each region a numbered box as wide as its extent, coloured by its worst
//! stall. Regions are found at the default stall threshold (10 %); `--region N` outlines one.

use anyhow::{Result, bail};
use shoal::model::thresholds::DEFAULT_REGION_STALL;
use shoal::scene::congestion_draw::RegionsPicture;
use shoal::view_model::Dataset;
use shoal::view_model::congestion::fabric_regions;

use super::render_args::RenderCli;

pub fn render_congestion(dataset: &Dataset, r: &RenderCli) -> Result<()> {
    if r.diff.is_some() || r.threshold.is_some() || !r.conditions.is_empty() {
        bail!(
            "--module congestion takes --region N (to outline a region), not --diff, --threshold or --where"
        );
    }
    let Some(fabric) = dataset.fabric.as_ref() else {
        bail!("--module congestion draws fabric dumps with --counters, not a run");
    };
    let Some(observed) = fabric.observed.as_ref() else {
        bail!(
            "--module congestion needs port counters: --counters BEFORE --counters AFTER (three or more make a series)"
        );
    };
    let Some(evolution) = fabric_regions(&fabric.cluster, observed, DEFAULT_REGION_STALL as f32) else {
        bail!(
            "the counters span no interval with times (one snapshot, or snapshots without times): no stall %"
        );
    };
    if let Some(n) = r.region.filter(|&n| evolution.numbered(n).is_none()) {
        bail!("no congestion region {n}: the counters have {}", evolution.regions.len());
    }
    let Some(out) = &r.out else { bail!("--module congestion draws to --out FILE") };
    let ppp = shoal::export::pixels_per_point_for(r.width, r.height);
    let cursor = r.region.and_then(|n| evolution.numbered(n)).map(|region| region.interval);
    let picture = RegionsPicture { evolution: &evolution, picked: r.region, cursor };
    let list = picture.draw_list(r.width as f32 / ppp, r.height as f32 / ppp);
    shoal::export::write_list(&list, ppp, out)?;
    eprintln!(
        "{}: {} congestion region(s) in {} interval(s) drawn",
        out.display(),
        evolution.regions.len(),
        evolution.by_interval.len()
    );
    Ok(())
}
