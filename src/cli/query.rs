//! `shoal query`: one value per id of a domain, as two-column CSV (`link,mean_bytes`), evaluated
//! by the same filter as the views (see `shoal::view_model::query`), on run data or on a fabric
//! opened as every command
//! opens one ([`OpenArgs`]): `query RAIL… --profile P --domain links --attr bytes` prints one
//! row per link end.

use std::io::Write;

use anyhow::{Result, anyhow};
use clap::Args;
use shoal::model::Domain;
use shoal::view_model::Dataset;
use shoal::view_model::open;
use shoal::view_model::query::{Aggregate, Condition, values};
use shoal::view_model::view::{ViewSpec, selection_conditions};

use super::common::report_warnings;
use super::open_args::OpenArgs;

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// The domain to print one row per id of.
    #[arg(long, value_parser = parse_domain)]
    pub domain: Domain,
    /// A condition `ATTR REL VALUE` (relations = != < <= > >=); repeat to AND them. An attribute
    /// of another domain (or qualified, `nodes.code_region`) filters through the projections.
    /// On a fabric, the whole run's rows are taken unless a condition names the region (or
    /// the job).
    #[arg(long = "where", value_name = "CONDITION", value_parser = parse_condition)]
    pub conditions: Vec<Condition>,
    /// How the passing rows of one id are combined.
    #[arg(long, default_value = "mean", value_parser = parse_aggregate)]
    pub agg: Aggregate,
    /// The numeric attribute to print: a column of one of the domain's tables, or of a related
    /// domain's (a rank gets its node's value).
    #[arg(long)]
    pub attr: String,
}

fn parse_domain(text: &str) -> Result<Domain, String> {
    Domain::parse(text).ok_or_else(|| format!("expected nodes, links, ranks or communicators, got `{text}`"))
}

fn parse_condition(text: &str) -> Result<Condition, String> {
    Condition::parse(text).map_err(|e| e.to_string())
}

fn parse_aggregate(text: &str) -> Result<Aggregate, String> {
    Aggregate::parse(text).ok_or_else(|| format!("expected mean, sum, max or min, got `{text}`"))
}

/// The conditions the rows must meet: the user's, and on a fabric the whole run's rows (of the
/// default job) as a view of the total shows them, so a total is never averaged with its parts.
fn conditions(dataset: &Dataset, given: &[Condition]) -> Vec<Condition> {
    let mut all = given.to_vec();
    if dataset.fabric.is_some() {
        let spec = ViewSpec {
            filter: shoal::view_model::Filter { clauses: given.to_vec(), ..Default::default() },
            ..ViewSpec::for_dataset(dataset)
        };
        all.extend(selection_conditions(dataset, &spec).into_iter().next().unwrap_or_default());
    }
    all
}

/// The CSV header: the domain's item (`link`, `node`, `rank`, …) and what the value is, the
/// aggregate and the attribute (`mean_packets`, `sum_bytes`); a comma or quote in the attribute
/// becomes `_` so the header stays two columns.
pub fn header(domain: Domain, agg: Aggregate, attr: &str) -> String {
    let item = domain.name().strip_suffix('s').unwrap_or(domain.name());
    let attr: String =
        attr.chars().map(|c| if matches!(c, ',' | '"' | '\n' | '\r') { '_' } else { c }).collect();
    format!("{item},{}_{attr}", agg.name())
}

/// Prints the header, then `id,value`; an id none of whose rows pass the conditions gets an empty value.
pub fn run(args: &QueryArgs) -> Result<()> {
    let progress = super::progress::Progress::new("query");
    let dataset = open(&args.open.request()?, &progress.of_open())?;
    drop(progress);
    report_warnings(&dataset.warnings, args.open.verbose);
    let run = &dataset.run;
    let conditions = conditions(&dataset, &args.conditions);
    let values = values(run, args.domain, &conditions, args.agg, &args.attr).map_err(|e| anyhow!("{e}"))?;
    let write = || -> std::io::Result<()> {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        writeln!(out, "{}", header(args.domain, args.agg, &args.attr))?;
        for (id, value) in run.ids(args.domain).iter().zip(&values) {
            match value {
                Some(v) => writeln!(out, "{id},{v}")?,
                None => writeln!(out, "{id},")?,
            }
        }
        out.flush()
    };
    let written = write();
    // The process ends after the command: freeing the run's columns one by one only costs time.
    std::mem::forget(dataset);
    match written {
        // `shoal query … | head` closes the pipe early: that is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
