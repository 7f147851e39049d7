//! `shoal render`: one view of a data set, written as PNG or SVG without a window, down the one
//! road the window takes: open a [`Dataset`] (the RAILs' fabric and profile, or one run), build
//! one [`ViewSpec`] from the flags ([`super::render_spec`]) or take it from a session
//! ([`super::render_session`]), `prepare` it, draw its scene and paint it with `shoal::export`.

use anyhow::{Context, Result, bail};
use shoal::scene::camera::Camera;
use shoal::view_model::orbit::Orbit;
use shoal::view_model::session::ExportSize;
use shoal::view_model::{OpenRequest, open};

use super::common::report_warnings;
use super::render_args::{ModuleArg, RenderCli};
use super::render_paint::{Canvas, paint, prepare_view};
use super::render_spec::spec_from_flags;

/// The request the flags describe, with the routing the view colours by.
fn request(r: &RenderCli) -> Result<OpenRequest> {
    let mut request = r.open.request()?;
    request.routing = r.routing;
    Ok(request)
}

fn check_output(r: &RenderCli) -> Result<()> {
    if r.width < 64 || r.height < 64 || r.width > 16384 || r.height > 16384 {
        bail!("--width and --height must be between 64 and 16384 pixels");
    }
    if r.graphml.is_some() && matches!(r.module, Some(ModuleArg::TimeStrip | ModuleArg::Matrix)) {
        bail!("--graphml writes a network view's fabric; the time strip and the matrix have no link ends");
    }
    if let Some(out) = &r.out
        && shoal::export::Format::of_path(out).is_none()
    {
        bail!("{}: the output must end in .png or .svg", out.display());
    }
    Ok(())
}

/// `--graphml FILE`: the fabric with this view's value on each link end.
fn write_graphml(
    dataset: &shoal::view_model::Dataset,
    values: &[Option<f64>],
    path: &std::path::Path,
) -> Result<()> {
    let Some(fabric) = dataset.fabric.as_ref() else {
        bail!("--graphml writes a fabric; this data set has none")
    };
    let desc =
        "the value the view colours this link end with (as `shoal render` draws it with the same flags)";
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
    );
    shoal::export::graphml::write_graphml(&mut out, fabric, values, desc)
        .and_then(|()| std::io::Write::flush(&mut out))
        .with_context(|| format!("writing {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

pub fn run(r: &RenderCli) -> Result<()> {
    check_output(r)?;
    if let Some(session) = &r.session {
        return super::render_session::render(r, session);
    }
    let request = request(r)?;
    let progress = super::progress::Progress::new("render");
    let dataset = open(&request, &progress.of_open())?;
    drop(progress);
    report_warnings(&dataset.warnings, r.open.verbose);
    let drawn = render_dataset(&dataset, r, request);
    // The process ends after the command: freeing the data set's tables, flows and loads one
    // allocation at a time only costs time (a quarter of a second on the k = 36 rails).
    std::mem::forget(dataset);
    drawn
}

/// What `render` draws of an open data set, as its flags say.
fn render_dataset(dataset: &shoal::view_model::Dataset, r: &RenderCli, request: OpenRequest) -> Result<()> {
    if r.module == Some(ModuleArg::TimeStrip) {
        if r.save_session.is_some() {
            bail!("--save-session keeps network views; the time strip is drawn from its flags only");
        }
        return super::render_strip::render_strip(dataset, r);
    }
    if r.module == Some(ModuleArg::Matrix) {
        return super::render_matrix::render_matrix(dataset, r, request);
    }
    if r.module == Some(ModuleArg::Congestion) {
        return super::render_congestion::render_congestion(dataset, r);
    }
    let mut spec = spec_from_flags(dataset, r)?;
    let prepared = prepare_view(dataset, &mut spec, &shoal::view_model::Filter::default(), r.threshold)?;
    let orbit = r.rotate.map_or_else(Orbit::default, |(yaw, pitch)| Orbit::from_yaw_pitch(yaw, pitch));
    let size = ExportSize {
        width: r.width,
        height: r.height,
        pixels_per_point: shoal::export::pixels_per_point_for(r.width, r.height),
    };
    if let Some(path) = &r.save_session {
        super::render_paint::save(request, &spec, (orbit, size), path)?;
    }
    if let Some(path) = &r.graphml {
        write_graphml(dataset, &prepared.link_values, path)?;
    }
    if let Some(out) = &r.out {
        let canvas = Canvas { orbit, camera: Camera::default(), size, ranges: (None, None), out };
        paint(dataset, &spec, &prepared, &canvas)?;
    }
    Ok(())
}
