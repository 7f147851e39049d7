//! Writes a loads file: `shoal convert`'s `links.csv` table exactly ([`super::tables`]), with `#`
//! comment lines before it for region names, losses and problems, and after it for the top-K
//! contributors (`docs/formats/loads.md`). libibprof writes it in situ; `--loads` reads it.

use std::collections::BTreeMap;
use std::io::Write;

use super::csv_cell::comment_field;
use crate::model::bytes::{add_bytes, sum_bytes};
use crate::model::{Cluster, LinkEnd, Side};
use crate::routing::loads_input::TopKTable;
use crate::routing::{DropReason, Loads, RegionKey, RegionLoads};

use super::tables::{JobLoads, TableFormat, link_rows, write_table};

/// What the file says beyond the loads: a first line, and problems with how often they occurred.
#[derive(Clone, Debug, Default)]
pub struct LoadsNotes {
    pub title: String,
    pub problems: Vec<(u64, String)>,
    /// The `job` column's value for the rows (issue 12); empty: `job`. Job `all` repeats the
    /// total, as `shoal convert` writes it.
    pub job: String,
}

/// Writes the whole file.
pub fn write_loads_file(
    cluster: &Cluster,
    loads: &Loads,
    notes: &LoadsNotes,
    top: Option<&TopKTable>,
    mut out: impl Write,
) -> std::io::Result<()> {
    if !notes.title.is_empty() {
        writeln!(out, "# {}", notes.title.replace('\n', " "))?;
    }
    for region in &loads.regions {
        let Some(number) = region.region else { continue };
        let name = region.name.as_deref().unwrap_or("").replace([',', '\n'], " ");
        let time = region.dumptime.map(|t| seconds(t.0)).unwrap_or_default();
        writeln!(out, "# region,{number},{name},{time}")?;
    }
    for region in loads.regions.iter().chain([&loads.total]) {
        write_losses(&mut out, region)?;
    }
    for (count, message) in &notes.problems {
        writeln!(out, "# problem,{count},{}", message.replace('\n', " "))?;
    }
    if let Some(top) = top {
        writeln!(out, "# topk,{}", top.k)?;
    }
    let job = if notes.job.is_empty() { "job" } else { notes.job.as_str() };
    let jobs = [JobLoads { name: job, loads }];
    write_table(&link_rows(cluster, &jobs, &loads.total, None), TableFormat::Csv, &mut out)?;
    if let Some(top) = top {
        write_top(&mut out, cluster, top)?;
    }
    out.flush()
}

fn label(region: Option<u32>) -> String {
    region.map_or_else(|| "total".to_string(), |n| n.to_string())
}

fn seconds(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let m = micros.unsigned_abs();
    format!("{sign}{}.{:06}", m / 1_000_000, m % 1_000_000)
}

fn write_losses(out: &mut impl Write, region: &RegionLoads) -> std::io::Result<()> {
    let name = label(region.region);
    if region.unplaced_bytes > 0 {
        writeln!(out, "# unplaced,{name},{}", region.unplaced_bytes)?;
    }
    if region.intra_node_bytes > 0 {
        writeln!(out, "# intra_node,{name},{}", region.intra_node_bytes)?;
    }
    for (r, rail) in region.rails.iter().enumerate() {
        let mut by_reason: BTreeMap<DropReason, u64> = BTreeMap::new();
        for u in &rail.undelivered_detail {
            add_bytes(by_reason.entry(u.reason).or_insert(0), u.bytes);
        }
        let explained = sum_bytes(by_reason.values().copied());
        if rail.undelivered > explained {
            // Never drop a byte: a count without detail still gets its line.
            add_bytes(
                by_reason.entry(DropReason::UnknownDestination).or_insert(0),
                rail.undelivered - explained,
            );
        }
        for (reason, bytes) in by_reason.into_iter().filter(|(_, b)| *b > 0) {
            writeln!(out, "# undelivered,{name},{r},{},{bytes}", reason.word())?;
        }
    }
    Ok(())
}

fn write_top(out: &mut impl Write, cluster: &Cluster, top: &TopKTable) -> std::io::Result<()> {
    let host = |h: Option<usize>| {
        h.and_then(|h| cluster.hosts.get(h)).map_or("?".to_string(), |h| comment_field(&h.name))
    };
    for (key, ends) in &top.ends {
        let region = match key {
            RegionKey::Region(n) => n.to_string(),
            RegionKey::Total => "total".to_string(),
        };
        let mut ends: Vec<_> = ends.iter().collect();
        ends.sort_by_key(|(k, _)| **k);
        for (&(rail, index), pairs) in ends {
            let Some(fabric) = cluster.rails.get(rail) else { continue };
            let end = LinkEnd::from_index(index);
            let Some((a, b)) = fabric.graph.edge_endpoints(end.edge) else { continue };
            let link = &fabric.graph[end.edge];
            let direction = if end.side == Side::A { "a_to_b" } else { "b_to_a" };
            for &(src, dst, bytes) in pairs {
                writeln!(
                    out,
                    "# top,{region},{rail},{},{},{},{},{direction},{},{},{bytes}",
                    fabric.node(a).guid,
                    link.a_port.0,
                    fabric.node(b).guid,
                    link.b_port.0,
                    host(src),
                    host(dst),
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic::TwoLevel;
    use crate::profile_io::Input;
    use crate::profile_io::loads_file::parse_loads_file;
    use crate::routing::loads_input::loads_from_file;
    use crate::routing::{RailLoad, Undelivered};

    #[test]
    fn a_written_loads_file_reads_back_to_the_same_loads_and_top_k() {
        let cluster = Cluster::new(vec![TwoLevel::new(2, 2, 1).build()]);
        let ends = cluster.rails[0].link_end_count();
        let mut rail = RailLoad::with_link_ends(ends);
        rail.bytes = crate::routing::LinkBytes::from_sorted(ends, [(1, 42), (4, 7)]);
        rail.undelivered = 5;
        rail.undelivered_detail.push(Undelivered {
            at: None,
            destination: crate::model::Lid(0),
            reason: DropReason::Unreachable,
            bytes: 5,
        });
        let region = RegionLoads {
            region: Some(1),
            name: Some("exchange".into()),
            dumptime: Some(crate::model::EpochMicros(1_700_000_000_250_000)),
            rails: vec![rail.clone()],
            unplaced_bytes: 3,
            ..Default::default()
        };
        let loads = Loads {
            regions: vec![region.clone()],
            total: RegionLoads { region: None, name: None, ..region },
        };
        let mut top = TopKTable { k: 2, ends: Default::default() };
        top.ends.entry(RegionKey::Total).or_default().insert((0, 1), vec![(Some(0), Some(3), 40)]);
        let notes = LoadsNotes {
            title: "test".into(),
            problems: vec![(2, "host x is not in the map".into())],
            job: String::new(),
        };
        let mut out = Vec::new();
        write_loads_file(&cluster, &loads, &notes, Some(&top), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (file, warnings) = parse_loads_file(&Input::from_text("t", text.clone())).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let (back, back_top, warnings) = loads_from_file(&cluster, &file);
        assert_eq!(warnings.len(), 1, "the problem line becomes a warning: {warnings:?}");
        assert_eq!(back.regions[0].rails[0].bytes, loads.regions[0].rails[0].bytes);
        assert_eq!(back.regions[0].name.as_deref(), Some("exchange"));
        assert_eq!(back.regions[0].dumptime, loads.regions[0].dumptime);
        assert_eq!((back.total.unplaced_bytes, back.total.rails[0].undelivered), (3, 5));
        assert_eq!(back_top, Some(top));
        assert!(back.total.rails[0].is_conserved());
    }
}
