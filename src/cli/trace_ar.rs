//! `shoal trace --routing ar`: where one LID's bytes to another go when the switches spread
//! AR-enabled destinations over their AR groups (modelled, see `docs/formats/adaptive-routing.md`):
//! every link end the spread touches, with the share of the bytes it carries.

use anyhow::{Result, bail};
use serde::Serialize;
use shoal::model::{Fabric, Lid, LinkEnd};
use shoal::routing::Flow;
use shoal::routing::ar::spread;

/// The spread is computed on this many parts, so shares print to 0.0001 %.
const PARTS: u64 = 1_000_000;

#[derive(Serialize)]
struct Share {
    from: String,
    from_port: u8,
    to: String,
    to_port: u8,
    share: f64,
}

pub fn run(fabric: &Fabric, from: Lid, to: Lid, json: bool) -> Result<()> {
    if !fabric.has_adaptive_routing() {
        bail!(
            "--routing ar: the dumps hold no adaptive-routing tables (ibdiagnet2.far); use the static trace"
        );
    }
    let load = spread(fabric, &[Flow { src: from, dst: to, bytes: PARTS }]);
    let mut shares: Vec<Share> = load
        .bytes
        .nonzero()
        .filter_map(|(i, parts)| {
            let ((s, sp), (d, dp)) = fabric.link_end_nodes(LinkEnd::from_index(i))?;
            Some(Share {
                from: fabric.node(s).description.clone(),
                from_port: sp.0,
                to: fabric.node(d).description.clone(),
                to_port: dp.0,
                share: parts as f64 / PARTS as f64,
            })
        })
        .collect();
    shares.sort_by(|a, b| b.share.total_cmp(&a.share).then_with(|| a.from.cmp(&b.from)));
    if json {
        println!("{}", serde_json::to_string(&shares)?);
    } else {
        println!("AR spread (modelled) from {from} to {to}: {} link ends", shares.len());
        for s in &shares {
            println!("{:>9.4} %  {}[{}] -> {}[{}]", s.share * 100.0, s.from, s.from_port, s.to, s.to_port);
        }
    }
    if load.undelivered > 0 {
        let reasons: Vec<String> = load.undelivered_detail.iter().map(|u| u.reason.to_string()).collect();
        let lost = load.undelivered as f64 / PARTS as f64 * 100.0;
        bail!("{lost:.4} % of the bytes are not delivered: {}", reasons.join("; "));
    }
    Ok(())
}
