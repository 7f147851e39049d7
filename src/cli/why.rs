//! `shoal why RAIL… --profile P --counters BEFORE --counters AFTER [--region N] [--json]`: why
//! was my job slow (issue 22, item 7). For each congestion region on the job's routes: its link
//! ends ranked by stall × the job's share of the bytes, the bytes that were not the job's, then
//! the degraded links and error ports on its routes, and a short verdict
//! ([`shoal::view_model::why`]).
//!
//! The JSON is a contract, documented in README.md ("Why was my job slow"): keys as written in
//! [`to_json`].

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Value, json};
use shoal::model::Cluster;
use shoal::routing::health::Health;
use shoal::routing::link_rates::tick_note;
use shoal::units::format_bytes;
use shoal::view_model::why::{JobEnd, Why, why};

use super::common::{link_name, report_warnings};
use super::hot_json::end_json;
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct WhyArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// Only this congestion region (numbered as `why` and the congestion view number them).
    #[arg(long, value_name = "N")]
    pub region: Option<u32>,
    /// The stall % a link end must reach to join a congestion region (default 10, the seed's
    /// "hurts").
    #[arg(long, value_name = "PERCENT")]
    pub stall: Option<f64>,
    /// With several jobs (`--job NAME=PROFILE`): the job to explain (default: the first).
    #[arg(long, value_name = "NAME")]
    pub for_job: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &WhyArgs) -> Result<()> {
    let request = args.open.request()?;
    if let Some(run) = &request.run {
        bail!("why reads a fabric's links, a job's profile and port counters; {} is run data", run.display());
    }
    if let Some(stall) = args.stall.filter(|s| !(0.0..=100.0).contains(s)) {
        bail!("--stall {stall}: a stall is a % of the interval, 0 to 100");
    }
    let dataset = shoal::view_model::open(&request, &|_| {})?;
    report_warnings(&dataset.warnings, args.open.verbose);
    let fabric = dataset.fabric.as_ref().context("why needs fabric dumps")?;
    if fabric.profile.is_none() && fabric.jobs.is_empty() {
        bail!("why needs the job's traffic: --profile P (or --job NAME=PROFILE)");
    }
    let answer =
        why(&dataset, args.for_job.as_deref(), args.stall, args.region).map_err(anyhow::Error::msg)?;
    if let Some(observed) = fabric.observed.as_ref() {
        eprintln!("shoal: {}", tick_note(observed));
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&fabric.cluster, &answer))?);
    } else {
        print!("{}", to_text(&fabric.cluster, &answer));
    }
    Ok(())
}

/// The JSON contract of `shoal why --json`.
pub fn to_json(cluster: &Cluster, w: &Why) -> Value {
    let regions: Vec<Value> = w
        .regions
        .iter()
        .map(|r| {
            let ends: Vec<Value> = r.job_ends.iter().map(|e| end_to_json(cluster, e)).collect();
            json!({
                "number": r.region.number,
                "interval": r.region.interval,
                "interval_label": r.interval_label,
                "tier": r.region.tier,
                "direction": if r.region.up { "up" } else { "down" },
                "extent": r.region.ends.len(),
                "worst_stall_percent": r.region.worst_stall,
                "residual_bytes": r.residual_bytes,
                "verdict": r.verdict,
                "ends": ends,
            })
        })
        .collect();
    let health = super::health::to_json(&Health {
        degraded: w.degraded.clone(),
        errors: w.errors.clone(),
        stalled: Vec::new(),
    });
    json!({
        "job": w.job,
        "stall_threshold_percent": w.threshold,
        "route_ends": w.route_ends,
        "stall_known": w.stall_known,
        "verdict": w.verdict,
        "regions": regions,
        "degraded": health["degraded"],
        "errors": health["errors"],
    })
}

fn end_to_json(cluster: &Cluster, e: &JobEnd) -> Value {
    let place = end_json(cluster, 0, e.rail, e.end);
    let others: serde_json::Map<String, Value> =
        e.other_jobs.iter().map(|(name, bytes)| (name.clone(), json!(bytes))).collect();
    json!({
        "rail": e.rail,
        "from": place.as_ref().map(|p| p.from.clone()),
        "from_port": place.as_ref().map(|p| p.from_port),
        "to": place.as_ref().map(|p| p.to.clone()),
        "to_port": place.as_ref().map(|p| p.to_port),
        "stall_percent": e.stall_percent,
        "job_bytes": e.job_bytes,
        "observed_bytes": e.observed,
        "job_share": e.job_share,
        "score": e.score,
        "residual_bytes": e.residual,
        "other_jobs": others,
    })
}

/// The same as text.
fn to_text(cluster: &Cluster, w: &Why) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "Why was {} slow? {} link ends on its routes.", w.job, w.route_ends);
    let _ = writeln!(out, "Verdict: {}", w.verdict);
    let _ = writeln!(
        out,
        "Congestion regions on its routes (ends at ≥ {} % stall): {}",
        w.threshold,
        w.regions.len()
    );
    for r in &w.regions {
        let direction = if r.region.up { "up" } else { "down" };
        let _ = writeln!(
            out,
            "  region {} · interval {} ({}) · tier {} {direction} · {} end(s), worst {:.2} % · residual {}",
            r.region.number,
            r.region.interval,
            r.interval_label,
            r.region.tier,
            r.region.ends.len(),
            r.region.worst_stall,
            signed_bytes(r.residual_bytes)
        );
        for e in &r.job_ends {
            let share = e.job_share.map_or("-".into(), |s| format!("{:.0} %", 100.0 * s));
            let name = link_name(cluster, e.rail, e.end).unwrap_or_default();
            let _ = writeln!(
                out,
                "    stall {:6.2} % × share {share:>5} = {:7.2}  job {}  residual {}  rail {} {name}",
                e.stall_percent,
                e.score,
                format_bytes(e.job_bytes),
                e.residual.map_or("-".into(), signed_bytes),
                e.rail
            );
        }
        let _ = writeln!(out, "    {}", r.verdict);
    }
    let _ = writeln!(out, "Degraded links on its routes: {}", w.degraded.len());
    for d in &w.degraded {
        let _ = writeln!(out, "  rail {} {}[{}] – {}[{}]: {}", d.rail, d.a.0, d.a.1, d.b.0, d.b.1, d.reason);
    }
    let _ = writeln!(out, "Error counters that moved on its routes: {}", w.errors.len());
    for e in &w.errors {
        let _ = writeln!(
            out,
            "  rail {} {}[{}] {} {} ({})",
            e.rail,
            e.guid,
            e.port,
            e.counter.name(),
            e.count,
            e.accuses().name()
        );
    }
    out
}

fn signed_bytes(b: i64) -> String {
    if b < 0 {
        format!("−{}", format_bytes(b.unsigned_abs()))
    } else {
        format!("+{}", format_bytes(b as u64))
    }
}
