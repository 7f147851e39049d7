//! `shoal render --module matrix`: the traffic matrix written as PNG or SVG, drawn as the
//! window's matrix view draws it ([`shoal::scene::matrix_draw`]), at most one cell per point.

use anyhow::{Result, bail};
use clap::Args;
use shoal::routing::RegionKey;
use shoal::routing::pair_table::Granularity;
use shoal::scene::matrix_draw::picture;
use shoal::view_model::Dataset;
use shoal::view_model::matrix::{CellValues, MatrixOptions, MatrixOrder, RailChoice, build};
use shoal::view_model::values::RegionSelection;
use shoal::view_model::view::{ModuleKind, ViewSpec};

use super::render_args::RenderCli;

/// The matrix's own flags.
#[derive(Args, Debug, Clone, Default)]
pub struct MatrixFlags {
    /// With `--module matrix`: rows and columns are `rank`s, `host`s or `leaf` switches.
    #[arg(long, value_name = "rank|host|leaf", value_parser = parse_by)]
    pub matrix_by: Option<Granularity>,
    /// With `--module matrix`: the hues of rail N's paths (`N`), or every rail's bytes with the
    /// worse rail's hue (`worse`, the default).
    #[arg(long, value_name = "worse|N", value_parser = parse_rail)]
    pub matrix_rail: Option<RailChoice>,
    /// With `--module matrix`: cells count `bytes` (default) or `messages`.
    #[arg(long, value_name = "bytes|messages", value_parser = parse_values)]
    pub matrix_values: Option<CellValues>,
    /// With `--module matrix`: rows in `id` order (rank, host name, leaf) or the `layout`'s
    /// host order.
    #[arg(long, value_name = "id|layout", value_parser = parse_order)]
    pub matrix_order: Option<MatrixOrder>,
}

fn parse_by(text: &str) -> Result<Granularity, String> {
    Granularity::parse(text).ok_or_else(|| format!("expected rank, host or leaf, got `{text}`"))
}

fn parse_rail(text: &str) -> Result<RailChoice, String> {
    match text {
        "worse" => Ok(RailChoice::Worse),
        n => n
            .parse()
            .map(RailChoice::Rail)
            .map_err(|_| format!("expected worse or a rail number, got `{text}`")),
    }
}

fn parse_values(text: &str) -> Result<CellValues, String> {
    match text {
        "bytes" => Ok(CellValues::Bytes),
        "messages" => Ok(CellValues::Messages),
        _ => Err(format!("expected bytes or messages, got `{text}`")),
    }
}

fn parse_order(text: &str) -> Result<MatrixOrder, String> {
    match text {
        "id" => Ok(MatrixOrder::Id),
        "layout" => Ok(MatrixOrder::Layout),
        _ => Err(format!("expected id or layout, got `{text}`")),
    }
}

impl MatrixFlags {
    pub fn options(&self) -> MatrixOptions {
        let d = MatrixOptions::default();
        MatrixOptions {
            by: self.matrix_by.unwrap_or(d.by),
            rail: self.matrix_rail.unwrap_or(d.rail),
            values: self.matrix_values.unwrap_or(d.values),
            order: self.matrix_order.unwrap_or(d.order),
            focus: None,
        }
    }
}

pub fn render_matrix(dataset: &Dataset, r: &RenderCli) -> Result<()> {
    let Some(fabric) = dataset.fabric.as_ref().filter(|f| !f.flows.is_empty()) else {
        bail!("--module matrix draws a profile's traffic on fabric dumps: give RAILs and --profile");
    };
    let (key, minus, selection) = match (r.region, r.diff.as_deref()) {
        (None, None) => (RegionKey::Total, None, RegionSelection::Total),
        (Some(n), None) => (RegionKey::Region(n), None, RegionSelection::Region(n)),
        (None, Some([a, b])) => (
            RegionKey::Region(*a),
            Some(RegionKey::Region(*b)),
            RegionSelection::Diff(RegionKey::Region(*a), RegionKey::Region(*b)),
        ),
        _ => bail!("--module matrix takes --region N or --diff A B"),
    };
    let Some(out) = &r.out else { bail!("--module matrix draws to --out FILE") };
    let ppp = shoal::export::pixels_per_point_for(r.width, r.height);
    let size = [r.width as f32 / ppp, r.height as f32 / ppp];
    let options = r.matrix.options();
    let side = (size[0] - 150.0 - 176.0).min(size[1] - 66.0).max(8.0) as usize;
    let grid = build(fabric, key, minus, &options, side).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut spec =
        ViewSpec { module: ModuleKind::Matrix(options.clone()), selection, ..ViewSpec::for_dataset(dataset) };
    if let Some(map) = r.colormap.filter(|_| minus.is_some()) {
        spec.diverging_map = map;
    }
    let list = picture(&grid, &spec, Vec::new()).draw_list(size[0], size[1]);
    shoal::export::write_list(&list, ppp, out)?;
    let aggregated = if grid.per_bin > 1 {
        format!(" (aggregated: {} per cell, to fit the canvas)", grid.per_bin)
    } else {
        String::new()
    };
    eprintln!(
        "{}: traffic matrix of {} {}s, {} non-empty cells{aggregated}",
        out.display(),
        grid.entities.len(),
        options.by.name(),
        grid.cells.len()
    );
    Ok(())
}
