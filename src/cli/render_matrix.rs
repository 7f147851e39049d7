//! `shoal render --module matrix`: the traffic matrix written as PNG or SVG, drawn as the
//! window's matrix view draws it ([`shoal::scene::matrix_draw`]), at most one cell per point.

use anyhow::{Result, bail};
use shoal::routing::RegionKey;
use shoal::scene::matrix_draw::picture;
use shoal::view_model::Dataset;
use shoal::view_model::matrix::build;
use shoal::view_model::values::RegionSelection;
use shoal::view_model::view::{ModuleKind, ViewSpec};

use super::render_args::RenderCli;

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
