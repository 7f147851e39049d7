//! Plots of the focused view's selection: bytes per rail with the imbalance, the hop-count
//! histogram weighted by bytes, the message-size histogram (where the profile records sizes),
//! and the link-load CCDF per level.

use std::collections::BTreeMap;

use egui::Ui;
use egui_plot::{Bar, BarChart, Legend, Line, Plot};

use crate::model::message_counts::size_histogram;
use crate::units::format_bytes_f64;
use crate::view_model::dataset::Dataset;
use crate::view_model::stats::{bytes_per_rail, ccdf_per_level, hop_histogram, imbalance};
use crate::view_model::values::{LinkValues, RegionSelection};

/// The computed series, rebuilt when the selection or the data change.
#[derive(Clone, Debug, Default)]
pub struct PlotCache {
    key: Option<(u64, RegionSelection, Option<String>)>,
    per_rail: Vec<f64>,
    hops: BTreeMap<usize, u64>,
    ccdf: BTreeMap<u32, Vec<[f64; 2]>>,
    /// Messages sent per power-of-two size bin, where the profile records sizes.
    sizes: Option<Vec<(u8, u64, u64)>>,
}

/// The plots of a fabric's selection (they ask its rails, levels and traced flows). Every
/// module shows them; a run has no rails or flows, so its views get the filter panel's histogram.
pub fn panel(
    ui: &mut Ui,
    cache: &mut PlotCache,
    d: &Dataset,
    generation: u64,
    selection: RegionSelection,
    job: Option<String>,
) {
    let Some(fabric) = &d.fabric else {
        ui.small("bytes per rail, hop counts and per-level loads need fabric dumps; the filter tab shows this run's value histogram");
        return;
    };
    let key = (generation, selection, job);
    if cache.key.as_ref() != Some(&key) {
        let values = match LinkValues::select(&fabric.loads, selection) {
            Some(v) => v,
            None => LinkValues::zeros(&fabric.cluster),
        };
        cache.per_rail = bytes_per_rail(&fabric.cluster, &values);
        cache.hops = hop_histogram(&fabric.cluster, &d.flows_for(selection, key.2.as_deref()));
        cache.ccdf = ccdf_per_level(&fabric.cluster, &fabric.layout, &values);
        // A single region shows its own sizes; any other selection the whole run's.
        let region = match selection {
            RegionSelection::Region(n) => Some(n),
            _ => None,
        };
        cache.sizes = fabric.profile.as_ref().and_then(|p| size_histogram(p, region));
        cache.key = Some(key);
    }
    ui.label(format!(
        "bytes per rail ({}), imbalance max/mean = {:.3}",
        selection.label(),
        imbalance(&cache.per_rail)
    ));
    let bars: Vec<Bar> = cache
        .per_rail
        .iter()
        .enumerate()
        .map(|(r, &b)| Bar::new(r as f64, b).name(format!("rail {r}: {}", format_bytes_f64(b))).width(0.6))
        .collect();
    Plot::new("per rail")
        .height(100.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .y_axis_formatter(|m, _| format_bytes_f64(m.value))
        .x_axis_formatter(
            |m, _| if m.value.fract() == 0.0 { format!("rail {}", m.value) } else { String::new() },
        )
        .show(ui, |p| p.bar_chart(BarChart::new("bytes", bars)));

    ui.label("bytes by hop count (links crossed)");
    let bars: Vec<Bar> = cache.hops.iter().map(|(&h, &b)| Bar::new(h as f64, b as f64).width(0.6)).collect();
    if bars.is_empty() {
        ui.small("no flows in this selection");
    } else {
        Plot::new("hops")
            .height(100.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .y_axis_formatter(|m, _| format_bytes_f64(m.value))
            .show(ui, |p| p.bar_chart(BarChart::new("bytes", bars)));
    }

    size_plot(ui, cache.sizes.as_deref(), selection);

    ui.label("link-end load CCDF per level");
    let ccdf = &cache.ccdf;
    Plot::new("ccdf")
        .height(140.0)
        .legend(Legend::default())
        .x_axis_formatter(|m, _| format_bytes_f64(m.value))
        .show(ui, |p| {
            for (level, points) in ccdf {
                p.line(Line::new(format!("level {level}"), points.clone()));
            }
        });
}

/// Messages sent by size (PFProf's message-size histogram): bar K holds `2^K ..= 2^(K+1) − 1`
/// bytes, labelled by its lower bound.
fn size_plot(ui: &mut Ui, sizes: Option<&[(u8, u64, u64)]>, selection: RegionSelection) {
    let Some(sizes) = sizes else {
        ui.small(
            "message sizes: the profile records none (libibprof's msgsize lines or PFProf's size lists)",
        );
        return;
    };
    let which =
        if matches!(selection, RegionSelection::Region(_)) { selection.label() } else { "whole run".into() };
    ui.label(format!("messages sent by size ({which})"));
    let bars: Vec<Bar> = sizes
        .iter()
        .map(|&(bin, sent, _)| {
            let lower = format_bytes_f64(2f64.powi(i32::from(bin)));
            Bar::new(f64::from(bin), sent as f64).name(format!("≥ {lower}: {sent} messages")).width(0.6)
        })
        .collect();
    Plot::new("message sizes")
        .height(100.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .x_axis_formatter(|m, _| {
            let exact = m.value.fract() == 0.0 && (0.0..64.0).contains(&m.value);
            if exact { format_bytes_f64(2f64.powf(m.value)) } else { String::new() }
        })
        .show(ui, |p| p.bar_chart(BarChart::new("messages", bars)));
}
