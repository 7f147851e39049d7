//! `shoal convert`: positions and link-end loads as tables, as the thesis's converter wrote,
//! per job; and where placed jobs' ranks went.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use shoal::export::tables::{JobLoads, PlacementRow, TableFormat, link_rows, node_rows, write_table};
use shoal::pipeline::jobs::job_name_of;
use shoal::routing::Loads;

use super::common::{
    CounterArgs, LayoutArgs, ProfileArgs, RailArgs, analyse_jobs, analyse_loads_file, traffic_summary,
};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    Csv,
    Yaml,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub rails: RailArgs,
    #[command(flatten)]
    pub profile: ProfileArgs,
    #[command(flatten)]
    pub layout: LayoutArgs,
    #[command(flatten)]
    pub counters: CounterArgs,
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
    let layout = args.layout.options();
    if let Some(path) = &args.profile.loads {
        // Loads already traced: one job, named after the file.
        let analysis = analyse_loads_file(&args.rails, &args.profile, &layout)?;
        create(&args.out)?;
        write(&args.out, "nodes", ext, &node_rows(&analysis.cluster, &analysis.layout), format)?;
        let empty = Loads::default();
        let loads = analysis.loads().unwrap_or(&empty);
        let observed = args.counters.observe(&analysis.cluster, args.rails.verbose)?;
        let name =
            analysis.loads_file.as_ref().and_then(|f| f.job.clone()).unwrap_or_else(|| job_name_of(path));
        let links =
            link_rows(&analysis.cluster, &[JobLoads { name: &name, loads }], &loads.total, observed.as_ref());
        write(&args.out, "links", ext, &links, format)?;
        if let Some(loads) = analysis.loads() {
            eprintln!("{}", traffic_summary(&loads.total, "the whole run"));
        }
        return Ok(());
    }
    let analysis = analyse_jobs(&args.rails, &args.profile, &layout)?;
    create(&args.out)?;
    write(&args.out, "nodes", ext, &node_rows(&analysis.cluster, &analysis.layout), format)?;
    let observed = args.counters.observe(&analysis.cluster, args.rails.verbose)?;
    let jobs: Vec<JobLoads<'_>> =
        analysis.jobs.iter().map(|j| JobLoads { name: &j.name, loads: &j.analysis.loads }).collect();
    let all = analysis.all_total();
    let links = link_rows(&analysis.cluster, &jobs, &all, observed.as_ref());
    write(&args.out, "links", ext, &links, format)?;
    if analysis.jobs.iter().any(|j| !j.placement.is_empty()) {
        let rows: Vec<PlacementRow> = analysis
            .placement_rows()
            .into_iter()
            .map(|(job, rank, host)| PlacementRow { job, rank, host })
            .collect();
        write(&args.out, "placement", ext, &rows, format)?;
    }
    if !analysis.jobs.is_empty() {
        eprintln!("{}", traffic_summary(&all, "the whole run"));
    }
    Ok(())
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
