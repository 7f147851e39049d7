//! Plots of the focused view's selection: bytes per rail with the imbalance, the hop-count
//! histogram weighted by bytes, and the link-load CCDF per level.

use std::collections::BTreeMap;

use egui::Ui;
use egui_plot::{Bar, BarChart, Legend, Line, Plot};

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
