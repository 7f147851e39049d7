//! `shoal trace`: one LID → LID path, as `ibtracert` would print it, or as JSON.

use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;
use shoal::model::echo::echo;
use shoal::model::{Fabric, Lid};
use shoal::routing::{Outcome, Path, trace};

use super::common::{RailArgs, open_fabric, parse_lid};

#[derive(Args, Debug)]
pub struct TraceArgs {
    #[command(flatten)]
    pub rails: RailArgs,
    /// Which of the given rails to trace on (0 = the first RAIL).
    #[arg(long, default_value_t = 0)]
    pub rail: usize,
    /// Source LID: decimal as ibtracert reads it (`18`), or hexadecimal with `0x` (`0x0012`).
    #[arg(long, value_parser = parse_lid)]
    pub from: Lid,
    /// Destination LID: decimal, or hexadecimal with `0x`.
    #[arg(long, value_parser = parse_lid)]
    pub to: Lid,
    /// Print `{"delivered":…,"hops":[{"guid","name","lid","in_port","out_port"},…]}`.
    #[arg(long)]
    pub json: bool,
    /// `static` (the default): the one path of the forwarding tables; `ar`: the AR spread
    /// (modelled) over the switches' AR groups, each link end with its share of the bytes.
    #[arg(long, value_name = "static|ar", default_value = "static", value_parser = super::common::parse_routing)]
    pub routing: super::common::Routing,
}

#[derive(Serialize)]
struct JsonPath {
    delivered: bool,
    hops: Vec<JsonHop>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<JsonStop>,
}

#[derive(Serialize)]
struct JsonHop {
    guid: String,
    name: String,
    lid: Option<String>,
    in_port: Option<u8>,
    out_port: Option<u8>,
}

#[derive(Serialize)]
struct JsonStop {
    reason: String,
    at_guid: Option<String>,
}

pub fn run(args: &TraceArgs) -> Result<()> {
    let cluster = open_fabric(&args.rails)?.cluster;
    let Some(fabric) = cluster.rails.get(args.rail) else {
        bail!("--rail {} but only {} rail(s) were given", args.rail, cluster.rails.len());
    };
    if args.routing == super::common::Routing::Ar {
        return super::trace_ar::run(fabric, args.from, args.to, args.json);
    }
    let path = trace(fabric, args.from, args.to);
    if args.json {
        println!("{}", serde_json::to_string(&json_path(fabric, &path))?);
    } else {
        print!("{}", text_path(fabric, &path, args.from, args.to));
    }
    if !path.delivered() {
        bail!("{} does not reach {} on rail {}", args.from, args.to, args.rail);
    }
    Ok(())
}

fn json_path(fabric: &Fabric, path: &Path) -> JsonPath {
    let hops = path
        .hops
        .iter()
        .map(|hop| {
            let node = fabric.node(hop.node);
            JsonHop {
                guid: node.guid.to_string(),
                name: node.description.clone(),
                lid: node.base_lid().map(|l| l.to_string()),
                in_port: hop.in_port.map(|p| p.0),
                out_port: hop.out_port.map(|p| p.0),
            }
        })
        .collect();
    let stopped = match path.outcome {
        Outcome::Delivered => None,
        Outcome::Dropped { at, reason } => Some(JsonStop {
            reason: reason.to_string(),
            at_guid: at.map(|n| fabric.node(n).guid.to_string()),
        }),
    };
    JsonPath { delivered: path.delivered(), hops, stopped }
}

fn text_path(fabric: &Fabric, path: &Path, from: Lid, to: Lid) -> String {
    let mut out = format!("From {from} to {to}:\n");
    for (i, hop) in path.hops.iter().enumerate() {
        let node = fabric.node(hop.node);
        let lid = node.base_lid().map_or_else(|| "-".to_string(), |l| l.to_string());
        let port = |p: Option<shoal::model::PortNum>| p.map_or_else(|| "-".to_string(), |p| p.to_string());
        out += &format!(
            "  [{i}] {kind} {guid} lid {lid} in {inp} out {outp} \"{desc}\"\n",
            kind = node.kind.as_str(),
            guid = node.guid,
            inp = port(hop.in_port),
            outp = port(hop.out_port),
            desc = echo(&node.description),
        );
    }
    match path.outcome {
        Outcome::Delivered => out += &format!("delivered in {} link hops\n", path.link_ends.len()),
        Outcome::Dropped { at, reason } => {
            let at = at.map_or_else(
                || "before the first hop".to_string(),
                |n| echo(&fabric.node(n).description).into_owned(),
            );
            out += &format!("NOT delivered: {reason}, at {at}\n");
        }
    }
    out
}
