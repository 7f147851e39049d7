//! `shoal hot --routing static|ar`: which trace ranks the link ends, and the other one printed
//! beside it when the dumps hold adaptive-routing tables (both are computed then; static is the
//! default). AR loads are modelled (see `docs/formats/adaptive-routing.md`) and say so.

use anyhow::{Result, bail};
use shoal::model::Cluster;
use shoal::routing::ar::cluster_has_ar;
use shoal::routing::{HotEnd, RegionLoads, RoutingModel};
use shoal::units::format_bytes;

use super::common::Routing;

/// The model `--routing` asks for, checked against what was loaded: `ar` needs AR tables in the
/// dumps and flows to spread (a profile or jobs, not a loads file, which holds traced loads).
pub fn routing_model(routing: Option<Routing>, cluster: &Cluster, has_flows: bool) -> Result<RoutingModel> {
    match routing.unwrap_or_default() {
        Routing::Static => Ok(RoutingModel::Static),
        Routing::Ar if !cluster_has_ar(cluster) => bail!(
            "--routing ar: the dumps hold no adaptive-routing tables (ibdiagnet2.far); nothing to spread"
        ),
        Routing::Ar if !has_flows => bail!(
            "--routing ar spreads a profile's flows over the AR groups; a loads file holds loads \
             already traced statically: give --profile instead"
        ),
        Routing::Ar => Ok(RoutingModel::AdaptiveModelled),
    }
}

/// The loads of the other model, printed in a column beside the ranked ones.
pub struct Beside<'a> {
    pub label: &'static str,
    pub loads: &'a RegionLoads,
}

impl Beside<'_> {
    /// The other model's bytes on a ranked end.
    pub fn cell(&self, end: &HotEnd) -> String {
        format_bytes(self.bytes(end))
    }

    fn bytes(&self, end: &HotEnd) -> u64 {
        self.loads.rails.get(end.rail).map_or(0, |r| r.at(end.end))
    }

    /// The other model's bytes on a ranked end, for `--json`.
    pub fn json(&self, end: &HotEnd) -> super::hot_json::BesideJson {
        let routing = if self.label == "static" { "static" } else { "ar_modelled" };
        super::hot_json::BesideJson { routing, bytes: self.bytes(end) }
    }
}

/// Which loads rank (`shown`) and which go beside them: the static and the AR-modelled loads of
/// one region, by `model`. `ar` is `None` when the dumps hold no AR tables.
pub fn shown_and_beside<'a>(
    model: RoutingModel,
    static_loads: &'a RegionLoads,
    ar: Option<&'a RegionLoads>,
) -> (&'a RegionLoads, Option<Beside<'a>>) {
    match (model, ar) {
        (RoutingModel::AdaptiveModelled, Some(ar)) => {
            (ar, Some(Beside { label: "static", loads: static_loads }))
        }
        (_, Some(ar)) => (static_loads, Some(Beside { label: "AR model", loads: ar })),
        (_, None) => (static_loads, None),
    }
}

/// The heading line over the ranked ends: what ranks them, labelled as modelled for AR.
pub fn heading(model: RoutingModel, title: &str, beside: Option<&Beside>) -> String {
    match (model, beside) {
        (RoutingModel::AdaptiveModelled, _) => format!(
            "Busiest link ends in {title}, AR modelled (bytes to AR-enabled destinations spread \
             evenly over each AR group's ports; not measured), static bytes beside:"
        ),
        (RoutingModel::Static, Some(_)) => format!(
            "Busiest link ends in {title} (static routing; the dumps hold AR tables: the AR-modelled \
             bytes are beside, `--routing ar` ranks by them):"
        ),
        (RoutingModel::Static, None) => format!("Busiest link ends in {title}:"),
    }
}

/// What the traffic summary calls the ranked loads.
pub fn summary_title(model: RoutingModel, title: &str) -> String {
    match model {
        RoutingModel::AdaptiveModelled => format!("{title} (AR modelled)"),
        RoutingModel::Static => title.to_string(),
    }
}
