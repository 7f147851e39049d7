//! The traffic `shoal route --engine greedy` routes (issue 23): a profile, or jobs with their
//! placements, opened on the one rail as every command opens data; and the comparison of the
//! maximum link-end load the new tables give against D-mod-K, minhop and the recorded tables.

use std::fmt;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use shoal::model::Fabric;
use shoal::routing::Flow;
use shoal::routing::engines::compare::{baseline_routings, max_load};
use shoal::routing::engines::{Engine, Objective};
use shoal::view_model::open;
use shoal::view_model::values::RegionSelection;
use shoal::view_model::what_if::{comparison_text, rows_shown, traffic_flows as selection_flows};

use super::open_args::{JobArgs, OpenArgs};

/// What `--engine` names: a table engine, or the greedy router with its objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    Tables(Engine),
    Greedy(Objective),
}

impl fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineChoice::Tables(engine) => engine.fmt(f),
            EngineChoice::Greedy(Objective::Busiest) => f.write_str("greedy"),
            EngineChoice::Greedy(Objective::Sum) => f.write_str("greedy-sum"),
        }
    }
}

pub fn parse_engine(text: &str) -> Result<EngineChoice, String> {
    match text {
        "greedy" => Ok(EngineChoice::Greedy(Objective::Busiest)),
        "greedy-sum" => Ok(EngineChoice::Greedy(Objective::Sum)),
        _ => Engine::parse(text)
            .map(EngineChoice::Tables)
            .ok_or_else(|| format!("expected dmodk, minhop, updn, greedy or greedy-sum, got `{text}`")),
    }
}

/// The traffic a traffic-aware engine routes.
#[derive(Args, Debug, Clone, Default)]
pub struct TrafficArgs {
    /// `greedy`, `greedy-sum`: the profile whose traffic is routed, heaviest pair first (ibprof
    /// or PFProf; its whole run).
    #[arg(long, value_name = "P")]
    pub profile: Option<PathBuf>,
    #[command(flatten)]
    pub jobs: JobArgs,
    /// Maps the profile's hosts onto the rail's (as for every command).
    #[arg(long, value_name = "FILE")]
    pub host_map: Option<PathBuf>,
}

impl TrafficArgs {
    fn any(&self) -> bool {
        self.profile.is_some() || self.jobs.any()
    }
}

/// The flows of the whole run (every job's) on the rail, or why there are none.
pub fn traffic_flows(
    engine: EngineChoice,
    traffic: &TrafficArgs,
    rail: &str,
    verbose: bool,
) -> Result<Option<Vec<Flow>>> {
    match (engine, traffic.any()) {
        (EngineChoice::Tables(e), true) => {
            bail!("--profile and --job are for --engine greedy or greedy-sum, not {e}")
        }
        (EngineChoice::Tables(_), false) => return Ok(None),
        (EngineChoice::Greedy(_), false) => {
            bail!("--engine {engine} routes traffic: give --profile P or --job NAME=P")
        }
        (EngineChoice::Greedy(_), true) => {}
    }
    let open_args = OpenArgs {
        rails: vec![rail.to_string()],
        verbose,
        profile: traffic.profile.clone(),
        jobs: traffic.jobs.clone(),
        host_map: traffic.host_map.clone(),
        ..Default::default()
    };
    let dataset = open(&open_args.request()?, &|_| {}).context("opening the traffic")?;
    super::common::report_warnings(&dataset.warnings, verbose);
    if dataset.fabric.is_none() {
        bail!("the rail holds no fabric");
    }
    // The whole run, every job's, as the window's What-if tab takes it for the total.
    let flows = selection_flows(&dataset, 0, RegionSelection::Total, None);
    if flows.is_empty() {
        bail!("the profile puts no bytes between two hosts of this rail: there is nothing to route by");
    }
    Ok(Some(flows))
}

/// The comparison lines: each routing's busiest switch-to-switch link end and busiest end, as
/// the window's What-if tab shows them (the same rows, the same text).
pub fn comparison(
    recorded: &Fabric,
    routed: &Fabric,
    engine: EngineChoice,
    flows: &[Flow],
    source: &str,
) -> String {
    let mut rows = baseline_routings(recorded, flows, source);
    rows.push(max_load(routed, &engine.to_string(), flows));
    comparison_text(&rows_shown(recorded, &rows))
}
