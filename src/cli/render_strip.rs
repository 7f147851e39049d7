//! `shoal render --module time-strip`: the time strip written as PNG or SVG, drawn as the
//! window's strip is ([`shoal::scene::time_strip_draw`]): regions in dump-time order, or the
//! intervals of a series of counter snapshots, as columns; link-end groups or the busiest ends
//! as rows.

use anyhow::{Result, bail};
use shoal::scene::colour::ScaleKind;
use shoal::scene::time_strip_draw::StripPicture;
use shoal::view_model::Dataset;
use shoal::view_model::time_strip::{TimeStrip, region_columns};

use super::render_args::{RenderCli, StripColumns};

/// Flags that draw something else than a time strip: refused rather than ignored.
fn check_flags(r: &RenderCli) -> Result<()> {
    let other = [
        (r.diff.is_some(), "--diff"),
        (r.diff_jobs.is_some(), "--diff-jobs"),
        (r.threshold.is_some(), "--threshold"),
        (!r.conditions.is_empty(), "--where"),
        (r.attr.is_some() || r.node_attr.is_some(), "--attr/--node-attr"),
        (r.rotate.is_some() || r.down.is_some() || r.axes.is_some(), "--rotate/--down/--axes"),
    ];
    match other.iter().find(|(given, _)| *given) {
        Some((_, flag)) => bail!("{flag} does not apply to --module time-strip"),
        None => Ok(()),
    }
}

/// The column outlined: `--region N` among regions, `--interval N` among counter intervals
/// (where the window's time cursor outlines it), each counted as the strip labels them.
fn outlined(strip: &TimeStrip, columns: StripColumns, r: &RenderCli) -> Result<Option<(usize, usize)>> {
    let intervals = columns == StripColumns::Intervals;
    let column = match (r.region, r.interval) {
        (Some(n), _) if !intervals => {
            strip.column_of(n).ok_or_else(|| anyhow::anyhow!("no region {n} in the profile"))?
        }
        (Some(_), _) => bail!("--region outlines a region; the columns are counter intervals (--interval N)"),
        (None, Some(n)) if intervals => {
            match n.checked_sub(1).filter(|&c| (c as usize) < strip.columns.len()) {
                Some(c) => c as usize,
                None => bail!("--interval {n}: the strip has intervals 1–{}", strip.columns.len()),
            }
        }
        (None, Some(_)) => bail!("--interval outlines a counter interval; the columns are regions"),
        (None, None) => return Ok(None),
    };
    Ok(Some((column, column)))
}

pub fn render_strip(dataset: &Dataset, r: &RenderCli) -> Result<()> {
    check_flags(r)?;
    let Some(fabric) = dataset.fabric.as_ref() else {
        bail!("--module time-strip draws fabric dumps with a profile or counters, not a run");
    };
    let series = fabric.observed.as_ref().filter(|o| !o.series.is_empty());
    let has_regions = fabric.loads.regions.iter().any(|l| l.region.is_some());
    let columns =
        r.strip_columns.unwrap_or(if has_regions { StripColumns::Regions } else { StripColumns::Intervals });
    if r.strip_measure.is_percent() && columns == StripColumns::Regions {
        bail!(
            "--strip-measure {} reads counter intervals: add --strip-columns intervals",
            r.strip_measure.name()
        );
    }
    let strip = match (columns, series) {
        (StripColumns::Regions, _) if has_regions => {
            TimeStrip::build(fabric, &region_columns(&fabric.loads), r.strip_rows)
        }
        (StripColumns::Regions, _) => {
            bail!("the time strip's regions need --profile (a profile with regions)")
        }
        (StripColumns::Intervals, Some(observed)) => {
            TimeStrip::of_interval_measure(fabric, observed, r.strip_measure, r.strip_rows)
        }
        (StripColumns::Intervals, None) => bail!(
            "the time strip's intervals need three or more --counters snapshots of the same rails \
             (each consecutive pair is one interval)"
        ),
    };
    let window = outlined(&strip, columns, r)?;
    // The window's default map, so a strip renders as the window draws it.
    let map = r.colormap.unwrap_or_default();
    let kind = if r.log { ScaleKind::Log } else { ScaleKind::Linear };
    let Some(out) = &r.out else { bail!("--module time-strip draws to --out FILE") };
    let ppp = shoal::export::pixels_per_point_for(r.width, r.height);
    let list = StripPicture::new(&strip, map, kind, r.strip_rows, window)
        .draw_list(r.width as f32 / ppp, r.height as f32 / ppp);
    shoal::export::write_list(&list, ppp, out)?;
    eprintln!(
        "{}: time strip of {} {}s × {} rows drawn",
        out.display(),
        strip.columns.len(),
        strip.column_noun(),
        strip.rows.len()
    );
    Ok(())
}
