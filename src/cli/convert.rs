//! `shoal convert`: positions and link-end loads as tables, as the thesis's converter wrote,
//! per job; and where placed jobs' ranks went.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;
use shoal::export::tables::{JobLoads, PlacementRow, TableFormat, link_rows, node_rows, write_table};
use shoal::routing::RailLoad;
use shoal::view_model::dataset::FabricData;
use shoal::view_model::{JobRequest, job_name_of, open};

use super::common::{report_counters, report_warnings, traffic_summary};
use super::open_args::OpenArgs;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    Csv,
    Yaml,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub open: OpenArgs,
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
}

pub fn run(args: &ConvertArgs) -> Result<()> {
    let (format, ext) = match args.format {
        Format::Csv => (TableFormat::Csv, "csv"),
        Format::Yaml => (TableFormat::Yaml, "yaml"),
    };
    let mut request = args.open.request()?;
    if let Some(run) = &request.run {
        bail!("convert writes a fabric's tables; {} is run data (see `shoal query`)", run.display());
    }
    // links.csv names each job's rows: a profile on its own is one job, named after its file.
    if let Some(p) = request.profile.take() {
        request.jobs.insert(0, JobRequest::from_profile(&p));
    }
    let progress = super::progress::Progress::new("convert");
    let dataset = open(&request, &progress.of_open())?;
    drop(progress);
    report_warnings(&dataset.warnings, args.open.verbose);
    let Some(fabric) = dataset.fabric.as_ref() else { bail!("convert needs fabric dumps") };
    report_counters(fabric);
    create(&args.out)?;
    write(&args.out, "nodes", ext, &node_rows(&fabric.cluster, &fabric.layout), format)?;
    let observed = fabric.observed.as_ref();
    if let Some(path) = &request.loads {
        // Loads already traced: one job, named after the file (or the job its rows name).
        let name = fabric.loads_job.clone().unwrap_or_else(|| job_name_of(path));
        let loads = &fabric.loads;
        let links = link_rows(&fabric.cluster, &[JobLoads { name: &name, loads }], &loads.total, observed);
        write(&args.out, "links", ext, &links, format)?;
        eprintln!("{}", traffic_summary(&loads.total, "the whole run"));
        return Ok(());
    }
    let jobs: Vec<JobLoads<'_>> =
        fabric.jobs.iter().map(|j| JobLoads { name: &j.name, loads: &j.loads }).collect();
    let mut all = fabric.loads.total.clone();
    all.rails.resize_with(fabric.cluster.rails.len(), || RailLoad::with_link_ends(0));
    write(&args.out, "links", ext, &link_rows(&fabric.cluster, &jobs, &all, observed), format)?;
    write_placement(&args.out, ext, fabric, format)?;
    if !jobs.is_empty() {
        eprintln!("{}", traffic_summary(&all, "the whole run"));
    }
    Ok(())
}

/// `placement.csv`: `job,rank,host` of every placed job, when any was placed.
fn write_placement(dir: &std::path::Path, ext: &str, fabric: &FabricData, format: TableFormat) -> Result<()> {
    let rows: Vec<PlacementRow> = fabric
        .jobs
        .iter()
        .flat_map(|j| {
            j.placement.iter().map(|&(rank, h)| PlacementRow {
                job: j.name.clone(),
                rank,
                host: fabric.cluster.hosts[h].name.clone(),
            })
        })
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    write(dir, "placement", ext, &rows, format)
}

fn create(dir: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}

fn write<T: Serialize>(
    dir: &std::path::Path,
    name: &str,
    ext: &str,
    rows: &[T],
    format: TableFormat,
) -> Result<()> {
    let path = dir.join(format!("{name}.{ext}"));
    let file = File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    write_table(rows, format, BufWriter::new(file)).with_context(|| format!("writing {}", path.display()))?;
    println!("wrote {} ({} rows)", path.display(), rows.len());
    Ok(())
}
