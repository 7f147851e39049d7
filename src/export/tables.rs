//! `shoal convert`'s output: node positions and per-link-end loads as CSV or YAML tables.
//!
//! This replaces the thesis's converter. `nodes` has one row per node per rail (a host's CA on
//! each rail it is cabled to); `links` one row per physical link per job and region, plus each
//! job's region `total` and job `all` (the sum over jobs), unused links included with zero
//! bytes; `placement` one row per placed rank. Formats are documented in
//! `docs/formats/convert.md`. Text cells (names, jobs, hosts) pass through [`csv_cell`], so a
//! spreadsheet never evaluates one.

use std::io::Write;

use serde::Serialize;

use super::csv_cell;
use crate::layout::ClusterLayout;
use crate::model::capacity::Capacity;
use crate::model::{Cluster, LinkEnd, Side};
use crate::routing::link_rates::LinkRates;
use crate::routing::{Loads, Observed, RegionLoads};
use petgraph::graph::NodeIndex;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeRow {
    pub rail: u8,
    pub guid: String,
    #[serde(serialize_with = "csv_cell::serialize")]
    pub name: String,
    pub kind: &'static str,
    pub level: Option<u32>,
    pub x: Option<f32>,
    pub y: Option<f32>,
    /// Only where planes are detected ([`Cluster::has_planes`]; otherwise the column is absent):
    /// the plane of a CA or leaf switch, empty for other switches. Last, so readers of the older
    /// columns keep working.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plane: Option<Option<u16>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinkRow {
    pub rail: u8,
    pub a_guid: String,
    pub a_port: u8,
    pub b_guid: String,
    pub b_port: u8,
    /// The region number, or `total`.
    pub region: String,
    /// The job's name, or `all` (region `total` only: the sum over the jobs).
    #[serde(serialize_with = "csv_cell::serialize")]
    pub job: String,
    pub bytes_a_to_b: u64,
    pub bytes_b_to_a: u64,
    /// Bytes the port counters saw (on `total` rows; empty where no counter covers the end).
    pub observed_a_to_b: Option<u64>,
    pub observed_b_to_a: Option<u64>,
    /// Only where planes are detected: the plane of the link's lower end (a CA's, or a leaf's for
    /// its uplinks), empty between switches of no plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plane: Option<Option<u16>>,
    /// PortXmitWait ticks counted at each end's transmitting port (rows as `observed_*`).
    pub xmit_wait_a_to_b: Option<u64>,
    pub xmit_wait_b_to_a: Option<u64>,
    /// The link's data rate per direction after line encoding, where its width and speed are
    /// known (every row), rounded to whole bytes.
    pub capacity_bytes_per_s: Option<u64>,
    /// Observed bytes as a % of what the link carries in the counters' interval.
    pub utilisation_a_to_b: Option<f64>,
    pub utilisation_b_to_a: Option<f64>,
    /// The interval's share (%) the sender waited, by the assumed XmitWait tick.
    pub stall_a_to_b: Option<f64>,
    pub stall_b_to_a: Option<f64>,
}

/// Output table format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    Csv,
    Yaml,
}

/// The `plane` cell of a node: absent without planes, else its plane (or none).
fn plane_cell(cluster: &Cluster, rail: usize, node: NodeIndex) -> Option<Option<u16>> {
    cluster.has_planes().then(|| cluster.plane_of(rail, node))
}

pub fn node_rows(cluster: &Cluster, layout: &ClusterLayout) -> Vec<NodeRow> {
    let mut rows = Vec::new();
    for (r, fabric) in cluster.rails.iter().enumerate() {
        let rail = layout.rails.get(r);
        for node in fabric.graph.node_indices() {
            let n = fabric.node(node);
            let position = rail.and_then(|l| l.positions.get(node.index()).copied().flatten());
            rows.push(NodeRow {
                rail: r as u8,
                guid: n.guid.to_string(),
                name: n.description.clone(),
                kind: n.kind.as_str(),
                level: rail.and_then(|l| l.levels.get(node.index()).copied().flatten()),
                x: position.map(|p| p.x),
                y: position.map(|p| p.y),
                plane: plane_cell(cluster, r, node),
            });
        }
    }
    rows
}

/// One job's loads, by name.
#[derive(Clone, Copy, Debug)]
pub struct JobLoads<'a> {
    pub name: &'a str,
    pub loads: &'a Loads,
}

/// Rows for every link in every region of each job, then the job's total; last job `all`'s
/// total (`all`: the sum over the jobs, given so it is computed once). Only job `all`'s total
/// rows carry the observed bytes (the counters see every job's traffic together).
pub fn link_rows(
    cluster: &Cluster,
    jobs: &[JobLoads<'_>],
    all: &RegionLoads,
    observed: Option<&Observed>,
) -> Vec<LinkRow> {
    let mut rows = Vec::new();
    for job in jobs {
        for region in job.loads.regions.iter().chain([&job.loads.total]) {
            push_region_rows(cluster, job.name, region, None, &mut rows);
        }
    }
    push_region_rows(cluster, "all", all, observed, &mut rows);
    rows
}

/// `job,rank,host` rows of placed jobs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacementRow {
    #[serde(serialize_with = "csv_cell::serialize")]
    pub job: String,
    pub rank: u32,
    #[serde(serialize_with = "csv_cell::serialize")]
    pub host: String,
}

fn push_region_rows(
    cluster: &Cluster,
    job: &str,
    region: &RegionLoads,
    observed: Option<&Observed>,
    rows: &mut Vec<LinkRow>,
) {
    let label = region.region.map_or_else(|| "total".to_string(), |n| n.to_string());
    let rates = observed.map(|o| LinkRates::new(cluster, o));
    for (r, fabric) in cluster.rails.iter().enumerate() {
        let load = region.rails.get(r);
        for edge in fabric.graph.edge_indices() {
            let Some((a, b)) = fabric.graph.edge_endpoints(edge) else { continue };
            let link = &fabric.graph[edge];
            // The lower end's plane: a CA's; a leaf's for its uplinks (a spine has none).
            let plane = plane_cell(cluster, r, a).map(|p| p.or_else(|| cluster.plane_of(r, b)));
            let bytes = |side| load.map_or(0, |l| l.at(LinkEnd { edge, side }));
            let end = |side| LinkEnd { edge, side };
            let wait = |side| observed.and_then(|o| o.xmit_wait_at(r, end(side)));
            let utilisation = |side| rates.as_ref().and_then(|x| x.utilisation_percent(r, end(side)));
            let stall = |side| rates.as_ref().and_then(|x| x.stall_percent(r, end(side)));
            rows.push(LinkRow {
                rail: r as u8,
                a_guid: fabric.node(a).guid.to_string(),
                a_port: link.a_port.0,
                b_guid: fabric.node(b).guid.to_string(),
                b_port: link.b_port.0,
                region: label.clone(),
                job: job.to_string(),
                bytes_a_to_b: bytes(Side::A),
                bytes_b_to_a: bytes(Side::B),
                observed_a_to_b: observed.and_then(|o| o.at(r, LinkEnd { edge, side: Side::A })),
                observed_b_to_a: observed.and_then(|o| o.at(r, LinkEnd { edge, side: Side::B })),
                plane,
                xmit_wait_a_to_b: wait(Side::A),
                xmit_wait_b_to_a: wait(Side::B),
                capacity_bytes_per_s: Capacity::of(link).ok().map(|c| c.bytes_per_s().round() as u64),
                utilisation_a_to_b: utilisation(Side::A),
                utilisation_b_to_a: utilisation(Side::B),
                stall_a_to_b: stall(Side::A),
                stall_b_to_a: stall(Side::B),
            });
        }
    }
}

/// Writes rows as a CSV table (with a header) or a YAML list.
pub fn write_table<T: Serialize>(rows: &[T], format: TableFormat, out: impl Write) -> std::io::Result<()> {
    match format {
        TableFormat::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            for row in rows {
                writer.serialize(row).map_err(std::io::Error::other)?;
            }
            writer.flush()
        }
        TableFormat::Yaml => serde_saphyr::to_io_writer(&mut { out }, &rows).map_err(std::io::Error::other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{FatTreeOptions, layout_fat_tree};
    use crate::model::synthetic::TwoLevel;
    use crate::routing::{LinkBytes, RailLoad, RegionLoads};

    fn cluster() -> Cluster {
        Cluster::new(vec![TwoLevel::new(2, 2, 1).build()])
    }

    #[test]
    fn every_link_gets_a_row_per_region_and_a_total_even_when_unused() {
        let cluster = cluster();
        let mut region =
            RegionLoads { region: Some(1), rails: vec![RailLoad::with_link_ends(12)], ..Default::default() };
        region.rails[0].bytes = crate::routing::LinkBytes::from_dense(&[0, 42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let loads = Loads {
            regions: vec![region],
            total: RegionLoads { rails: vec![RailLoad::with_link_ends(12)], ..Default::default() },
        };
        let rows = link_rows(&cluster, &[JobLoads { name: "j", loads: &loads }], &loads.total, None);
        assert_eq!(rows.len(), 3 * cluster.rails[0].link_count(), "region 1, total, all");
        assert_eq!(rows.iter().filter(|r| r.region == "total").count(), 12);
        assert_eq!(rows.iter().filter(|r| r.job == "all").count(), 6);
        assert_eq!(rows[0].bytes_b_to_a, 42);
        assert_eq!(rows[0].bytes_a_to_b, 0);
    }

    #[test]
    fn csv_tables_have_the_documented_columns() {
        let cluster = cluster();
        let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
        let mut out = Vec::new();
        write_table(&node_rows(&cluster, &layout), TableFormat::Csv, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("rail,guid,name,kind,level,x,y\n"));
        assert!(text.contains(",n0001 HCA-1,CA,0,"));
        let mut out = Vec::new();
        write_table(&link_rows(&cluster, &[], &RegionLoads::default(), None), TableFormat::Csv, &mut out)
            .unwrap();
        let header = String::from_utf8(out).unwrap();
        assert!(header.starts_with(
            "rail,a_guid,a_port,b_guid,b_port,region,job,bytes_a_to_b,bytes_b_to_a,observed_a_to_b,observed_b_to_a,\
             xmit_wait_a_to_b,xmit_wait_b_to_a,capacity_bytes_per_s,utilisation_a_to_b,utilisation_b_to_a,\
             stall_a_to_b,stall_b_to_a\n"
        ));
        assert!(header.contains(",total,all,0,0,,,,,,,,,\n"), "no profile: job all, zero bytes");
    }

    fn one_region(bytes: &[u64]) -> Loads {
        let region = |r| RegionLoads {
            region: r,
            rails: vec![RailLoad { bytes: LinkBytes::from_dense(bytes), ..Default::default() }],
            ..Default::default()
        };
        Loads { regions: vec![region(Some(1))], total: region(None) }
    }

    #[test]
    fn each_job_has_its_regions_and_total_and_all_sums_the_jobs() {
        let cluster = cluster();
        let md = one_region(&[5; 12]);
        let io = one_region(&[7; 12]);
        let all = RegionLoads::sum([&md.total, &io.total]);
        let jobs = [JobLoads { name: "md", loads: &md }, JobLoads { name: "io", loads: &io }];
        let rows = link_rows(&cluster, &jobs, &all, None);
        let of = |job: &str, region: &str| -> Vec<&LinkRow> {
            rows.iter().filter(|r| r.job == job && r.region == region).collect()
        };
        assert_eq!(of("md", "1").len(), 6);
        assert_eq!(of("io", "total").len(), 6);
        assert!(of("all", "1").is_empty(), "all has only the total");
        for (i, row) in of("all", "total").into_iter().enumerate() {
            let sum = of("md", "total")[i].bytes_a_to_b + of("io", "total")[i].bytes_a_to_b;
            assert_eq!(row.bytes_a_to_b, sum);
            assert_eq!(row.bytes_a_to_b, 12);
        }
    }

    #[test]
    fn observed_bytes_fill_job_all_total_rows_only_and_stay_empty_where_uncovered() {
        let cluster = cluster();
        let region = RegionLoads { region: Some(1), ..Default::default() };
        let loads = Loads { regions: vec![region], total: RegionLoads::default() };
        let mut ends = vec![None; 12];
        ends[0] = Some(400);
        let observed = Observed { rails: vec![ends], ..Default::default() };
        let rows =
            link_rows(&cluster, &[JobLoads { name: "j", loads: &loads }], &loads.total, Some(&observed));
        let mut out = Vec::new();
        write_table(&rows, TableFormat::Csv, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // After observed_*: xmit_wait ×2, capacity, utilisation ×2, stall ×2 (all empty here).
        let rest = ",,,,,,,";
        assert!(
            lines[1].ends_with(&format!(",1,j,0,0,,{rest}")),
            "region rows carry no observed bytes: {}",
            lines[1]
        );
        assert!(
            lines[7].ends_with(&format!(",total,j,0,0,,{rest}")),
            "a job's own total carries none: {}",
            lines[7]
        );
        assert!(lines[13].ends_with(&format!(",total,all,0,0,400,{rest}")), "{}", lines[13]);
        assert!(lines[14].ends_with(&format!(",total,all,0,0,,{rest}")), "{}", lines[14]);
    }

    #[test]
    fn yaml_tables_parse_back() {
        let cluster = cluster();
        let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
        let mut out = Vec::new();
        write_table(&node_rows(&cluster, &layout), TableFormat::Yaml, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let back: Vec<std::collections::BTreeMap<String, serde_json::Value>> =
            serde_saphyr::from_str(&text).unwrap();
        assert_eq!(back.len(), 7); // 1 spine, 2 leaves, 4 hosts
        assert_eq!(back[0]["kind"], "SW");
    }

    #[test]
    fn a_rail_optimized_cluster_gets_a_plane_column_last_on_nodes_and_before_the_rate_columns_on_links() {
        use crate::model::synthetic::RailOptimized;
        let cluster = Cluster::new(vec![RailOptimized::new(1, 4, 2, 2).build()]);
        assert!(cluster.has_planes());
        let layout = layout_fat_tree(&cluster, &FatTreeOptions::default());
        let mut out = Vec::new();
        write_table(&node_rows(&cluster, &layout), TableFormat::Csv, &mut out).unwrap();
        let nodes = String::from_utf8(out).unwrap();
        assert!(nodes.starts_with("rail,guid,name,kind,level,x,y,plane\n"), "{nodes}");
        let plane_of = |kind: &str| -> Vec<String> {
            let mut p: Vec<String> = nodes
                .lines()
                .filter(|l| l.contains(&format!(",{kind},")))
                .filter_map(|l| l.rsplit(',').next().map(String::from))
                .collect();
            p.sort();
            p.dedup();
            p
        };
        assert_eq!(plane_of("CA"), ["0", "1"], "every CA in plane 0 or 1");
        let mut out = Vec::new();
        write_table(&link_rows(&cluster, &[], &RegionLoads::default(), None), TableFormat::Csv, &mut out)
            .unwrap();
        let links = String::from_utf8(out).unwrap();
        assert!(
            links.lines().next().unwrap().contains(",observed_b_to_a,plane,xmit_wait_a_to_b,"),
            "{links}"
        );
        assert!(
            links.lines().skip(1).all(|l| l.ends_with(",0,,,,,,,") || l.ends_with(",1,,,,,,,")),
            "uplinks take the leaf's plane"
        );
    }
}
