//! `shoal convert`: positions and link-end loads as tables, as the thesis's converter wrote.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use shoal::export::tables::{TableFormat, link_rows, node_rows, write_table};
use shoal::routing::Loads;

use super::common::{CounterArgs, LayoutArgs, ProfileArgs, RailArgs, analyse_laid_out, traffic_summary};

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
    let analysis = analyse_laid_out(&args.rails, &args.profile, &args.layout.options())?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let (format, ext) = match args.format {
        Format::Csv => (TableFormat::Csv, "csv"),
        Format::Yaml => (TableFormat::Yaml, "yaml"),
    };
    let nodes = node_rows(&analysis.cluster, &analysis.layout);
    let empty = Loads::default();
    let loads = analysis.loads().unwrap_or(&empty);
    let observed = args.counters.observe(&analysis.cluster, args.rails.verbose)?;
    let links = link_rows(&analysis.cluster, loads, observed.as_ref());
    for (name, count, write) in [
        (
            "nodes",
            nodes.len(),
            Box::new(|f: File| write_table(&nodes, format, BufWriter::new(f)))
                as Box<dyn Fn(File) -> std::io::Result<()>>,
        ),
        ("links", links.len(), Box::new(|f: File| write_table(&links, format, BufWriter::new(f)))),
    ] {
        let path = args.out.join(format!("{name}.{ext}"));
        let file = File::create(&path).with_context(|| format!("creating {}", path.display()))?;
        write(file).with_context(|| format!("writing {}", path.display()))?;
        println!("wrote {} ({count} rows)", path.display());
    }
    if let Some(loads) = analysis.loads() {
        eprintln!("{}", traffic_summary(&loads.total, "the whole run"));
    }
    Ok(())
}
