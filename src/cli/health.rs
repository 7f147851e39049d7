//! `shoal health RAIL… [--counters [railN=]FILE]… [--json]`: degraded links, ports whose error
//! counters moved (grouped by what they accuse), and ports that waited to send (issue 22, item 8).
//!
//! The JSON is a contract: one object with the arrays `degraded`, `errors` and `stalled`, their
//! entries' keys as written in [`to_json`], GUIDs as `0x` and 16 hex digits.

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Value, json};
use shoal::model::Guid;
use shoal::routing::health::{Health, health};
use shoal::routing::link_rates::tick_note;

use super::common::report_warnings;
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct HealthArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// Print one JSON object (`degraded`, `errors`, `stalled`) instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &HealthArgs) -> Result<()> {
    let request = args.open.request()?;
    if let Some(run) = &request.run {
        bail!("health reads a fabric's links and port counters; {} is run data", run.display());
    }
    let dataset = shoal::view_model::open(&request, &|_| {})?;
    report_warnings(&dataset.warnings, args.open.verbose);
    let fabric = dataset.fabric.context("health needs fabric dumps")?;
    let found = health(&fabric.cluster, fabric.observed.as_ref());
    if let Some(observed) = fabric.observed.as_ref()
        && found.stalled.iter().any(|s| s.stall_percent.is_some())
    {
        eprintln!("shoal: {}", tick_note(observed));
    }
    if fabric.observed.as_ref().is_some_and(|o| o.window.as_ref().and_then(|w| w.seconds()).is_none()) {
        eprintln!("shoal: the counters span no known interval (one snapshot, or no times): stall % is empty");
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&found))?);
    } else {
        print!("{}", to_text(&found, fabric.observed.is_some()));
    }
    Ok(())
}

/// `0x` and 16 hex digits.
pub fn guid_text(guid: Guid) -> String {
    format!("0x{:016x}", guid.0)
}

/// The JSON contract of `shoal health --json`.
pub fn to_json(h: &Health) -> Value {
    let degraded: Vec<Value> = h
        .degraded
        .iter()
        .map(|d| {
            json!({
                "rail": d.rail,
                "a_guid": guid_text(d.a.0),
                "a_port": d.a.1,
                "b_guid": guid_text(d.b.0),
                "b_port": d.b.1,
                "width": d.width,
                "speed": d.speed,
                "expected_width": d.expected_width,
                "expected_speed": d.expected_speed,
                "reason": d.reason,
            })
        })
        .collect();
    let errors: Vec<Value> = h
        .errors
        .iter()
        .map(|e| {
            json!({
                "rail": e.rail, "guid": guid_text(e.guid), "port": e.port,
                "counter": e.counter.name(), "count": e.count,
            })
        })
        .collect();
    let stalled: Vec<Value> = h
        .stalled
        .iter()
        .map(|s| {
            json!({
                "rail": s.rail, "guid": guid_text(s.guid), "port": s.port,
                "xmit_wait": s.xmit_wait, "stall_percent": s.stall_percent,
            })
        })
        .collect();
    json!({ "degraded": degraded, "errors": errors, "stalled": stalled })
}

/// The same lists as text.
fn to_text(h: &Health, with_counters: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "Degraded links: {}", h.degraded.len());
    for d in &h.degraded {
        let (a, b) = (guid_text(d.a.0), guid_text(d.b.0));
        let _ = writeln!(out, "  rail {} {a}[{}] – {b}[{}]: {}", d.rail, d.a.1, d.b.1, d.reason);
    }
    if !with_counters {
        out.push_str("(no --counters: no error or stall counters read)\n");
        return out;
    }
    let _ = writeln!(out, "Error counters that moved: {}", h.errors.len());
    let mut accused = None;
    for e in &h.errors {
        if accused != Some(e.accuses()) {
            accused = Some(e.accuses());
            let _ = writeln!(out, "  {}:", e.accuses().name());
        }
        let _ = writeln!(
            out,
            "    rail {} {}[{}] {} {}",
            e.rail,
            guid_text(e.guid),
            e.port,
            e.counter.name(),
            e.count
        );
    }
    let _ = writeln!(out, "Ports that waited to send (PortXmitWait): {}", h.stalled.len());
    for s in &h.stalled {
        let percent = s.stall_percent.map_or("-".to_string(), |p| format!("{p:.2} %"));
        let _ = writeln!(
            out,
            "  rail {} {}[{}] {} ticks, stall {percent}",
            s.rail,
            guid_text(s.guid),
            s.port,
            s.xmit_wait
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoal::model::LinkEnd;
    use shoal::model::port_counters::CounterKind;
    use shoal::routing::health::{PortError, Stalled};

    #[test]
    fn the_json_has_the_three_arrays_and_guids_of_16_hex_digits() {
        let h = Health {
            errors: vec![PortError {
                rail: 1,
                guid: Guid(0x2c9),
                port: 3,
                counter: CounterKind::SymbolErrorCounter,
                count: 7,
            }],
            stalled: vec![Stalled {
                rail: 0,
                guid: Guid(0x10),
                port: 1,
                end: LinkEnd::from_index(0),
                xmit_wait: 12345,
                stall_percent: None,
            }],
            ..Default::default()
        };
        let v = to_json(&h);
        assert_eq!(v["degraded"], json!([]));
        assert_eq!(
            v["errors"][0],
            json!({"rail": 1, "guid": "0x00000000000002c9", "port": 3, "counter": "SymbolErrorCounter", "count": 7})
        );
        assert_eq!(
            v["stalled"][0],
            json!({"rail": 0, "guid": "0x0000000000000010", "port": 1, "xmit_wait": 12345, "stall_percent": null})
        );
    }
}
