//! `shoal locality`: INTAP-MPI's locality score (the bytes-weighted mean of switches crossed,
//! on the real tables) of every region of a profile, under each placement asked for, so
//! regions and placements can be compared in one table (issue 23). Each placement opens the
//! profile as a job placed that way (`--place`'s policies); rows are rank pairs, so a score
//! does not depend on how a matrix folds them.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use shoal::model::bytes::sum_bytes;
use shoal::routing::RegionKey;
use shoal::routing::pair_table::{Granularity, bytes_by_class, locality, pair_table};
use shoal::view_model::{JobRequest, open};

use super::common::report_warnings;
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct LocalityArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// A placement to compare (`as-recorded`, `linear`, `random-node:SEED`,
    /// `random-switch:SEED`, `hosts:FILE`), once per placement. Default: as recorded.
    #[arg(long = "place-as", value_name = "POLICY")]
    pub place_as: Vec<String>,
    /// Print one JSON object, `{"rows":[…]}`, instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// One region under one placement.
#[derive(Serialize, Debug, PartialEq)]
pub struct LocalityRow {
    pub placement: String,
    /// `null` for the whole run.
    pub region: Option<u32>,
    pub bytes: u64,
    /// Switches crossed, bytes-weighted; `null` when no byte has a delivered path.
    pub locality: Option<f64>,
    /// Each hop class's share of the bytes, in % (`"0"` same host, `"1"` one leaf …).
    pub shares: BTreeMap<String, f64>,
    /// Bytes on paths the tables do not deliver (in no class).
    pub undelivered_bytes: u64,
}

pub fn run(args: &LocalityArgs) -> Result<()> {
    if args.open.jobs.any() {
        bail!("locality places the profile itself: give --place-as POLICY, not --job or --place");
    }
    let Some(profile) = args.open.profile.clone() else {
        bail!("locality needs --profile (the traffic whose paths are scored)");
    };
    let placements =
        if args.place_as.is_empty() { vec!["as-recorded".to_string()] } else { args.place_as.clone() };
    let mut rows = Vec::new();
    for placement in &placements {
        let mut request = args.open.request()?;
        request.jobs = vec![JobRequest { place: placement.clone(), ..JobRequest::from_profile(&profile) }];
        request.profile = None;
        let progress = super::progress::Progress::new("locality");
        let dataset =
            open(&request, &progress.of_open()).with_context(|| format!("placement {placement}"))?;
        drop(progress);
        report_warnings(&dataset.warnings, args.open.verbose);
        let fabric = dataset.fabric.context("locality needs fabric dumps")?;
        let Some((_, flows)) = fabric.job_flows.first() else {
            bail!("{}: no traffic traced", profile.display())
        };
        let mut keys: Vec<RegionKey> = flows.keys().copied().collect();
        keys.sort_by_key(|k| match k {
            RegionKey::Total => None,
            RegionKey::Region(n) => Some(*n),
        });
        for key in keys {
            let table = pair_table(&fabric.cluster, &flows[&key], Granularity::Rank);
            rows.push(row(placement, key, &table.rows));
        }
    }
    if args.json {
        println!("{}", serde_json::to_string(&serde_json::json!({ "rows": rows }))?);
    } else {
        print!("{}", table_text(&rows));
    }
    Ok(())
}

/// The score and class shares of one region's rank pairs.
fn row(placement: &str, key: RegionKey, pairs: &[shoal::routing::pair_table::PairRow]) -> LocalityRow {
    let mut classes = bytes_by_class(pairs);
    let undelivered_bytes = classes.remove(&None).unwrap_or(0);
    let bytes = sum_bytes(classes.values().copied());
    let shares = classes
        .iter()
        .filter_map(|(hops, b)| Some(((*hops)?.to_string(), 100.0 * *b as f64 / bytes.max(1) as f64)))
        .collect();
    LocalityRow {
        placement: placement.to_string(),
        region: match key {
            RegionKey::Total => None,
            RegionKey::Region(n) => Some(n),
        },
        bytes: bytes.saturating_add(undelivered_bytes),
        locality: locality(pairs),
        shares,
        undelivered_bytes,
    }
}

/// The rows as an aligned table, one column per hop class any row has.
fn table_text(rows: &[LocalityRow]) -> String {
    let mut classes: Vec<&String> = rows.iter().flat_map(|r| r.shares.keys()).collect();
    classes.sort_by_key(|c| c.parse::<u32>().unwrap_or(u32::MAX));
    classes.dedup();
    let width = rows.iter().map(|r| r.placement.len()).max().unwrap_or(9).max(9);
    let mut out = format!("{:<width$}  {:>6}  {:>10}  {:>8}", "placement", "region", "bytes", "switches");
    for class in &classes {
        out.push_str(&format!("  {:>7}", format!("{class} hop")));
    }
    out.push('\n');
    for r in rows {
        let region = r.region.map_or("total".to_string(), |n| n.to_string());
        let score = r.locality.map_or("-".to_string(), |s| format!("{s:.3}"));
        let bytes = shoal::units::format_bytes(r.bytes);
        out.push_str(&format!("{:<width$}  {region:>6}  {bytes:>10}  {score:>8}", r.placement));
        for class in &classes {
            let share = r.shares.get(*class).map_or("-".to_string(), |s| format!("{s:.1} %"));
            out.push_str(&format!("  {share:>7}"));
        }
        out.push('\n');
    }
    out
}
