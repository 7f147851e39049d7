//! `shoal query`: one value per id of a domain of run data, as `id,value` CSV, evaluated by the
//! same filter as the torus and generic-2D views (see `shoal::scene::query`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args;
use shoal::load::RunError;
use shoal::model::Domain;
use shoal::profile_io::load_run;
use shoal::scene::query::{Aggregate, Condition, values};

use super::common::report_warnings;

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// Run data: a Boxfish `*_meta.yaml`, a `nodes.csv` (with its `links.csv`), or their folder.
    #[arg(value_name = "RUN")]
    pub run: PathBuf,
    /// The domain to print one row per id of.
    #[arg(long, value_parser = parse_domain)]
    pub domain: Domain,
    /// A condition `ATTR REL VALUE` (relations = != < <= > >=); repeat to AND them. An attribute
    /// of another domain (or qualified, `nodes.code_region`) filters through the projections.
    #[arg(long = "where", value_name = "CONDITION", value_parser = parse_condition)]
    pub conditions: Vec<Condition>,
    /// How the passing rows of one id are combined.
    #[arg(long, default_value = "mean", value_parser = parse_aggregate)]
    pub agg: Aggregate,
    /// The numeric attribute to print: a column of one of the domain's tables, or of a related
    /// domain's (a rank gets its node's value).
    #[arg(long)]
    pub attr: String,
    /// List every warning instead of a summary.
    #[arg(short, long)]
    pub verbose: bool,
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

/// Prints `id,value`; an id none of whose rows pass the conditions gets an empty value.
pub fn run(args: &QueryArgs) -> Result<()> {
    let (run, warnings) =
        load_run(&args.run).map_err(|error| RunError { path: args.run.display().to_string(), error })?;
    report_warnings(&warnings, args.verbose);
    let values =
        values(&run, args.domain, &args.conditions, args.agg, &args.attr).map_err(|e| anyhow!("{e}"))?;
    let write = || -> std::io::Result<()> {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        writeln!(out, "id,value")?;
        for (id, value) in run.ids(args.domain).iter().zip(&values) {
            match value {
                Some(v) => writeln!(out, "{id},{v}")?,
                None => writeln!(out, "{id},")?,
            }
        }
        out.flush()
    };
    match write() {
        // `shoal query … | head` closes the pipe early: that is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
