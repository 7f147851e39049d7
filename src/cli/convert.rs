//! `shoal convert`: positions and link-end loads as tables, as the thesis's converter wrote,
//! per job; and where placed jobs' ranks went.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;
use shoal::export::job_tables::{footprint_rows, job_rows};
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
    /// Output directory (created if missing; the tables are written beside it first and moved
    /// in when all are written).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
}

pub fn run(args: &ConvertArgs) -> Result<()> {
    let staging = Staging::new(&args.out)?;
    let result = write_tables(args, &staging.dir);
    match result {
        Ok(written) => staging.finish(&written),
        Err(e) => {
            staging.discard();
            Err(e)
        }
    }
}

/// Every table is written into a folder beside `--out`, then moved in when all are written, so
/// a late failure leaves no half-written output (issue 24).
struct Staging {
    out: PathBuf,
    dir: PathBuf,
}

impl Staging {
    fn new(out: &Path) -> Result<Staging> {
        let name = out.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
        let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        create(parent)?;
        let dir = parent.join(format!(".{name}.partial-{}", std::process::id()));
        std::fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Staging { out: out.to_path_buf(), dir })
    }

    /// Renames the folder to `--out`, or, when that exists, moves each written file into it.
    fn finish(self, written: &[(String, usize)]) -> Result<()> {
        let result = if self.out.exists() {
            written.iter().try_for_each(|(name, _)| {
                let to = self.out.join(name);
                std::fs::rename(self.dir.join(name), &to).with_context(|| format!("moving {}", to.display()))
            })
        } else {
            std::fs::rename(&self.dir, &self.out).with_context(|| format!("creating {}", self.out.display()))
        };
        self.discard();
        result?;
        for (name, rows) in written {
            println!("wrote {} ({rows} rows)", self.out.join(name).display());
        }
        Ok(())
    }

    fn discard(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Writes the tables into `dir`; the names of the files written and their rows.
fn write_tables(args: &ConvertArgs, dir: &Path) -> Result<Vec<(String, usize)>> {
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
    let mut written = vec![write(dir, "nodes", ext, &node_rows(&fabric.cluster, &fabric.layout), format)?];
    if request.jobs_from.is_some() {
        // The scheduler's jobs: who ran where and when, and the link ends of their routes.
        written.push(write(dir, "jobs", ext, &job_rows(&fabric.scheduled), format)?);
        written.push(write(
            dir,
            "footprints",
            ext,
            &footprint_rows(&fabric.cluster, &fabric.scheduled),
            format,
        )?);
    }
    let observed = fabric.observed.as_ref();
    if let Some(path) = &request.loads {
        // Loads already traced: one job, named after the file (or the job its rows name).
        let name = fabric.loads_job.clone().unwrap_or_else(|| job_name_of(path));
        let loads = &fabric.loads;
        let links = link_rows(&fabric.cluster, &[JobLoads { name: &name, loads }], &loads.total, observed);
        written.push(write(dir, "links", ext, &links, format)?);
        eprintln!("{}", traffic_summary(&loads.total, "the whole run"));
        return Ok(written);
    }
    let jobs: Vec<JobLoads<'_>> =
        fabric.jobs.iter().map(|j| JobLoads { name: &j.name, loads: &j.loads }).collect();
    let mut all = fabric.loads.total.clone();
    all.rails.resize_with(fabric.cluster.rails.len(), || RailLoad::with_link_ends(0));
    written.push(write(dir, "links", ext, &link_rows(&fabric.cluster, &jobs, &all, observed), format)?);
    written.extend(write_placement(dir, ext, fabric, format)?);
    if !jobs.is_empty() {
        eprintln!("{}", traffic_summary(&all, "the whole run"));
    }
    Ok(written)
}

/// `placement.csv`: `job,rank,host` of every placed job, when any was placed.
fn write_placement(
    dir: &Path,
    ext: &str,
    fabric: &FabricData,
    format: TableFormat,
) -> Result<Option<(String, usize)>> {
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
        return Ok(None);
    }
    write(dir, "placement", ext, &rows, format).map(Some)
}

fn create(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}

/// Writes one table; its file name and rows.
fn write<T: Serialize>(
    dir: &Path,
    name: &str,
    ext: &str,
    rows: &[T],
    format: TableFormat,
) -> Result<(String, usize)> {
    let file_name = format!("{name}.{ext}");
    let path = dir.join(&file_name);
    let file = File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    write_table(rows, format, BufWriter::new(file)).with_context(|| format!("writing {}", path.display()))?;
    Ok((file_name, rows.len()))
}
