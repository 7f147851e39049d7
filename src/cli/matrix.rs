//! `shoal matrix`: a region's traffic matrix as CSV, one row per (src, dst, rail) with the
//! switches that rail's path crosses (issue 23): `src,dst,rail,bytes,messages,hops`. Bytes are
//! split over the rails by the rail policy, as the loads are; `messages` is empty where the
//! profile has no counts. The locality score and the bytes per hop class go to stderr.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde::Serialize;
use shoal::export::csv_cell;
use shoal::model::Run;
use shoal::model::bytes::sum_bytes;
use shoal::model::message_counts::sent_messages;
use shoal::model::{Cluster, Warning};
use shoal::routing::RegionKey;
use shoal::routing::pair_messages::add_messages;
use shoal::routing::pair_table::{
    Granularity, PairRow, PairTable, bytes_by_class, entity_name, locality, pair_table,
};
use shoal::view_model::filter::{Clause, Filter};
use shoal::view_model::matrix_filter::{KeptPairs, kept_pairs, pair_clauses};
use shoal::view_model::open_regions;

use super::common::report_warnings;
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct MatrixArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// What rows and columns are: `rank`, `host` or `leaf` (the CA's leaf switch on each rail).
    #[arg(long, value_name = "rank|host|leaf", default_value = "rank", value_parser = parse_by)]
    pub by: Granularity,
    /// The region (its own bytes: dump N − dump N−1). Default: the whole run.
    #[arg(long, value_name = "N")]
    pub region: Option<u32>,
    /// What the locality score and the hop-class split weigh: `bytes` or `messages`. The CSV
    /// has both columns either way.
    #[arg(long, value_name = "bytes|messages", default_value = "bytes", value_parser = parse_values)]
    pub values: MatrixValues,
    /// A filter clause on pairs (`pairs.hops <= 1`, `pairs.bytes > 1MiB`), as `render --where`
    /// takes it; repeat to AND them. Only the pairs it keeps are written.
    #[arg(long = "where", value_name = "CLAUSE")]
    pub conditions: Vec<String>,
    /// The CSV file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// What a matrix cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixValues {
    Bytes,
    Messages,
}

fn parse_by(text: &str) -> Result<Granularity, String> {
    Granularity::parse(text).ok_or_else(|| format!("expected rank, host or leaf, got `{text}`"))
}

fn parse_values(text: &str) -> Result<MatrixValues, String> {
    match text {
        "bytes" => Ok(MatrixValues::Bytes),
        "messages" => Ok(MatrixValues::Messages),
        _ => Err(format!("expected bytes or messages, got `{text}`")),
    }
}

/// One written row; text cells pass through [`csv_cell`].
#[derive(Serialize)]
struct Row {
    #[serde(serialize_with = "csv_cell::serialize")]
    src: String,
    #[serde(serialize_with = "csv_cell::serialize")]
    dst: String,
    rail: Option<u8>,
    bytes: u64,
    messages: Option<u64>,
    hops: Option<u32>,
}

pub fn run(args: &MatrixArgs) -> Result<()> {
    let request = args.open.request()?;
    if let Some(run) = &request.run {
        bail!("matrix traces a profile on a fabric's tables; {} is run data", run.display());
    }
    if request.profile.is_none() {
        bail!("matrix needs --profile (a traffic matrix is who sent to whom)");
    }
    let progress = super::progress::Progress::new("matrix");
    let dataset = open_regions(&request, args.region, &progress.of_open())?;
    drop(progress);
    report_warnings(&dataset.warnings, args.open.verbose);
    let fabric = dataset.fabric.context("matrix needs fabric dumps")?;
    let key = args.region.map_or(RegionKey::Total, RegionKey::Region);
    let Some(flows) = fabric.flows.all().get(&key) else {
        bail!("no region {} in the profile", args.region.unwrap_or_default());
    };
    let kept = kept_by_clauses(&dataset.run, &args.conditions, key)?;
    let filtered = kept.as_ref().map(|k| k.flows(flows));
    let flows = filtered.as_ref().unwrap_or(flows);
    if let Some(kept) = &kept {
        eprintln!("note: filtered: only the pairs with {}", kept.clauses);
    }
    let mut table = pair_table(&fabric.cluster, flows, args.by);
    if let Some(messages) = fabric.profile.as_ref().and_then(|p| sent_messages(p, args.region)) {
        add_messages(&mut table, &fabric.cluster, flows, &messages);
    }
    write_csv(&args.out, &fabric.cluster, &table)
        .with_context(|| format!("writing {}", args.out.display()))?;
    let (notes, warnings): (Vec<Warning>, Vec<Warning>) =
        notes(&table, args).into_iter().partition(|w| w.is_info());
    for note in notes {
        eprintln!("note: {note}");
    }
    report_warnings(&warnings, args.open.verbose);
    eprintln!("{}", summary(&table, args.values));
    println!("wrote {} ({} rows)", args.out.display(), table.rows.len());
    Ok(())
}

/// The pairs `--where` keeps in region `key`; every clause must be one on pairs.
fn kept_by_clauses(run: &Run, conditions: &[String], key: RegionKey) -> Result<Option<KeptPairs>> {
    let clauses = conditions.iter().map(|c| Clause::parse(c)).collect::<Result<Vec<_>, _>>()?;
    let filter = Filter { clauses, ..Filter::default() };
    let on_pairs = pair_clauses(run, &filter);
    if let Some(other) = filter.clauses.iter().find(|c| !on_pairs.contains(c)) {
        bail!("--where `{other}` is not a clause on pairs: matrix keeps pairs (e.g. `pairs.hops <= 1`)");
    }
    kept_pairs(run, &filter, key).map_err(anyhow::Error::msg)
}

fn write_csv(path: &std::path::Path, cluster: &Cluster, table: &PairTable) -> Result<()> {
    let mut out = csv::Writer::from_path(path)?;
    for row in &table.rows {
        let name = |id| entity_name(cluster, table.by, row.rail, id);
        out.serialize(Row {
            src: name(row.src),
            dst: name(row.dst),
            rail: row.rail,
            bytes: row.bytes,
            messages: row.messages,
            hops: row.hops,
        })?;
    }
    if table.rows.is_empty() {
        // serde writes the header with the first row; an empty matrix still names its columns.
        out.write_record(["src", "dst", "rail", "bytes", "messages", "hops"])?;
    }
    out.flush()?;
    Ok(())
}

/// What the matrix leaves out or cannot show, as named warnings.
fn notes(table: &PairTable, args: &MatrixArgs) -> Vec<Warning> {
    let source = args.open.profile.as_ref().map_or_else(String::new, |p| p.display().to_string());
    let mut notes = Vec::new();
    if table.rows.iter().all(|r| r.messages.is_none()) {
        notes.push(Warning::info_in_file(
            &source,
            "the profile has no message counts: the messages column is empty",
        ));
    }
    if table.without_entity_bytes > 0 {
        notes.push(Warning::in_file(
            &source,
            format!(
                "{} bytes have no {} at one end (port-level counters, or a host off rail 0) and are in no row",
                table.without_entity_bytes,
                table.by.name()
            ),
        ));
    }
    let undelivered = sum_bytes(table.rows.iter().filter(|r| r.hops.is_none()).map(|r| r.bytes));
    if undelivered > 0 {
        notes.push(Warning::in_file(
            &source,
            format!("{undelivered} bytes are on paths the tables do not deliver: their hops are empty"),
        ));
    }
    notes
}

/// `locality: 2.41 switches (bytes-weighted); by hop class: 0: 12.0 %, 1: …`.
fn summary(table: &PairTable, values: MatrixValues) -> String {
    let weight = |r: &PairRow| match values {
        MatrixValues::Bytes => Some(r.bytes),
        MatrixValues::Messages => r.messages,
    };
    let weighted: Vec<PairRow> =
        table.rows.iter().filter_map(|r| Some(PairRow { bytes: weight(r)?, ..*r })).collect();
    let unit = match values {
        MatrixValues::Bytes => "bytes",
        MatrixValues::Messages => "messages",
    };
    let Some(score) = locality(&weighted) else {
        return format!("locality: no {unit} to weigh");
    };
    let classes = bytes_by_class(&weighted);
    let total = sum_bytes(classes.values().copied()).max(1);
    let split: Vec<String> = classes
        .iter()
        .map(|(hops, v)| {
            let class = hops.map_or_else(|| "undelivered".to_string(), |h| h.to_string());
            format!("{class}: {:.1} %", 100.0 * *v as f64 / total as f64)
        })
        .collect();
    format!(
        "locality: {score:.3} switches crossed ({unit}-weighted mean); by hop class: {}",
        split.join(", ")
    )
}
