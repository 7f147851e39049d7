//! `shoal render`'s flags: what to open ([`OpenArgs`]), what the one view shows, and where it
//! goes; [`super::render_spec`] turns them into a [`shoal::view_model::ViewSpec`].

use std::path::PathBuf;

use clap::Args;
use shoal::layout::torus;
use shoal::scene::colour::ColourMap;
use shoal::view_model::filter::parse_number;
use shoal::view_model::query;
use shoal::view_model::time_strip::{StripMeasure, StripRows};

use shoal::view_model::RoutingMode;

use super::open_args::OpenArgs;

/// What colours the link ends of a fabric: `predicted`, `observed`, `residual` (port
/// counters), or with jobs `job:NAME`, `all` or `contention` (a job's rows, named as the data
/// set's `job` column names them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ColourBy {
    #[default]
    Predicted,
    Observed,
    Residual,
    /// Observed bytes as a % of the link's capacity over the counters' interval.
    Utilisation,
    /// The % of the interval the sender waited (PortXmitWait).
    Stall,
    /// The sending port's error counters, summed.
    Errors,
    /// A job's name, `all` or `contention`.
    Job(String),
}

#[derive(Args, Debug)]
pub struct RenderCli {
    #[command(flatten)]
    pub open: OpenArgs,
    /// `static` (the default): loads traced through the forwarding tables; `ar`: where the dumps
    /// hold adaptive-routing tables (ibdiagnet2.far), the AR spread (modelled), colouring by
    /// `bytes_ar`. Both are computed whenever AR tables are found.
    #[arg(long, value_name = "static|ar", default_value = "static", value_parser = RoutingMode::parse)]
    pub routing: RoutingMode,
    /// What colours the link ends: the predicted bytes (the profile's trace), the observed ones
    /// (port counters, needs --counters), or the residual observed − predicted (diverging map);
    /// utilisation (% of capacity), stall (% of the interval waited) or errors (the sending
    /// port's error counters), from the counters, with the thresholds on the legend;
    /// with jobs, one job's bytes (`job:NAME`), their sum (`all`, the default with several
    /// jobs), or `contention` (each end by the second-largest job's bytes there; ends one job or
    /// none used stay neutral).
    #[arg(
        long,
        value_name = "predicted|observed|residual|utilisation|stall|errors|job:NAME|all|contention",
        default_value = "predicted",
        value_parser = parse_colour_by
    )]
    pub colour_by: ColourBy,
    /// Job A's total minus job B's, on a diverging colour map (the jobs' diff).
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["diff", "region"])]
    pub diff_jobs: Option<Vec<String>>,
    /// One region's own traffic (default: the cumulative total).
    #[arg(long, conflicts_with = "diff")]
    pub region: Option<u32>,
    /// Region A minus region B, on a diverging colour map.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub diff: Option<Vec<u32>>,
    /// Hide link ends below this: bytes (`2MiB`) or percent of the maximum (`25%`).
    #[arg(long, value_parser = parse_threshold)]
    pub threshold: Option<Threshold>,
    /// ylorrd (the default: light for 0, dark red for the busiest), copper (Boxfish's), viridis,
    /// cividis, magma (sequential); rdbu, puor (for --diff).
    #[arg(long, value_parser = parse_colour_map)]
    pub colormap: Option<ColourMap>,
    /// Colour by log(1 + bytes) instead of bytes.
    #[arg(long)]
    pub log: bool,
    /// Hide link ends that carried no bytes.
    #[arg(long)]
    pub hide_unused: bool,
    /// Draw the health layer over a fat tree: degraded links dashed, ports whose error counters
    /// moved (with --counters) ringed in red.
    #[arg(long)]
    pub health_layer: bool,
    /// Colour the counter attributes (observed, utilisation, stall, xmit_wait, wait_ratio) by
    /// interval N of the counters' series (three or more `--counters` snapshots, or a
    /// `--prometheus` range of three or more steps), counted from 1 as the time strip numbers
    /// them, instead of the whole window; the title names the interval's times. With `--module
    /// time-strip` over counter intervals: outlines interval N, as the window's time cursor does.
    #[arg(long, value_name = "N")]
    pub interval: Option<u32>,
    #[arg(long, default_value_t = 1920)]
    pub width: u32,
    #[arg(long, default_value_t = 1080)]
    pub height: u32,
    /// The output file: .png or .svg.
    #[arg(long, required_unless_present_any = ["save_session", "graphml"])]
    pub out: Option<PathBuf>,
    /// Also write the fabric as GraphML (Gephi, Cytoscape): a node per node per rail with kind,
    /// level and rail; a directed edge per link end with the whole run's bytes, the capacity
    /// where known, and this view's value.
    #[arg(long, value_name = "FILE", conflicts_with = "session")]
    pub graphml: Option<PathBuf>,
    /// Draw a view of this session file instead of the flags' (its focused view, or `--view N`),
    /// exactly as the window exports it.
    #[arg(long, value_name = "SESSION", conflicts_with = "save_session")]
    pub session: Option<PathBuf>,
    /// With `--session`: which view to draw, counted from 1 as the window titles them (default:
    /// the focused one).
    #[arg(long, value_name = "N", requires = "session")]
    pub view: Option<usize>,
    /// Write the session the flags describe (what is opened and the one view) to this file;
    /// `render --session` draws it again, byte for byte.
    #[arg(long, value_name = "SESSION")]
    pub save_session: Option<PathBuf>,
    /// The module that draws the view: `fattree` (the default: the RAILs' fabric), or `torus` or
    /// `generic2d` to draw a run (a Boxfish `*_meta.yaml` or a CSV pair, given as the one RAIL
    /// argument); `--region N` then picks the rows whose `code_region` (`region` in a CSV pair) is N.
    /// `time-strip`: the fabric's traffic over time, regions (or the intervals of three or more
    /// `--counters` snapshots) × link-end groups; `--region N` outlines that region.
    /// `matrix`: the profile's traffic matrix, hue the hop class on the real tables, intensity
    /// the value over the maximum; `--region N` (or `--diff A B`) picks the region.
    /// `congestion`: congestion regions over time from `--counters` (one row per interval, each
    /// region a numbered box, colour its worst stall); `--region N` outlines region N.
    #[arg(long, value_parser = parse_module)]
    pub module: Option<ModuleArg>,
    #[command(flatten)]
    pub matrix: super::matrix_flags::MatrixFlags,
    /// With `--module time-strip`: the rows, `groups` (rail · level · direction) or `top:N`
    /// (the N busiest link ends).
    #[arg(long, value_name = "groups|top:N", default_value = "groups", value_parser = parse_strip_rows)]
    pub strip_rows: StripRows,
    /// With `--module time-strip`: the columns, `regions` (the profile's, in dump-time order) or
    /// `intervals` (between consecutive `--counters` snapshots). Default: regions when the profile
    /// has any, else intervals.
    #[arg(long, value_name = "regions|intervals", value_parser = parse_strip_columns)]
    pub strip_columns: Option<StripColumns>,
    /// With `--module time-strip` over counter intervals: what a cell is, `bytes` (the row's
    /// ends summed), or the row's worst `utilisation` or `stall` % (0–100, thresholds on the legend).
    #[arg(long, value_name = "bytes|utilisation|stall", default_value = "bytes", value_parser = parse_strip_measure)]
    pub strip_measure: StripMeasure,
    /// Torus view angles in degrees, `YAW,PITCH` (0,0 looks straight down −z; default −35,25).
    #[arg(long, value_name = "YAW,PITCH", value_parser = parse_rotate)]
    pub rotate: Option<(f32, f32)>,
    /// The flattened torus view, looking down this axis (name or index).
    #[arg(long, value_name = "AXIS")]
    pub down: Option<String>,
    /// The three kept axes of a 5D torus, e.g. `a,c,e`; the others are aggregated.
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub axes: Option<Vec<String>>,
    /// A filter clause `ATTR REL VALUE` on any attribute of the data set; repeat to AND them.
    #[arg(long = "where", value_name = "CLAUSE")]
    pub conditions: Vec<String>,
    /// The link attribute that colours the links (default: the first measured one).
    #[arg(long, value_name = "NAME")]
    pub attr: Option<String>,
    /// The node attribute that colours the nodes.
    #[arg(long, value_name = "NAME")]
    pub node_attr: Option<String>,
    /// How an id's rows combine: mean, sum, max, min (default: mean for a run, sum for a fabric).
    #[arg(long, alias = "rows", value_parser = parse_rows)]
    pub agg: Option<query::Aggregate>,
    /// How nodes and links merged by a torus projection combine: mean, sum, max.
    #[arg(long, default_value = "mean", value_parser = parse_merge)]
    pub merge: torus::Aggregate,
}

fn parse_colour_by(s: &str) -> Result<ColourBy, String> {
    match s {
        "predicted" => Ok(ColourBy::Predicted),
        "observed" => Ok(ColourBy::Observed),
        "residual" => Ok(ColourBy::Residual),
        "utilisation" | "utilization" => Ok(ColourBy::Utilisation),
        "stall" => Ok(ColourBy::Stall),
        "errors" => Ok(ColourBy::Errors),
        "all" | "contention" => Ok(ColourBy::Job(s.to_string())),
        _ => match s.strip_prefix("job:") {
            Some(name) if !name.is_empty() => Ok(ColourBy::Job(name.to_string())),
            _ => Err(format!(
                "expected predicted, observed, residual, utilisation, stall, errors, job:NAME, all or contention, got `{s}`"
            )),
        },
    }
}

fn parse_module(s: &str) -> Result<ModuleArg, String> {
    ModuleArg::parse(s).ok_or_else(|| {
        format!("unknown module {s:?}: fattree, torus, generic2d, time-strip, matrix or congestion")
    })
}

fn parse_strip_rows(s: &str) -> Result<StripRows, String> {
    match s.strip_prefix("top:").map(str::parse::<usize>) {
        None if s == "groups" => Ok(StripRows::Groups),
        Some(Ok(n)) if n > 0 => Ok(StripRows::TopEnds(n)),
        _ => Err(format!("expected `groups` or `top:N` (N > 0), got `{s}`")),
    }
}

fn parse_strip_columns(s: &str) -> Result<StripColumns, String> {
    match s {
        "regions" => Ok(StripColumns::Regions),
        "intervals" => Ok(StripColumns::Intervals),
        _ => Err(format!("expected `regions` or `intervals`, got `{s}`")),
    }
}

fn parse_strip_measure(s: &str) -> Result<StripMeasure, String> {
    StripMeasure::parse(s).ok_or_else(|| format!("expected bytes, utilisation or stall, got `{s}`"))
}

fn parse_rotate(s: &str) -> Result<(f32, f32), String> {
    let mut parts = s.split(',').map(|p| p.trim().parse::<f32>());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(yaw)), Some(Ok(pitch)), None) if yaw.is_finite() && pitch.is_finite() => Ok((yaw, pitch)),
        _ => Err(format!("{s:?} is not YAW,PITCH in degrees")),
    }
}

fn parse_rows(s: &str) -> Result<query::Aggregate, String> {
    query::Aggregate::parse(s).ok_or_else(|| format!("unknown aggregate {s:?}: mean, sum, max or min"))
}

fn parse_merge(s: &str) -> Result<torus::Aggregate, String> {
    torus::Aggregate::parse(s).ok_or_else(|| format!("unknown merge rule {s:?}: mean, sum, max or min"))
}

fn parse_threshold(s: &str) -> Result<Threshold, String> {
    Threshold::parse(s).ok_or_else(|| format!("{s:?} is neither bytes (2MiB) nor a percentage (25%)"))
}

fn parse_colour_map(s: &str) -> Result<ColourMap, String> {
    ColourMap::parse(s).ok_or_else(|| format!("unknown colour map {s:?}"))
}

/// Which module draws the view, as `--module` names it. It also picks what the paths are: a
/// torus or generic-2D view draws one run, a fat tree the fabric of the RAILs (and profile).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleArg {
    FatTree,
    Torus,
    Generic2d,
    /// Traffic over time: regions (or counter intervals) × link-end groups ([`super::render_strip`]).
    TimeStrip,
    /// The traffic matrix with hop-class hues ([`super::render_matrix`]).
    Matrix,
    /// Congestion regions over time ([`super::render_congestion`]).
    Congestion,
}

impl ModuleArg {
    pub fn parse(text: &str) -> Option<ModuleArg> {
        match text.trim().to_ascii_lowercase().as_str() {
            "fattree" | "fat-tree" => Some(ModuleArg::FatTree),
            "torus" => Some(ModuleArg::Torus),
            "generic2d" | "generic-2d" | "2d" => Some(ModuleArg::Generic2d),
            "time-strip" | "timestrip" | "strip" => Some(ModuleArg::TimeStrip),
            "matrix" => Some(ModuleArg::Matrix),
            "congestion" => Some(ModuleArg::Congestion),
            _ => None,
        }
    }
}

/// A hot-link threshold: bytes (`2 MiB`, `1e6`) or a percentage of the maximum (`25%`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    Bytes(f64),
    Percent(f64),
}

impl Threshold {
    pub fn parse(text: &str) -> Option<Threshold> {
        let t = text.trim();
        match t.strip_suffix('%') {
            Some(p) => {
                p.trim().parse().ok().filter(|v: &f64| (0.0..=100.0).contains(v)).map(Threshold::Percent)
            }
            None => parse_number(t).filter(|v| *v >= 0.0).map(Threshold::Bytes),
        }
    }

    /// The byte value for a given maximum.
    pub fn bytes(self, max: f64) -> f64 {
        match self {
            Threshold::Bytes(b) => b,
            Threshold::Percent(p) => max * p / 100.0,
        }
    }
}

/// What the strip's columns are (`--strip-columns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StripColumns {
    Regions,
    Intervals,
}
